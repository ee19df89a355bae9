"""Reading and writing the games' position notations (``kow/1 …``, ``neuf/1 …``).

A position is a header and ``key=value`` fields separated by spaces. Card lists are
comma-separated canonical cards, plays are ``seat:card`` (``x`` for a knock, where the
game has one), tricks and rounds are separated by ``/``, and ``-`` stands for an empty
value. :class:`Fields` reads one field at a time so that every error names its field.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cardtable.cards import Card, card_text
from cardtable.errors import InvalidCardError, InvalidPositionError

__all__ = ["KNOCK_TEXT", "Fields", "cards_field", "plays_field", "tricks_field"]

KNOCK_TEXT = "x"  # a play that is not a card (Knockout Whist's knock), stored as card -1


def cards_field(cards: Sequence[int]) -> str:
    return ",".join(card_text(c) for c in cards) or "-"


def plays_field(plays: Sequence[tuple[int, int]]) -> str:
    return ",".join(f"{s}:{KNOCK_TEXT if c < 0 else card_text(c)}" for s, c in plays) or "-"


def tricks_field(tricks: Sequence[Sequence[tuple[int, int]]]) -> str:
    return "/".join(plays_field(t) for t in tricks) or "-"


def is_count(text: str) -> bool:
    """ASCII digits only: ``int()`` also reads other scripts' digits and rejects ``²``."""
    return text.isascii() and text.isdigit()


class Fields:
    """The fields of one position, checked as they are read."""

    def __init__(
        self, text: object, header: str, game: str, required: Sequence[str], optional: Sequence[str]
    ) -> None:
        if not isinstance(text, str):
            raise InvalidPositionError(f"a position is text, not {type(text).__name__}")
        words = text.split()
        if not words or words[0] != header:
            raise InvalidPositionError(f"a {game} position starts with {header!r}")
        fields: dict[str, str] = {}
        for word in words[1:]:
            key, sep, value = word.partition("=")
            if not sep or key in fields:
                raise InvalidPositionError(f"position item {word!r} is not a new key=value")
            fields[key] = value
        missing = [k for k in required if k not in fields]
        extra = sorted(set(fields) - set(required) - set(optional))
        if missing or extra:
            raise InvalidPositionError(f"position fields missing: {missing}; unknown: {extra}")
        self.fields = fields

    def __getitem__(self, key: str) -> str:
        return self.fields[key]

    def __contains__(self, key: str) -> bool:
        return key in self.fields

    def get(self, key: str) -> str | None:
        return self.fields.get(key)

    def fail(self, key: str, why: str) -> InvalidPositionError:
        return InvalidPositionError(f"position field {key}={self.fields.get(key)!r}: {why}")

    def number(self, key: str, low: int, high: int) -> int:
        text = self.fields[key]
        if not re.fullmatch(r"-?[0-9]+", text) or not low <= int(text) <= high:
            raise self.fail(key, f"expected a whole number {low}-{high}")
        return int(text)

    def optional_number(self, key: str, low: int, high: int) -> int | None:
        return None if self.fields[key] == "-" else self.number(key, low, high)

    def cards(self, key: str, text: str | None = None) -> list[int]:
        text = self.fields[key] if text is None else text
        if text == "-":
            return []
        try:
            return [Card.parse(c).index for c in text.split(",")]
        except InvalidCardError as exc:
            raise self.fail(key, str(exc)) from exc

    def plays(
        self, key: str, text: str, players: int, *, knocks: bool = False
    ) -> list[tuple[int, int]]:
        if text == "-":
            return []
        out = []
        for item in text.split(","):
            seat, _, card = item.partition(":")
            if not is_count(seat) or int(seat) >= players or not card:
                raise self.fail(key, f"{item!r} is not seat:card")
            if knocks and card == KNOCK_TEXT:
                out.append((int(seat), -1))
                continue
            try:
                out.append((int(seat), Card.parse(card).index))
            except InvalidCardError as exc:
                raise self.fail(key, str(exc)) from exc
        return out

    def tricks(
        self, key: str, players: int, text: str | None = None, *, knocks: bool = False
    ) -> list[list[tuple[int, int]]]:
        text = self.fields[key] if text is None else text
        if text == "-":
            return []
        return [self.plays(key, t, players, knocks=knocks) for t in text.split("/")]
