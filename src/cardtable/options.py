"""Checks shared by every game's options and stacked decks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.cards import Card
from cardtable.errors import InvalidCardError, InvalidDeckError, InvalidOptionError

__all__ = ["PACK_52", "check_options", "read_deck"]

PACK_52 = tuple(range(52))


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


def read_deck(
    deck: Sequence[str | Card], label: str = "deck", pack: Sequence[int] = PACK_52
) -> list[int]:
    """Card indices of a stacked deck, which must hold each card of ``pack`` (card indices;
    the full 52 by default) exactly once."""
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
    foreign = sorted(seen - set(pack))
    if foreign:
        names = " ".join(str(Card.from_index(c)) for c in foreign)
        raise InvalidDeckError(f"{label} holds {names}, which this game's pack has not")
    if len(cards) != len(pack):
        names = " ".join(str(Card.from_index(c)) for c in sorted(set(pack) - seen))
        raise InvalidDeckError(
            f"{label} has {len(cards)} cards, not {len(pack)}"
            + (f"; missing {names}" if names else "")
        )
    return cards
