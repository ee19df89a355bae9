"""The seats of the tables in memory and the sockets at them: who joins which seat (or
watches), who leaves, a stand-in asked for, and the messages each socket is sent, each for
its own seat's view."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from cardtable.server.draining import Draining
from cardtable.server.memory import Memory
from cardtable.server.metrics import Metrics
from cardtable.server.sockets import Connection
from cardtable.server.table import HUMAN, Change, Seat, Table, TableError, compact

__all__ = ["Seats", "seated"]

log = logging.getLogger("cardtable.server")


class Seats:
    """The seats and sockets of the tables in ``memory``."""

    def __init__(
        self,
        memory: Memory,
        stopping: Draining,
        metrics: Metrics,
        *,
        grace: float,
        poke: Callable[[Table], None],
        commit: Callable[[Table, Change], Awaitable[None]],
        events_since: Callable[[Table, int], Awaitable[list[dict[str, Any]]]],
    ) -> None:
        self.memory = memory
        self.stopping = stopping
        self.metrics = metrics
        self.grace = grace
        self.poke = poke
        self.commit = commit
        self.events_since = events_since

    def attach(self, connection: Connection) -> None:
        self.memory.connections[connection.table.id].add(connection)
        self.metrics.sockets_open.inc()

    async def join(
        self, connection: Connection, token: str | None, since: int | None, seed: str | None
    ) -> None:
        """Seat the socket by its token (None: watch), checked as messages.Join reads it."""
        table = connection.table
        seat: Seat | None = None
        if token is not None:
            seat = table.seat_of_token(token)
            if seat is None:
                log.warning("bad token", extra={"table": table.id})
                raise TableError("bad_token", "that token holds no seat at this table")
        if seed is not None:
            await self._give_seed(table, seat, seed)
        async with self.memory.lock(table):
            # Joining again on the same socket (as another seat, or to watch) leaves the seat
            # it held, which then needs its grace timer like any seat left (see leave()).
            vacated = self.leave_seat(connection)
            connection.seat = None if seat is None else seat.seat
            connection.joined = True
            if seat is not None:
                held = seat.connections > 0  # by another window, which this one replaces
                for other in list(self.memory.connections[table.id]):
                    if other is not connection and other.joined and other.seat == seat.seat:
                        other.send(
                            {
                                "type": "error",
                                "code": "replaced",
                                "message": "this seat was taken up in another window",
                            }
                        )
                        other.joined = False
                        other.close(1000, "replaced")
                        seat.connections -= 1
                if not held:
                    self.metrics.seats_connected.inc()
                seat.connections += 1
                seat.left_at = None
                seat.stand_in = False
            missed = (
                await self.events_since(table, since)
                if isinstance(since, int) and since <= table.seq
                else []
            )
            connection.send(table.snapshot(connection.seat, missed))
            for note in table.notes(connection.seat):
                connection.send(note)
        if vacated:
            asyncio.get_running_loop().call_later(self.grace + 0.01, self.poke, table)
        if seat is not None or vacated:
            self.presence(table)

    async def _give_seed(self, table: Table, seat: Seat | None, seed: str) -> None:
        """A joining page's seed, stored as a ``seed`` event before its snapshot, so that
        every deal after the snapshot is derived from it (docs/fairness.md). A spectator's
        seed deals nothing (it was checked all the same, as every message is read)."""
        if seat is None:
            return
        with self.stopping.change():
            async with self.memory.lock(table):
                change = table.seed_change(seat.seat, seed)
                if change is None:
                    return
                if table.stored:
                    await self.commit(table, change)
                table.commit(change)
                self.announce(table, change)

    def leave(self, connection: Connection) -> None:
        table = connection.table
        if not self.memory.holds(table):  # dropped (moved): its seats went with it
            return
        if connection in self.memory.connections[table.id]:
            self.memory.connections[table.id].remove(connection)
            self.metrics.sockets_open.dec()
        self.memory.touch(table.id)
        if self.leave_seat(connection):
            self.presence(table)
            # One look when the grace period is over: a stand-in plays if the seat is still
            # empty and to move (a seat that left and came back gets a later timer of its own).
            asyncio.get_running_loop().call_later(self.grace + 0.01, self.poke, table)

    def leave_seat(self, connection: Connection) -> bool:
        """Release the connection's seat; whether the seat is now without a connection."""
        if not connection.joined or connection.seat is None:
            return False
        seat = connection.table.seats[connection.seat]
        connection.joined = False
        seat.connections -= 1
        if seat.connections == 0:
            seat.left_at = time.monotonic()
            self.metrics.seats_connected.dec()
            return True
        return False

    def stand_in(self, connection: Connection, seat: int) -> None:
        """A seated player asks for a stand-in bot for ``seat``, a human seat with nobody
        at it (an invited player who has not come, or one who left): it plays at once, as
        after the grace period, until the seat's player joins. Everyone hears of it in a
        ``presence`` message, the asker's answer."""
        seated(connection)
        table = connection.table
        if not 0 <= seat < len(table.seats):
            raise TableError("malformed", f"seat is a seat number, 0 to {len(table.seats) - 1}")
        wanted = table.seats[seat]
        if wanted.kind != HUMAN:
            raise TableError("not_absent", f"seat {seat} is a bot's")
        if wanted.connections:
            raise TableError("not_absent", f"seat {seat}'s player is at the table")
        if not wanted.stand_in:
            wanted.stand_in = True
            log.info("stand-in asked for", extra={"table": table.id, "seat": seat})
        self.presence(table)
        self.poke(table)

    def announce(self, table: Table, change: Change) -> None:
        # Each seat's messages are encoded once, however many windows show that seat, and
        # the table's description once for all of them.
        encoded: dict[int | None, list[str]] = {}
        described: str | None = None
        for connection in self.memory.connections.get(table.id, ()):
            if not connection.joined:
                continue
            seat = connection.seat
            texts = encoded.get(seat)
            if texts is None:
                if described is None:
                    described = compact(table.describe())
                texts = encoded[seat] = table.event_texts(change.events, seat, described)
            for text in texts:
                connection.send_text(text)
            for note in table.notes(seat):
                connection.send(note)

    def presence(self, table: Table) -> None:
        message = json.dumps({"type": "presence", "table": table.describe()})
        for connection in self.memory.connections.get(table.id, ()):
            if connection.joined:
                connection.send_text(message)


def seated(connection: Connection) -> int:
    """The seat of a joined connection; :class:`TableError` if it has not joined, or only
    watches."""
    if not connection.joined:
        raise TableError("not_joined", "send join first")
    if connection.seat is None:
        raise TableError("spectator", "a spectator cannot act")
    return connection.seat
