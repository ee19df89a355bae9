"""A fast rollout policy for Knockout Whist search: cheap card sense on the state's bitmasks.

Each seat, in turn:

- **names trumps** (KOW-3.2) in its longest suit, counting its J, Q, K and A as extra
  length;
- **leads** an ace of a plain suit when it has one; with at least half its cards in
  trumps, its highest trump; otherwise the lowest card of its longest plain suit;
- **follows** (KOW-4.2) with the lowest card that takes the trick when it can, else its
  lowest card of the suit led;
- **when void**, trumps in with the lowest trump that takes the trick, else throws its
  lowest plain card;
- **as a dog** (KOW-6.3) plays its card when it would take the trick so far (or leads a
  plain ace or a trump of jack or better), and otherwise knocks until the last trick,
  where it must play (W-3).

One action in ten is uniformly random among the legal ones, so the rollouts do not all
follow one script.

Search calls :func:`rollout`, which plays only to the end of the current hand and then
estimates the returns from who is left (:func:`estimate`): later hands are dealt from
cards nobody knows yet, and playing them out would cost six times as much for little.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cardtable.rules.knockout_whist.state import (
    ACTIVE,
    DOG,
    HANDS,
    KNOCK,
    KNOCKED,
    TRUMP,
    TRUMP_BASE,
    KnockoutWhistState,
)
from cardtable.rules.tricks import SLICES, SUIT_MASKS, bits

__all__ = ["DOG_CHANCE", "choose", "estimate", "guided_playout", "rollout"]

EXPLORE = 0.1  # the share of uniformly random actions
DOG_CHANCE = 0.3  # a dog's chance of winning, against 1 for a player still active
_ACES = tuple(1 << 13 * s + 12 for s in range(4))
_HONOURS = 0x1E00  # J, Q, K, A of a suit, shifted down to bits 0-12


def guided_playout(state: KnockoutWhistState, rng: random.Random) -> None:
    """Play ``state`` to the end of the game with :func:`choose` for every seat."""
    draw = rng.random
    apply = state.apply_id
    while state.to_move is not None:
        apply(choose(state, draw))


def rollout(state: KnockoutWhistState, rng: random.Random) -> tuple[float, ...]:
    """Play to the end of the current hand with :func:`choose`; the game's returns if it
    ended there, else :func:`estimate`'s."""
    draw = rng.random
    apply = state.apply_id
    hand = state.hand_no
    while state.to_move is not None and state.hand_no == hand:
        apply(choose(state, draw))
    result = state.result
    return result.returns if result is not None else estimate(state)


def estimate(state: KnockoutWhistState) -> tuple[float, ...]:
    """Expected returns between hands: the players still in share the chance of winning,
    a dog (KOW-6) at :data:`DOG_CHANCE` of an active player's; the return of a win is
    1 and of a loss ``-1/(n-1)``, as in the result (zero-sum)."""
    weights = [1.0 if s == ACTIVE else DOG_CHANCE if s == DOG else 0.0 for s in state.status]
    total = sum(weights)
    n = len(weights)
    loss = -1.0 / (n - 1)
    return tuple(w / total + (1 - w / total) * loss for w in weights)


def choose(state: KnockoutWhistState, draw: Callable[[], float]) -> int:
    """The policy's action number for the seat to move (``draw`` is ``rng.random``)."""
    p = state.to_move
    assert p is not None
    hand = state.hands[p]
    if state.phase == TRUMP:
        return TRUMP_BASE + _trump_suit(hand)
    trump = state.trump
    assert trump is not None
    led = state.led_suit
    if state.status[p] == DOG:
        return _dog(state, hand, trump, led, draw)
    if draw() < EXPLORE:
        follow = hand >> 13 * led & 0x1FFF if led >= 0 else 0
        cards = SLICES[led][follow] if follow else bits(hand)
        return cards[int(draw() * len(cards))]
    if led < 0:
        return _lead(hand, trump)
    return _follow(hand, trump, led, _best(state.trick, trump))


def _trump_suit(hand: int) -> int:
    best, best_score = 0, -1
    for s in range(4):
        suit = hand >> 13 * s & 0x1FFF
        score = 2 * suit.bit_count() + (suit & _HONOURS).bit_count()
        if score > best_score:
            best, best_score = s, score
    return best


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _best(trick: list[tuple[int, int]], trump: int) -> int:
    """The card taking the trick so far (KOW-4.3); knocks are passed over."""
    best = -1
    for _, card in trick:
        if card == KNOCKED:
            continue
        if best < 0:
            best = card
        elif card // 13 == best // 13:
            if card > best:
                best = card
        elif card // 13 == trump:
            best = card
    return best


def _beats(card: int, best: int, trump: int) -> bool:
    if best < 0:
        return True
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


def _lead(hand: int, trump: int) -> int:
    trumps = hand & SUIT_MASKS[trump]
    plain = hand & ~trumps
    for s in range(4):
        if s != trump and plain & _ACES[s]:
            return 13 * s + 12
    if not plain or 2 * trumps.bit_count() >= hand.bit_count():
        return trumps.bit_length() - 1
    longest, length = 0, 0
    for s in range(4):
        suit = plain >> 13 * s & 0x1FFF
        if suit.bit_count() > length:
            longest, length = 13 * s + _lowest(suit), suit.bit_count()
    return longest


def _follow(hand: int, trump: int, led: int, best: int) -> int:
    suit = hand & SUIT_MASKS[led]
    if suit:
        if best // 13 != led:  # trumped already: nothing of the suit led can take it
            return _lowest(suit)
        higher = suit & ~((2 << best) - 1)
        return _lowest(higher or suit)
    trumps = hand & SUIT_MASKS[trump]
    if trumps:
        higher = trumps & ~((2 << best) - 1) if best // 13 == trump else trumps
        if higher:
            return _lowest(higher)
    plain = hand & ~trumps
    if not plain:
        return _lowest(trumps)
    lowest, rank = 0, 13
    for s in range(4):
        suit = plain >> 13 * s & 0x1FFF
        if suit and _lowest(suit) < rank:
            rank = _lowest(suit)
            lowest = 13 * s + rank
    return lowest


def _dog(
    state: KnockoutWhistState, hand: int, trump: int, led: int, draw: Callable[[], float]
) -> int:
    card = hand.bit_length() - 1
    if len(state.done) == HANDS - state.hand_no:
        return card  # W-3: no knock on the last trick
    if draw() < EXPLORE:
        return card if draw() < 0.5 else KNOCK
    if led < 0:
        strong = card % 13 == 12 or (card // 13 == trump and card % 13 >= 9)
        return card if strong else KNOCK
    return card if _beats(card, _best(state.trick, trump), trump) else KNOCK
