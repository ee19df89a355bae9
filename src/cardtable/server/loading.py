"""Tables read from the database: loaded into memory when someone first asks for one (its
record replayed), quarantined when its record no longer replays, and a game of one read for
its replay or its review, without loading the table.

A table whose record no longer replays is quarantined: marked in the database, logged once,
and answered ``quarantined``, while every other table serves.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from cardtable.server.commits import UnavailableError, Writer, unreachable
from cardtable.server.draining import Draining
from cardtable.server.leases import Leases
from cardtable.server.logs import bounded
from cardtable.server.memory import Memory
from cardtable.server.metrics import Metrics
from cardtable.server.records import check_table
from cardtable.server.store import Owner, Store, StoredDataError
from cardtable.server.table import HUMAN, Run, Table, TableError

__all__ = ["DAMAGED", "QUARANTINED", "SET_ASIDE", "TABLE_ID", "Loader"]

log = logging.getLogger("cardtable.server")

# What a table's id can be (``secrets.token_urlsafe``): anything else is no table, and is
# never sent to the database (PostgreSQL refuses text holding NUL, for one).
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
# A table whose record no longer replays, for good (not "unavailable": that is a database
# too busy for one change, which may be sent again); and one game of a table whose record
# no longer replays, asked for its replay.
QUARANTINED = "quarantined"
SET_ASIDE = "this table's record no longer replays; the server has set it aside"
DAMAGED = "damaged"


class Loader:
    """The tables of the database, as ``memory`` holds them or loads them; those set aside
    (quarantined), and those being loaded."""

    def __init__(
        self,
        store: Store,
        writer: Writer,
        metrics: Metrics,
        memory: Memory,
        leases: Leases,
        stopping: Draining,
        *,
        grace: float,
        poke: Callable[[Table], None],
    ) -> None:
        self.store = store
        self.writer = writer
        self.metrics = metrics
        self.memory = memory
        self.leases = leases
        self.stopping = stopping
        self.grace = grace
        self.poke = poke
        self.loading: dict[str, asyncio.Task[bool | Owner]] = {}
        self.quarantined: set[str] = set()

    async def find(self, table_id: str) -> Table | None:
        """The table, loaded from the database if it is not in memory; None if there is no
        such table; :class:`TableError` ``quarantined`` if it is quarantined. A table another
        process owns is read from the database, not kept: for a look at it, not a change. A
        stopping server takes no lease: it reads a table not in memory the same way."""
        if (
            self.stopping.draining
            and self.leases.lease is not None
            and table_id not in self.memory.tables
        ):
            if table_id in self.quarantined:
                raise TableError(QUARANTINED, SET_ASIDE)
            if not TABLE_ID.fullmatch(table_id):
                return None
        else:
            found = await self.locate(table_id)
            if not isinstance(found, Owner):
                return found
        try:
            loaded = await asyncio.to_thread(self._restore, table_id)
        except SQLAlchemyError as exc:
            raise unreachable(self.metrics, table_id, exc) from exc
        except Exception as exc:
            await self._quarantine(table_id, _damage(exc))
            raise TableError(QUARANTINED, SET_ASIDE) from None
        if isinstance(loaded, str):
            raise TableError(QUARANTINED, SET_ASIDE)
        return loaded

    async def locate(self, table_id: str, dead: str | None = None) -> Table | Owner | None:
        """:meth:`find`, except that a table another process owns is that process: its seats
        are served there. ``dead``: a process found not answering, whose tables may be
        taken over before their leases run out."""
        while True:
            table = self.memory.tables.get(table_id)
            if table is not None:
                self.memory.touch(table_id)
                return table
            if table_id in self.quarantined:
                raise TableError(QUARANTINED, SET_ASIDE)
            if not TABLE_ID.fullmatch(table_id):
                return None
            task = self.loading.get(table_id)
            if task is None:
                task = asyncio.get_running_loop().create_task(self._load(table_id, dead))
                self.loading[table_id] = task
            # Shielded: a client that hangs up does not cancel the load others await.
            found = await asyncio.shield(task)
            if isinstance(found, Owner):
                return found
            if not found:
                return None
            # Loaded (or quarantined): look again. The caller runs on from here without
            # yielding to the loop, so the table cannot leave memory before it is used.

    async def known(self, table_id: str) -> bool:
        """Whether the database holds the table (in memory or not, quarantined or not)."""
        if table_id in self.memory.tables or table_id in self.quarantined:
            return True
        return bool(TABLE_ID.fullmatch(table_id)) and await asyncio.to_thread(
            self.store.exists, table_id
        )

    async def _load(self, table_id: str, dead: str | None = None) -> bool | Owner:
        """Load a table into memory; whether the database has it; or the process that owns
        it, which then serves it."""
        try:
            owner = await self.leases.claim(table_id, dead)
            if owner is not None:
                return owner
            try:
                loaded = await asyncio.to_thread(self._restore, table_id)
            except SQLAlchemyError as exc:  # the database failed, not the record: not marked
                self.leases.release(table_id)
                raise unreachable(self.metrics, table_id, exc) from exc
            except Exception as exc:
                await self._quarantine(table_id, _damage(exc))
                return True
            if loaded is None:
                self.leases.release(table_id)
                return False
            if isinstance(loaded, str):  # quarantined before (by another server process)
                self.quarantined.add(table_id)
                return True
            self._install(loaded)
            return True
        finally:
            self.loading.pop(table_id, None)

    def _restore(self, table_id: str) -> Table | str | None:
        """(In a thread.) The table replayed from its record; its quarantine's reason if it
        has one; None if there is no such table."""
        stored = self.store.load(table_id)
        if stored is None:
            return None
        if stored.quarantined is not None:
            return stored.quarantined
        check_table(stored)  # every field as this server writes it, before it is replayed
        return Table.restore(stored)

    async def _quarantine(self, table_id: str, reason: str) -> None:
        """Set aside a table whose record does not replay: logged here, once, and marked in
        the database, so that no later start tries it again. A mark the database would not
        take sets the table aside in this process alone (it is answered ``quarantined`` all
        the same); the next start finds it again and marks it then."""
        self.quarantined.add(table_id)
        log.error("table quarantined", extra={"table": table_id, "reason": reason})
        try:
            await self.writer.patiently(
                partial(self.store.quarantine, table_id, reason), self.writer.aside
            )
        except (UnavailableError, SQLAlchemyError) as exc:
            log.error(
                "quarantine not marked in the database",
                extra={"table": table_id, "reason": str(exc)},
            )

    def _install(self, table: Table) -> None:
        """Put a loaded table in memory. Nobody is connected to it: a player who had taken a
        seat counts as gone from now on, so that a stand-in plays for one who does not come
        back; a seat never taken still awaits its invited player, as on a new table. A seat
        whose last move in this game was its stand-in's keeps its stand-in, which plays on at
        once (a table taken over from a process that died, docs/hosting.md)."""
        now = time.monotonic()
        taken = False
        last_by: dict[int, str] = {}
        for item in table.events:
            if item["kind"] == "action":
                last_by[int(item["seat"])] = str(item["by"])
        for seat in table.seats:
            if seat.kind == HUMAN and seat.seat in table.acted:
                seat.left_at = now
                seat.stand_in = last_by.get(seat.seat) == "stand-in"
                taken = True
        self.memory.add(table)
        log.info("table loaded", extra={"table": table.id, "seq": table.seq})
        if taken:
            asyncio.get_running_loop().call_later(self.grace + 0.01, self.poke, table)
        self.poke(table)

    async def events_since(self, table: Table, since: int) -> list[dict[str, Any]]:
        """The table's events after ``since``: from memory, or from the database for those
        of earlier games."""
        held = table.held_since(since)
        if held is not None:
            return held
        assert table.stored, "a table stored nowhere holds all its events"
        older = await asyncio.to_thread(self.store.events, table.id, since, table.first)
        return [*older, *table.events]

    async def replay(self, table_id: str, number: int) -> dict[str, Any] | None:
        """A finished game's replay (docs/server.md); None if there is no such table. The
        current game of a table in memory is replayed from memory, any other from the
        database, without loading the table (a tutorial table's from memory: it is stored
        nowhere)."""
        table = self.memory.tables.get(table_id)
        # A tutorial table is in memory only: all its games are replayed from there.
        if table is not None and (number == table.games or not table.stored):
            self.memory.touch(table_id)
            return table.replay(number)
        if table_id in self.quarantined:
            raise TableError(QUARANTINED, SET_ASIDE)
        if not TABLE_ID.fullmatch(table_id):
            return None
        try:
            return await asyncio.to_thread(self._stored_replay, table_id, number)
        except (TableError, SQLAlchemyError):
            raise
        except Exception:
            log.exception("replay failed", extra={"table": table_id, "game": number})
            raise TableError(DAMAGED, f"game {number}'s record no longer replays") from None

    async def finished_run(self, table: Table, number: int) -> Run:
        """Game ``number`` of ``table``, over: from memory (the current game, a tutorial's),
        else played again from the database."""
        if number == table.games or not table.stored:
            return table.finished_run(number)
        stored = await asyncio.to_thread(self.store.load_game, table.id, number)
        if stored is None:
            raise TableError("no_game", f"this table has played games 1-{table.games}")
        return (await asyncio.to_thread(Table.run_stored, stored))[1]

    def _stored_replay(self, table_id: str, number: int) -> dict[str, Any] | None:
        stored = self.store.load_game(table_id, number)
        if stored is None:
            return None
        if stored.quarantined is not None:
            self.quarantined.add(table_id)
            raise TableError(QUARANTINED, SET_ASIDE)
        return Table.replay_stored(stored)


def _damage(exc: Exception) -> str:
    """Why a table's record does not load: the stored field that does not fit (``records``,
    ``store``), or what failed in its replay; bounded, as a stored value named in it may be
    of any size, and the reason is one log line and one column."""
    said = str(exc) if isinstance(exc, StoredDataError) else f"{type(exc).__name__}: {exc}"
    return bounded(said)
