"""The live tables of a server: who is connected to which seat, and the order of changes.

Every change to a table goes through :meth:`Hub.apply` under that table's lock: the
change is computed on a copy, committed to the database, installed, and only then sent to
the table's connections, each receiving its own seat's view. Bots (and stand-ins for
disconnected players) think in a process pool, never on the event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from starlette.websockets import WebSocket

from cardtable.core import View
from cardtable.fairness import bot_seed
from cardtable.server.store import Store
from cardtable.server.table import BOT, HUMAN, Change, Seat, Table, TableError
from cardtable.server.thinking import advise, choose

__all__ = ["Connection", "Hub"]

log = logging.getLogger("cardtable.server")

STAND_IN_LEVEL = "easy"
# The heuristic decides in well under a millisecond (a few at worst, in Kryt'-navalivat'):
# less than handing the view to another process costs, so it plays on the event loop.
INLINE_LEVELS = frozenset({"easy"})
FALLBACK_LEVEL = "random"


class Writer:
    """The one path to the database for moves: changes waiting to be committed are taken
    together in one transaction (group commit), each mover awaiting its own.

    On SQLite a commit takes a fraction of a millisecond (WAL, no sync per commit), less than
    handing it to a thread costs once the event loop is busy: the thread must win the
    interpreter lock back from the loop, which yields it only every few milliseconds
    (measured: p50 10 ms in a thread, 5 ms on the loop at 500 tables). So SQLite commits run
    on the loop. A server database over the network is committed in a thread.

    (Checkpoints moved to a thread of their own made it worse: the commit on the loop then
    waits on the checkpoint's locks.)"""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.inline = store.dialect == "sqlite"
        self.waiting: list[tuple[str, Change, asyncio.Future[None]]] = []
        self.wake = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def commit(self, table_id: str, change: Change) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append((table_id, change, done))
        self.wake.set()
        await done

    async def _run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch, self.waiting = self.waiting, []
            if not batch:
                continue
            changes = [(t, c.events, c.deals) for t, c, _ in batch]
            try:
                if self.inline:
                    self.store.append_many(changes)
                else:
                    await asyncio.to_thread(self.store.append_many, changes)
            except Exception as exc:  # nothing of the batch was stored: every mover hears it
                log.exception("commit failed", extra={"changes": len(batch)})
                for _, _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
            else:
                for _, _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def close(self) -> None:
        self.task.cancel()


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

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(json.dumps(message, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        self.outbox.put_nowait(text)

    def close(self) -> None:
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
                await self.socket.close()
                return
            await self.socket.send_text(text)


class Hub:
    """Every table of the server, its connections, and its bots."""

    def __init__(
        self,
        store: Store,
        executor: Executor,
        *,
        grace: float = 60.0,
        bot_delay: float = 0.6,
    ) -> None:
        self.store = store
        self.executor = executor
        self.grace = grace
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.connections: dict[str, set[Connection]] = {}
        self.thinking: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.writer = Writer(store)

    # Tables ---------------------------------------------------------------------------------

    def restore(self) -> int:
        """Rebuild every stored table; the number rebuilt. Call it with the event loop
        running: a player who had taken a seat counts as gone from the restart on, so that
        a stand-in plays for one who does not come back (nobody was connected then)."""
        now = time.monotonic()
        for table_id in self.store.table_ids():
            stored = self.store.load(table_id)
            if stored is None:
                continue
            table = Table.restore(stored)
            self._add(table)
            # A seat with an action on record had been taken; one without may still await
            # its invited player, who gets no stand-in before joining, as on a new table.
            taken = {e["seat"] for e in table.events if e["kind"] == "action"}
            for seat in table.seats:
                if seat.kind == HUMAN and seat.seat in taken:
                    seat.left_at = now
            if taken:
                asyncio.get_running_loop().call_later(self.grace + 0.01, self.poke, table)
        return len(self.tables)

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.connections[table.id] = set()

    async def open(self, game: object, options: object, seats: object) -> dict[str, Any]:
        """Open a table; its invitations (the only place its tokens ever appear)."""
        table, tokens, change = Table.open(game, options, seats)
        table.created = await asyncio.to_thread(
            self.store.create_table,
            table.id,
            table.game_name,
            table.options,
            table.stored_seats(),
            change.events,
            change.deals,
            table.secret,
        )
        table.commit(change)
        self._add(table)
        log.info("table opened", extra={"table": table.id, "game": table.game_name})
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

    async def apply(self, table: Table, make: Callable[[], Change]) -> Change:
        """Compute a change under the table's lock, commit it, install it, announce it."""
        async with self.locks[table.id]:
            change = make()
            await self.writer.commit(table.id, change)
            table.commit(change)
            self._announce(table, change)
        self.poke(table)
        return change

    def _announce(self, table: Table, change: Change) -> None:
        described = table.describe()
        # Each seat's messages are encoded once, however many windows show that seat.
        encoded: dict[int | None, list[str]] = {}
        for connection in self.connections[table.id]:
            if not connection.joined:
                continue
            seat = connection.seat
            texts = encoded.get(seat)
            if texts is None:
                view = table.view(seat)
                texts = encoded[seat] = [
                    json.dumps(
                        {
                            "type": "event",
                            "seq": item["seq"],
                            "event": item,
                            "view": view,
                            "table": described,
                        },
                        separators=(",", ":"),
                    )
                    for item in change.events
                ]
            for text in texts:
                connection.send_text(text)

    def presence(self, table: Table) -> None:
        message = json.dumps({"type": "presence", "table": table.describe()})
        for connection in self.connections[table.id]:
            if connection.joined:
                connection.send_text(message)

    # Connections ----------------------------------------------------------------------------

    def attach(self, connection: Connection) -> None:
        self.connections[connection.table.id].add(connection)

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
        async with self.locks[table.id]:
            # Joining again on the same socket (as another seat, or to watch) leaves the seat
            # it held, which then needs its grace timer like any seat left (see leave()).
            vacated = self._leave_seat(connection)
            connection.seat = None if seat is None else seat.seat
            connection.joined = True
            if seat is not None:
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
                        other.close()
                        seat.connections -= 1
                seat.connections += 1
                seat.left_at = None
                seat.stand_in = False
            missed = table.events[since:] if isinstance(since, int) and since <= table.seq else []
            connection.send(
                {
                    "type": "snapshot",
                    "seat": connection.seat,
                    "seq": table.seq,
                    "table": table.describe(),
                    "game": len(table.runs),
                    "view": table.view(connection.seat),
                    "missed": missed,
                    "deals": table.deals(),
                    "fair": table.fairness(),
                }
            )
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
        async with self.locks[table.id]:
            change = table.seed_change(seat.seat, seed)
            if change is None:
                return
            await self.writer.commit(table.id, change)
            table.commit(change)
            self._announce(table, change)

    def leave(self, connection: Connection) -> None:
        table = connection.table
        self.connections[table.id].discard(connection)
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
        seq, view = table.seq, table.view(seat)
        loop = asyncio.get_running_loop()
        actions = await loop.run_in_executor(
            self.executor, advise, table.game_name, view, _seed(table, seq)
        )
        return {"type": "hint", "seq": seq, "actions": actions}

    @staticmethod
    def _seated(connection: Connection) -> int:
        if not connection.joined:
            raise TableError("not_joined", "send join first")
        if connection.seat is None:
            raise TableError("spectator", "a spectator cannot act")
        return connection.seat

    # Bots -----------------------------------------------------------------------------------

    def poke(self, table: Table) -> None:
        """Start the table's bot turns if a bot (or a stand-in) is to move and none is busy."""
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
            while (turn := self._bot_to_move(table)) is not None:
                seat, level, _by = turn
                seq, view = table.seq, table.view(seat)
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)  # lets people see each bot play
                text = await self._think(table, level, view, seq)
                try:
                    await self.apply(table, partial(self._bot_move, table, turn, text, seq))
                except TableError as exc:
                    if exc.code != "stale":  # the bot chose badly: a random legal move
                        log.error(
                            "bot move refused",
                            extra={"table": table.id, "level": level, "reason": str(exc)},
                        )
                        text = choose(table.game_name, FALLBACK_LEVEL, view, _seed(table, seq))
                        await self.apply(table, partial(self._bot_move, table, turn, text, seq))
                    # stale: the table moved on while the bot thought; look again
        except Exception:
            log.exception("bot turn failed", extra={"table": table.id})
        finally:
            self.thinking.discard(table.id)

    async def _think(self, table: Table, level: str, view: View, seq: int) -> str:
        """The bot's move; should the bot fail (a bug, a broken worker), a random legal move,
        so that no table ever waits for ever on a bot."""
        seed = _seed(table, seq)
        if level in INLINE_LEVELS:
            try:
                return choose(table.game_name, level, view, seed)
            except Exception:
                log.exception("bot failed", extra={"table": table.id, "level": level})
                return choose(table.game_name, FALLBACK_LEVEL, view, seed)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self.executor, choose, table.game_name, level, view, seed
            )
        except Exception:
            log.exception("bot failed", extra={"table": table.id, "level": level})
            return choose(table.game_name, FALLBACK_LEVEL, view, seed)

    def _bot_move(self, table: Table, turn: tuple[int, str, str], text: str, seq: int) -> Change:
        """The bot's move, unless the turn changed hands meanwhile (a player came back)."""
        if self._bot_to_move(table) != turn:
            raise TableError("stale", "the turn changed hands while the bot thought")
        seat, _level, by = turn
        return table.act(seat, text, by, seq)

    async def close(self) -> None:
        await self.writer.close()
        for task in list(self.tasks):
            task.cancel()
        for connections in self.connections.values():
            for connection in connections:
                connection.close()


def _seed(table: Table, seq: int) -> int:
    """A bot's random seed, fixed by the table and the moment, so a table replays; from the
    table's secret, so nobody can foresee it (a table from before secrets: from its id)."""
    if table.secret is not None:
        return bot_seed(table.secret, seq)
    digest = hashlib.sha256(f"{table.id}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
