"""The check of a stored table against what this server writes, before it is replayed.

A table is its record (``store.py``): its row, its seats, its events and its deals. A row
changed by hand, by a script or by a damaged file can hold what no code of the server ever
wrote: a seat of a kind it does not know, an option its game does not have, an event of
the wrong shape. Replaying the events checks every action against the rules, but not the
rest, which the server would publish as it is. So every stored field is checked here
first, against the shapes the server writes today (``table.py``, and the options as opening
a table checks them), and a table that does not fit is quarantined (``loading.py``), for a
reason that names the field: ``seat 2: kind 'alien' is not human or bot``.

Fields added since the first tables were stored are optional (``won``, ``final``, a fair
game's ``commitment``, ``seeds`` and ``server_seed``), and a revealed deck is read under its
old name ``cards`` too: a table stored by an earlier version still loads.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from cardtable.cards import Card
from cardtable.errors import CardtableError
from cardtable.fairness import CONSTRUCTION, check_client_seed
from cardtable.options import read_deck
from cardtable.server.deals import commitment
from cardtable.server.store import DealRow, StoredDataError, StoredTable
from cardtable.server.table import (
    BOT,
    HUMAN,
    LEVELS,
    NAME_LENGTH,
    Table,
    TableError,
    printable_name,
)

__all__ = ["MOVERS", "RecordError", "check_table"]

# Who an ``action`` event says made the move.
MOVERS = ("human", "bot", "stand-in")
DEAL_KINDS = ("deck", "reshuffle")
HEX64 = re.compile(r"[0-9a-f]{64}")

# The check of one field's value: what is wrong with it, in words, or None if it fits.
Check = Callable[[object], "str | None"]


class RecordError(StoredDataError):
    """A stored table holds what this server does not write; the message names the field."""


class _Shapes:
    """The fields of each kind of event, each with the check of its value (the error's
    words, or None if it fits), for a table of ``players`` seats, of these kinds."""

    def __init__(self, kinds: list[str]) -> None:
        self.kinds = kinds
        players = len(kinds)
        seat = _seat(players)
        common: dict[str, Check] = {"seq": _number, "kind": _text, "game": _count}
        deal = {**common, "hand": _number, "commitment": _hex64}
        self.required: dict[str, dict[str, Check]] = {
            "game": {**common, "dealer": seat},
            "action": {**common, "seat": seat, "action": _text, "by": _one_of(MOVERS)},
            "deal": deal,
            "reveal": {**deal, "salt": _text},
            "over": {**common, "result": _result(players)},
            "seed": {"seq": _number, "kind": _text, "seat": self._human, "seed": _seed},
        }
        seeds = _seeds(players)
        self.optional: dict[str, dict[str, Check]] = {
            # Construction 2 names itself; a game of construction 1 has no such field.
            "game": {"commitment": _hex64, "construction": _construction},
            "action": {"won": seat},
            "deal": {"reshuffle": _number, "seeds": seeds},
            "reveal": {"reshuffle": _number, "seeds": seeds, "deck": _cards, "cards": _cards},
            "over": {"final": _object, "server_seed": _hex64},
            "seed": {},
        }

    def _human(self, value: object) -> str | None:
        wrong = _seat(len(self.kinds))(value)
        if wrong is None and isinstance(value, int) and self.kinds[value] != HUMAN:
            return "is a bot's seat, which gives no seed"
        return wrong

    def check(self, where: str, event: dict[str, Any]) -> None:
        kind = event["kind"]
        required, optional = self.required[kind], self.optional[kind]
        for name in required:
            if name not in event:
                raise RecordError(f"{where}: no {name!r}")
        for name, value in event.items():
            check = required.get(name, optional.get(name))
            if check is None:
                raise RecordError(f"{where}: a field {name!r} that no {kind} event has")
            wrong = check(value)
            if wrong is not None:
                raise RecordError(f"{where}: {name} {_shown(value)} {wrong}")


def check_table(stored: StoredTable) -> None:
    """Check every stored field of a table that is not quarantined; :class:`RecordError`
    names the first that does not fit."""
    try:
        name, options = Table.check_game(stored.game, stored.options)
        game = Table.make_game(name, options)
    except TableError as exc:
        field = "game" if exc.code == "unknown_game" else "options"
        raise RecordError(f"{field}: {exc}") from None
    if not isinstance(stored.created, (int, float)) or not math.isfinite(stored.created):
        raise RecordError(f"created {_shown(stored.created)} is not a time")
    if stored.secret is not None and (
        not isinstance(stored.secret, str) or not HEX64.fullmatch(stored.secret)
    ):
        raise RecordError(f"secret {_shown(stored.secret)} is not 64 hex digits")
    kinds = _check_seats(stored, game.num_players)
    _check_events(stored, _Shapes(kinds))
    _check_deals(stored, game.pack)


def _check_seats(stored: StoredTable, players: int) -> list[str]:
    """The seats' kinds in seat order, each seat checked against what opening a table makes
    of one (``Table.check_request``)."""
    numbers = [row.seat for row in stored.seats]
    if numbers != list(range(players)):
        raise RecordError(
            f"seats are numbered {_shown(numbers)}, not 0 to {players - 1} "
            f"(the options say {players} players)"
        )
    for row in stored.seats:
        where = f"seat {row.seat}"
        if row.kind not in (HUMAN, BOT):
            raise RecordError(f"{where}: kind {_shown(row.kind)} is not human or bot")
        if row.kind == BOT and row.level not in LEVELS:
            raise RecordError(
                f"{where}: level {_shown(row.level)} is not one of {', '.join(LEVELS)}"
            )
        if row.kind == HUMAN and row.level is not None:
            raise RecordError(f"{where}: a human seat with a level ({_shown(row.level)})")
        if not isinstance(row.name, str) or not 1 <= len(row.name) <= NAME_LENGTH:
            raise RecordError(f"{where}: name {_shown(row.name)} is not 1-{NAME_LENGTH} characters")
        if not printable_name(row.name):
            raise RecordError(f"{where}: name {_shown(row.name)} holds control characters")
        if row.kind == HUMAN and not (
            isinstance(row.token_hash, str) and HEX64.fullmatch(row.token_hash)
        ):
            raise RecordError(f"{where}: a human seat without its token's hash")
        if row.kind == BOT and row.token_hash is not None:
            raise RecordError(f"{where}: a bot's seat with a token")
    kinds = [row.kind for row in stored.seats]
    if HUMAN not in kinds:
        raise RecordError("seats: no human seat")
    return kinds


def _check_events(stored: StoredTable, shapes: _Shapes) -> None:
    """Each event of its kind's shape, numbered from 1 with no gap, as its row says, and of
    the game begun by the latest ``game`` event (the first event begins game 1)."""
    if not stored.events:
        raise RecordError("no events: a table's record begins with its first game")
    game = 0
    for number, event in enumerate(stored.events, 1):
        where = f"event {number}"
        if not isinstance(event, dict):
            raise RecordError(f"{where}: {_shown(event)} is not an object")
        kind = event.get("kind")
        if kind not in shapes.required:
            raise RecordError(
                f"{where}: kind {_shown(kind)} is not one of {', '.join(shapes.required)}"
            )
        where = f"event {number} ({kind})"
        if event.get("seq") != number or type(event.get("seq")) is not int:
            raise RecordError(f"{where}: numbered {_shown(event.get('seq'))}, not {number}")
        if number <= len(stored.rows) and stored.rows[number - 1] != (number, kind):
            seq, said = stored.rows[number - 1]
            raise RecordError(f"{where}: its row is numbered {seq} and says {said!r}")
        shapes.check(where, event)
        if kind == "game":
            if event["game"] != game + 1:
                raise RecordError(f"{where}: game {event['game']} after game {game}")
            game += 1
        elif game == 0:
            raise RecordError(f"{where}: before the first game event")
        elif kind != "seed" and event["game"] != game:
            raise RecordError(f"{where}: of game {event['game']}, during game {game}")


def _check_deals(stored: StoredTable, pack: tuple[int, ...]) -> None:
    """Each deal row a deck of the game's pack or a reshuffle of its cards, numbered from
    0 in each game, whose cards and salt give the commitment its ``deal`` event published
    (in the same order)."""
    published: dict[int, list[dict[str, Any]]] = {}
    for event in stored.events:
        if event["kind"] == "deal":
            published.setdefault(event["game"], []).append(event)
    drawn: dict[int, list[DealRow]] = {}
    for row in stored.deals:
        if type(row.game) is not int or type(row.number) is not int:
            raise RecordError(f"deal {_shown(row.number)} of game {_shown(row.game)}: not numbered")
        drawn.setdefault(row.game, []).append(row)
    for game in sorted(set(published) | set(drawn)):
        rows, events = drawn.get(game, []), published.get(game, [])
        for index, row in enumerate(rows):
            where = f"deal {row.number} of game {game}"
            if row.number != index:
                raise RecordError(f"deals of game {game}: number {row.number} where {index} is")
            if row.kind not in DEAL_KINDS:
                raise RecordError(f"{where}: kind {_shown(row.kind)} is not deck or reshuffle")
            if type(row.hand) is not int or row.hand < 0:
                raise RecordError(f"{where}: hand {_shown(row.hand)} is not a number")
            if not isinstance(row.cards, str) or not isinstance(row.salt, str) or not row.salt:
                raise RecordError(f"{where}: cards and salt are text")
            _check_cards(where, row.kind, row.cards.split(), pack)
            if index >= len(events):
                raise RecordError(f"{where}: no deal event published it")
            if commitment(row.salt, row.cards.split()) != events[index]["commitment"]:
                raise RecordError(
                    f"{where}: its cards and salt do not give the commitment of event "
                    f"{events[index]['seq']}"
                )
        if len(events) > len(rows):
            raise RecordError(f"event {events[len(rows)]['seq']} (deal): no deal row")


def _check_cards(where: str, kind: str, cards: list[str], pack: tuple[int, ...]) -> None:
    try:
        if kind == "deck":
            read_deck(cards, "the deck", pack)
            return
        indices = [Card.parse(text).index for text in cards]
    except CardtableError as exc:
        raise RecordError(f"{where}: {exc}") from None
    if len(set(indices)) != len(indices) or not set(indices) <= set(pack):
        raise RecordError(f"{where}: the reshuffle is not cards of the game's pack, each once")


# The checks of the events' fields -------------------------------------------------------


def _shown(value: object) -> str:
    """A stored value as a message quotes it: short, whatever its length."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _number(value: object) -> str | None:
    return None if type(value) is int and value >= 0 else "is not a number"


def _count(value: object) -> str | None:
    return None if type(value) is int and value >= 1 else "is not a number from 1"


def _text(value: object) -> str | None:
    return None if isinstance(value, str) else "is not text"


def _object(value: object) -> str | None:
    return None if isinstance(value, dict) else "is not an object"


def _hex64(value: object) -> str | None:
    return None if isinstance(value, str) and HEX64.fullmatch(value) else "is not 64 hex digits"


def _seed(value: object) -> str | None:
    try:
        check_client_seed(value)
    except ValueError as exc:
        return f"is not a seed ({exc})"
    return None


def _seat(players: int) -> Check:
    def check(value: object) -> str | None:
        if type(value) is int and 0 <= value < players:
            return None
        return f"is not a seat (0 to {players - 1})"

    return check


def _construction(value: object) -> str | None:
    return None if type(value) is int and value == CONSTRUCTION else f"is not {CONSTRUCTION}"


def _one_of(choices: tuple[str, ...]) -> Check:
    def check(value: object) -> str | None:
        return None if value in choices else f"is not one of {', '.join(choices)}"

    return check


def _cards(value: object) -> str | None:
    if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
        return "is not a list of cards"
    try:
        for card in value:
            Card.parse(card)
    except CardtableError as exc:
        return f"is not a list of cards ({exc})"
    return None


def _seeds(players: int) -> Check:
    def check(value: object) -> str | None:
        if (
            isinstance(value, list)
            and len(value) == players
            and all(seed is None or isinstance(seed, str) for seed in value)
        ):
            return None
        return f"is not a seed or null for each of the {players} seats"

    return check


def _result(players: int) -> Check:
    seat = _seat(players)

    def check(value: object) -> str | None:
        if not isinstance(value, dict) or set(value) != {"winners", "places", "returns", "summary"}:
            return "is not an object of winners, places, returns and summary"
        winners, places, returns = value["winners"], value["places"], value["returns"]
        if not isinstance(winners, list) or any(seat(s) for s in winners):
            return "has winners that are not seats"
        if not isinstance(places, list) or any(
            not isinstance(place, list) or any(seat(s) for s in place) for place in places
        ):
            return "has places that are not lists of seats"
        if (
            not isinstance(returns, list)
            or len(returns) != players
            or any(type(r) not in (int, float) for r in returns)
        ):
            return f"has returns that are not {players} numbers"
        if not isinstance(value["summary"], str):
            return "has a summary that is not text"
        return None

    return check
