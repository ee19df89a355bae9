"""Checks shared by every game's options and stacked decks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.cards import Card
from cardtable.errors import InvalidCardError, InvalidDeckError, InvalidOptionError

__all__ = ["check_options", "read_deck"]


def check_options(
    game: str, defaults: Mapping[str, Any], given: Mapping[str, Any]
) -> dict[str, Any]:
    """``defaults`` overlaid with ``given``; an option the game does not have is an error."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise InvalidOptionError(
            f"{game} has no option {', '.join(map(repr, unknown))}; "
            f"its options are {', '.join(sorted(defaults))}"
        )
    return {**defaults, **given}


def read_deck(deck: Sequence[str | Card], label: str = "deck", size: int = 52) -> list[int]:
    """Card indices of a stacked deck, which must hold each of the ``size`` cards once."""
    if isinstance(deck, str):
        deck = deck.replace(",", " ").split()
    cards: list[int] = []
    for position, item in enumerate(deck):
        try:
            card = item if isinstance(item, Card) else Card.parse(item)
        except InvalidCardError as exc:
            raise InvalidDeckError(f"{label}, card {position}: {exc}") from exc
        cards.append(card.index)
    seen = set(cards)
    repeated = sorted(c for c in seen if cards.count(c) > 1)
    if repeated:
        raise InvalidDeckError(
            f"{label} repeats {' '.join(str(Card.from_index(c)) for c in repeated)}"
        )
    if len(cards) != size:
        missing = sorted(set(range(52)) - seen) if size == 52 else []
        names = " ".join(str(Card.from_index(c)) for c in missing)
        raise InvalidDeckError(
            f"{label} has {len(cards)} cards, not {size}" + (f"; missing {names}" if names else "")
        )
    return cards
