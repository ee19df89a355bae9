"""cardtable: Neuf, Kryt'-navalivat' and Knockout Whist, faithfully.

>>> import cardtable
>>> game = cardtable.make("knockout-whist", players=3, dealer=0)
>>> state = game.new_state(seed=7)
>>> state.to_move, len(state.legal_actions())
(1, 7)
>>> again = cardtable.replay(state.record())
>>> again.position() == state.position()
True
"""

from __future__ import annotations

import json
from typing import Any

from cardtable import compiled
from cardtable.cards import DECK_36, DECK_52, Card, CardSet, Rank, Suit
from cardtable.core import Action, Game, Record, Result, State, View
from cardtable.errors import (
    CardtableError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidDeckError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidScoreError,
    OutOfTurnError,
    UnknownGameError,
)
from cardtable.rules.catalog import DESCRIPTORS, descriptor

__all__ = [
    "DECK_36",
    "DECK_52",
    "GAMES",
    "Action",
    "Card",
    "CardSet",
    "CardtableError",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidScoreError",
    "OutOfTurnError",
    "Rank",
    "Record",
    "Result",
    "State",
    "Suit",
    "UnknownGameError",
    "View",
    "games",
    "load_record",
    "make",
    "replay",
]

__version__ = "0.1.0"

GAMES = DESCRIPTORS
"""Each game's descriptor by name (:mod:`cardtable.rules.catalog`); a game's modules are
imported on first use, so that ``import cardtable`` stays light."""


def games() -> list[str]:
    """The names :func:`make` accepts."""
    return sorted(GAMES)


def game_class(name: str) -> type[Game]:
    return descriptor(name).game_class()


def make(name: str, *, engine: str | None = None, **options: Any) -> Game:
    """A game with its options checked, e.g. ``make("knockout-whist", players=5)``.

    Its states live in the compiled core when it is built (``engine="core"``); the Python
    engine, the rules' reference, plays them with ``engine="python"``. Without ``engine``
    the environment variable ``CARDTABLE_CORE`` chooses (``auto``, ``rust``, ``python``:
    ``docs/core.md``). Both engines play the same game, action for action."""
    cls = game_class(name)
    if engine is None:
        engine = "core" if compiled.in_use() else "python"
    if engine == "core":
        if not compiled.available():
            raise CardtableError("engine='core' but the compiled core is not built")
        from cardtable.engines import on_core

        return on_core(cls)(**options)
    if engine != "python":
        raise InvalidOptionError(f"engine {engine!r} is not an engine: expected core or python")
    return cls(**options)


def load_record(source: str | dict[str, Any] | Record) -> Record:
    """A :class:`Record` from JSON text, a decoded JSON object, or a record."""
    if isinstance(source, Record):
        return source
    if isinstance(source, str):
        return Record.from_json(source)
    return Record.from_dict(source)


def replay(record: str | dict[str, Any] | Record) -> State:
    """Rebuild the state a record describes, every action checked."""
    rec = load_record(record)
    try:
        game = make(rec.game, **rec.options)
    except (UnknownGameError, InvalidOptionError) as exc:
        raise InvalidRecordError(f"record names a game that cannot be made: {exc}") from exc
    return game.replay(rec)


def dumps_view(view: View) -> str:
    """A view as compact JSON, as the server and golden files write it."""
    return json.dumps(view, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
