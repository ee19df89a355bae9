"""The live tables of a server: who is connected to which seat, and the order of changes.

Tables live in memory only while they are used: a table is loaded from the database (its
record replayed) when someone first asks for it, and leaves memory again once it has been
idle for a while with nobody connected and no bot to move, or at once when its game is over
and nobody is at it (archived: its replays are served from the database). A table whose
record no longer replays is quarantined: marked in the database, logged once, and answered
``quarantined``, while every other table serves. Tutorial tables are in memory only: never
loaded, never archived, and dropped once idle or when too many are open (:meth:`sweep`).

Every change to a table goes through :meth:`Hub.apply` under that table's lock: the
change is computed on a copy, committed to the database, installed, and only then sent to
the table's connections, each receiving its own seat's view. A change the database would
not take is never installed: its sender hears ``unavailable``, and a bot's move is tried
again (its table stays in memory meanwhile). Bots (and stand-ins for disconnected players)
think in a process pool, never on the event loop; hints in a pool of their own, one at a
time for each seat.

Several server processes may share one PostgreSQL database (docs/hosting.md, "Many
processes"). Each table is then held by one of them, its owner, named with a lease in the
database (``owners``) that the owner renews and gives up when the table leaves memory; the
other processes send the table's seats to the owner (``app.py`` relays their sockets). A
lease that runs out (its process died) is taken over by another process, which loads the
table and starts its bots. Leases say where a table is served; a change is stored only if
its event numbers are still free and its table's lease still names this process
(:class:`MovedError` otherwise), so a process whose lease went wrong (or ran out while the
database was unreachable, and was taken over) loses its change, drops its copy of the
table, loads it again if it can, and closes its seats' sockets, whose pages reconnect and
resume from their last event.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocket

from cardtable.core import View
from cardtable.fairness import bot_seed
from cardtable.server.commits import COMMIT_PATIENCE, MovedError, UnavailableError, Writer
from cardtable.server.metrics import Metrics
from cardtable.server.outages import outage
from cardtable.server.records import RecordError, check_table
from cardtable.server.store import Owner, Store
from cardtable.server.table import BOT, HUMAN, Change, Run, Seat, Table, TableError
from cardtable.server.thinking import advise, choose
from cardtable.server.tutorial import MAX_TUTORIAL_TABLES, TutorialTable
from cardtable.tutorial import tutorial_of

__all__ = [
    "DAMAGED",
    "LEASE",
    "MOVED_AWAY",
    "QUARANTINED",
    "RESTARTING",
    "RESTART_CODE",
    "Connection",
    "Hub",
]

log = logging.getLogger("cardtable.server")

STAND_IN_LEVEL = "easy"
# The heuristic decides in well under a millisecond (a few at worst, in Kryt'-navalivat'):
# less than handing the view to another process costs, so it plays on the event loop.
INLINE_LEVELS = frozenset({"easy"})
FALLBACK_LEVEL = "random"
# A hint searches to the end of the hard level's budget: a seat may have one under way and
# ask for this many in a minute, so that a few seats cannot keep the hint workers for ever.
HINTS_PER_MINUTE = 12
HINT_WINDOW = 60.0
# Seconds before a bot whose move the database refused tries again, and between the looks
# over every table in memory that start any bot left waiting (whatever stopped it).
RETRY_AFTER = 1.0
WATCH_EVERY = 5.0
# What a table's id can be (``secrets.token_urlsafe``): anything else is no table, and is
# never sent to the database (PostgreSQL refuses text holding NUL, for one).
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
# A table whose record no longer replays, for good (not "unavailable": that is a database
# too busy for one change, which may be sent again); and one game of a table whose record
# no longer replays, asked for its replay.
QUARANTINED = "quarantined"
SET_ASIDE = "this table's record no longer replays; the server has set it aside"
DAMAGED = "damaged"
# The close code that tells a client to connect again (RFC 6455's "Service Restart"): the
# server is stopping (behind a proxy, the next connection reaches a server that is up), or
# the table moved to another server process (the next connection is served by its owner).
# The page reconnects on any close, and asks for the events it missed.
RESTART_CODE = 1012
RESTARTING = "the server is restarting; connect again"
MOVED_AWAY = "this table moved to another server process; connect again"
# Seconds a table's lease lasts unless its owner renews it (three times a lease): how long
# the bots of a table whose process died wait before another process takes it over. A seat
# that reconnects takes its table over at once, once its owner no longer answers.
LEASE = 6.0
ORPHANS_AT_ONCE = 50  # tables whose lease ran out that one look takes over


@dataclass(eq=False)
class Connection:
    """One websocket at a table: a seat's, or a spectator's (``seat`` None)."""

    socket: WebSocket
    table: Table
    seat: int | None = None
    joined: bool = False
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    # A token bucket against floods: 20 messages a second, bursts of 40.
    allowance: float = 40.0
    checked: float = field(default_factory=time.monotonic)
    # The close code and reason the pump closes with (RESTART_CODE: connect again).
    closing: tuple[int, str] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(json.dumps(message, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        self.outbox.put_nowait(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the socket once the messages queued before are sent (with the code of the
        first close asked for)."""
        if self.closing is None:
            self.closing = (code, reason)
        self.outbox.put_nowait(None)

    def admit(self) -> bool:
        """Whether one more message fits in the flood limit."""
        now = time.monotonic()
        self.allowance = min(40.0, self.allowance + (now - self.checked) * 20.0)
        self.checked = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True

    async def pump(self) -> None:
        """Send queued messages in order, so a slow client never holds up a broadcast."""
        while True:
            text = await self.outbox.get()
            if text is None:
                await self.socket.close(*(self.closing or (1000, "")))
                return
            await self.socket.send_text(text)


class Hub:
    """Every table of the server, its connections, and its bots."""

    def __init__(
        self,
        store: Store,
        executor: Executor,
        hint_executor: Executor,
        *,
        grace: float = 60.0,
        bot_delay: float = 0.6,
        hints_per_minute: int = HINTS_PER_MINUTE,
        commit_patience: float = COMMIT_PATIENCE,
        evict_after: float = 600.0,
        lease: float | None = None,
        address: str | None = None,
    ) -> None:
        self.store = store
        self.executor = executor
        self.hint_executor = hint_executor
        self.grace = grace
        self.bot_delay = bot_delay
        self.hints_per_minute = hints_per_minute
        self.evict_after = evict_after
        self.tables: dict[str, Table] = {}  # the tables in memory
        self.locks: dict[str, asyncio.Lock] = {}
        self.connections: dict[str, set[Connection]] = {}
        self.touched: dict[str, float] = {}  # when each table in memory was last used
        self.loading: dict[str, asyncio.Task[bool | Owner]] = {}
        self.quarantined: set[str] = set()
        self.thinking: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        # (table, seat) of each hint under way, and when each seat asked for its recent ones.
        self.hinting: set[tuple[str, int]] = set()
        self.hints_asked: dict[tuple[str, int], deque[float]] = {}
        self.tutorials: list[str] = []  # tutorial tables' ids, oldest first
        self.metrics = Metrics()
        # Set by :meth:`drain`: the server is stopping, and takes no new table nor change.
        self.draining = False
        self.changing = 0  # changes and new tables being computed or committed
        # Several processes on one database: this one's name in the owners' leases, the
        # address its peers relay seats to, and the lease's length (None: one process, no
        # leases; the guard on each commit still holds).
        self.process = secrets.token_hex(8)
        self.address = address
        self.lease = lease
        self.writer = Writer(
            store,
            commit_patience,
            metrics=self.metrics,
            owner=None if lease is None else self.process,
        )
        self.claimed: dict[str, float] = {}  # when this process last claimed each table
        # The leases' writes, one at a time and in order (a release before a new claim).
        self.owners = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardtable-owners")
        loop = asyncio.get_running_loop()
        self.watch = loop.create_task(self._watch())
        self.sweeper = loop.create_task(self._sweep())
        self.keeper = loop.create_task(self._keep()) if lease is not None else None

    # Tables ---------------------------------------------------------------------------------

    def start(self) -> int:
        """Read which tables are quarantined; the number of tables stored. No table is
        loaded: each is, when it is first asked for (:meth:`find`), so that a start takes
        the same time however many tables the database holds."""
        self.quarantined = self.store.quarantined_ids()
        return self.store.count()

    async def find(self, table_id: str) -> Table | None:
        """The table, loaded from the database if it is not in memory; None if there is no
        such table; :class:`TableError` ``quarantined`` if it is quarantined. A table another
        process owns is read from the database, not kept: for a look at it, not a change. A
        stopping server takes no lease: it reads a table not in memory the same way."""
        if self.draining and self.lease is not None and table_id not in self.tables:
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
            raise self._unreachable(table_id, exc) from exc
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
            table = self.tables.get(table_id)
            if table is not None:
                self.touched[table_id] = time.monotonic()
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
        if table_id in self.tables or table_id in self.quarantined:
            return True
        return bool(TABLE_ID.fullmatch(table_id)) and await asyncio.to_thread(
            self.store.exists, table_id
        )

    async def _load(self, table_id: str, dead: str | None = None) -> bool | Owner:
        """Load a table into memory; whether the database has it; or the process that owns
        it, which then serves it."""
        try:
            if self.lease is not None:
                try:
                    owner: Owner | None = await self._leasing(
                        self.store.claim, table_id, self.process, self.address, self.lease, dead
                    )
                except SQLAlchemyError as exc:
                    raise self._unreachable(table_id, exc) from exc
                if owner is not None:
                    return owner
                self.claimed[table_id] = time.monotonic()
            try:
                loaded = await asyncio.to_thread(self._restore, table_id)
            except SQLAlchemyError as exc:  # the database failed, not the record: not marked
                self._release(table_id)
                raise self._unreachable(table_id, exc) from exc
            except Exception as exc:
                await self._quarantine(table_id, _damage(exc))
                return True
            if loaded is None:
                self._release(table_id)
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
            await self.writer.patiently(partial(self.store.quarantine, table_id, reason))
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
        self._add(table)
        log.info("table loaded", extra={"table": table.id, "seq": table.seq})
        if taken:
            asyncio.get_running_loop().call_later(self.grace + 0.01, self.poke, table)
        self.poke(table)

    def _add(self, table: Table) -> None:
        if table.id not in self.tables:
            self.metrics.tables_open.inc()
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.connections[table.id] = set()
        self.touched[table.id] = time.monotonic()

    def sweep(self) -> int:
        """Let tables leave memory: those at rest (:meth:`_at_rest`) whose game is over
        (archived) or that have been idle for ``evict_after`` seconds; the number that left.
        A stored table's state is all in the database: :meth:`find` reloads it. A tutorial
        table is stored nowhere, so it is not archived when its game is over (a learner's
        page that reconnects finds it still), only dropped once idle; its page then opens a
        new one at the step it keeps."""
        now = time.monotonic()
        gone = 0
        for table_id, table in list(self.tables.items()):
            if not self._at_rest(table):
                continue
            archived = table.stored and table.run.state.is_over
            if archived or now - self.touched[table_id] >= self.evict_after:
                self._drop(table_id)
                gone += 1
        if gone:
            log.info("tables left memory", extra={"tables": gone, "held": len(self.tables)})
        return gone

    def _at_rest(self, table: Table) -> bool:
        """Whether the table may leave memory: nobody is connected to it, no change of it is
        being committed (its lock), and no bot is busy at it or due to move. A bot due is one
        whose turn it is, or a stand-in already playing: between a move the database refused
        and its retry (:data:`RETRY_AFTER`), or after a failed turn that :meth:`_watch`
        restarts, no task holds the table, and leaving memory then would stop its bots until
        someone asked for it again. A human seat's grace period does not hold a table: its
        reload starts the grace again."""
        if self.connections[table.id] or table.id in self.thinking or self.locks[table.id].locked():
            return False
        mover = table.state.to_move
        if mover is None:
            return True
        seat = table.seats[mover]
        return seat.kind != BOT and not (seat.stand_in and not seat.connections)

    def _drop(self, table_id: str) -> None:
        """Forget a table in memory and what the hub kept of it, and give up its lease."""
        self._release(table_id)
        del self.tables[table_id], self.locks[table_id]
        self.metrics.tables_open.dec()
        del self.connections[table_id], self.touched[table_id]
        for key in [k for k in self.hints_asked if k[0] == table_id]:
            del self.hints_asked[key]
        if table_id in self.tutorials:
            self.tutorials.remove(table_id)

    async def _sweep(self) -> None:
        # A look each second costs little (a pass over the tables in memory) and archives a
        # finished table soon after its last player leaves.
        every = max(0.05, min(1.0, self.evict_after / 2))
        while True:
            await asyncio.sleep(every)
            self.sweep()

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
        table = self.tables.get(table_id)
        # A tutorial table is in memory only: all its games are replayed from there.
        if table is not None and (number == table.games or not table.stored):
            self.touched[table_id] = time.monotonic()
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

    async def open(self, game: object, options: object, seats: object) -> dict[str, Any]:
        """Open a table; its invitations (the only place its tokens ever appear)."""
        self._refuse_when_draining()
        table, tokens, change = Table.open(game, options, seats)
        self.changing += 1
        try:
            await self._claim_new(table.id)
            try:
                table.created = await self.writer.create_table(table.creation(change))
            except BaseException:
                self._release(table.id)  # no table: no lease to renew
                raise
        finally:
            self.changing -= 1
        table.commit(change)
        self._add(table)
        log.info(
            "table opened",
            extra={"table": table.id, "game": table.game_name, "seats": len(table.seats)},
        )
        self.poke(table)
        invitations: list[dict[str, Any]] = []
        for seat in table.seats:
            entry: dict[str, Any] = {
                "seat": seat.seat,
                "kind": seat.kind,
                "name": seat.name,
                "level": seat.level,
            }
            if seat.seat in tokens:
                entry["invite"] = f"/t/{table.id}#seat={seat.seat}&token={tokens[seat.seat]}"
            invitations.append(entry)
        return {"table": table.id, "seats": invitations, "spectate": f"/t/{table.id}"}

    async def open_tutorial(self, game: object, step: object) -> dict[str, Any]:
        """Open a tutorial table (in memory only) with its script played up to ``step``;
        the learner's invitation. The oldest tutorial tables nobody is at make room."""
        try:
            tutorial = tutorial_of(game) if isinstance(game, str) else None
        except KeyError:
            tutorial = None
        if tutorial is None:
            raise TableError("unknown_game", f"there is no tutorial {game!r}")
        self._refuse_when_draining()
        table, token = TutorialTable.begin(tutorial, step)
        await self._claim_new(table.id)
        self._add(table)
        self.tutorials.append(table.id)
        self._forget_tutorials()
        log.info("tutorial opened", extra={"table": table.id, "game": table.game_name})
        self.poke(table)
        seat = tutorial.learner
        return {
            "table": table.id,
            "seat": seat,
            "step": table.step,
            "invite": f"/t/{table.id}#seat={seat}&token={token}",
            "tutorial": tutorial.describe(),
        }

    def _forget_tutorials(self) -> None:
        """Past :data:`MAX_TUTORIAL_TABLES`, the oldest tutorial tables at rest leave memory
        before their idle time is up: opening one costs no database row and counts against
        no client's allowance of tables, so their number is bounded here."""
        idle = [t for t in self.tutorials if self._at_rest(self.tables[t])]
        while len(self.tutorials) > MAX_TUTORIAL_TABLES and idle:
            self._drop(idle.pop(0))

    async def apply(self, table: Table, make: Callable[[], Change]) -> Change:
        """Compute a change under the table's lock, commit it, install it, announce it.
        A server that is stopping takes no new change (:meth:`drain`): those begun before
        it stopped are committed and announced."""
        self._refuse_when_draining()
        self.changing += 1
        try:
            async with self._lock(table):
                change = make()
                if table.stored:
                    await self._commit(table, change)
                table.commit(change)
                self._announce(table, change)
        finally:
            self.changing -= 1
        for item in change.events:
            if item["kind"] == "action":
                self.metrics.actions.labels(by=item.get("by", "human")).inc()
        if self.tables.get(table.id) is table:
            self.touched[table.id] = time.monotonic()
            self.poke(table)
        return change

    def _refuse_when_draining(self) -> None:
        if self.draining:
            raise UnavailableError(RESTARTING)

    def _announce(self, table: Table, change: Change) -> None:
        # Each seat's messages are encoded once, however many windows show that seat.
        encoded: dict[int | None, list[str]] = {}
        for connection in self.connections.get(table.id, ()):
            if not connection.joined:
                continue
            seat = connection.seat
            texts = encoded.get(seat)
            if texts is None:
                texts = encoded[seat] = [
                    json.dumps(message, separators=(",", ":"))
                    for message in table.event_messages(change.events, seat)
                ]
            for text in texts:
                connection.send_text(text)
            for note in table.notes(seat):
                connection.send(note)

    def presence(self, table: Table) -> None:
        message = json.dumps({"type": "presence", "table": table.describe()})
        for connection in self.connections.get(table.id, ()):
            if connection.joined:
                connection.send_text(message)

    # Connections ----------------------------------------------------------------------------

    def attach(self, connection: Connection) -> None:
        self.connections[connection.table.id].add(connection)
        self.metrics.sockets_open.inc()

    async def join(
        self, connection: Connection, token: object, since: object, seed: object = None
    ) -> None:
        table = connection.table
        if token is not None and not isinstance(token, str):
            raise TableError("malformed", "token is text, or null to watch")
        if since is not None and (type(since) is not int or since < 0):
            raise TableError("malformed", "since is an event number, or null")
        seat: Seat | None = None
        if token is not None:
            seat = table.seat_of_token(token)
            if seat is None:
                log.warning("bad token", extra={"table": table.id})
                raise TableError("bad_token", "that token holds no seat at this table")
        if seed is not None:
            await self._give_seed(table, seat, seed)
        async with self._lock(table):
            # Joining again on the same socket (as another seat, or to watch) leaves the seat
            # it held, which then needs its grace timer like any seat left (see leave()).
            vacated = self._leave_seat(connection)
            connection.seat = None if seat is None else seat.seat
            connection.joined = True
            if seat is not None:
                held = seat.connections > 0  # by another window, which this one replaces
                for other in list(self.connections[table.id]):
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

    async def _give_seed(self, table: Table, seat: Seat | None, seed: object) -> None:
        """A joining page's seed, stored as a ``seed`` event before its snapshot, so that
        every deal after the snapshot is derived from it (docs/fairness.md). A spectator's
        seed deals nothing, but it is checked all the same."""
        if seat is None:
            table.check_seed(seed)
            return
        self._refuse_when_draining()
        self.changing += 1
        try:
            async with self._lock(table):
                change = table.seed_change(seat.seat, seed)
                if change is None:
                    return
                if table.stored:
                    await self._commit(table, change)
                table.commit(change)
                self._announce(table, change)
        finally:
            self.changing -= 1

    def leave(self, connection: Connection) -> None:
        table = connection.table
        if self.tables.get(table.id) is not table:  # dropped (moved): its seats went with it
            return
        if connection in self.connections[table.id]:
            self.connections[table.id].remove(connection)
            self.metrics.sockets_open.dec()
        self.touched[table.id] = time.monotonic()
        if self._leave_seat(connection):
            self.presence(table)
            # One look when the grace period is over: a stand-in plays if the seat is still
            # empty and to move (a seat that left and came back gets a later timer of its own).
            asyncio.get_running_loop().call_later(self.grace + 0.01, self.poke, table)

    def _leave_seat(self, connection: Connection) -> bool:
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

    async def act(self, connection: Connection, action: object, seq: object) -> None:
        if not isinstance(action, str) or type(seq) is not int:
            raise TableError("malformed", "an action is {type, action: text, seq: number}")
        seat = self._seated(connection)
        await self.apply(
            connection.table, partial(connection.table.act, seat, action, "human", seq)
        )

    async def next_game(self, connection: Connection) -> None:
        self._seated(connection)
        await self.apply(connection.table, connection.table.next_game)

    async def stand_in(self, connection: Connection, seat: object) -> None:
        """A seated player asks for a stand-in bot for ``seat``, a human seat with nobody
        at it (an invited player who has not come, or one who left): it plays at once, as
        after the grace period, until the seat's player joins. Everyone hears of it in a
        ``presence`` message, the asker's answer."""
        self._seated(connection)
        table = connection.table
        if type(seat) is not int or not 0 <= seat < len(table.seats):
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

    async def hint(self, connection: Connection) -> dict[str, Any]:
        seat = self._seated(connection)
        table = connection.table
        if table.state.to_move != seat:
            raise TableError("not_your_turn", "a hint is for one's own turn")
        key = (table.id, seat)
        if key in self.hinting:
            raise TableError("hint_busy", "this seat's last hint is still being worked out")
        now = time.monotonic()
        asked = self.hints_asked.setdefault(key, deque())
        while asked and now - asked[0] >= HINT_WINDOW:
            asked.popleft()
        if len(asked) >= self.hints_per_minute:
            wait = HINT_WINDOW - (now - asked[0])
            raise TableError(
                "hint_limit",
                f"a seat may ask for {self.hints_per_minute} hints a minute; "
                f"the next in {wait:.0f} s",
            )
        asked.append(now)
        self.hinting.add(key)
        self.metrics.hints_pending.inc()
        try:
            seq, view = table.seq, table.view(seat)
            loop = asyncio.get_running_loop()
            advice = await loop.run_in_executor(
                self.hint_executor, advise, table.game_name, view, _seed(table, seq)
            )
        finally:
            self.hinting.discard(key)
            self.metrics.hints_pending.dec()
        return {"type": "hint", "seq": seq, **advice}

    @staticmethod
    def _seated(connection: Connection) -> int:
        if not connection.joined:
            raise TableError("not_joined", "send join first")
        if connection.seat is None:
            raise TableError("spectator", "a spectator cannot act")
        return connection.seat

    # Bots -----------------------------------------------------------------------------------

    def poke(self, table: Table) -> None:
        """Start the table's bot turns if a bot (or a stand-in) is to move and none is busy.
        A table that has left memory meanwhile (a timer set before) is left alone: its
        reload looks again."""
        if self.draining or self.tables.get(table.id) is not table:
            return
        if table.id in self.thinking or self._bot_to_move(table) is None:
            return
        self.thinking.add(table.id)
        task = asyncio.get_running_loop().create_task(self._bot_turns(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _bot_to_move(self, table: Table) -> tuple[int, str, str] | None:
        """(seat, level, by) of the bot to move now, if any. A human seat gets a stand-in
        once its last connection has been gone for the grace period."""
        mover = table.state.to_move
        if mover is None:
            return None
        seat = table.seats[mover]
        if seat.kind == BOT:
            assert seat.level is not None
            return mover, seat.level, "bot"
        if seat.connections:
            return None
        if not seat.stand_in:  # asked for (stand_in()), or the seat's grace is over
            if seat.left_at is None:
                return None  # an invited player who has not come yet
            if time.monotonic() - seat.left_at < self.grace:
                return None  # leave() set a timer that looks again when the grace is over
            seat.stand_in = True
            self.presence(table)
        return mover, STAND_IN_LEVEL, "stand-in"

    async def _bot_turns(self, table: Table) -> None:
        try:
            while not self.draining and (turn := self._bot_to_move(table)) is not None:
                seat, level, _by = turn
                seq, view = table.seq, table.view(seat)
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)  # lets people see each bot play
                text = table.scripted_move(seat) or await self._think(table, level, view, seq)
                try:
                    await self.apply(table, partial(self._bot_move, table, turn, text, seq))
                except UnavailableError:
                    raise
                except TableError as exc:
                    if exc.code != "stale":  # the bot chose badly: a random legal move
                        log.error(
                            "bot move refused",
                            extra={"table": table.id, "level": level, "reason": str(exc)},
                        )
                        text = choose(table.game_name, FALLBACK_LEVEL, view, _seed(table, seq))
                        await self.apply(table, partial(self._bot_move, table, turn, text, seq))
                    # stale: the table moved on while the bot thought; look again
        except MovedError:
            pass  # another process holds the table now: its bots play there
        except UnavailableError:
            # Nothing was stored or installed: the bot plays the turn again in a moment.
            log.warning("bot move not stored; trying again", extra={"table": table.id})
            asyncio.get_running_loop().call_later(RETRY_AFTER, self.poke, table)
        except Exception:
            log.exception("bot turn failed", extra={"table": table.id})
        finally:
            self.thinking.discard(table.id)

    async def _watch(self) -> None:
        """Look over every table now and then, and start the bots of any left waiting: a
        table must never stop for good because one of its bot turns failed."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            for table in list(self.tables.values()):
                try:
                    self.poke(table)
                except Exception:  # one table's bug must not stop the look at the others
                    log.exception("table look failed", extra={"table": table.id})

    async def _think(self, table: Table, level: str, view: View, seq: int) -> str:
        """The bot's move; should the bot fail (a bug, a broken worker), a random legal move,
        so that no table ever waits for ever on a bot."""
        seed = _seed(table, seq)
        began = time.perf_counter()
        try:
            if level in INLINE_LEVELS:
                return choose(table.game_name, level, view, seed)
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                self.executor, choose, table.game_name, level, view, seed
            )
        except Exception:
            log.exception("bot failed", extra={"table": table.id, "level": level})
            return choose(table.game_name, FALLBACK_LEVEL, view, seed)
        finally:
            self.metrics.think_seconds.labels(level=level).observe(time.perf_counter() - began)

    def _bot_move(self, table: Table, turn: tuple[int, str, str], text: str, seq: int) -> Change:
        """The bot's move, unless the turn changed hands meanwhile (a player came back)."""
        if self._bot_to_move(table) != turn:
            raise TableError("stale", "the turn changed hands while the bot thought")
        seat, _level, by = turn
        return table.act(seat, text, by, seq)

    async def drain(self, patience: float) -> bool:
        """Stop as a server being restarted should: take no new table nor change (both are
        refused ``unavailable``, and ``/ready`` answers 503), start no bot, wait up to
        ``patience`` seconds for the changes under way to be committed and announced, then
        give up this process's table leases (several processes on one database), and tell
        every socket to connect again (close code :data:`RESTART_CODE`) once the messages
        queued for it are sent. Whether every change under way was finished."""
        loop = asyncio.get_running_loop()
        if not self.draining:
            self.draining = True
            log.info("server stopping", extra={"changes": self.changing})
        deadline = loop.time() + patience
        while self.changing and loop.time() < deadline:
            await asyncio.sleep(0.01)
        finished = not self.changing
        if not finished:
            log.error("changes left unfinished at the stop", extra={"changes": self.changing})
        if self.keeper is not None:
            # The leases are given up before the sockets close: the pages that reconnect, to
            # another process, find their tables free to take over at once (docs/hosting.md).
            self.keeper.cancel()
            self.keeper = None
            try:
                await self._leasing(self.store.release, [], self.process)
            except (UnavailableError, SQLAlchemyError):
                log.warning("leases not given up; they run out", extra={"lease": self.lease})
        connections = [c for group in self.connections.values() for c in group]
        for connection in connections:
            connection.close(RESTART_CODE, RESTARTING)
        # The pumps send what is queued, then close: a moment, unless a client stopped
        # reading (the server's stop closes those anyway).
        closing = loop.time() + 1.0
        while any(self.connections.values()) and loop.time() < closing:
            await asyncio.sleep(0.01)
        log.info("server stopped taking changes", extra={"sockets": len(connections)})
        return finished

    async def close(self) -> None:
        self.watch.cancel()
        self.sweeper.cancel()
        if self.keeper is not None:
            self.keeper.cancel()
        await self.writer.close()
        if self.lease is not None:
            # Every change is stored: the others may take the tables over at once.
            try:
                await self._leasing(self.store.release, [], self.process)
            except (UnavailableError, SQLAlchemyError):
                log.warning("leases not given up; they run out", extra={"lease": self.lease})
        self.owners.shutdown(wait=False)
        for task in list(self.tasks):
            task.cancel()
        for connections in self.connections.values():
            for connection in connections:
                connection.close(RESTART_CODE, RESTARTING)

    # Owners ---------------------------------------------------------------------------------

    def _lock(self, table: Table) -> asyncio.Lock:
        """The table's lock; :class:`MovedError` if the table has left this process."""
        if self.tables.get(table.id) is not table:
            raise MovedError(table.id)
        return self.locks[table.id]

    async def _commit(self, table: Table, change: Change) -> None:
        """Store a change of the table (under its lock); a change the guard refused leaves
        the table behind in this process (:meth:`_lost`)."""
        began = time.perf_counter()
        try:
            await self.writer.commit(table.id, change)
        except UnavailableError:
            self.metrics.commits_unavailable.inc()
            raise
        except MovedError:
            self._lost(table)
            raise
        self.metrics.commit_seconds.observe(time.perf_counter() - began)

    def _lost(self, table: Table) -> None:
        """Another process stored a change of the table first, or took its lease: drop this
        copy, close its seats' sockets (their pages reconnect, to the table's owner, and
        resume from their last event), and load it again if the lease is still, or again,
        this process's (its bots go on from what is stored)."""
        if self.tables.get(table.id) is not table:
            return
        connections = list(self.connections[table.id])
        log.warning(
            "table moved to another process",
            extra={"table": table.id, "seq": table.seq, "connections": len(connections)},
        )
        for connection in connections:
            self._leave_seat(connection)  # not joined any more; the seats' metric follows
            self.metrics.sockets_open.dec()  # leave() finds the table gone: counted here
            connection.close(RESTART_CODE, MOVED_AWAY)
        self._drop(table.id)
        if table.stored and not self.draining:
            self._spawn(self._reload(table.id))

    async def _reload(self, table_id: str) -> None:
        try:
            await self.locate(table_id)
        except Exception:
            log.exception("table reload failed", extra={"table": table_id})

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _owning(self, work: Callable[..., Any], *args: Any) -> Any:
        """A read of the leases, in the owners' thread."""
        return await asyncio.get_running_loop().run_in_executor(self.owners, work, *args)

    def _leasing(self, work: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """A write of the leases, in the owners' thread (in order with the others), retried
        as a commit is (:class:`UnavailableError` once the database's time is up)."""
        return self.writer.patiently(partial(work, *args), self.owners)

    async def _claim_new(self, table_id: str) -> None:
        """The lease of a table about to be opened (its id is new: nobody else holds it)."""
        if self.lease is not None:
            self.claimed[table_id] = time.monotonic()
            try:
                owner = await self._leasing(
                    self.store.claim, table_id, self.process, self.address, self.lease
                )
            except SQLAlchemyError as exc:  # as a commit the database did not take
                self.claimed.pop(table_id, None)
                raise self._unreachable(table_id, exc) from exc
            if owner is not None:
                raise TableError("unavailable", "that table id is taken; try again")

    def _release(self, table_id: str) -> None:
        """Give up the table's lease, in the background (in order with later claims)."""
        self.claimed.pop(table_id, None)
        if self.lease is not None:
            self.owners.submit(self._release_quietly, table_id)

    def _release_quietly(self, table_id: str) -> None:
        """(In the owners' thread.) A lease the database would not give up runs out."""
        try:
            self.writer.retry(partial(self.store.release, [table_id], self.process))
        except (UnavailableError, SQLAlchemyError):
            log.warning("lease not given up", extra={"table": table_id})

    def _unreachable(self, table_id: str, exc: SQLAlchemyError) -> UnavailableError:
        """A database that failed while a table was claimed or read: logged, counted, and
        answered as a commit the database did not take (``unavailable``; nothing was
        changed)."""
        kind = outage(exc)
        if kind is not None:
            self.metrics.database_failed(kind)
        log.error(
            "database unreachable", extra={"table": table_id, "kind": kind, "reason": str(exc)}
        )
        return UnavailableError("the database could not be reached; nothing was changed: try again")

    async def _keep(self) -> None:
        """Renew this process's leases, three times a lease; drop the tables whose lease
        another process took; take over the tables whose owner's lease ran out.

        A renewal the database held up (unreachable, read-only: the writer tries it again
        for its patience, and it may fail) was held up in every process: each one's leases
        may have run out meanwhile. Until a lease after the next renewal that succeeds, by
        when each process still alive has renewed its own, no table is taken over, so that
        the tables stay where they were served rather than all move. Held up means a
        renewal later than half a lease after the last good one (they come every third of
        a lease), however it ended: one that waited out the whole failure and succeeded as
        the database came back is held up too."""
        assert self.lease is not None
        renewed_at = time.monotonic()
        patient_until = 0.0
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                started = time.monotonic()
                held = await self._leasing(self.store.renew, self.process, self.lease)
                now = time.monotonic()
                self.metrics.database_answered()
                if now - renewed_at > self.lease / 2:
                    patient_until = now + self.lease
                renewed_at = now
                for table_id, table in list(self.tables.items()):
                    if table_id in held or self.claimed.get(table_id, 0.0) >= started:
                        continue
                    if table.stored:
                        self._lost(table)
                    else:  # a tutorial's lease taken by mistake: this process has it
                        await self._claim_new(table_id)
                if self.draining or time.monotonic() < patient_until:
                    continue  # stopping, or just past a held-up renewal: it takes no table over
                orphans = await self._owning(self.store.orphans, self.process, ORPHANS_AT_ONCE)
                for table_id in orphans:
                    if table_id not in self.tables:
                        found = await self.locate(table_id)
                        if isinstance(found, Table):
                            log.info("table taken over", extra={"table": table_id})
            except asyncio.CancelledError:
                raise
            except UnavailableError as exc:  # counted by the writer: the next look tries
                log.warning("leases not kept", extra={"kind": "unavailable", "reason": str(exc)})
            except Exception as exc:  # a database that failed for a moment: the next look tries
                kind = outage(exc)
                if kind is None:
                    log.exception("leases not kept")
                else:
                    self.metrics.database_failed(kind)
                    reason = str(getattr(exc, "orig", None) or exc).strip()
                    log.warning("leases not kept", extra={"kind": kind, "reason": reason})


def _damage(exc: Exception) -> str:
    """Why a table's record does not load: the stored field that does not fit (``records``),
    or what failed in its replay."""
    return str(exc) if isinstance(exc, RecordError) else f"{type(exc).__name__}: {exc}"


def _seed(table: Table, seq: int) -> int:
    """A bot's random seed, fixed by the table and the moment, so a table replays; from the
    table's secret, so nobody can foresee it (a table from before secrets: from its id)."""
    if table.secret is not None:
        return bot_seed(table.secret, seq)
    digest = hashlib.sha256(f"{table.id}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
