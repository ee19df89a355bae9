"""Committing the tables' changes without ever holding up the event loop.

Every change (a move, a new game) is committed before it is installed or announced; the
:class:`Writer` takes the changes waiting to be committed together in one transaction
(group commit), each mover awaiting its own. Every other write of the server (a new table,
a review, a lease, a quarantine's mark) goes through :meth:`Writer.patiently`, with the same
patience and the same refusal.

A database is not always free: another process may hold SQLite's write lock (a backup, a
script, a second server by mistake), a PostgreSQL server may restart, drop a connection,
refuse new ones or take no writes for a while (``outages.py`` says which errors mean that).
Waiting for it on the event loop would stop every table and every socket of the server, so
the loop never waits on a lock: a commit it cannot make at once goes to a thread of the
store's own, which retries it with a growing pause for up to ``patience`` seconds. A
change still not stored then is refused with :class:`UnavailableError` (``unavailable``):
nothing of it was installed or announced, the seat that sent it is told, and a bot's move is
tried again (``bots.py``). An error of the data is not retried.

A commit whose answer was lost (the connection cut after COMMIT was sent) may have been
stored after all: it is not acknowledged, and its retry finds its event numbers taken
(below), so its table is loaded again as stored, and its seats resume from there.

A change is stored only if no other change took its event numbers first (the events' key,
:meth:`Store.append_guarded`): when several server processes share a database and two of
them hold one table (a lease that went wrong), one change is stored and the other refused
with :class:`MovedError`, and the process that lost drops its copy of the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial
from typing import Any, NoReturn, TypeVar

from sqlalchemy.exc import OperationalError, SQLAlchemyError

from cardtable.server.metrics import Metrics
from cardtable.server.outages import outage
from cardtable.server.store import DealRow, NewTable, Store
from cardtable.server.table import Change, TableError

__all__ = [
    "COMMIT_PATIENCE",
    "MOVED",
    "UNAVAILABLE",
    "MovedError",
    "UnavailableError",
    "Writer",
    "unavailable",
    "unreachable",
]

log = logging.getLogger("cardtable.server")

T = TypeVar("T")

UNAVAILABLE = "unavailable"
MOVED = "moved"
# Seconds a change is retried on a busy database before it is refused: as long as SQLite
# itself waits on a lock by default, so a seat waits no longer for its answer than it
# would have without the retries, but the other tables go on meanwhile.
COMMIT_PATIENCE = 5.0
ATTEMPT_WAIT = 0.25  # seconds one attempt waits on SQLite's lock before the next pause
FIRST_PAUSE = 0.05  # seconds between attempts, doubled after each, up to LAST_PAUSE
LAST_PAUSE = 1.0


class UnavailableError(TableError):
    """The database could not store a change within the writer's patience; nothing of the
    change was stored or installed."""

    def __init__(self, message: str) -> None:
        super().__init__(UNAVAILABLE, message)


class MovedError(TableError):
    """Another process stored a change of the table first: this process's copy is behind,
    and nothing of the change was stored or installed."""

    def __init__(self, table_id: str) -> None:
        super().__init__(MOVED, f"table {table_id} moved on in another server process")
        self.table_id = table_id


def unreachable(metrics: Metrics, table_id: str, exc: SQLAlchemyError) -> UnavailableError:
    """A database that failed while a table was claimed or read: logged, counted, and
    answered as a commit the database did not take (``unavailable``; nothing was
    changed)."""
    kind = outage(exc)
    if kind is not None:
        metrics.database_failed(kind)
    log.error("database unreachable", extra={"table": table_id, "kind": kind, "reason": str(exc)})
    return UnavailableError("the database could not be reached; nothing was changed: try again")


def unavailable(metrics: Metrics, exc: SQLAlchemyError) -> UnavailableError | None:
    """A read the database could not answer now (a join's older events, a stored review,
    whether a table exists): counted and logged as the writer's failures are, without a
    traceback, and answered ``unavailable``, to be asked again. None: an error of the data
    (``outages.py``), which is a bug."""
    kind = outage(exc)
    if kind is None:
        return None
    metrics.database_failed(kind)
    reason = str(getattr(exc, "orig", None) or exc).strip()
    log.warning("database unavailable for a read", extra={"kind": kind, "reason": reason})
    return UnavailableError(
        "the database could not be read just now; nothing was changed: try again"
    )


class Writer:
    """The one path to the database for the tables' changes.

    On SQLite a commit takes a fraction of a millisecond (WAL, no sync per commit), less than
    handing it to a thread costs once the event loop is busy: the thread must win the
    interpreter lock back from the loop, which yields it only every few milliseconds
    (measured: p50 10 ms in a thread, 5 ms on the loop at 500 tables). So a SQLite commit is
    first tried on the loop, told not to wait for a lock at all (``busy_timeout`` 0): it
    either commits at once or fails at once. Only a commit that found the database locked
    goes to the thread, and the changes that arrive meanwhile wait for the next batch. A
    server database over the network is always committed in the thread.

    (Checkpoints moved to a thread of their own made it worse: the commit on the loop then
    waits on the checkpoint's locks.)"""

    def __init__(
        self,
        store: Store,
        patience: float = COMMIT_PATIENCE,
        *,
        metrics: Metrics | None = None,
        owner: str | None = None,
    ) -> None:
        self.store = store
        self.patience = patience
        self.metrics = metrics
        # The process whose leases a change's table must be under to be stored (several
        # processes on one database; :meth:`Store.append_guarded`), or None (no leases).
        self.owner = owner
        self.inline = store.dialect == "sqlite"
        # One thread: the store's writes are one at a time anyway, and it keeps them in order.
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardtable-commit")
        # Writes that are not moves (a review kept, a quarantine marked, a table created,
        # an allowance counted) go to a thread of their own: one that waits its patience on
        # a lock would hold up every move queued behind it past the moves' own patience.
        self.aside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardtable-aside")
        self.closing = threading.Event()
        self.waiting: list[tuple[str, Change, asyncio.Future[None]]] = []
        # When the oldest change waiting arrived: a change is refused once it has waited
        # ``patience`` seconds, however long the batch before it took to fail.
        self.since: float | None = None
        self.wake = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def commit(self, table_id: str, change: Change) -> None:
        """Store a change; :class:`UnavailableError` if the database would not take it."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if not self.waiting:
            self.since = time.monotonic()
        self.waiting.append((table_id, change, done))
        self.wake.set()
        await done

    async def create_table(self, new: NewTable) -> float:
        """:meth:`Store.create_table`, in the thread of writes that are not moves, retried
        as a commit is."""
        return await self.patiently(partial(self.store.create_table, new), self.aside)

    async def _run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch, self.waiting = self.waiting, []
            since, self.since = self.since, None
            if not batch:
                continue
            try:
                await self._store(batch, since)
            except UnavailableError:
                pass  # every change of the batch was told
            except Exception:
                # An error of the data, not of the database: one change the database will not
                # take (a bug) fails the whole transaction. Each change is stored on its own,
                # so that only that one is refused and the others are kept.
                log.exception("commit failed; storing its changes one by one")
                for item in batch:
                    with contextlib.suppress(Exception):
                        await self._store([item], since)

    async def _store(
        self, batch: list[tuple[str, Change, asyncio.Future[None]]], since: float | None
    ) -> None:
        """Store a batch of changes in one transaction and tell each mover; when it fails,
        every mover of the batch hears why, and the error is raised."""
        changes = [(t, c.events, c.deals) for t, c, _ in batch]
        try:
            refused = await self._append(changes, since)
        except Exception as exc:  # nothing of the batch was stored: every mover hears it
            if len(batch) == 1 and not isinstance(exc, UnavailableError):
                log.exception("commit failed", extra={"table": batch[0][0]})
            for _, _, done in batch:
                if not done.done() and (len(batch) == 1 or isinstance(exc, UnavailableError)):
                    done.set_exception(exc)
            raise
        for table_id, _, done in batch:
            if done.done():
                continue
            if table_id in refused:
                done.set_exception(MovedError(table_id))
            else:
                done.set_result(None)

    async def _append(
        self,
        changes: list[tuple[str, list[dict[str, Any]], list[DealRow]]],
        since: float | None = None,
    ) -> set[str]:
        """Store the changes (the oldest waiting since ``since``); the tables whose change
        the guard refused."""
        if since is not None and time.monotonic() - since >= self.patience:
            self._waited_out()
        if self.inline:
            try:
                refused = self.store.append_guarded(changes, wait=0.0, owner=self.owner)
            except OperationalError:
                pass  # locked by another writer: wait for it in the thread, not here
            else:
                self._answered()
                return refused
        return await self.patiently(
            partial(self.store.append_guarded, changes, owner=self.owner), since=since
        )

    def patiently(
        self,
        work: Callable[..., T],
        thread: Executor | None = None,
        since: float | None = None,
    ) -> asyncio.Future[T]:
        """A write of the database, ``work(wait=…)``, off the event loop: in the writer's
        thread (in order with the commits), or in ``thread``; retried while the database is
        unavailable until ``patience`` seconds after ``since`` (when it was asked for; now
        by default), then refused with :class:`UnavailableError`, which its caller tells
        whoever asked. Handed to the thread at once, so writes handed in one order are made
        in that order (a lease's release before a later claim)."""
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(thread or self.thread, self.retry, work, since)

    def retry(self, work: Callable[..., T], since: float | None = None) -> T:
        """``work(wait=…)`` until it succeeds, pausing longer after each failure, until
        ``patience`` seconds after ``since`` (now by default), in a thread, never on the
        event loop (see :meth:`patiently`). Only a database unavailable for now is waited
        for (``outages.py``: SQLite locked, a connection lost or refused, a read-only
        database…); an error of the data is not retried."""
        deadline = (time.monotonic() if since is None else since) + self.patience
        if time.monotonic() >= deadline:
            self._waited_out()
        pause = FIRST_PAUSE
        attempts = 0
        while True:
            attempts += 1
            try:
                # A database that hangs is cut off at the deadline too (``hangs.py``).
                with self.store.by(deadline):
                    done = work(wait=max(0.0, min(ATTEMPT_WAIT, deadline - time.monotonic())))
            except SQLAlchemyError as exc:
                kind = outage(exc)
                if kind is None:
                    raise
                if self.metrics is not None:
                    self.metrics.database_failed(kind)
                reason = str(getattr(exc, "orig", None) or exc).strip()
                left = deadline - time.monotonic()
                if left <= 0 or self.closing.is_set():
                    log.error(
                        "database unavailable",
                        extra={"attempts": attempts, "kind": kind, "reason": reason},
                    )
                    raise UnavailableError(
                        "the database is unavailable and this could not be stored; try again"
                    ) from exc
                if attempts == 1:
                    log.warning(
                        "database unavailable; trying again",
                        extra={"kind": kind, "reason": reason},
                    )
                self.closing.wait(min(pause, left))
                pause = min(pause * 2, LAST_PAUSE)
            else:
                self._answered()
                return done

    def _waited_out(self) -> NoReturn:
        """Refuse a write that waited its patience before its turn came (behind a batch
        or another write that waited on a lock), as promised, even if the database would
        take it now: its mover has been told to expect an answer within the patience."""
        log.error("database unavailable", extra={"attempts": 0, "kind": "waited"})
        raise UnavailableError(
            "the database is unavailable and this could not be stored; try again"
        )

    def _answered(self) -> None:
        if self.metrics is not None:
            self.metrics.database_answered()

    async def close(self) -> None:
        self.closing.set()
        self.task.cancel()
        # A commit under way ends within one attempt; the server's stop waits for it.
        await asyncio.to_thread(self.thread.shutdown)
        await asyncio.to_thread(self.aside.shutdown)
