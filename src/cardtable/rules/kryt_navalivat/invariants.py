"""KRYT-11's invariants, checked across every action of the conformance suite.

:func:`check_transition` works out from the state before an action, in the plainest
way, what the rules make of it (the cards moved, the draw, the end of the turn, the next
turn) and compares the state after it field by field, naming the rule that broke. The
beat relation and the pick-up counts are said again here from KRYT-3, KRYT-5 and KRYT-8
rather than taken from the engine, so that the check never trusts the code it checks.

It runs after every action of thousands of random games, so the work per action is a
handful of bitmask operations and list comparisons; the whole state is checked
(:func:`check_state`) only where an action has no checked state before it: the first
state of a game, of a position or of a re-deal.
"""

from __future__ import annotations

from cardtable.rules.checks import broken, cards_of
from cardtable.rules.kryt_navalivat.state import KrytNavalivatState

__all__ = ["beats", "check_state", "check_transition", "legal_ids", "taken"]

# The rules' numbers, said again rather than imported: the action table of the state
# module's docstring (lead 0-35, beat 36-71, cover 72-107, take, swap) and the pack.
_LEAD, _BEAT, _COVER, _TAKE, _SWAP = 0, 36, 72, 108, 109
_HAND = 3  # KRYT-2.3, KRYT-4.4
_SIX, _ACE = 4, 12  # rank - 2 of the six and the ace
_PACK = [13 * suit + rank for suit in range(4) for rank in range(_SIX, _ACE + 1)]
_NUMBER = {card: 9 * (card // 13) + card % 13 - _SIX for card in _PACK}
_PERMANENT_TRUMP, _PERMANENT_ANTI = 1, 3  # diamonds and spades (KRYT-8.1)
_NONE = -1
# _AFTER[n][p]: the seats clockwise after p, p itself last (KRYT-1.3, KRYT-4.5).
_AFTER = {n: [[(p + i) % n for i in range(1, n + 1)] for p in range(n)] for n in range(2, 7)}
# The mode names of KRYT-10, as the state writes them.
_LEADING, _RESPONDING, _COVERING, _FREE, _OVER = "lead", "respond", "cover", "free", "over"


def beats(card: int, top: int, trump: int, anti: int = _NONE) -> bool:
    """KRYT-3.1 and KRYT-8.2: ``card`` beats ``top`` when it is a higher card of the same
    suit, or a trump on a card that is neither a trump nor an anti-trump."""
    if card // 13 == top // 13:
        return card % 13 > top % 13
    if top // 13 == anti:
        return False  # KRYT-8.2: only a higher spade beats a spade
    return card // 13 == trump


def taken(pile: int, top: int, trump: int) -> int:
    """KRYT-5 and KRYT-8.3: how many cards a pick-up takes from a pile of ``pile`` cards:
    one under a non-trump (an anti-trump too, its ace included), the top three (or all,
    when fewer) under a trump, the whole pile under the ace of trumps."""
    if top // 13 != trump:
        return 1
    if top % 13 == _ACE:
        return pile
    return min(3, pile)


_BEATEN_BY: dict[tuple[int, int], list[int]] = {}


def _beaten_by(trump: int, anti: int) -> list[int]:
    """For each card index, the mask of the pack's cards that beat it (:func:`beats`)."""
    table = _BEATEN_BY.get((trump, anti))
    if table is None:
        table = [0] * 52
        for top in _PACK:
            for card in _PACK:
                if beats(card, top, trump, anti):
                    table[top] |= 1 << card
        _BEATEN_BY[trump, anti] = table
    return table


def _ids(mask: int, base: int) -> list[int]:
    return [base + _NUMBER[c] for c in cards_of(mask)]


def _names(mask: int) -> str:
    from cardtable.cards import card_text

    return ",".join(card_text(c) for c in cards_of(mask)) or "-"


def _card_name(card: int) -> str:
    from cardtable.cards import card_text

    return card_text(card)


def _stock_left(state: KrytNavalivatState) -> bool:
    return bool(state.stock) or state.faceup >= 0


def _six(state: KrytNavalivatState) -> int:
    return 13 * state.trump + _SIX


def legal_ids(state: KrytNavalivatState) -> list[int]:
    """KRYT-10's legal actions for the seat to move, worked out from the rules."""
    p = state.to_move
    if p is None or state.mode == _OVER:
        return []
    hand = state.hands[p]
    mode = state.mode
    if mode == _COVERING:
        return _ids(hand, _COVER)  # any card (KRYT-4.2a)
    if mode == _LEADING:
        ids = _ids(hand, _LEAD)
    else:
        table = _beaten_by(state.trump, state.anti)
        lead = _ids(hand, _LEAD) if mode == _FREE else []  # K-6
        ids = [*lead, *_ids(hand & table[state.pile[-1]], _BEAT), _TAKE]
    six = _six(state)
    if mode != _FREE and state.faceup >= 0 and state.faceup != six and hand >> six & 1:
        ids.append(_SWAP)  # KRYT-6.2, K-9
    return ids


def _check_deal(state: KrytNavalivatState) -> None:
    """KRYT-2.3 to KRYT-2.5 and KRYT-4: a new game is the deck dealt by the rules."""
    deck = state.deck
    assert deck is not None
    n = state.players
    hands = [0] * n
    for i in range(_HAND * n):
        hands[(state.dealer + 1 + i) % n] |= 1 << deck[i]  # K-15
    if state.hands != hands:
        raise broken("KRYT-2.3", f"the deal gives hands {state.hands}, not {hands} (K-15)")
    rest = deck[_HAND * n :]
    if state.game.options["trump_mode"] == "turned":
        if state.faceup != rest[0] or state.trump != rest[0] // 13:
            raise broken(
                "KRYT-2.4",
                f"the turned card is {_card_name(rest[0])}, the top of the remainder (K-3)",
            )
        rest = rest[1:]
    if state.stock[::-1] != rest:
        raise broken("KRYT-2.5", "the stock is not the rest of the deck in its order")
    if state.to_move != (state.dealer + 1) % n or state.mode != _LEADING or state.pile:
        raise broken("KRYT-4", "the dealer's left leads first, on an empty pile")
    if any(state.known):
        raise broken("KRYT-9", "nobody's cards are known at the deal")


def check_state(state: KrytNavalivatState) -> None:
    """Raise ``AssertionError`` naming the KRYT-11 rule that ``state`` breaks, looking at
    the state alone (and, for a new game, at the deck it was dealt from)."""
    n = state.players
    hands = state.hands
    cards = [c for h in hands for c in cards_of(h)] + state.pile + state.stock
    if state.faceup >= 0:
        cards.append(state.faceup)
    if sorted(cards) != _PACK:
        raise broken("KRYT-11.1", "the hands, pile and stock do not hold the pack once each")
    if state.game.options["trump_mode"] == "permanent":
        if (state.trump, state.anti, state.faceup) != (_PERMANENT_TRUMP, _PERMANENT_ANTI, -1):
            raise broken("KRYT-8.1", "permanent trumps: diamonds, spades anti, nothing turned")
    elif state.anti != _NONE or not 0 <= state.trump < 4:
        raise broken("KRYT-11.7", f"trumps {state.trump}, anti-trumps {state.anti}")
    elif state.faceup >= 0 and state.faceup // 13 != state.trump:
        raise broken("KRYT-11.7", f"the turned card {_card_name(state.faceup)} is not a trump")
    for seat in range(n):
        if state.known[seat] & ~hands[seat]:
            raise broken("KRYT-9", f"seat {seat} is known to hold cards it does not hold")
    if not state.history and state.deck is not None and state.start is None:
        _check_deal(state)
    stock_left = _stock_left(state)
    mover = state.to_move
    if state.mode == _OVER:
        holders = [s for s in range(n) if hands[s]]
        if mover is not None or stock_left or len(holders) != 1:
            raise broken(
                "KRYT-11.8",
                f"the hand is over with {state.stock_count} cards in the stock and seats "
                f"{holders} holding cards",
            )
        _check_result(state, holders[0], draw=state.drawn)
        return
    if mover is None or not 0 <= mover < n or not hands[mover]:
        raise broken("KRYT-11.6", f"seat {mover} is to move in mode {state.mode}")
    if state.loser is not None or state.drawn:
        raise broken("KRYT-11.8", "the hand is not over but has a result")
    if (state.mode == _LEADING) != (not state.pile):
        raise broken("KRYT-4.1", f"mode {state.mode} on a pile of {len(state.pile)} cards")
    if state.mode == _FREE and stock_left:
        raise broken("KRYT-4.3", "the free card while the stock lasts")
    if stock_left:
        for seat in range(n):
            least = _HAND - 1 if state.mode == _COVERING and seat == mover else _HAND
            if hands[seat].bit_count() < least:
                raise broken(
                    "KRYT-11.3",
                    f"seat {seat} holds {hands[seat].bit_count()} cards while the stock lasts",
                )
    elif sum(1 for h in hands if h) < 2:
        raise broken("KRYT-11.8", "one player holds cards and the stock is empty: it is over")
    _check_legal(state)


def _check_legal(state: KrytNavalivatState) -> None:
    actual = state.legal_action_ids()
    want = legal_ids(state)
    if actual != want:
        extra = sorted(set(actual) - set(want))
        beats_wrong = any(_BEAT <= i < _COVER for i in extra)
        raise broken(
            "KRYT-11.5" if beats_wrong else "KRYT-10",
            f"legal actions {actual} for seat {state.to_move} in mode {state.mode}; "
            f"the rules give {want}",
        )


def _check_result(state: KrytNavalivatState, last: int, *, draw: bool) -> None:
    """KRYT-7.2, KRYT-7.3 and SPEC §0.4 (5): the loser, or nobody after a draw."""
    if draw:
        if state.loser is not None or not state.drawn:
            raise broken("KRYT-7.3", f"the hand is a draw, but seat {state.loser} is the loser")
    elif state.loser != last or state.drawn:
        raise broken(
            "KRYT-7.3" if state.drawn else "KRYT-7.2",
            f"seat {last} is the last holding cards and the fool, but the result is "
            f"loser {state.loser}, draw {state.drawn}",
        )
    result = state.result
    if result is None or (result.winners == ()) != draw:
        raise broken("KRYT-7.2", f"the result {result} does not say {'draw' if draw else last}")
    if not draw and result.places[-1] != (last,):
        raise broken("KRYT-7.2", f"the result {result} does not place seat {last} last")


def check_transition(before: KrytNavalivatState, number: int, after: KrytNavalivatState) -> None:
    """Raise ``AssertionError`` naming the KRYT-11 rule that ``before -> after`` breaks.

    ``before`` has been checked already (as the previous action's ``after``), so only the
    action is checked against it; a state with no history before it (a new game, a
    position, a re-deal) is checked whole first."""
    if not before.history:
        check_state(before)
    mode = before.mode
    p = before.to_move
    if mode == _OVER or p is None:
        raise broken("KRYT-10", "an action was applied after the hand ended")
    hand = before.hands[p]
    if not hand:
        raise broken("KRYT-11.6", f"seat {p} holds no cards, yet acts")
    if after.trump != before.trump or after.anti != before.anti:
        raise broken("KRYT-11.7", f"trumps changed from {before.trump} to {after.trump}")
    stock = before.stock
    if mode != _COVERING and (stock or before.faceup >= 0) and hand.bit_count() < _HAND:
        raise broken(
            "KRYT-11.3",
            f"seat {p} starts a turn with {hand.bit_count()} cards while the stock lasts",
        )
    if number == _SWAP:
        _check_swap(before, after, p)
        return
    pile = before.pile
    hands = before.hands[:]
    known = before.known[:]
    if number == _TAKE:
        if mode not in (_RESPONDING, _FREE):
            raise broken("KRYT-10", f"seat {p} took from the pile in mode {mode}")
        k = taken(len(pile), pile[-1], before.trump)
        if after.pile != pile[: len(pile) - k]:
            raise broken(
                "KRYT-11.4",
                f"a pick-up under {_card_name(pile[-1])} left {len(after.pile)} of "
                f"{len(pile)} cards; KRYT-5 / KRYT-8.3 take {k}",
            )
        got = 0
        for c in pile[len(pile) - k :]:
            got |= 1 << c
        hands[p] |= got
        known[p] |= got  # picked up in everybody's sight (KRYT-9)
        kind = _TAKE
    else:
        kind = number // 36 * 36
        n36 = number % 36
        card = 13 * (n36 // 9) + _SIX + n36 % 9
        bit = 1 << card
        if not hand & bit:
            raise broken("KRYT-11.1", f"seat {p} played {_card_name(card)}, which it does not hold")
        if kind == _LEAD and mode not in (_LEADING, _FREE):
            raise broken("KRYT-4.2", f"seat {p} led {_card_name(card)} in mode {mode}")
        if kind == _COVER and mode != _COVERING:
            raise broken("KRYT-4.6", f"a cover with no beat before it, in mode {mode}")
        if kind == _BEAT:
            if mode not in (_RESPONDING, _FREE):
                raise broken("KRYT-4.1", f"seat {p} beat in mode {mode}")
            top = pile[-1]
            if not _beaten_by(before.trump, before.anti)[top] & bit:
                raise broken(
                    "KRYT-11.5",
                    f"seat {p} beat {_card_name(top)} with {_card_name(card)} "
                    + ("(KRYT-8.2)" if before.anti != _NONE else "(KRYT-3)"),
                )
        if (
            len(after.pile) != len(pile) + 1
            or after.pile[-1] != card
            or after.pile[: len(pile)] != pile
        ):
            raise broken("KRYT-11.4", f"{_card_name(card)} played, but the pile is {after.pile}")
        hands[p] ^= bit
        known[p] &= ~bit
        if kind == _BEAT and hands[p]:
            # K-1: the cover comes next, from the same player, with nothing drawn between.
            if after.hands != hands or after.stock != stock or after.faceup != before.faceup:
                raise broken("KRYT-4.4", f"seat {p} drew between the beat and the cover (K-1)")
            if after.mode != _COVERING or after.to_move != p:
                raise broken(
                    "KRYT-4.6",
                    f"after its beat seat {p} must cover; mode {after.mode}, seat "
                    f"{after.to_move} to move",
                )
            if after.known != known:
                raise broken("KRYT-9", f"known cards {after.known}, expected {known}")
            return
    _check_end_of_turn(before, after, p, kind, hands, known)


def _check_swap(before: KrytNavalivatState, after: KrytNavalivatState, p: int) -> None:
    """KRYT-6: the six of trumps for the turned card, on one's own turn, before the main
    action; the turn goes on."""
    six = _six(before)
    faceup = before.faceup
    if before.mode not in (_LEADING, _RESPONDING):
        raise broken("KRYT-6.3", f"a swap in mode {before.mode} (K-9)")
    if faceup < 0 or faceup == six or not before.hands[p] >> six & 1:
        raise broken(
            "KRYT-6.2",
            f"seat {p} swapped holding {_names(before.hands[p])} with turned card "
            f"{_card_name(faceup) if faceup >= 0 else '-'}",
        )
    hands = before.hands[:]
    hands[p] ^= 1 << six | 1 << faceup
    known = before.known[:]
    known[p] = known[p] & ~(1 << six) | 1 << faceup
    if after.faceup != six or after.stock != before.stock:
        raise broken("KRYT-11.2", "after a swap the six of trumps lies under the stock")
    if after.hands != hands or after.pile != before.pile:
        raise broken("KRYT-6.1", f"seat {p}'s swap moved the wrong cards")
    if after.mode != before.mode or after.to_move != p:
        raise broken("KRYT-6.3", "a swap does not end the turn (K-9)")
    if after.known != known:
        raise broken("KRYT-9", f"known cards {after.known}, expected {known}")


def _check_end_of_turn(
    before: KrytNavalivatState,
    after: KrytNavalivatState,
    p: int,
    kind: int,
    hands: list[int],
    known: list[int],
) -> None:
    """KRYT-10's end of turn: the draw, going out, the end of the hand, the next turn."""
    stock = before.stock
    faceup = before.faceup
    if (after.stock or after.faceup >= 0) and after.hands[p].bit_count() < _HAND:
        raise broken(
            "KRYT-11.3",
            f"seat {p} ends its turn with {after.hands[p].bit_count()} cards while the stock lasts",
        )
    hand = hands[p]
    left = len(stock)
    size = hand.bit_count()
    if size < _HAND and (left or faceup >= 0):
        k = min(_HAND - size, left)  # KRYT-4.4: from the top, the turned card last
        for c in stock[left - k :]:
            hand |= 1 << c
        left -= k
        if size + k < _HAND and faceup >= 0:
            hand |= 1 << faceup
            known[p] |= 1 << faceup
            faceup = -1
        hands[p] = hand
    if after.stock != stock[:left]:
        grew = len(after.stock) > len(stock)
        raise broken(
            "KRYT-11.2",
            f"the stock {'grew' if grew else 'was not drawn from the top'}: "
            f"{len(stock)} -> {len(after.stock)} cards, expected {left}",
        )
    if after.faceup != faceup:
        raise broken(
            "KRYT-11.2",
            f"the turned card is {after.faceup}, expected {faceup}: it is drawn last",
        )
    stock_left = bool(left) or faceup >= 0
    if after.hands != hands:
        for s, (got, want) in enumerate(zip(after.hands, hands, strict=True)):
            if got == want:
                continue
            if s != p and not before.hands[s] and not _stock_left(before):
                raise broken("KRYT-11.6", f"seat {s} is out but was given cards")
            raise broken(
                "KRYT-4.4" if s == p else "KRYT-11.1",
                f"seat {s} holds {_names(got)}, expected {_names(want)}",
            )
    if after.known != known:
        raise broken("KRYT-9", f"known cards {after.known}, expected {known}")
    n = before.players
    if not hand and not stock_left:
        holders = [s for s in range(n) if hands[s]]
        if len(holders) == 1:
            _check_end(after, holders[0], put_to_beat=kind != _BEAT)
            return
    if after.mode == _OVER or after.to_move is None:
        raise broken(
            "KRYT-11.8",
            f"the hand ended with {len(after.stock) + (after.faceup >= 0)} cards in the stock "
            f"and seats {[s for s in range(n) if hands[s]]} holding cards",
        )
    if kind == _BEAT:
        mode = _FREE  # KRYT-4.3: a beat with the last card, two others still holding
    elif kind == _TAKE and not after.pile:
        mode = _LEADING
    else:
        mode = _RESPONDING
    mover = next(s for s in _AFTER[n][p] if hands[s])
    if after.to_move != mover:
        if not hands[after.to_move]:
            raise broken("KRYT-11.6", f"seat {after.to_move}, who holds no cards, is to move")
        raise broken("KRYT-4.5", f"seat {after.to_move} is to move; the rules give seat {mover}")
    if after.mode != mode:
        raise broken("KRYT-4.5", f"mode {after.mode} after seat {p}'s turn; expected {mode}")
    if after.loser is not None or after.drawn:
        raise broken("KRYT-11.8", "the hand is not over but has a result")


def _check_end(after: KrytNavalivatState, last: int, *, put_to_beat: bool) -> None:
    """KRYT-7.2, KRYT-7.3 (K-7): ``last`` alone holds cards once the stock is empty."""
    if after.mode != _OVER or after.to_move is not None:
        raise broken(
            "KRYT-7.2",
            f"only seat {last} holds cards and the stock is empty, but seat "
            f"{after.to_move} is to move in mode {after.mode}",
        )
    held = after.hands[last]
    table = _beaten_by(after.trump, after.anti)
    draw = put_to_beat and held.bit_count() == 1 and bool(table[after.pile[-1]] & held)
    _check_result(after, last, draw=draw)
