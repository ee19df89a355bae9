"""Bitmask helpers shared by the trick-taking games (Knockout Whist, Neuf).

A hand is an ``int`` whose bit ``c`` holds card ``c`` (``cardtable.cards``: suit * 13 +
rank - 2), so following suit is one ``&`` with a suit's mask and listing a hand is four
table look-ups.
"""

from __future__ import annotations

from typing import Any

from cardtable.cards import card_text

__all__ = [
    "BIT",
    "CLOCKWISE",
    "PACK",
    "SLICES",
    "SUIT_MASKS",
    "bits",
    "cards_text",
    "follows",
    "playable",
    "taken_between",
    "trick_winner",
]

PACK = list(range(52))
BIT = [1 << c for c in PACK]
SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
# CLOCKWISE[n][p]: the other seats clockwise after p, then p itself.
CLOCKWISE = {
    n: tuple(tuple((p + i) % n for i in range(1, n + 1)) for p in range(n)) for n in range(2, 8)
}
# SLICES[s][m]: the cards of suit s whose bits, shifted down to 0-12, make m. bits() is then
# four look-ups instead of a loop over set bits, which matters in playouts.
SLICES = tuple(
    tuple(tuple(13 * s + i for i in range(13) if m >> i & 1) for m in range(1 << 13))
    for s in range(4)
)
_C, _D, _H, _S = SLICES


def bits(mask: int) -> list[int]:
    """The card indices in ``mask``, ascending."""
    return [*_C[mask & 0x1FFF], *_D[mask >> 13 & 0x1FFF], *_H[mask >> 26 & 0x1FFF], *_S[mask >> 39]]


def playable(hand: int, led: int) -> list[int]:
    """The cards of ``hand`` that may be played to a trick whose led suit is ``led`` (-1
    when leading): the led suit when the hand holds it, else anything (KOW-4.2, NEUF-4.2)."""
    if led >= 0 and hand & SUIT_MASKS[led]:
        return list(SLICES[led][hand >> 13 * led & 0x1FFF])
    return bits(hand)


def follows(hand: int, led: int, card: int) -> bool:
    """Whether ``card``, held in ``hand``, may be played when ``led`` was led (see
    :func:`playable`)."""
    return led < 0 or card // 13 == led or not hand & SUIT_MASKS[led]


def cards_text(mask: int) -> list[str]:
    """The cards of ``mask`` in canonical notation, ascending."""
    return [card_text(c) for c in bits(mask)]


def played_by_seat(tricks: list[list[tuple[int, int]]], players: int) -> tuple[int, ...]:
    """Per seat, the mask of the cards it played to ``tricks`` (lists of ``(seat, card)``);
    a negative card (a Knockout Whist knock) is not a card and is passed over."""
    played = [0] * players
    for trick in tricks:
        for seat, card in trick:
            if card >= 0:
                played[seat] |= BIT[card]
    return tuple(played)


def trick_winner(plays: list[tuple[int, int]], trump: int) -> int:
    """The seat whose card takes the trick: the highest trump, else the highest card of the
    suit led (KOW-4.3, NEUF-4.3). ``trump`` is -1 for no trump; plays whose card is
    negative (a Knockout Whist knock) are not cards and are passed over."""
    best_seat, best_card, best_suit = -1, -1, -1
    for seat, card in plays:
        if card < 0:
            continue
        suit = card // 13
        beats = suit == best_suit and card > best_card
        ruffs = suit == trump and best_suit != trump
        if best_card < 0 or beats or ruffs:
            best_seat, best_card, best_suit = seat, card, suit
    return best_seat


def taken_between(
    before: dict[str, Any], after: dict[str, Any], number: str, previous: str
) -> int | None:
    """``State.trick_taken`` read off two public views, a step apart, of a game whose view
    names its hand's number (``number``) and the hand before (``previous``)."""
    # Counted, not read from the open trick: a trick may have one card only (the others out
    # of cards, KOW-4.5), and then the open trick is empty before and after.
    tricks = after.get("tricks") or []
    if after.get(number) != before.get(number):
        # The action ended its hand and the next was dealt: its tricks are the hand before's.
        tricks = (after.get(previous) or {}).get("tricks") or []
    if len(tricks) <= len(before.get("tricks") or []):
        return None
    return int(tricks[-1]["winner"])
