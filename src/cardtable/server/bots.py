"""The bots of the tables in memory, and the stand-ins for players who left: whose turn it
is, and their moves. They think in a process pool, never on the event loop (but for the
quickest level), and a bot that fails plays a random legal move, so that no table ever
waits for ever on a bot."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from functools import partial

from cardtable.core import View
from cardtable.fairness import bot_seed
from cardtable.server.commits import MovedError, UnavailableError
from cardtable.server.draining import Draining
from cardtable.server.memory import Memory
from cardtable.server.metrics import Metrics
from cardtable.server.table import BOT, Change, Table, TableError
from cardtable.server.thinking import choose

__all__ = [
    "FALLBACK_LEVEL",
    "INLINE_LEVELS",
    "RETRY_AFTER",
    "STAND_IN_LEVEL",
    "WATCH_EVERY",
    "Bots",
    "move_seed",
]

log = logging.getLogger("cardtable.server")

STAND_IN_LEVEL = "easy"
# The heuristic decides in well under a millisecond (a few at worst, in Kryt'-navalivat'):
# less than handing the view to another process costs, so it plays on the event loop.
INLINE_LEVELS = frozenset({"easy"})
FALLBACK_LEVEL = "random"
# Seconds before a bot whose move the database refused tries again, and between the looks
# over every table in memory that start any bot left waiting (whatever stopped it).
RETRY_AFTER = 1.0
WATCH_EVERY = 5.0

# A change of a table, computed under its lock, committed, installed and announced.
Apply = Callable[[Table, Callable[[], Change]], Awaitable[Change]]


class Bots:
    """The bot turns of the tables in ``memory``: the tables whose bots are busy, and the
    tasks that play them."""

    def __init__(
        self,
        memory: Memory,
        stopping: Draining,
        executor: Executor,
        metrics: Metrics,
        *,
        grace: float,
        delay: float,
        apply: Apply,
        presence: Callable[[Table], None],
    ) -> None:
        self.memory = memory
        self.stopping = stopping
        self.executor = executor
        self.metrics = metrics
        self.grace = grace
        self.delay = delay
        self.apply = apply
        self.presence = presence
        self.thinking: set[str] = set()  # the tables whose bot turns are under way
        self.tasks: set[asyncio.Task[None]] = set()
        self.watch = asyncio.get_running_loop().create_task(self._watch())

    def poke(self, table: Table) -> None:
        """Start the table's bot turns if a bot (or a stand-in) is to move and none is busy.
        A table that has left memory meanwhile (a timer set before) is left alone: its
        reload looks again."""
        if self.stopping.draining or not self.memory.holds(table):
            return
        if table.id in self.thinking or self.to_move(table) is None:
            return
        self.thinking.add(table.id)
        task = asyncio.get_running_loop().create_task(self._turns(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def to_move(self, table: Table) -> tuple[int, str, str] | None:
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

    def close(self) -> None:
        self.watch.cancel()
        for task in list(self.tasks):
            task.cancel()

    async def _turns(self, table: Table) -> None:
        try:
            while not self.stopping.draining and (turn := self.to_move(table)) is not None:
                seat, level, _by = turn
                seq, view = table.seq, table.view(seat)
                if self.delay:
                    await asyncio.sleep(self.delay)  # lets people see each bot play
                text = table.scripted_move(seat) or await self._think(table, level, view, seq)
                try:
                    await self.apply(table, partial(self._move, table, turn, text, seq))
                except UnavailableError:
                    raise
                except TableError as exc:
                    if exc.code != "stale":  # the bot chose badly: a random legal move
                        log.error(
                            "bot move refused",
                            extra={"table": table.id, "level": level, "reason": str(exc)},
                        )
                        text = choose(table.game_name, FALLBACK_LEVEL, view, move_seed(table, seq))
                        await self.apply(table, partial(self._move, table, turn, text, seq))
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
            for table in list(self.memory.tables.values()):
                try:
                    self.poke(table)
                except Exception:  # one table's bug must not stop the look at the others
                    log.exception("table look failed", extra={"table": table.id})

    async def _think(self, table: Table, level: str, view: View, seq: int) -> str:
        """The bot's move; should the bot fail (a bug, a broken worker), a random legal move,
        so that no table ever waits for ever on a bot."""
        seed = move_seed(table, seq)
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

    def _move(self, table: Table, turn: tuple[int, str, str], text: str, seq: int) -> Change:
        """The bot's move, unless the turn changed hands meanwhile (a player came back)."""
        if self.to_move(table) != turn:
            raise TableError("stale", "the turn changed hands while the bot thought")
        seat, _level, by = turn
        return table.act(seat, text, by, seq)


def move_seed(table: Table, seq: int) -> int:
    """A bot's (or a hint's) random seed, fixed by the table and the moment, so a table
    replays; from the table's secret, so nobody can foresee it (a table from before
    secrets: from its id)."""
    if table.secret is not None:
        return bot_seed(table.secret, seq)
    digest = hashlib.sha256(f"{table.id}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
