"""NEUF-11 invariants, checked across every action by ``cardtable.testing``.

:func:`check_state` checks one state on its own; :func:`check_transition` checks one
action, including the scoring of a finished deal and the next deal that happen inside
it. Both recompute what the rules say from the state's fields (the trump and dealer of
each deal, the dealt piles, the exchanges, trick winners, the score sheet, the house
rule) instead of asking the engine's helpers or its ledger, so a bug in a helper cannot
hide behind a check that calls it. Every failure is an ``AssertionError`` whose message
starts with the rule it breaks.

The checks raise explicitly rather than using ``assert`` so that they still run under
``python -O``.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.cards import card_text
from cardtable.rules.checks import FULL_DECK, SUIT_MASKS, broken, cards_of
from cardtable.rules.neuf.ledger import Row
from cardtable.rules.neuf.state import EXCHANGE, EXCHANGING, KEEP, OVER, PLAY, NeufState

__all__ = ["check_state", "check_transition"]

# NEUF-8.1 and N-1, copied from the spec rather than imported from the engine.
_SEQUENCES = {
    "HDCS-NT": ("H", "D", "C", "S", "NT"),
    "SHDC-NT": ("S", "H", "D", "C", "NT"),
    "HDSC-NT": ("H", "D", "S", "C", "NT"),
    "HCDS-NT": ("H", "C", "D", "S", "NT"),
    "HDCS": ("H", "D", "C", "S"),
}
_SUITS = "CDHS"  # suit order of the card indices (cardtable.cards)
_START = 9  # NEUF-5.1, and each team's start in NEUF-8.4
_TRICKS = 13

Trick = Sequence[tuple[int, int]]


def _names(mask: int) -> str:
    return " ".join(card_text(c) for c in cards_of(mask)) or "none"


def _plays_text(trick: Trick) -> str:
    return " ".join(f"{s}:{card_text(c)}" for s, c in trick)


def _winner(trick: Trick, trump: int) -> int:
    """NEUF-4.3, written independently of the engine: the highest trump, else the highest
    card of the suit led (``trump`` is -1 in an NT deal). A card's index grows with its
    rank inside a suit."""
    trumps = [(c, s) for s, c in trick if c // 13 == trump]
    if trumps:
        return max(trumps)[1]
    led = trick[0][1] // 13
    return max((c, s) for s, c in trick if c // 13 == led)[1]


def _quota(players: int) -> int:
    return 4 if players == 3 else 6  # NEUF-5.2, NEUF-8.4


def _sides(players: int) -> int:
    return 3 if players == 3 else 2


def _side_tricks(players: int, won: Sequence[int]) -> list[int]:
    """Tricks per side: each player of three, or each team (seats 0 and 2, 1 and 3)."""
    return list(won) if players == 3 else [won[0] + won[2], won[1] + won[3]]


def _side_of(players: int, seat: int) -> int:
    return seat if players == 3 else seat % 2


def _max_deals(players: int) -> int:
    return 25 if players == 3 else 17  # NEUF-6.5, NEUF-8.4


def _exchange_order(state: NeufState, dealer: int) -> list[int]:
    """NEUF-3.1, or NEUF-8.2 with the dealer first; nobody exchanges with four (NEUF-8.4)."""
    if state.players == 4:
        return []
    if state.game.options["dealer_exchanges_first"]:
        return [dealer, (dealer + 1) % 3, (dealer + 2) % 3]
    return [(dealer + 1) % 3, (dealer + 2) % 3, dealer]


def _dealt_piles(deck: Sequence[int], players: int, dealer: int) -> list[int]:
    """NEUF-2.3: card i to R[i mod 4], R = [dealer+1, dealer+2, dealer, spare]; with four,
    one card each clockwise from the dealer's left (NEUF-8.4)."""
    if players == 3:
        receivers = [(dealer + 1) % 3, (dealer + 2) % 3, dealer, 3]
    else:
        receivers = [(dealer + 1 + i) % 4 for i in range(4)]
    piles = [0, 0, 0, 0]
    for i, card in enumerate(deck):
        piles[receivers[i % 4]] |= 1 << card
    return piles


class _Deal:
    """What the rules say about the deal in progress, recomputed from the state."""

    __slots__ = ("dealer", "number", "over_by_ledger", "scores", "trump", "won")

    def __init__(self) -> None:
        self.number = 0
        self.dealer = 0
        self.trump = -1
        self.scores: list[int] = []  # each side's score at the start of this deal
        self.over_by_ledger = False
        self.won: list[int] = []  # tricks won this deal, by NEUF-4.3


def check_state(state: NeufState) -> None:
    """Raise ``AssertionError`` naming the NEUF-11 rule (or the rule it rests on) that
    ``state`` breaks."""
    n = state.players
    if n not in (3, 4) or n != state.game.num_players:
        raise broken("NEUF-1.1", f"{n} players in a game made for {state.game.num_players}")
    for name in ("hands", "tricks_won"):
        if len(getattr(state, name)) != n:
            raise broken("NEUF-1.1", f"{name} has {len(getattr(state, name))} entries, not {n}")
    if state.phase not in (EXCHANGING, PLAY, OVER):
        raise broken("NEUF-10", f"unknown phase {state.phase!r}")
    if n == 4 and state.phase == EXCHANGING:
        raise broken("NEUF-8.4", "the 4-player game has no exchange phase")
    deal = _check_ledger(state)
    _check_cards(state, deal)
    _check_turn(state, deal)
    if state.phase == OVER:
        _check_result(state, deal)
    elif state.result is not None:
        raise broken("NEUF-6.1", f"the game is not over but has result {state.result}")


def _check_ledger(state: NeufState) -> _Deal:
    """NEUF-5, NEUF-6.1, NEUF-11.7 to NEUF-11.9 over the score sheet; returns the deal."""
    n = state.players
    options = state.game.options
    cycle = _SEQUENCES[options["trump_sequence"]]
    first = state.ledger.first_dealer
    if options["dealer"] is not None and first != options["dealer"]:
        raise broken("NEUF-2.2", f"first dealer {first}, but the options say {options['dealer']}")
    if first not in range(n):
        raise broken("NEUF-2.2", f"first dealer {first} is not a seat")
    if state.ledger.trump_sequence != options["trump_sequence"]:
        raise broken("NEUF-8.1", "the score sheet's trump sequence is not the game's")
    sides = _sides(n)
    quota = _quota(n)
    scores = [_START] * sides
    rows = state.ledger.rows
    for i, row in enumerate(rows):
        deal_no = i + 1
        if i and min(scores) <= 0:
            raise broken("NEUF-6.1", f"deal {deal_no} was played after scores {scores}")
        if row.deal != deal_no:
            raise broken("NEUF-5.5", f"row {deal_no} is numbered {row.deal}")
        if row.trump != cycle[i % len(cycle)] or row.dealer != (first + i) % n:
            raise broken(
                "NEUF-11.9",
                f"deal {deal_no} is recorded with trump {row.trump} and dealer {row.dealer}; "
                f"NEUF-2.1/2.2 give {cycle[i % len(cycle)]} and {(first + i) % n}",
            )
        tricks = list(row.tricks)
        if len(tricks) != sides or sum(tricks) != _TRICKS or min(tricks) < 0:
            raise broken("NEUF-11.4", f"deal {deal_no} is recorded with tricks {tricks}")
        if sum(row.scores) != _START * sides - deal_no:
            raise broken(
                "NEUF-11.7",
                f"after deal {deal_no} the scores add up to {sum(row.scores)}, "
                f"not {_START * sides - deal_no}",
            )
        scores = [s - (t - quota) for s, t in zip(scores, tricks, strict=True)]
        if list(row.scores) != scores:
            raise broken(
                "NEUF-5.2",
                f"deal {deal_no}, tricks {tricks}: scores {scores}, not {list(row.scores)}",
            )
    if len(rows) > _max_deals(n):
        raise broken("NEUF-11.8", f"{len(rows)} deals completed; at most {_max_deals(n)}")
    if list(state.ledger.scores) != scores:
        raise broken("NEUF-5.5", f"the sheet's scores {state.ledger.scores} are not {scores}")
    deal = _Deal()
    deal.over_by_ledger = bool(rows) and min(scores) <= 0
    if deal.over_by_ledger and state.phase != OVER:
        raise broken("NEUF-6.1", f"scores {scores} after deal {len(rows)}, but play goes on")
    deal.number = len(rows) if deal.over_by_ledger else len(rows) + 1
    if deal.number > _max_deals(n):
        raise broken("NEUF-11.8", f"deal {deal.number} started; at most {_max_deals(n)}")
    deal.dealer = (first + deal.number - 1) % n
    letter = cycle[(deal.number - 1) % len(cycle)]
    deal.trump = -1 if letter == "NT" else _SUITS.index(letter)
    if (
        state.deal_number != deal.number
        or state.dealer != deal.dealer
        or state.trump != deal.trump
        or state.trump_name != letter
    ):
        raise broken(
            "NEUF-11.9",
            f"deal {state.deal_number} has dealer {state.dealer} and trump {state.trump_name} "
            f"({state.trump}); NEUF-2.1/2.2 give deal {deal.number}, dealer {deal.dealer}, "
            f"trump {letter}",
        )
    # The scores this deal started from: the row before it, or the last row while it runs.
    deal.scores = scores if not deal.over_by_ledger else _before_last(rows, sides)
    if state.previous is not None and rows:
        previous_trump, previous_tricks, _ = state.previous
        last = len(rows) - 1
        want = cycle[last % len(cycle)]
        if previous_trump != (-1 if want == "NT" else _SUITS.index(want)):
            raise broken("NEUF-11.9", f"the previous deal's trump {previous_trump} is not {want}")
        won = [0] * n
        for t in previous_tricks:
            won[_winner(t, previous_trump)] += 1
        if _side_tricks(n, won) != list(rows[-1].tricks):
            raise broken(
                "NEUF-11.6",
                f"deal {len(rows)} is recorded with tricks {list(rows[-1].tricks)}, but its "
                f"tricks' winners (NEUF-4.3) give {_side_tricks(n, won)}",
            )
    return deal


def _before_last(rows: Sequence[Row], sides: int) -> list[int]:
    return list(rows[-2].scores) if len(rows) > 1 else [_START] * sides


def _check_cards(state: NeufState, deal: _Deal) -> None:
    """NEUF-11.1 to NEUF-11.6: the cards, the exchange and the tricks of the deal."""
    n = state.players
    tricks = [*state.done, state.trick]
    played = [0] * n
    seen = twice = 0
    for h in state.hands:
        twice |= seen & h
        seen |= h
    if n == 3:
        twice |= seen & state.spare
        seen |= state.spare
    elif state.spare:
        raise broken("NEUF-11.1", f"the 4-player game has a spare: {_names(state.spare)}")
    for t in tricks:
        for s, c in t:
            if not 0 <= s < n or not 0 <= c < 52:
                raise broken("NEUF-11.1", f"play {s}:{c} is not a seat and a card")
            bit = 1 << c
            twice |= seen & bit
            seen |= bit
            played[s] |= bit
    if twice:
        raise broken("NEUF-11.1", f"{_names(twice)} found twice among hands, spare and tricks")
    if seen != FULL_DECK:
        raise broken("NEUF-11.1", f"{_names(FULL_DECK & ~seen)} missing")

    # NEUF-11.2: the piles are a 13-card split of the pack, dealt by NEUF-2.3.
    piles = state.piles
    if len(piles) != 4 or any(p.bit_count() != _TRICKS for p in piles):
        raise broken("NEUF-11.2", f"piles of {[p.bit_count() for p in piles]} cards, not 4 x 13")
    union = 0
    for p in piles:
        union |= p
    if union != FULL_DECK:
        raise broken("NEUF-11.2", "the dealt piles are not the whole pack")
    if (
        state.phase != OVER
        and not state.done
        and not state.trick
        and len(state.used_decks) == len(state.ledger.rows) + 1
        and _dealt_piles(state.used_decks[-1], n, deal.dealer) != piles
    ):
        raise broken(
            "NEUF-11.2", f"the piles are not dealt from the deck by NEUF-2.3 ({n} players)"
        )

    # NEUF-11.3: one decision each, in the configured order.
    order = _exchange_order(state, deal.dealer)
    acted = [s for s, _ in state.acted_exchange]
    decided = len(acted)
    want = order if state.phase != EXCHANGING else order[:decided]
    if acted != want or (state.phase == EXCHANGING and decided >= len(order)):
        raise broken(
            "NEUF-11.3",
            f"exchange decisions by seats {acted}; the order is {order} (NEUF-3.1, NEUF-8.2)",
        )
    if state.phase == EXCHANGING and any(tricks):
        raise broken("NEUF-10", "cards were played before every exchange decision")

    # NEUF-11.2: the exchange moved whole hands; replaying it gives the hands as played from.
    holding = piles[:n]
    spare = piles[3] if n == 3 else 0
    for s, exchanged in state.acted_exchange:
        if type(exchanged) is not bool:
            raise broken("NEUF-3.2", f"seat {s}'s decision {exchanged!r} is not exchange or keep")
        if exchanged:
            holding[s], spare = spare, holding[s]
    for s in range(n):
        if state.hands[s] | played[s] != holding[s] or state.hands[s] & played[s]:
            raise broken(
                "NEUF-11.2",
                f"seat {s} holds {_names(state.hands[s])} and played {_names(played[s])}; after "
                f"the exchanges {state.acted_exchange} it was given {_names(holding[s])}",
            )
    if spare != state.spare:
        raise broken(
            "NEUF-11.2",
            f"the spare is {_names(state.spare)}; the exchanges {state.acted_exchange} leave "
            f"{_names(spare)}",
        )

    # NEUF-11.4 to NEUF-11.6 and NEUF-8.3: replay the tricks.
    if len(state.done) > _TRICKS:
        raise broken("NEUF-11.4", f"deal {deal.number} has {len(state.done)} tricks")
    leader = (deal.dealer + 1) % n
    won = [0] * n
    house = state.game.options["tie_avoidance"]
    for j, trick in enumerate(tricks):
        complete = j < len(state.done)
        if (len(trick) != n) if complete else (len(trick) >= n):
            raise broken("NEUF-11.4", f"trick {j + 1} {_plays_text(trick)} has {len(trick)} cards")
        seats = [s for s, _ in trick]
        if seats != [(leader + i) % n for i in range(len(seats))]:
            rule = "NEUF-4.1" if j == 0 else "NEUF-4.4"
            raise broken(
                rule,
                f"trick {j + 1} {_plays_text(trick)} should be led by seat {leader}, clockwise",
            )
        led = trick[0][1] // 13 if trick else -1
        for s, c in trick[1:]:
            if c // 13 != led and holding[s] & SUIT_MASKS[led]:
                raise broken(
                    "NEUF-11.5",
                    f"seat {s} played {card_text(c)} to trick {j + 1} holding "
                    f"{_names(holding[s] & SUIT_MASKS[led])} of the suit led (NEUF-4.2)",
                )
        for s, c in trick:
            holding[s] &= ~(1 << c)
        if not complete:
            break
        leader = _winner(trick, deal.trump)
        won[leader] += 1
        side = _side_of(n, leader)
        surplus = max(0, won[leader] - _quota(n))
        crossed = house and deal.scores[side] - surplus <= 0
        last = j == len(state.done) - 1
        if crossed and not (last and state.phase == OVER):
            raise broken(
                "NEUF-8.3",
                f"seat {leader} won trick {j + 1}, its {won[leader]}th, from {deal.scores[side]}: "
                "the game should have stopped there",
            )
        if last and state.phase == OVER and not deal.over_by_ledger and not crossed:
            raise broken(
                "NEUF-8.3",
                f"the game stopped after trick {j + 1} of deal {deal.number}, but its winner, "
                f"seat {leader}, had not crossed"
                + ("" if house else " (and the house rule is off)"),
            )
    if list(state.tricks_won) != won:
        raise broken("NEUF-11.6", f"tricks won {list(state.tricks_won)}, but NEUF-4.3 gives {won}")
    deal.won = won
    if deal.over_by_ledger:
        if len(state.done) != _TRICKS or state.trick:
            raise broken("NEUF-11.4", f"deal {deal.number} ended after {len(state.done)} tricks")
        if _side_tricks(n, won) != list(state.ledger.rows[-1].tricks):
            raise broken(
                "NEUF-11.6",
                f"the last deal is recorded with {list(state.ledger.rows[-1].tricks)} tricks, "
                f"but NEUF-4.3 gives {_side_tricks(n, won)}",
            )
    elif state.phase != OVER and len(state.done) == _TRICKS:
        raise broken("NEUF-11.4", f"deal {deal.number} has 13 tricks but was not scored")


def _check_turn(state: NeufState, deal: _Deal) -> None:
    """NEUF-10: whose turn it is and what they may do."""
    n = state.players
    if state.phase == OVER:
        mover: int | None = None
        legal: list[int] = []
    elif state.phase == EXCHANGING:
        mover = _exchange_order(state, deal.dealer)[len(state.acted_exchange)]
        legal = [EXCHANGE, KEEP]
    else:
        if state.done or state.trick:
            last = state.trick[-1][0] if state.trick else _winner(state.done[-1], deal.trump)
            mover = (last + 1) % n if state.trick else last
        else:
            mover = (deal.dealer + 1) % n  # NEUF-4.1
        hand = state.hands[mover]
        led = state.trick[0][1] // 13 if state.trick else -1
        follow = hand & SUIT_MASKS[led] if led >= 0 else 0
        legal = cards_of(follow or hand)
    if state.to_move != mover:
        rule = "NEUF-11.3" if state.phase == EXCHANGING else "NEUF-4.4"
        raise broken(rule, f"seat {state.to_move} is to move, but the rules give seat {mover}")
    actual = state.legal_action_ids()
    if actual != legal:
        revoke = state.phase == PLAY and any(c < EXCHANGE and c not in legal for c in actual)
        rule = "NEUF-11.5" if revoke and state.trick else "NEUF-4.2"
        raise broken(rule, f"legal actions {actual} for seat {mover}; the rules give {legal}")


def _check_result(state: NeufState, deal: _Deal) -> None:
    """NEUF-6, NEUF-8.3 (N-7) and NEUF-11.8: final scores and winners."""
    n = state.players
    final = list(state.ledger.scores)
    if not deal.over_by_ledger:
        if not state.done:
            raise broken("NEUF-6.1", "the game ended before any trick")
        winner = _winner(state.done[-1], deal.trump)
        final[winner] -= max(0, deal.won[winner] - _quota(n))  # N-7
    if list(state.final_scores) != final:
        raise broken("NEUF-8.3", f"final scores {list(state.final_scores)}, expected {final}")
    best = min(final)
    sides = [side for side, score in enumerate(final) if score == best and score <= 0]
    if not sides or (n == 3 and len(sides) > 2) or (n == 4 and len(sides) != 1):
        raise broken("NEUF-11.8", f"final scores {final} give winning sides {sides}")
    seats = sides if n == 3 else sorted(seat for side in sides for seat in (side, side + 2))
    result = state.result
    if result is None or list(result.winners) != seats or list(state.winners) != seats:
        raise broken("NEUF-6.3", f"final scores {final}: the winners are seats {seats}")


def check_transition(before: NeufState, number: int, after: NeufState) -> None:
    """Raise ``AssertionError`` naming the NEUF-11 rule that ``before -> after`` breaks.

    ``before`` has been checked already (as the previous action's ``after``), so within a
    deal the action alone is checked against it, card by card; the whole state is checked
    again whenever the phase, the deal or the game changes."""
    if not before.history:
        # The first state of a game (or of a position) is checked once, here.
        check_state(before)
    if before.phase == OVER:
        raise broken("NEUF-10", "an action was applied after the game ended")
    if number not in before.legal_action_ids():
        raise broken("NEUF-10", f"action {number} was not legal")
    n = before.players
    p = before.to_move
    assert p is not None
    rows_before = len(before.ledger.rows)
    if after.ledger.rows[:rows_before] != before.ledger.rows:
        raise broken("NEUF-5.5", "rows of the score sheet were rewritten")
    if after.phase != before.phase or len(after.ledger.rows) != rows_before:
        check_state(after)
    if before.phase == EXCHANGING:
        _check_exchange(before, number, after, p)
        if after.phase == before.phase:
            _check_turn(after, _deal_of(before))
        return
    if before.trick:
        led = before.trick[0][1] // 13
        if number // 13 != led and before.hands[p] & SUIT_MASKS[led]:
            raise broken(
                "NEUF-11.5",
                f"seat {p} played {card_text(number)} holding "
                f"{_names(before.hands[p] & SUIT_MASKS[led])} of the suit led (NEUF-4.2)",
            )
    hands = before.hands[:]
    hands[p] &= ~(1 << number)
    trick = [*before.trick, (p, number)]
    rows_after = len(after.ledger.rows)
    if len(trick) < n:
        if after.trick != trick or after.hands != hands or after.done != before.done:
            raise broken("NEUF-10", f"seat {p} played {card_text(number)} but the trick is wrong")
        if rows_after != rows_before or after.phase != PLAY:
            raise broken("NEUF-10", "a deal changed in the middle of a trick")
        _check_light(before, after)
        return
    winner = _winner(trick, before.trump)
    won = before.tricks_won[:]
    won[winner] += 1
    done = [*before.done, trick]
    side = _side_of(n, winner)
    start = list(before.ledger.scores)
    crossed = (
        before.game.options["tie_avoidance"] and start[side] - max(0, won[winner] - _quota(n)) <= 0
    )
    if crossed or len(done) < _TRICKS:
        if after.done != done or after.tricks_won != won or after.hands != hands or after.trick:
            raise broken("NEUF-11.6", f"trick {_plays_text(trick)} is seat {winner}'s (NEUF-4.3)")
        if rows_after != rows_before:
            raise broken(
                "NEUF-8.3" if crossed else "NEUF-11.4",
                f"a score sheet row was added after trick {len(done)}"
                + (" of an abandoned deal (N-7)" if crossed else ""),
            )
        if crossed != (after.phase == OVER):
            raise broken(
                "NEUF-8.3",
                f"seat {winner} won trick {len(done)} from {start[side]} with {won[winner]} "
                f"tricks: the game {'must' if crossed else 'must not'} stop now",
            )
        if not crossed:
            _check_light(before, after)
        return
    _check_deal_end(before, after, won, done, start)


def _deal_of(state: NeufState) -> _Deal:
    """The deal of a state already checked."""
    deal = _Deal()
    deal.number = state.deal_number
    deal.dealer = state.dealer
    deal.trump = state.trump
    return deal


def _check_light(before: NeufState, after: NeufState) -> None:
    """Within a deal's play: what must not change did not, and the turn is right."""
    if (
        after.acted_exchange != before.acted_exchange
        or after.used_decks != before.used_decks
        or after.trump != before.trump
        or after.dealer != before.dealer
    ):
        raise broken("NEUF-10", "the deal's trump, dealer, deck or exchanges changed mid-deal")
    if after.spare != before.spare or after.piles != before.piles:
        raise broken("NEUF-3.4", "the spare or the dealt piles changed during the play")
    if after.result is not None:
        raise broken("NEUF-6.1", f"the game is not over but has result {after.result}")
    _check_turn(after, _deal_of(before))


def _check_exchange(before: NeufState, number: int, after: NeufState, p: int) -> None:
    if number not in (EXCHANGE, KEEP):
        raise broken("NEUF-3.2", f"action {number} in the exchange phase")
    if after.acted_exchange != [*before.acted_exchange, (p, number == EXCHANGE)]:
        raise broken(
            "NEUF-11.3", f"seat {p} chose {number}, but the decisions are {after.acted_exchange}"
        )
    hands = before.hands[:]
    spare = before.spare
    if number == EXCHANGE:
        hands[p], spare = spare, hands[p]
    if after.hands != hands or after.spare != spare or after.piles != before.piles:
        raise broken("NEUF-3.2", f"seat {p}'s decision moved the wrong cards")
    if len(after.ledger.rows) != len(before.ledger.rows) or after.used_decks != before.used_decks:
        raise broken("NEUF-10", "an exchange decision changed the deal")


def _check_deal_end(
    before: NeufState,
    after: NeufState,
    won: list[int],
    done: list[list[tuple[int, int]]],
    start: list[int],
) -> None:
    """NEUF-5, NEUF-6.1 and NEUF-7 after the 13th trick of a deal."""
    n = before.players
    rows = after.ledger.rows
    if len(rows) != len(before.ledger.rows) + 1:
        raise broken("NEUF-11.7", f"deal {before.deal_number} ended with no score sheet row")
    side = _side_tricks(n, won)
    if list(rows[-1].tricks) != side:
        raise broken("NEUF-11.6", f"deal {before.deal_number} scored {rows[-1].tricks}, not {side}")
    scores = [s - (t - _quota(n)) for s, t in zip(start, side, strict=True)]
    if list(rows[-1].scores) != scores:
        raise broken("NEUF-5.2", f"tricks {side} from {start} give {scores}")
    if after.previous is None:
        raise broken("NEUF-9", "the finished deal is not kept as the previous deal")
    trump, tricks, spare = after.previous
    if trump != before.trump or tricks != done or spare != before.spare:
        raise broken("NEUF-9", "the previous deal is not the deal just finished (N-5)")
    if min(scores) <= 0:
        if after.phase != OVER:
            raise broken("NEUF-6.1", f"scores {scores}: the game is over")
        return
    if after.phase == OVER:
        raise broken("NEUF-6.1", f"scores {scores}: nobody reached 0, yet the game ended")
    if after.dealer != (before.dealer + 1) % n or after.deal_number != before.deal_number + 1:
        raise broken("NEUF-11.9", "the deal did not pass to the left (NEUF-2.2, NEUF-7)")
    if len(after.used_decks) != len(before.used_decks) + 1:
        raise broken("NEUF-7", "the next deal did not take a new deck")
    if _dealt_piles(after.used_decks[-1], n, after.dealer) != after.piles:
        raise broken(
            "NEUF-11.2", f"deal {after.deal_number} is not dealt from its deck by NEUF-2.3"
        )
    if after.done or after.trick or any(after.tricks_won) or after.acted_exchange:
        raise broken("NEUF-7", "the next deal did not start afresh")
