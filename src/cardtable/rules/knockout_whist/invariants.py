"""KOW-11 invariants, checked across every action by ``cardtable.testing``.

:func:`check_state` checks one state on its own; :func:`check_transition` checks one
action, including the end-of-hand processing of KOW-5 that happens inside it. Both
recompute what the rules say from the state's fields (trick winners, whose turn it is,
the legal actions, statuses, dealer, chooser and cut, the deal itself) instead of asking
the engine's helpers, so a bug in a helper cannot hide behind a check that calls it.
Every failure is an ``AssertionError`` whose message starts with the rule it breaks.

The checks raise explicitly rather than using ``assert`` so that they still run under
``python -O``.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import card_text
from cardtable.rules.checks import FULL_DECK, SUIT_MASKS, broken, cards_of
from cardtable.rules.knockout_whist.state import (
    ACTIVE,
    DOG,
    HANDS,
    KNOCK,
    KNOCKED,
    OUT,
    OVER,
    PLAY,
    TRUMP,
    TRUMP_BASE,
    KnockoutWhistState,
)

__all__ = ["check_state", "check_transition"]

_STATUS = {ACTIVE: "ACTIVE", DOG: "DOG", OUT: "OUT"}

Plays = Sequence[tuple[int, int]]


def _cards_twice(cards: Sequence[int]) -> int:
    return sum(1 << c for c in set(cards) if cards.count(c) > 1)


def _names(cards: Sequence[int]) -> str:
    return " ".join(card_text(c) for c in cards) or "none"


def _plays_text(plays: Plays) -> str:
    return " ".join(f"{s}:{'knock' if c == KNOCKED else card_text(c)}" for s, c in plays)


def _winner(plays: Plays, trump: int) -> int:
    """KOW-4.3, written independently of the engine: highest trump, else highest of the
    suit led. A card's index grows with its rank inside a suit."""
    cards = [(card, seat) for seat, card in plays if card != KNOCKED]
    if not cards:
        raise broken("KOW-4.5", f"trick {_plays_text(plays)} holds no card")
    trumps = [cs for cs in cards if cs[0] // 13 == trump]
    if trumps:
        return max(trumps)[1]
    led = cards[0][0] // 13
    return max(cs for cs in cards if cs[0] // 13 == led)[1]


def _share(status: int, size: int) -> int:
    """KOW-2.2: cards dealt to a player of this status in a hand of ``size`` cards."""
    return size if status == ACTIVE else 1 if status == DOG else 0


def _clockwise_from(start: int, seats: Sequence[int], n: int) -> list[int]:
    return sorted(seats, key=lambda s: (s - start) % n)


class _Hand:
    """This hand's tricks replayed from the cards still held (KOW-4, KOW-6.3/6.4)."""

    __slots__ = ("holding", "lead_from", "won")

    def __init__(self, holding: list[int], lead_from: int, won: list[int]) -> None:
        self.holding = holding  # each seat's cards when the current trick began
        self.lead_from = lead_from  # the lead goes to the first holder clockwise from here
        self.won = won  # tricks won so far, by KOW-4.3


def _replay_hand(state: KnockoutWhistState, verified: int) -> _Hand:
    """Check the order of play, follow-suit, knocks and winners of the tricks so far,
    all but the first ``verified`` finished ones (already checked in an earlier state)."""
    n = state.players
    size = HANDS + 1 - state.hand_no
    over = state.phase == OVER
    # Cards a seat holds before trick j: what it holds now plus what it plays from j on.
    holding = list(state.hands)
    for t in (*state.done, state.trick):
        for s, c in t:
            if c != KNOCKED:
                holding[s] |= 1 << c
    dealt = [h.bit_count() for h in holding]
    lead_from = (state.dealer + 1) % n
    won = [0] * n
    for j, trick in enumerate(state.done):
        if j >= verified:
            order = _clockwise_from(lead_from, [s for s in range(n) if holding[s]], n)
            if [s for s, _ in trick] != order:
                raise broken(
                    "KOW-11.9",
                    f"hand {state.hand_no} trick {j + 1} {_plays_text(trick)} should be played "
                    f"by {order} in that order (KOW-4.1, KOW-4.4, KOW-6.4)",
                )
            _check_plays(state, j, trick, holding, dealt, over)
        assert state.trump is not None
        lead_from = _winner(trick, state.trump)
        won[lead_from] += 1
        for s, c in trick:
            if c != KNOCKED:
                holding[s] &= ~(1 << c)
    _check_plays(state, len(state.done), state.trick, holding, dealt, over)
    if not over and len(state.done) >= size:
        raise broken("KOW-11.3", f"hand {state.hand_no} has {len(state.done)} tricks, not {size}")
    return _Hand(holding, lead_from, won)


def _check_plays(
    state: KnockoutWhistState,
    j: int,
    trick: Plays,
    holding: list[int],
    dealt: list[int],
    over: bool,
) -> None:
    size = HANDS + 1 - state.hand_no
    led = -1
    active_card = False
    for s, c in trick:
        if c == KNOCKED:
            if j == size - 1:
                raise broken("W-3", f"seat {s} knocked on the last trick of hand {state.hand_no}")
            if dealt[s] != 1 or (not over and state.status[s] != DOG):
                raise broken("KOW-6.3", f"seat {s} knocked but is not on a dog's life")
            continue
        if led < 0:
            led = c // 13
        elif c // 13 != led and holding[s] & SUIT_MASKS[led]:
            could = cards_of(holding[s] & SUIT_MASKS[led])
            raise broken(
                "KOW-11.4",
                f"seat {s} played {card_text(c)} to trick {j + 1} of hand {state.hand_no} "
                f"holding {_names(could)} of the suit led (KOW-4.2)",
            )
        if over or state.status[s] == ACTIVE:
            active_card = True
    if j < len(state.done) and not over and not active_card:
        raise broken("KOW-4.5", f"trick {_plays_text(trick)} holds no ACTIVE player's card")


def _expected_turn_and_legal(
    state: KnockoutWhistState, hand: _Hand
) -> tuple[int | None, list[int]]:
    """Who must act and what they may do, from KOW-4, KOW-6.3/6.4, W-3 and KOW-10."""
    if state.phase == OVER:
        return None, []
    if state.phase == TRUMP:
        return state.chooser, [TRUMP_BASE + s for s in range(4)]
    n = state.players
    size = HANDS + 1 - state.hand_no
    order = _clockwise_from(hand.lead_from, [s for s in range(n) if hand.holding[s]], n)
    acted = [s for s, _ in state.trick]
    if acted != order[: len(acted)]:
        raise broken(
            "KOW-11.9",
            f"trick so far {_plays_text(state.trick)} is not in turn: the seats holding "
            f"cards, clockwise from the lead candidate, are {order} (KOW-4.1, KOW-4.4, "
            "KOW-6.4)",
        )
    if len(acted) == len(order):
        raise broken("KOW-10", "every card holder has acted but the trick was not taken")
    mover = order[len(acted)]
    cards = cards_of(state.hands[mover])
    if state.status[mover] == DOG:
        last_trick = len(state.done) == size - 1
        return mover, cards if last_trick else [*cards, KNOCK]
    led = next((c // 13 for _, c in state.trick if c != KNOCKED), -1)
    follow = [c for c in cards if c // 13 == led]
    return mover, follow or cards


def check_state(state: KnockoutWhistState) -> None:
    """Raise ``AssertionError`` naming the KOW-11 rule (or the rule it rests on) that
    ``state`` breaks."""
    _check_state(state, verified=0)


def _check_state(state: KnockoutWhistState, verified: int) -> None:
    n = state.players
    k = state.hand_no
    if n != state.game.num_players or not 2 <= n <= 7:
        raise broken("KOW-1.1", f"{n} players in a game made for {state.game.num_players}")
    for name in ("status", "hands", "tricks_won", "dealt_in"):
        if len(getattr(state, name)) != n:
            raise broken("KOW-2.1", f"{name} has {len(getattr(state, name))} entries, not {n}")
    if not 1 <= k <= HANDS:
        raise broken("KOW-11.8", f"hand {k} is outside 1-{HANDS}")
    if state.phase not in (TRUMP, PLAY, OVER):
        raise broken("KOW-10", f"unknown phase {state.phase!r}")
    size = HANDS + 1 - k
    over = state.phase == OVER

    # KOW-11.1: every card once among hands, tricks, stock and turned card; cut cards
    # are the rest (they go back under the remainder only when it runs out, KOW-5.3).
    seen = 0
    twice = 0
    for h in state.hands:
        twice |= seen & h
        seen |= h
    held = seen
    per_seat_played = [0] * n
    for t in (*state.done, state.trick):
        for s, c in t:
            if c != KNOCKED:
                per_seat_played[s] += 1
                twice |= seen & 1 << c
                seen |= 1 << c
    if state.turned is not None:
        twice |= seen & 1 << state.turned
        seen |= 1 << state.turned
    dealt_or_turned = seen
    stock = 0
    for c in state.stock:
        stock |= 1 << c
    if stock.bit_count() != len(state.stock):
        twice |= _cards_twice(state.stock)
    twice |= seen & stock
    seen |= stock
    if twice:
        raise broken(
            "KOW-11.1", f"{_names(cards_of(twice))} found twice among hands, tricks, stock, turned"
        )
    cut = 0
    for round_ in state.cuts:
        for _, c in round_:
            cut |= 1 << c
    if cut & dealt_or_turned:
        raise broken("KOW-11.1", f"cut cards {_names(cards_of(cut & dealt_or_turned))} in play")
    if state.reshuffles_drawn == 0 and cut & seen:
        raise broken("KOW-11.1", "a cut card is back in the remainder without a reshuffle")
    if seen | cut != FULL_DECK:
        raise broken("KOW-11.1", f"{_names(cards_of(FULL_DECK & ~(seen | cut)))} missing")

    # KOW-11.2: holdings plus cards played this hand are the share of KOW-2.2.
    if over:
        if held:
            raise broken("KOW-11.1", f"the game is over but {_names(cards_of(held))} were unplayed")
    else:
        for s in range(n):
            have = state.hands[s].bit_count() + per_seat_played[s]
            want = _share(state.status[s], size)
            if have != want:
                raise broken(
                    "KOW-11.2",
                    f"seat {s} ({_STATUS[state.status[s]]}) was dealt {have} cards in hand {k}, "
                    f"not {want}",
                )

    # Statuses, knock-outs and the dog's life (KOW-5.1, KOW-6, KOW-11.5, KOW-11.6).
    out_seats = {s for s in range(n) if state.status[s] == OUT}
    listed = [s for s, _ in state.eliminated]
    if len(set(listed)) != len(listed) or set(listed) != out_seats:
        raise broken(
            "KOW-11.5", f"OUT seats {sorted(out_seats)} but elimination list {state.eliminated}"
        )
    if any(h > k or h < 1 for _, h in state.eliminated):
        raise broken("KOW-11.5", f"elimination list {state.eliminated} names a future hand")
    if DOG in state.status and not state.dog_used:
        raise broken("KOW-11.6", "a player is on a dog's life that was never awarded")
    in_hand = [state.status[s] != OUT or (s, k) in state.eliminated for s in range(n)]
    if list(state.dealt_in) != in_hand:
        raise broken("KOW-5.4", f"seats dealt in {state.dealt_in}, expected {in_hand}")
    if k == 1 and not over and state.status != [ACTIVE] * n:
        raise broken("KOW-2.1", f"statuses {[_STATUS[s] for s in state.status]} in hand 1")
    alive = n - len(out_seats)
    if over and alive != 1:
        raise broken("KOW-11.8", f"the game is over with {alive} players not OUT")
    if not over and alive < 2:
        raise broken("KOW-5.2", f"only {alive} player is left but the game goes on")

    # Trumps, the turned card and the chooser (KOW-3, KOW-11.7).
    if k == 1:
        if state.turned is None or state.trump != state.turned // 13:
            raise broken("KOW-11.7", "hand 1's trump is the turned card's suit (KOW-3.1)")
        if state.chooser is not None or state.cuts or state.phase == TRUMP:
            raise broken("KOW-3.1", "hand 1 has no chooser, cut or trump choice")
        if len(state.used_decks) == 1 and state.decks_drawn == 1:
            top = state.used_decks[0][size * n]
            if state.turned != top:
                raise broken(
                    "KOW-3.1", f"turned {card_text(state.turned)}, but the top is {card_text(top)}"
                )
    else:
        if state.turned is not None:
            raise broken("KOW-3.2", f"hand {k} has a turned card")
        if state.chooser is None or (not over and state.status[state.chooser] == OUT):
            raise broken("KOW-5.3", f"hand {k} needs a chooser still in the game")
        if (state.phase == TRUMP) != (state.trump is None):
            raise broken("KOW-3.3", f"phase {state.phase} with trump {state.trump}")
        if state.phase == TRUMP and (state.done or state.trick):
            raise broken("KOW-3.3", "trumps are named before the first lead")

    # Tricks and their winners (KOW-11.3, KOW-11.4).
    if (state.done or state.trick) and state.trump is None:
        raise broken("KOW-3.3", "cards were played before trumps were named")
    hand = _replay_hand(state, verified)
    if state.tricks_won != hand.won:
        raise broken("KOW-11.4", f"tricks won {state.tricks_won}, but KOW-4.3 gives {hand.won}")
    if over:
        if len(state.done) != size or sum(state.tricks_won) != size or state.trick:
            raise broken("KOW-11.3", f"hand {k} ended after {len(state.done)} of {size} tricks")
        _check_result(state)

    # Whose turn, and what they may do (KOW-4.2, KOW-6.3, KOW-6.4, W-3, KOW-11.9).
    mover, legal = _expected_turn_and_legal(state, hand)
    if state.to_move != mover:
        raise broken(
            "KOW-11.9", f"seat {state.to_move} is to move, but the rules give seat {mover}"
        )
    actual = state.legal_action_ids()
    if actual != legal:
        rule = "W-3" if KNOCK in actual and KNOCK not in legal else "KOW-4.2"
        raise broken(rule, f"legal actions {actual} for seat {mover}; the rules give {legal}")


def _check_result(state: KnockoutWhistState) -> None:
    """KOW-7: one winner; players knocked out in the same hand share a place."""
    n = state.players
    result = state.result
    winner = next(s for s in range(n) if state.status[s] != OUT)
    if result is None or result.winners != (winner,):
        raise broken("KOW-11.8", f"the game is over; the winner is seat {winner}, got {result}")
    hands = sorted({h for _, h in state.eliminated}, reverse=True)
    places = [{winner}, *({s for s, h in state.eliminated if h == hand} for hand in hands)]
    if [set(p) for p in result.places] != places:
        raise broken("KOW-7", f"places {result.places}, expected {places}")
    loss = -1.0 / (n - 1)
    want = [1.0 if s == winner else loss for s in range(n)]
    if any(abs(a - b) > 1e-9 for a, b in zip(result.returns, want, strict=True)):
        raise broken("KOW-7", f"returns {result.returns}, expected {want}")


def check_transition(before: KnockoutWhistState, number: int, after: KnockoutWhistState) -> None:
    """Raise ``AssertionError`` naming the KOW-11 rule that ``before -> after`` breaks."""
    if not before.history:
        # The first state of a game (or of a position) is checked once, here.
        check_state(before)
    if before.phase == OVER:
        raise broken("KOW-7", "an action was applied after the game ended")
    if number not in before.legal_action_ids():
        raise broken("KOW-10", f"action {number} was not legal")
    n = before.players
    k = before.hand_no
    if after.players != n or len(after.status) != n:
        raise broken("KOW-1.1", "the number of players changed")

    # KOW-11.5: OUT is permanent and the field never grows; the dog's life, once used, stays used.
    for s in range(n):
        if before.status[s] == OUT and after.status[s] != OUT:
            raise broken("KOW-11.5", f"seat {s} came back after being knocked out")
    if before.dog_used and not after.dog_used:
        raise broken("KOW-11.6", "the dog's life became unused again")
    if after.eliminated[: len(before.eliminated)] != before.eliminated:
        raise broken("KOW-11.5", "the elimination record was rewritten")

    same_hand = after.hand_no == k and after.phase != OVER
    if same_hand and after.done[: len(before.done)] != before.done:
        raise broken("KOW-11.3", f"finished tricks of hand {k} were changed")
    # The tricks ``before`` already held were checked with it; only new ones need replaying.
    _check_state(after, verified=len(before.done) if same_hand else 0)

    hand_ended = after.phase == OVER or after.hand_no != k
    if not hand_ended:
        _check_within_hand(before, number, after)
        return
    if after.hand_no not in (k, k + 1) or (after.phase != OVER and after.hand_no != k + 1):
        raise broken("KOW-11.8", f"hand {k} was followed by hand {after.hand_no}")
    _check_hand_end(before, number, after)


def _check_within_hand(before: KnockoutWhistState, number: int, after: KnockoutWhistState) -> None:
    fixed = ("dealer", "status", "dog_used", "eliminated", "cuts", "chooser", "turned", "previous")
    for name in fixed:
        if getattr(before, name) != getattr(after, name):
            raise broken(
                "KOW-5", f"{name} changed during hand {before.hand_no}; it changes only at its end"
            )
    p = before.to_move
    assert p is not None
    if before.phase == TRUMP:
        if not TRUMP_BASE <= number < KNOCK or after.trump != number - TRUMP_BASE:
            raise broken("KOW-3.2", f"action {number} did not name trumps {after.trump}")
        if after.phase != PLAY or after.hands != before.hands:
            raise broken("KOW-10", "naming trumps starts the play and moves no card")
        return
    if after.trump != before.trump:
        raise broken("KOW-3", f"trumps changed from {before.trump} to {after.trump} mid-hand")
    card = KNOCKED if number == KNOCK else number
    hands = list(before.hands)
    if card != KNOCKED:
        hands[p] &= ~(1 << card)
    if after.hands != hands:
        raise broken("KOW-11.1", f"seat {p}'s action {number} moved the wrong cards")
    trick = [*before.trick, (p, card)]
    if len(after.done) == len(before.done):
        if after.trick != trick or after.tricks_won != before.tricks_won:
            raise broken("KOW-10", f"trick became {after.trick}, expected {trick}")
        return
    if len(after.done) != len(before.done) + 1 or after.done[-1] != trick or after.trick:
        raise broken("KOW-10", f"trick {_plays_text(trick)} was not taken as played")
    assert before.trump is not None
    winner = _winner(trick, before.trump)
    won = list(before.tricks_won)
    won[winner] += 1
    if after.tricks_won != won:
        raise broken("KOW-11.4", f"trick {_plays_text(trick)} is seat {winner}'s (KOW-4.3)")


def _check_hand_end(before: KnockoutWhistState, number: int, after: KnockoutWhistState) -> None:
    """KOW-5 in order: knock-outs and the dog's life, the winner, the chooser, the dealer."""
    n = before.players
    k = before.hand_no
    size = HANDS + 1 - k
    p = before.to_move
    assert p is not None and before.trump is not None
    if before.phase != PLAY or number == KNOCK:
        raise broken("W-3", "a hand ends only when the last trick's last card is played")
    final = [*before.trick, (p, number)]
    tricks = [*before.done, final]
    if len(tricks) != size:
        raise broken("KOW-11.3", f"hand {k} ended after {len(tricks)} tricks, not {size}")
    rest = list(before.hands)
    rest[p] &= ~(1 << number)
    if any(rest):
        left = [c for h in rest for c in cards_of(h)]
        raise broken("KOW-11.1", f"hand {k} ended with {_names(left)} unplayed")
    won = [0] * n
    for t in tricks:
        won[_winner(t, before.trump)] += 1
    if sum(won) != size:
        raise broken("KOW-11.3", f"tricks won add up to {sum(won)}, not {size}")
    start = list(before.status)
    dealt = [s for s in range(n) if start[s] != OUT]

    if after.phase == OVER and (after.done != tricks or after.tricks_won != won):
        raise broken("KOW-11.3", "the last hand's tricks were not kept")

    # KOW-5.1 (or W-7 after hand 7).
    status = start[:]
    dog_used = before.dog_used
    out_now: list[int] = []
    if k == HANDS:
        last = _winner(final, before.trump)
        out_now = [s for s in dealt if s != last]
        # No dog's life is awarded after hand 7 (W-7), but a DOG who takes its trick is no
        # longer on one: KOW-11.6 wants every start-of-hand DOG ACTIVE or OUT at the end.
        status[last] = ACTIVE
    else:
        blanked = [s for s in dealt if won[s] == 0]
        for s in dealt:
            if start[s] == DOG and won[s] > 0:
                status[s] = ACTIVE
        if blanked and not dog_used:
            for s in blanked:
                status[s] = DOG
            dog_used = True
        else:
            out_now = blanked
    for s in out_now:
        status[s] = OUT
    dogs = [s for s in range(n) if after.status[s] == DOG]
    if dogs and (before.dog_used or k == HANDS):
        raise broken(
            "KOW-11.6",
            f"seats {dogs} were given a dog's life after hand {k}, a second award"
            if k < HANDS
            else f"seats {dogs} were given a dog's life after hand 7 (W-7)",
        )
    for s in range(n):
        if start[s] == DOG and after.status[s] not in (ACTIVE, OUT):
            raise broken("KOW-11.6", f"seat {s} was a DOG for hand {k} and is still one")
    if after.status != status:
        raise broken(
            "KOW-5.1",
            f"statuses after hand {k} with tricks {won}: "
            f"{[_STATUS[s] for s in after.status]}, expected {[_STATUS[s] for s in status]}",
        )
    if after.dog_used != dog_used:
        raise broken("KOW-11.6", f"dog's life used {after.dog_used}, expected {dog_used}")
    new = after.eliminated[len(before.eliminated) :]
    if sorted(new) != sorted((s, k) for s in out_now):
        raise broken("KOW-7", f"knocked out in hand {k}: {new}, expected {out_now}")
    alive = [s for s in range(n) if status[s] != OUT]

    # KOW-5.2: the game ends with one player left, or after hand 7.
    if len(alive) == 1 or k == HANDS:
        if after.phase != OVER or after.hand_no != k:
            raise broken("KOW-5.2", f"the game should have ended after hand {k}")
        return
    if after.phase == OVER:
        raise broken("KOW-5.2", f"{len(alive)} players are left; the game goes on")

    # KOW-9: every card played is public, the finished hand included, until the next ends.
    if after.previous != (before.trump, tricks):
        raise broken("KOW-9", f"the finished hand {k} is not kept on view as it was played")

    # KOW-5.4: the next dealer was dealt cards in the hand just finished.
    dealer = next(
        (before.dealer + i) % n for i in range(1, n + 1) if start[(before.dealer + i) % n] != OUT
    )
    if after.dealer != dealer:
        raise broken(
            "KOW-5.4", f"hand {k + 1} is dealt by seat {after.dealer}, not seat {dealer} (W-5)"
        )

    # KOW-11.2: the new hand's holdings.
    new_size = size - 1
    for s in range(n):
        want = _share(status[s], new_size)
        if after.hands[s].bit_count() != want:
            raise broken(
                "KOW-11.2",
                f"seat {s} ({_STATUS[status[s]]}) holds {after.hands[s].bit_count()} cards at "
                f"the start of hand {k + 1}, not {want}",
            )
    if after.done or after.trick or any(after.tricks_won) or after.trump is not None:
        raise broken("KOW-10", f"hand {k + 1} starts with no tricks and no trumps")

    # KOW-2.3: the deal, one card at a time clockwise from the dealer's left.
    deck: list[int] | None = None
    if len(after.used_decks) == len(before.used_decks) + 1:
        deck = after.used_decks[-1]
        order = [(dealer + 1 + i) % n for i in range(n)]
        order = [s for s in order if status[s] != OUT]
        expect = [0] * n
        pos = 0
        for round_no in range(new_size):
            for s in order:
                if _share(status[s], new_size) > round_no:
                    expect[s] |= 1 << deck[pos]
                    pos += 1
        if after.hands != expect:
            raise broken("KOW-2.3", f"hand {k + 1} was not dealt in the reference order")

    # KOW-5.3 / W-2 / KOW-11.7: the chooser took the most tricks; ties cut.
    most = max(won)
    tied = [s for s in range(n) if won[s] == most]
    chooser = after.chooser
    if chooser is None or won[chooser] != most:
        raise broken(
            "KOW-11.7", f"chooser {chooser} for hand {k + 1}, but tricks in hand {k} were {won}"
        )
    if len(tied) == 1:
        if after.cuts:
            raise broken("KOW-5.3", "a cut was made without a tie")
    else:
        cutters = _clockwise_from((dealer + 1) % n, tied, n)
        for number_, round_ in enumerate(after.cuts):
            if [s for s, _ in round_] != cutters:
                raise broken(
                    "W-2", f"cut round {number_ + 1} was {round_}, the cutters are {cutters}"
                )
            best = max(c % 13 for _, c in round_)
            cutters = [s for s, c in round_ if c % 13 == best]
        if len(cutters) != 1 or cutters[0] != chooser:
            raise broken("W-2", f"the cut {after.cuts} gives {cutters}, but seat {chooser} chooses")
        if deck is not None and after.reshuffles_drawn == before.reshuffles_drawn:
            drawn = [c for round_ in after.cuts for _, c in round_]
            dealt_count = sum(_share(s, new_size) for s in status)
            remainder = deck[dealt_count:]
            if drawn != remainder[: len(drawn)] or after.stock != remainder[len(drawn) :]:
                raise broken("W-2", "the cut cards are not the top of the undealt remainder")
    if after.phase != TRUMP or after.to_move != chooser:
        raise broken("KOW-3.3", f"hand {k + 1} starts with seat {chooser} naming trumps")
