"""What every game's reasons are made of: the :class:`Reason` a hint gives (a locale key
under ``hints.why`` and its parameters) and the card arithmetic the rules of thumb share.

Parameters are plain data the page turns into words (``web/table_hints.js``): ``card`` a card
(``"AH"``, named in the grammatical case the text asks for), ``suit`` a suit letter,
``seat`` a seat number (its player's name), ``count`` a number the text's plural forms
follow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["RANKS", "Reason", "any_action", "forced", "rank_of", "suit_of"]

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
"""Ranks from low to high (SPEC §0.2)."""


@dataclass(frozen=True)
class Reason:
    """Why the hint's action is the one to play: ``hints.why.<key>`` with ``params``."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def message(self) -> dict[str, Any]:
        """The reason as the ``hint`` message carries it."""
        return {"key": f"hints.why.{self.key}", "params": dict(self.params)}


def forced() -> Reason:
    """The only legal action."""
    return Reason("forced")


def any_action() -> Reason:
    """Every action does about as well as the best."""
    return Reason("any")


def rank_of(card: str) -> int:
    """A card's rank, 0 for a two up to 12 for an ace."""
    return RANKS.index(card[:-1])


def suit_of(card: str) -> str:
    return card[-1]
