"""A client's websocket messages, read at the edge into a closed set of types
(docs/server.md, "Client to server").

Each message is one of the types below, or it is refused ``malformed`` with what the message
should have been, before anything of the table is looked at; the handlers take the typed
message and check only what needs the table (a seat's number against its seats, a token
against its tokens, an action against the rules).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardtable.fairness import check_client_seed
from cardtable.server.table import TableError
from cardtable.server.wire import parse_json

__all__ = [
    "Act",
    "Chat",
    "Hint",
    "Join",
    "Message",
    "Next",
    "Ping",
    "Review",
    "StandIn",
    "parse_message",
]


@dataclass(frozen=True, slots=True)
class Join:
    """Take a seat (``token``) or watch (None), sent what came after event ``since``; the
    page's ``seed`` for the deals to come (checked here: docs/fairness.md)."""

    token: str | None
    since: int | None
    seed: str | None


@dataclass(frozen=True, slots=True)
class Act:
    """Play ``action`` (its text), on the table as of event ``seq``."""

    action: str
    seq: int


@dataclass(frozen=True, slots=True)
class Hint:
    """The seat's hint for its turn."""


@dataclass(frozen=True, slots=True)
class Next:
    """Start the next game of a table whose game is over."""


@dataclass(frozen=True, slots=True)
class StandIn:
    """A stand-in bot for the empty human seat ``seat`` (its range is the table's)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Review:
    """The seat's review of game ``game`` (its range is the table's)."""

    game: int


@dataclass(frozen=True, slots=True)
class Chat:
    """A preset message, by its id (the presets are the chat's)."""

    id: str


@dataclass(frozen=True, slots=True)
class Ping:
    """Is the server there? (``pong``)"""


Message = Join | Act | Hint | Next | StandIn | Review | Chat | Ping
"""Every message a client may send."""


def parse_message(data: str | bytes) -> Message:
    """The message in a websocket frame's text; :class:`TableError` ``malformed`` (saying
    what was wrong, or what the type expects) for any other text."""
    message = parse_json(data)
    if not isinstance(message, dict):
        raise TableError("malformed", "a message is a JSON object")
    kind = message.get("type")
    read = _READERS.get(kind) if isinstance(kind, str) else None
    if read is None:
        named = f" {kind!r}" if isinstance(kind, str) and len(kind) <= 40 else ""
        raise TableError("malformed", f"unknown message type{named}; see docs/server.md")
    return read(message)


def _join(message: dict[str, Any]) -> Join:
    token, since, seed = message.get("token"), message.get("since"), message.get("seed")
    if token is not None and not isinstance(token, str):
        raise TableError("malformed", "token is text, or null to watch")
    if since is not None and (type(since) is not int or since < 0):
        raise TableError("malformed", "since is an event number, or null")
    if seed is not None:
        try:
            seed = check_client_seed(seed)
        except ValueError as exc:
            raise TableError("malformed", str(exc)) from None
    return Join(token, since, seed)


def _act(message: dict[str, Any]) -> Act:
    action, seq = message.get("action"), message.get("seq")
    if not isinstance(action, str) or type(seq) is not int:
        raise TableError("malformed", "an action is {type, action: text, seq: number}")
    return Act(action, seq)


def _stand_in(message: dict[str, Any]) -> StandIn:
    seat = message.get("seat")
    if type(seat) is not int:
        raise TableError("malformed", "a stand-in is {type, seat: a seat number}")
    return StandIn(seat)


def _review(message: dict[str, Any]) -> Review:
    game = message.get("game")
    if type(game) is not int:
        raise TableError("malformed", "a review is {type, game: the game's number}")
    return Review(game)


def _chat(message: dict[str, Any]) -> Chat:
    preset = message.get("id")
    if not isinstance(preset, str):
        raise TableError("malformed", "a preset message is {type: 'chat', id: text}")
    return Chat(preset)


def _hint(_message: dict[str, Any]) -> Hint:
    return Hint()


def _next(_message: dict[str, Any]) -> Next:
    return Next()


def _ping(_message: dict[str, Any]) -> Ping:
    return Ping()


_READERS: dict[str, Callable[[dict[str, Any]], Message]] = {
    "join": _join,
    "action": _act,
    "hint": _hint,
    "next": _next,
    "stand_in": _stand_in,
    "review": _review,
    "chat": _chat,
    "ping": _ping,
}
