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
    OUT,
    TRUMP,
    TRUMP_BASE,
    KnockoutWhistState,
)
from cardtable.rules.tricks import SLICES, SUIT_MASKS, bits

__all__ = [
    "DOG_CHANCE",
    "choose",
    "estimate",
    "guided_playout",
    "rollout",
    "rollout_through_engine",
]

EXPLORE = 0.1  # the share of uniformly random actions
DOG_CHANCE = 0.3  # a dog's chance of winning, against 1 for a player still active
_ALL_ACES = sum(1 << 13 * s + 12 for s in range(4))
_EVERY_SUIT = sum(1 << 13 * s for s in range(4))  # one card of each suit, rank 2
_HONOURS = 0x1E00  # J, Q, K, A of a suit, shifted down to bits 0-12


def guided_playout(state: KnockoutWhistState, rng: random.Random) -> None:
    """Play ``state`` to the end of the game with :func:`choose` for every seat."""
    draw = rng.random
    apply = state.apply_id
    while state.to_move is not None:
        apply(choose(state, draw))


def rollout(state: KnockoutWhistState, rng: random.Random) -> tuple[float, ...]:
    """Play to the end of the current hand with :func:`choose`; the game's returns if it
    ended there, else :func:`estimate`'s.

    The same as :func:`rollout_through_engine` (the same choices from the same draws, the
    same returns), but the hand is played on local ints rather than through
    ``state.apply_id``: that saves the engine's bookkeeping (history, trick lists) and
    above all the next hand's deal, which the engine makes as the hand ends and a rollout
    stopping there never looks at. ``state`` is left as it was."""
    p = state.to_move
    if p is None:
        result = state.result
        assert result is not None  # nobody to move: the game is over
        return result.returns
    draw = rng.random
    status = state.status
    hands = state.hands[:]
    clockwise = state.clockwise
    if state.phase == TRUMP:
        # KOW-3.2, then KOW-4.1: the first seat clockwise from the dealer still in leads.
        trump = _trump_suit(hands[p])
        p = next(s for s in clockwise[state.dealer] if status[s] != OUT)
        led, acted, best, taker = -1, 0, -1, -1
    else:
        assert state.trump is not None
        trump = state.trump
        led, acted = state.led_suit, state.acted
        best, taker = _best_play(state.trick, trump)
    k = state.hand_no
    last = HANDS - k  # finished tricks before the hand's last one (W-3)
    done = len(state.done)
    won = state.tricks_won[:]
    while True:
        hand = hands[p]
        if status[p] == DOG:
            # KOW-6.3 and W-3, as _dog decides.
            card = hand.bit_length() - 1
            if done != last:
                if draw() < EXPLORE:
                    if draw() >= 0.5:
                        card = KNOCK
                elif led < 0:
                    if not (card % 13 == 12 or (card // 13 == trump and card % 13 >= 9)):
                        card = KNOCK
                elif not _beats(card, best, trump):
                    card = KNOCK
        elif draw() < EXPLORE:
            follow = hand >> 13 * led & 0x1FFF if led >= 0 else 0
            cards = SLICES[led][follow] if follow else bits(hand)
            card = cards[int(draw() * len(cards))]
        elif led < 0:
            card = _lead(hand, trump)
        else:
            card = _follow(hand, trump, led, best)
        if card != KNOCK:
            hands[p] = hand ^ 1 << card
            if led < 0:  # KOW-4.1: the first card leads (a knock before it does not)
                led, best, taker = card // 13, card, p
            elif _beats(card, best, trump):  # KOW-4.3
                best, taker = card, p
        acted |= 1 << p
        # The next seat clockwise holding cards and yet to act; none left ends the trick.
        for s in clockwise[p]:
            if hands[s] and not acted >> s & 1:
                p = s
                break
        else:
            won[taker] += 1
            if done == last:
                break
            done += 1
            # KOW-4.4 / KOW-6.5: a winner with no cards passes the lead on clockwise.
            p = taker
            if not hands[p]:
                p = next(s for s in clockwise[p] if hands[s])
            led, acted, best, taker = -1, 0, -1, -1
    return _after_hand(state, won, taker)


def _best_play(trick: list[tuple[int, int]], trump: int) -> tuple[int, int]:
    """The card taking the trick so far and its seat (KOW-4.3), ``(-1, -1)`` with none."""
    best, taker = -1, -1
    for seat, card in trick:
        if card != KNOCKED and (best < 0 or _beats(card, best, trump)):
            best, taker = card, seat
    return best, taker


def _after_hand(state: KnockoutWhistState, won: list[int], last_winner: int) -> tuple[float, ...]:
    """The returns once the hand ends with ``won`` tricks a seat: the statuses of KOW-5,
    worked out as the engine does, then the game's returns or :func:`estimate`'s."""
    n = state.players
    if state.hand_no == HANDS:
        return _won_by(last_winner, n)  # W-7: the last trick of hand 7 decides the game
    status = state.status[:]
    dealt_in = state.dealt_in
    # KOW-5.1.2-3, KOW-6.1, W-6: the players dealt in who took no trick all become dogs at
    # once if the dog's life is unused; once it is used they are out (KOW-6.7).
    blanked = OUT if state.dog_used else DOG
    left, last_in = 0, -1
    for s in range(n):
        if won[s]:
            status[s] = ACTIVE  # KOW-5.1.1, KOW-6.5: a dog who takes a trick is back in
        elif dealt_in[s]:
            status[s] = blanked
        if status[s] != OUT:
            left += 1
            last_in = s
    if left == 1:
        return _won_by(last_in, n)  # KOW-5.2: one player left wins
    return _share(status)


def _won_by(winner: int, n: int) -> tuple[float, ...]:
    """The returns of a game ``winner`` has won, as its result gives them."""
    loss = -1.0 / (n - 1)
    return tuple(1.0 if s == winner else loss for s in range(n))


def rollout_through_engine(state: KnockoutWhistState, rng: random.Random) -> tuple[float, ...]:
    """:func:`rollout` played through ``state.apply_id``, the engine itself: slower, and
    the reference :func:`rollout` must agree with. Leaves ``state`` after the hand."""
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
    return _share(state.status)


def _share(status: list[int]) -> tuple[float, ...]:
    weights = [1.0 if s == ACTIVE else DOG_CHANCE if s == DOG else 0.0 for s in status]
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
    plain = hand ^ trumps
    aces = plain & _ALL_ACES
    if aces:
        return (aces & -aces).bit_length() - 1  # the ace of the first suit holding one
    if not plain or 2 * trumps.bit_count() >= hand.bit_count():
        return trumps.bit_length() - 1
    longest, length = 0, 0
    for base in (0, 13, 26, 39):
        suit = plain >> base & 0x1FFF
        count = suit.bit_count()
        if count > length:  # ties keep the first suit
            longest, length = base + (suit & -suit).bit_length() - 1, count
    return longest


def _follow(hand: int, trump: int, led: int, best: int) -> int:
    # Lowest cards are isolated with ``m & -m``: one C-level step instead of a loop.
    suit = hand & SUIT_MASKS[led]
    if suit:
        if best // 13 == led:  # not trumped yet: take the trick as cheaply as possible
            higher = suit & ~((2 << best) - 1)
            if higher:
                suit = higher
        return (suit & -suit).bit_length() - 1
    trumps = hand & SUIT_MASKS[trump]
    if trumps:
        higher = trumps & ~((2 << best) - 1) if best // 13 == trump else trumps
        if higher:
            return (higher & -higher).bit_length() - 1
    plain = hand ^ trumps
    if not plain:
        return (trumps & -trumps).bit_length() - 1
    # The lowest rank among the plain suits, then the first suit holding that rank.
    ranks = (plain | plain >> 13 | plain >> 26 | plain >> 39) & 0x1FFF
    same_rank = plain & _EVERY_SUIT << (ranks & -ranks).bit_length() - 1
    return (same_rank & -same_rank).bit_length() - 1


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
