"""Reading a view's cards as numbers: the small arithmetic every heuristic bot needs.

Cards are the indices of ``cardtable.cards`` (``suit * 13 + rank - 2``), so a card's suit
is ``card // 13`` and its rank offset (0 for a two, 12 for an ace) is ``card % 13``.
"""

from __future__ import annotations

from cardtable.cards import Card

__all__ = ["card_index", "rank_of", "suit_of"]


def card_index(text: str) -> int:
    """The index of a card written as a view writes it (``"10S"``)."""
    return Card.parse(text).index


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    """0 for a two … 12 for an ace."""
    return card % 13
