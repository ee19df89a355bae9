"""The live tables of a server: the coordinator of their coming into memory, their changes,
and their leaving it.

Tables live in memory only while they are used: a table is loaded from the database (its
record replayed, ``loading.py``) when someone first asks for it, and leaves memory again
once it has been idle for a while with nobody connected and no bot to move, or at once when
its game is over and nobody is at it (archived: its replays are served from the database).
Tutorial tables are in memory only: never loaded, never archived, and dropped once idle or
when too many are open (:meth:`Hub.sweep`).

Every change to a table goes through :meth:`Hub.apply` under that table's lock: the
change is computed on a copy, committed to the database, installed, and only then sent to
the table's connections, each receiving its own seat's view (``seats.py``). A change the
database would not take is never installed: its sender hears ``unavailable``, and a bot's
move is tried again (its table stays in memory meanwhile). Bots (and stand-ins for
disconnected players) think in a process pool, never on the event loop (``bots.py``);
hints in a pool of their own, one at a time for each seat (``hints.py``).

Several server processes may share one PostgreSQL database (docs/hosting.md, "Many
processes"). Each table is then held by one of them, its owner, named with a lease in the
database (``leases.py``); the other processes send the table's seats to the owner
(``app.py`` relays their sockets). A change is stored only if its event numbers are still
free and its table's lease still names this process (:class:`MovedError` otherwise), so a
process whose lease went wrong (or ran out while the database was unreachable, and was
taken over) loses its change, drops its copy of the table, loads it again if it can, and
closes its seats' sockets, whose pages reconnect and resume from their last event.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor
from functools import partial
from typing import Any

from cardtable.server.bots import Bots
from cardtable.server.commits import COMMIT_PATIENCE, MovedError, UnavailableError, Writer
from cardtable.server.draining import MOVED_AWAY, RESTART_CODE, RESTARTING, Draining, restart
from cardtable.server.hints import HINTS_PER_MINUTE, Hints
from cardtable.server.ladder import rate_finished
from cardtable.server.leases import Leases
from cardtable.server.loading import Loader
from cardtable.server.lobby import fill_seat, open_tables, seat_rows, take_seat, waiting_tables
from cardtable.server.memory import Memory
from cardtable.server.metrics import Metrics
from cardtable.server.players import move_seat
from cardtable.server.seats import Seats, seated
from cardtable.server.sockets import Connection
from cardtable.server.store import Owner, Store
from cardtable.server.table import (
    BOT,
    HUMAN,
    Change,
    Run,
    Table,
    TableError,
    invite_link,
    seat_token,
    token_hash,
)
from cardtable.server.tutorial import MAX_TUTORIAL_TABLES, TutorialTable
from cardtable.tutorial import tutorial_of

__all__ = ["Hub"]

log = logging.getLogger("cardtable.server")


class Hub:
    """Every table of the server, its connections, and its bots: the tables in memory
    (``memory``), their seats and sockets (``seats``), their bots (``bots``), the hints
    asked at them (``hints``), their loading from the database (``loader``) and their
    leases (``leases``), wired together here, where a table comes into memory, changes, and
    leaves it."""

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
        store.finished = rate_finished  # a finished game rates its players (ladder.py)
        self.hint_executor = hint_executor
        self.evict_after = evict_after
        self.metrics = Metrics()
        self.memory = Memory(self.metrics)
        self.tasks: set[asyncio.Task[None]] = set()
        self.tutorials: list[str] = []  # tutorial tables' ids, oldest first
        # Whether the server is stopping (:meth:`drain`), and the changes it waits for.
        self.stopping = Draining()
        # This process's name in the owners' leases. The guard on each commit checks it
        # where there are leases (several processes on one database); with none (lease
        # None: one process) it checks the event numbers alone.
        process = secrets.token_hex(8)
        self.writer = Writer(
            store,
            commit_patience,
            metrics=self.metrics,
            owner=None if lease is None else process,
        )
        self.leases = Leases(store, self.writer, self.metrics, process, lease, address)
        self.hints = Hints(hint_executor, self.metrics, hints_per_minute)
        self.seats = Seats(
            self.memory,
            self.stopping,
            self.metrics,
            grace=grace,
            poke=self.poke,
            commit=self._commit,
            events_since=self.events_since,
        )
        self.bots = Bots(
            self.memory,
            self.stopping,
            executor,
            self.metrics,
            grace=grace,
            delay=bot_delay,
            apply=self.apply,
            presence=self.seats.presence,
        )
        self.loader = Loader(
            store,
            self.writer,
            self.metrics,
            self.memory,
            self.leases,
            self.stopping,
            grace=grace,
            poke=self.poke,
        )
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self.leases.keep(self.memory.tables, self._lost, self.locate, lambda: self.draining)

    @property
    def tables(self) -> dict[str, Table]:
        """The tables in memory, by id."""
        return self.memory.tables

    @property
    def connections(self) -> dict[str, set[Connection]]:
        """The sockets at each table in memory."""
        return self.memory.connections

    @property
    def quarantined(self) -> set[str]:
        """The tables set aside: their records no longer replay."""
        return self.loader.quarantined

    @property
    def draining(self) -> bool:
        """Whether the server is stopping (:meth:`drain`)."""
        return self.stopping.draining

    # Tables ---------------------------------------------------------------------------------

    def start(self) -> int:
        """Read which tables are quarantined; the number of tables stored. No table is
        loaded: each is, when it is first asked for (:meth:`find`), so that a start takes
        the same time however many tables the database holds."""
        self.loader.quarantined = self.store.quarantined_ids()
        return self.store.count()

    async def find(self, table_id: str) -> Table | None:
        return await self.loader.find(table_id)

    async def locate(self, table_id: str, dead: str | None = None) -> Table | Owner | None:
        return await self.loader.locate(table_id, dead)

    async def known(self, table_id: str) -> bool:
        return await self.loader.known(table_id)

    async def events_since(self, table: Table, since: int) -> list[dict[str, Any]]:
        return await self.loader.events_since(table, since)

    async def replay(self, table_id: str, number: int) -> dict[str, Any] | None:
        return await self.loader.replay(table_id, number)

    async def finished_run(self, table: Table, number: int) -> Run:
        return await self.loader.finished_run(table, number)

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
            if archived or now - self.memory.touched[table_id] >= self.evict_after:
                self._drop(table_id)
                gone += 1
        if gone:
            log.info("tables left memory", extra={"tables": gone, "held": len(self.tables)})
        return gone

    def _at_rest(self, table: Table) -> bool:
        """Whether the table may leave memory: nobody is connected to it, no change of it is
        being committed (its lock), and no bot is busy at it or due to move. A bot due is one
        whose turn it is, or a stand-in already playing: between a move the database refused
        and its retry (``bots.RETRY_AFTER``), or after a failed turn that the bots' watch
        restarts, no task holds the table, and leaving memory then would stop its bots until
        someone asked for it again. A human seat's grace period does not hold a table: its
        reload starts the grace again."""
        if (
            self.connections[table.id]
            or table.id in self.bots.thinking
            or self.memory.locks[table.id].locked()
        ):
            return False
        mover = table.state.to_move
        if mover is None:
            return True
        seat = table.seats[mover]
        return seat.kind != BOT and not (seat.stand_in and not seat.connections)

    def _drop(self, table_id: str) -> None:
        """Forget a table in memory and what the hub kept of it, and give up its lease."""
        self.leases.release(table_id)
        self.memory.remove(table_id)
        self.hints.forget(table_id)
        if table_id in self.tutorials:
            self.tutorials.remove(table_id)

    async def _sweep(self) -> None:
        # A look each second costs little (a pass over the tables in memory) and archives a
        # finished table soon after its last player leaves.
        every = max(0.05, min(1.0, self.evict_after / 2))
        while True:
            await asyncio.sleep(every)
            self.sweep()
            try:
                await self._fill_open_seats()
            except UnavailableError:
                pass  # the database did not answer: the seats are given at the next look
            except Exception:
                log.exception("open seats not filled")

    async def creation_wait(self, client: str, per_minute: float) -> float:
        """Seconds before ``client`` may open a table under its allowance of
        ``per_minute`` a minute (0: now, and the table is counted), kept in the database so
        that every process counts the same tables; :class:`UnavailableError` if the
        database cannot say within the writer's patience. ``per_minute`` is over 0 (0:
        no limit, and nothing to count: the route asks nothing)."""
        return await self.writer.patiently(
            partial(self.store.take_allowance, client, per_minute), self.writer.aside
        )

    async def refund_creation(self, client: str, per_minute: float) -> None:
        """Give back the table :meth:`creation_wait` counted for a request refused for what
        it asked; a database that cannot take it now leaves the client one table short for
        a while, not more."""
        with contextlib.suppress(UnavailableError):
            await self.writer.patiently(
                partial(self.store.refund_allowance, client, per_minute), self.writer.aside
            )

    async def open(self, game: object, options: object, seats: object) -> dict[str, Any]:
        """Open a table; its invitations (the only place its tokens ever appear)."""
        self.stopping.refuse()
        table, tokens, change = Table.open(game, options, seats)
        with self.stopping.change():
            await self.leases.claim_new(table.id)
            try:
                table.created = await self.writer.create_table(table.creation(change))
            except BaseException:
                self.leases.release(table.id)  # no table: no lease to renew
                raise
        table.commit(change)
        self.memory.add(table)
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
                entry["invite"] = invite_link(table.id, seat.seat, tokens[seat.seat])
            invitations.append(entry)
        return {"table": table.id, "seats": invitations, "spectate": f"/t/{table.id}"}

    async def open_tables(self, game: str | None) -> list[dict[str, Any]]:
        """The tables with a seat anyone may take (``lobby.py``), newest first."""
        return await asyncio.to_thread(open_tables, self.store, game)

    async def take_seat(self, table_id: str, seat: object, name: object) -> dict[str, Any]:
        """Give the open ``seat`` of table ``table_id`` to whoever asks first: its
        invitation (the seat's token, made now); :class:`TableError` ``seat_taken`` if it
        is not open (any more), ``no_table`` if there is no such table."""
        given = Table.check_name(name, "", "malformed")
        if type(seat) is not int or seat < 0:
            raise TableError("malformed", "seat is a seat number")
        token = seat_token()
        digest = token_hash(token)
        named = (given or "").strip() or f"Player {seat + 1}"
        taken = await self.writer.patiently(
            partial(take_seat, self.store, table_id, seat, digest, named), self.writer.aside
        )
        if not taken:
            if not await self.known(table_id):
                raise TableError("no_table", f"there is no table {table_id!r}")
            raise TableError("seat_taken", f"seat {seat} of table {table_id} is not open")
        table = self.tables.get(table_id)
        if table is not None and table.seats[seat].open:
            table.seats[seat].take(digest, named)
            self.seats.presence(table)
        log.info("open seat taken", extra={"table": table_id, "seat": seat})
        return {
            "table": table_id,
            "seat": seat,
            "name": named,
            "invite": invite_link(table_id, seat, token),
        }

    async def open_tutorial(self, game: object, step: object) -> dict[str, Any]:
        """Open a tutorial table (in memory only) with its script played up to ``step``;
        the learner's invitation. The oldest tutorial tables nobody is at make room."""
        try:
            tutorial = tutorial_of(game) if isinstance(game, str) else None
        except KeyError:
            tutorial = None
        if tutorial is None:
            raise TableError("unknown_game", f"there is no tutorial {game!r}")
        self.stopping.refuse()
        table, token = TutorialTable.begin(tutorial, step)
        await self.leases.claim_new(table.id)
        self.memory.add(table)
        self.tutorials.append(table.id)
        self._forget_tutorials()
        log.info("tutorial opened", extra={"table": table.id, "game": table.game_name})
        self.poke(table)
        seat = tutorial.learner
        return {
            "table": table.id,
            "seat": seat,
            "step": table.step,
            "invite": invite_link(table.id, seat, token),
            "tutorial": tutorial.describe(),
        }

    def _forget_tutorials(self) -> None:
        """Past :data:`MAX_TUTORIAL_TABLES`, the oldest tutorial tables at rest leave memory
        before their idle time is up: opening one costs no database row and counts against
        no client's allowance of tables, so their number is bounded here."""
        idle = [t for t in self.tutorials if self._at_rest(self.tables[t])]
        while len(self.tutorials) > MAX_TUTORIAL_TABLES and idle:
            self._drop(idle.pop(0))

    # Changes --------------------------------------------------------------------------------

    async def apply(self, table: Table, make: Callable[[], Change]) -> Change:
        """Compute a change under the table's lock, commit it, install it, announce it.
        A server that is stopping takes no new change (:meth:`drain`): those begun before
        it stopped are committed and announced."""
        with self.stopping.change():
            async with self.memory.lock(table):
                change = make()
                if table.stored:
                    await self._commit(table, change)
                table.commit(change)
                self.seats.announce(table, change)
        for item in change.events:
            if item["kind"] == "action":
                self.metrics.actions.labels(by=item.get("by", "human")).inc()
        if self.memory.holds(table):
            self.memory.touch(table.id)
            self.poke(table)
        return change

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
        if not self.memory.holds(table):
            return
        connections = list(self.connections[table.id])
        log.warning(
            "table moved to another process",
            extra={"table": table.id, "seq": table.seq, "connections": len(connections)},
        )
        for connection in connections:
            self.seats.leave_seat(connection)  # not joined any more; the seats' metric follows
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

    def poke(self, table: Table) -> None:
        """Start the table's bot turns, if a bot is to move (``bots.py``)."""
        self.bots.poke(table)

    # Connections ----------------------------------------------------------------------------

    def attach(self, connection: Connection) -> None:
        self.seats.attach(connection)

    async def join(
        self, connection: Connection, token: str | None, since: int | None, seed: str | None
    ) -> None:
        table = connection.table
        if token is not None and table.seat_of_token(token) is None:
            # An open seat taken through another process (or before this table was loaded
            # here) is in the database: its token is learnt from there.
            await self._learn_taken_seats(table)
        await self.seats.join(connection, token, since, seed)

    async def _learn_taken_seats(self, table: Table) -> None:
        """What the database says of the table's human seats that this process may not know:
        an open seat taken or given to its bot, a player's seat moved to a new token
        (:meth:`move_seat`) through another process."""
        if not any(seat.kind == HUMAN for seat in table.seats):
            return
        stored = await asyncio.to_thread(seat_rows, self.store, table.id)
        learnt = False
        for number, kind, name, digest in stored:
            seat = table.seats[number]
            if seat.open and digest is not None:
                seat.take(digest, name)
                learnt = True
            elif seat.open and kind == BOT:
                seat.fill()
                learnt = True
            elif digest is not None and seat.token_hash != digest:
                seat.token_hash = digest
        if learnt:
            self.seats.presence(table)

    async def move_seat(self, table_id: str, seat: int, player_id: str) -> str:
        """A new token for the player's ``seat`` at ``table_id`` (their rejoining device's
        invitation); :class:`TableError` ``no_seat`` if the seat is not the player's."""
        token = seat_token()
        digest = token_hash(token)
        moved = await self.writer.patiently(
            partial(move_seat, self.store, table_id, seat, player_id, digest), self.writer.aside
        )
        if not moved:
            raise TableError("no_seat", f"seat {seat} of table {table_id} is not yours")
        table = self.tables.get(table_id)
        if table is not None:
            table.seats[seat].token_hash = digest
        log.info("seat moved to another device", extra={"table": table_id, "seat": seat})
        return invite_link(table_id, seat, token)

    async def _fill_open_seats(self) -> None:
        """Give each open seat whose wait is over (a quick match's) to its bot, at the
        tables this process holds; one taken meanwhile through another process stays its
        taker's."""
        now = time.time()
        for table in list(self.tables.values()):
            due = [s for s in table.seats if s.open and s.open_until and s.open_until <= now]
            for seat in due:
                assert seat.level is not None
                filled = await self.writer.patiently(
                    partial(fill_seat, self.store, table.id, seat.seat, seat.level),
                    self.writer.aside,
                )
                if filled:
                    seat.fill()
                    log.info(
                        "open seat given to a bot", extra={"table": table.id, "seat": seat.seat}
                    )
            if due:
                await self._learn_taken_seats(table)
                self.seats.presence(table)
                self.poke(table)

    async def quick_match(
        self, game: object, players: object, wait: object, level: object, name: object
    ) -> dict[str, Any]:
        """A seat with people at a table of ``game`` for ``players``: an open seat of a
        table waiting for players, the longest waiting first, else a new table whose other
        seats are open for ``wait`` seconds and then go to bots of ``level``. The seat's
        invitation, and whether it was found (``matched``) or opened."""
        game_name, _ = Table.check_game(game, {})
        if type(players) is not int:
            raise TableError("bad_options", "players is the number of seats")
        Table.make_game(game_name, {"players": players})  # a number the game is played by
        given = Table.check_name(name, "", "malformed")
        waiting = await asyncio.to_thread(waiting_tables, self.store, game_name, players)
        for table_id, seats in waiting:
            for seat in seats:
                try:
                    return {**await self.take_seat(table_id, seat, given), "matched": True}
                except TableError as exc:
                    if exc.code != "seat_taken":
                        raise
        others = {"kind": HUMAN, "open": True, "wait": wait, "level": level}
        mine = {"kind": HUMAN, "name": (given or "").strip() or "Player 1"}
        opened = await self.open(game_name, {}, [mine, *[others] * (players - 1)])
        first = opened["seats"][0]
        return {
            "table": opened["table"],
            "seat": 0,
            "name": mine["name"],
            "invite": first["invite"],
            "matched": False,
        }

    def leave(self, connection: Connection) -> None:
        self.seats.leave(connection)

    async def act(self, connection: Connection, action: str, seq: int) -> None:
        seat = seated(connection)
        await self.apply(
            connection.table, partial(connection.table.act, seat, action, "human", seq)
        )

    async def next_game(self, connection: Connection) -> None:
        seated(connection)
        await self.apply(connection.table, connection.table.next_game)

    async def stand_in(self, connection: Connection, seat: int) -> None:
        self.seats.stand_in(connection, seat)

    async def hint(self, connection: Connection) -> dict[str, Any]:
        seat = seated(connection)
        return await self.hints.ask(connection.table, seat)

    # Stopping -------------------------------------------------------------------------------

    async def drain(self, patience: float) -> bool:
        """Stop as a server being restarted should: take no new table nor change (both are
        refused ``unavailable``, and ``/ready`` answers 503), start no bot, wait up to
        ``patience`` seconds for the changes under way to be committed and announced, then
        give up this process's table leases (several processes on one database), and tell
        every socket to connect again (close code :data:`RESTART_CODE`) once the messages
        queued for it are sent. Whether every change under way was finished."""
        finished = await self.stopping.settle(patience)
        if self.leases.stop():
            # The leases are given up before the sockets close: the pages that reconnect, to
            # another process, find their tables free to take over at once (docs/hosting.md).
            await self.leases.give_up()
        told = await restart(self.connections)
        log.info("server stopped taking changes", extra={"sockets": told})
        return finished

    async def close(self) -> None:
        self.bots.watch.cancel()
        self.sweeper.cancel()
        self.leases.stop()
        await self.writer.close()
        if self.leases.lease is not None:
            # Every change is stored: the others may take the tables over at once.
            await self.leases.give_up()
        self.leases.close()
        self.bots.close()
        for task in list(self.tasks):
            task.cancel()
        for connections in self.connections.values():
            for connection in connections:
                connection.close(RESTART_CODE, RESTARTING)
