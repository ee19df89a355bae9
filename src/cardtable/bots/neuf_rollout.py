"""A fast guided playout for Neuf search: cheap card play that still takes tricks.

Every trick counts in Neuf (NEUF-5.2: a side's score falls by one for each trick over its
quota and rises by one for each short), so the policy simply tries to take tricks, the
partnership game (NEUF-8.4) leaving a trick its partner has safely won. It works on the
state's bitmasks directly, a few microseconds an action:

* **Exchange or keep** (NEUF-3.2): a table estimate of the hand's tricks in this deal's
  trump; below the quota it exchanges, wanting a weaker hand still when an earlier
  player has exchanged (the spare is then a hand put down as weak, NEUF-3.3).
* **Leading**: a side-suit card that no card left in the other hands beats, else a boss
  trump, else the lowest card of its longest side suit.
* **Following** (NEUF-4.2, 4.3): the lowest card that beats the trick and every card of
  the suit the players still to come hold; a ruff with the lowest trump that wins; else
  the lowest card (side suits before trumps).
* A small share of moves is uniformly random, so that search sees some variety.

Search calls :func:`rollout`, which plays only to the end of the current deal and then
estimates the returns from the scores (:func:`estimate`): later deals come from cards
nobody knows yet, and a whole game takes about ten deals.

The policy reads the determinized hands (all of them, as a playout in a sampled deal may):
it is a rollout for search, not a player.
"""

from __future__ import annotations

import random
from math import exp

from cardtable.rules.neuf.state import EXCHANGE, EXCHANGING, KEEP, NeufState
from cardtable.rules.tricks import SLICES, SUIT_MASKS, bits

__all__ = ["choose", "estimate", "guided_playout", "rollout"]

_RANDOM_SHARE = 0.05
_LOW = 0x1FFF
# How many points of score make a side e times less likely to win, by players: fitted by
# likelihood to the winners of 1,500 games of this policy against itself per table size.
_SCORE_SCALE = {3: 4.0, 4: 5.5}


def _honours(ranks: int) -> float:
    """Likely tricks from one suit's honours (the 13-bit slice ``ranks``): an ace, a king
    with one more card, a queen with two more, a jack with three more (as the heuristic
    bot's ``expected_tricks``)."""
    length = ranks.bit_count()
    value = 0.0
    if ranks >> 12 & 1:
        value += 1.0
    if ranks >> 11 & 1 and length >= 2:
        value += 0.75
    if ranks >> 10 & 1 and length >= 3:
        value += 0.5
    if ranks >> 9 & 1 and length >= 4:
        value += 0.25
    return value


_HONOURS = [_honours(m) for m in range(1 << 13)]


def _expected_tricks(hand: int, trump: int) -> float:
    total = (
        _HONOURS[hand & _LOW]
        + _HONOURS[hand >> 13 & _LOW]
        + _HONOURS[hand >> 26 & _LOW]
        + _HONOURS[hand >> 39]
    )
    if trump >= 0:
        total += max(0, (hand >> 13 * trump & _LOW).bit_count() - 3)
    return total


def _exchange(state: NeufState, p: int, rng: random.Random) -> int:
    estimate = _expected_tricks(state.hands[p], state.trump)
    # An earlier exchange means the spare is a hand someone put down as weak.
    bar = 2.5 if any(e for _, e in state.acted_exchange) else 3.5
    return EXCHANGE if estimate + rng.random() - 0.5 < bar else KEEP


def _lowest(hand: int, avoid: int) -> int:
    """The lowest-ranked card of ``hand``, outside suit ``avoid`` when it can be."""
    best, best_rank = -1, 99
    for s in range(4):
        ranks = hand >> 13 * s & _LOW
        if ranks and s != avoid:
            rank = (ranks & -ranks).bit_length() - 1
            if rank < best_rank:
                best, best_rank = 13 * s + rank, rank
    if best < 0:  # only the avoided suit is left
        ranks = hand >> 13 * avoid & _LOW
        best = 13 * avoid + (ranks & -ranks).bit_length() - 1
    return best


def _lead(hand: int, others: int, trump: int) -> int:
    longest, longest_len, boss_trump = -1, -99, -1
    for s in range(4):
        ranks = hand >> 13 * s & _LOW
        if not ranks:
            continue
        top = ranks.bit_length() - 1
        if not (others >> 13 * s & _LOW) >> top:  # nobody holds a higher card of s
            if s != trump:
                return 13 * s + top
            boss_trump = 13 * s + top
        length = ranks.bit_count() - (s == trump) * 13  # side suits first
        if length > longest_len:
            longest, longest_len = s, length
    if boss_trump >= 0:
        return boss_trump
    ranks = hand >> 13 * longest & _LOW
    return 13 * longest + (ranks & -ranks).bit_length() - 1


def _follow(state: NeufState, p: int, hand: int) -> int:
    trick = state.trick
    trump = state.trump
    led = state.led_suit
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if (card // 13 == best // 13 and card > best) or card // 13 == trump != best // 13:
            best_seat, best = seat, card
    n = state.players
    to_come = n - 1 - len(trick)
    later = 0
    for i in range(1, to_come + 1):
        later |= state.hands[(p + i) % n]
    if n == 4 and best_seat == (p + 2) % 4:
        # The partner wins unless a later player beats its card: then play low.
        suit = best // 13
        threat = later >> 13 * suit & _LOW
        if not threat >> (best % 13 + 1):
            return (
                _lowest(hand & SUIT_MASKS[led], -1)
                if hand & SUIT_MASKS[led]
                else _lowest(hand, trump)
            )
    follow = hand >> 13 * led & _LOW
    if follow:
        if best // 13 != led:  # already ruffed: follow low
            return 13 * led + (follow & -follow).bit_length() - 1
        beaters = follow >> (best % 13 + 1) << (best % 13 + 1)
        if beaters:
            # Beat the trick and every card of the suit still to come, as cheaply as can be.
            their_top = (later >> 13 * led & _LOW).bit_length()
            safe = beaters >> their_top << their_top
            if safe:
                return 13 * led + (safe & -safe).bit_length() - 1
        return 13 * led + (follow & -follow).bit_length() - 1
    trumps = hand >> 13 * trump & _LOW if trump >= 0 else 0
    if trumps:
        if best // 13 == trump:
            over = trumps >> (best % 13 + 1) << (best % 13 + 1)
            if over:
                return 13 * trump + (over & -over).bit_length() - 1
        else:
            return 13 * trump + (trumps & -trumps).bit_length() - 1
    return _lowest(hand, trump)


def choose(state: NeufState, rng: random.Random) -> int:
    """The policy's action number for the seat to move."""
    p = state.to_move
    assert p is not None
    if state.phase == EXCHANGING:
        return _exchange(state, p, rng)
    hand = state.hands[p]
    led = state.led_suit
    if rng.random() < _RANDOM_SHARE:
        follow = hand >> 13 * led & _LOW if led >= 0 else 0
        cards = SLICES[led][follow] if follow else bits(hand)
        return cards[int(rng.random() * len(cards))]
    if led < 0:
        others = 0
        for s, h in enumerate(state.hands):
            if s != p:
                others |= h
        return _lead(hand, others, state.trump)
    return _follow(state, p, hand)


def guided_playout(state: NeufState, rng: random.Random) -> None:
    """Play ``state`` to the end of the game with the guided policy (through
    ``apply_id``, unchecked: every choice is a legal one)."""
    while state.to_move is not None:
        state.apply_id(choose(state, rng))


def rollout(state: NeufState, rng: random.Random) -> tuple[float, ...]:
    """Search's rollout: the guided policy to the end of the current deal; the game's
    returns if it ended, else :func:`estimate`'s."""
    rows = len(state.ledger.rows)
    apply = state.apply_id
    while state.to_move is not None and len(state.ledger.rows) == rows:
        apply(choose(state, rng))
    result = state.result
    return result.returns if result is not None else estimate(state)


def estimate(state: NeufState) -> tuple[float, ...]:
    """Each seat's expected return from the scores alone (lower is better, NEUF-5): a
    side's chance of winning falls off exponentially with its score; a win returns 1
    and a loss ``-1/(n-1)`` as in the result (each seat of a team alike), so the
    estimate is zero-sum."""
    n = state.players
    scores = state.ledger.scores
    scale = _SCORE_SCALE[n]
    weights = [exp(-s / scale) for s in scores]
    total = sum(weights)
    chances = [w / total for w in weights]
    if n == 4:
        chances = chances + chances  # seats 0 and 2 are side 0; seats 1 and 3 side 1
    loss = -1.0 / (n - 1) if n == 3 else -1.0
    return tuple(c + (1 - c) * loss for c in chances)
