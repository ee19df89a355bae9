"""What beats what, and how much a pick-up takes (KRYT-3, KRYT-5, KRYT-8.2, KRYT-8.3).

Cards are the usual indices (``cardtable.cards``: suit * 13 + rank - 2) held in bitmasks;
the 36-card pack is the ranks 6 to ace. Both trump modes are one rule with two suits
in it: ``trump`` beats any plain card, and ``anti`` (the spades of the permanent mode, or
no suit at all) can be beaten only by its own suit.
"""

from __future__ import annotations

__all__ = [
    "ACE",
    "NO_SUIT",
    "PACK_36",
    "PERMANENT_ANTI",
    "PERMANENT_TRUMP",
    "SIX",
    "beaters",
    "beats",
    "take_count",
]

NO_SUIT = -1
PERMANENT_TRUMP = 1  # diamonds (KRYT-8.1)
PERMANENT_ANTI = 3  # spades
SIX = 4  # the rank offset of a six within its suit (rank 6 - 2)
ACE = 12
PACK_36 = tuple(13 * suit + rank for suit in range(4) for rank in range(SIX, ACE + 1))


def beats(card: int, top: int, trump: int, anti: int = NO_SUIT) -> bool:
    """Whether ``card`` beats ``top``: a higher card of its suit, or a trump on a card that
    is neither a trump nor an anti-trump (KRYT-3.1, KRYT-8.2)."""
    suit, top_suit = card // 13, top // 13
    if suit == top_suit:
        return card > top
    return suit == trump and top_suit != anti


def beaters(trump: int, anti: int = NO_SUIT) -> tuple[int, ...]:
    """For every card index, the mask of the 36-card pack's cards that beat it: the table
    the engine looks a beat up in."""
    table = []
    for top in range(52):
        mask = 0
        for card in PACK_36:
            if beats(card, top, trump, anti):
                mask |= 1 << card
        table.append(mask)
    return tuple(table)


def take_count(pile: int, top: int, trump: int) -> int:
    """How many cards a pick-up takes from a pile of ``pile`` cards with ``top`` on top:
    1 for a plain card (an anti-trump included), the top three (or all, when fewer) for a
    trump, the whole pile for the ace of trumps (KRYT-5, KRYT-8.3)."""
    if top // 13 != trump:
        return 1
    if top % 13 == ACE:
        return pile
    return min(3, pile)
