"""Preset messages between the players of a table (docs/server.md, "Preset messages").

A seated player sends a message's *id*, one of :data:`PRESETS` ("good_game",
"well_played", …); the server relays the id and the sender's seat to everyone at the table,
spectators included, and each page shows it in its reader's language. No free text ever
crosses the table: nothing to moderate, nothing to translate, and nothing hidden a player
could slip to a partner in words.

Messages are not events: they are not stored, numbered or replayed, and a page that joins
later does not hear the earlier ones. Each seat may send :data:`PER_MINUTE` a minute, in
bursts of as many: the token bucket of :class:`cardtable.server.limits.CreationLimit`, one
bucket per seat of each table.
"""

from __future__ import annotations

import logging
import weakref
from typing import ClassVar

from cardtable.server.hub import Hub
from cardtable.server.limits import CreationLimit
from cardtable.server.seats import seated
from cardtable.server.sockets import Connection
from cardtable.server.table import TableError, compact

__all__ = ["PER_MINUTE", "PRESETS", "Chat"]

log = logging.getLogger("cardtable.server")

PRESETS = (
    "hello",
    "good_luck",
    "good_game",
    "well_played",
    "thanks",
    "nice_trick",
    "oops",
    "sorry",
    "hurry_up",
    "bye",
)
"""The messages a player may send, by id; the page's words for each are its locales'
``chat.messages.<id>``. Ids are only ever added, and each keeps its meaning."""

PER_MINUTE = 6
# Buckets remembered at once: a seat with a full bucket is the same as none, so the full
# ones are forgotten first (CreationLimit), and memory stays bounded however many tables.
SEATS_REMEMBERED = 10000


class Chat:
    """The preset messages of one hub's tables: the relaying and each seat's allowance."""

    _of: ClassVar[weakref.WeakKeyDictionary[Hub, Chat]] = weakref.WeakKeyDictionary()

    def __init__(self, hub: Hub, per_minute: float = PER_MINUTE) -> None:
        self.hub = hub
        self.limit = CreationLimit(per_minute, SEATS_REMEMBERED)

    @classmethod
    def of(cls, hub: Hub) -> Chat:
        """The hub's chat, made on first use."""
        chat = cls._of.get(hub)
        if chat is None:
            chat = cls._of[hub] = cls(hub)
        return chat

    def say(self, connection: Connection, message_id: str) -> None:
        """Relay a seat's preset message to everyone at its table, the sender included (its
        answer); refused (and heard by nobody else) from a spectator, with an id that is not
        a preset, or past the seat's allowance."""
        seat = seated(connection)
        if message_id not in PRESETS:
            shown = f" {message_id!r}" if len(message_id) <= 40 else ""
            raise TableError(
                "unknown_message",
                f"no preset message{shown}; the ids are {', '.join(PRESETS)}",
            )
        table = connection.table
        wait = self.limit.wait(f"{table.id}:{seat}")
        if wait > 0:
            raise TableError(
                "chat_limit",
                f"a seat may send {self.limit.per_minute:g} messages a minute; "
                f"the next in {CreationLimit.retry_after(wait)} s",
            )
        text = compact({"type": "chat", "seat": seat, "id": message_id})
        for other in self.hub.connections.get(table.id, ()):
            if other.joined:
                other.send_text(text)
        log.info("preset message", extra={"table": table.id, "seat": seat, "code": message_id})
