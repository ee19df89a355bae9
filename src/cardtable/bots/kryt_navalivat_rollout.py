"""A fast guided playout for Kryt'-navalivat' search (DESIGN.md "Bots", "Performance").

Uniformly random play hardly ever sheds: it picks up as often as it beats, and a hand
lasts hundreds of turns. The playout here plays the way the game is won (KRYT-12): beat
whenever a card beats the top card, with the cheapest such card, and pick up only when
nothing beats it (KRYT-4.2, and a rare pick-up by choice); lead and cover with the
weakest card; swap the six of trumps at once (KRYT-6); in the free turn of KRYT-4.3,
beat when possible, else lead the weakest card. A card's strength is how many cards it
beats less how many beat it (KRYT-3, KRYT-8.2), so plain low cards go first and the ace of
trumps last. A small share of leads and covers is a random card, so that two players who
would otherwise pass the same cards to and fro for ever (K-14) end the hand.

It reads the state's bitmasks directly and applies actions through the unchecked
``apply_id``: a few microseconds a turn.
"""

from __future__ import annotations

import random

from cardtable.rules.kryt_navalivat.beating import PACK_36, SIX
from cardtable.rules.kryt_navalivat.state import (
    BEAT,
    COVER,
    COVERING,
    FREE,
    LEAD,
    LEADING,
    NUMBER,
    SWAP,
    TAKE,
    KrytNavalivatState,
)
from cardtable.rules.tricks import BIT

__all__ = ["guided_action", "guided_playout", "rollout"]

# A pick-up although a card beats the top card: rare, as the source plays it ("cannot,
# or does not want to", KRYT-4.2b), and it keeps every line of play possible.
_TAKE_ANYWAY = 0.02
# A lead or cover of a random card instead of the weakest: breaks endless exchanges.
_RANDOM_CARD = 0.08

_PACK_ORDER = tuple((BIT[c], NUMBER[c]) for c in PACK_36)

Order = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]
"""A hand's strength order: per suit, a table from the suit's 9 rank bits (6 … A) to the
same cards as bits of their places weakest first; and the card number at each place."""

# Keyed by (trump, anti): a small key, as hashing the 52-entry beating table every turn
# would cost more than the rest of the choice.
_ORDERS: dict[tuple[int, int], Order] = {}


def _weakest_first(state: KrytNavalivatState) -> Order:
    """The pack's strength order under the hand's beating table: a card's strength is the
    cards it beats less the cards that beat it (ties: the lower rank first)."""
    order = _ORDERS.get((state.trump, state.anti))
    if order is None:
        beaters = state.beaters
        beaten = {c: sum(1 for t in PACK_36 if beaters[t] >> c & 1) for c in PACK_36}
        ranked = sorted(PACK_36, key=lambda c: (beaten[c] - beaters[c].bit_count(), c % 13))
        place = {c: i for i, c in enumerate(ranked)}
        suits = tuple(
            tuple(
                sum(1 << place[13 * s + 4 + i] for i in range(9) if m >> i & 1) for m in range(512)
            )
            for s in range(4)
        )
        order = _ORDERS[state.trump, state.anti] = (suits, tuple(NUMBER[c] for c in ranked))
    return order


def _weakest(mask: int, order: Order) -> int:
    """The action offset (card number) of the weakest card of a non-empty ``mask``: four
    look-ups put its cards in strength order, and the lowest bit is the weakest."""
    (c, d, h, s), numbers = order
    ranked = c[mask >> 4 & 511] | d[mask >> 17 & 511] | h[mask >> 30 & 511] | s[mask >> 43 & 511]
    assert ranked, "no card in an empty mask"
    return numbers[(ranked & -ranked).bit_length() - 1]


def _any(mask: int, rng: random.Random) -> int:
    """The card number of a card of ``mask`` chosen uniformly."""
    cards = [number for bit, number in _PACK_ORDER if mask & bit]
    return cards[int(rng.random() * len(cards))]


def guided_action(state: KrytNavalivatState, rng: random.Random) -> int:
    """The playout's action number for the player to move (the game is not over)."""
    p = state.to_move
    assert p is not None
    hand = state.hands[p]
    mode = state.mode
    order = _weakest_first(state)
    if mode == COVERING:
        if rng.random() < _RANDOM_CARD:
            return COVER + _any(hand, rng)
        return COVER + _weakest(hand, order)
    if mode == LEADING:
        if state.faceup >= 0 and _may_swap(state, hand):
            return SWAP
        if rng.random() < _RANDOM_CARD:
            return LEAD + _any(hand, rng)
        return LEAD + _weakest(hand, order)
    beats = hand & state.beaters[state.pile[-1]]
    if mode == FREE:  # the stock is empty: beating sheds two cards, a lead one
        if beats:
            return BEAT + _weakest(beats, order)
        return LEAD + _weakest(hand, order)
    # RESPONDING
    if state.faceup >= 0 and _may_swap(state, hand):
        return SWAP
    if beats and rng.random() >= _TAKE_ANYWAY:
        return BEAT + _weakest(beats, order)
    return TAKE


def _may_swap(state: KrytNavalivatState, hand: int) -> bool:
    """KRYT-6.2: the six of trumps in hand, and a turned card that is not the six."""
    six = 13 * state.trump + SIX
    return state.faceup != six and bool(hand >> six & 1)


def rollout(state: KrytNavalivatState, rng: random.Random) -> tuple[float, ...]:
    """Search's rollout: :func:`guided_playout` to the end of the hand (a game is one
    hand), and its result's returns."""
    guided_playout(state, rng)
    result = state.result
    assert result is not None  # the hand is played to its end
    return result.returns


def guided_playout(state: KrytNavalivatState, rng: random.Random) -> None:
    """Play ``state`` to the end of the hand with :func:`guided_action` for every seat."""
    apply = state.apply_id
    while state.to_move is not None:
        apply(guided_action(state, rng))
