"""The leases of the tables a server process serves, on a database several processes share
(docs/hosting.md, "Many processes").

Each table is held by one process, its owner, named with a lease in the database
(``owners``) that the owner renews and gives up when the table leaves memory; the other
processes send the table's seats to the owner. A lease that runs out (its process died) is
taken over by another process, which loads the table and starts its bots. Leases say where
a table is served; the guard on each commit (``commits.py``) says whether a change is
stored.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from cardtable.server.commits import UnavailableError, Writer, unreachable
from cardtable.server.metrics import Metrics
from cardtable.server.outages import outage
from cardtable.server.store import Owner, Store
from cardtable.server.table import Table, TableError

__all__ = ["LEASE", "ORPHANS_AT_ONCE", "Leases"]

log = logging.getLogger("cardtable.server")

# Seconds a table's lease lasts unless its owner renews it (three times a lease): how long
# the bots of a table whose process died wait before another process takes it over. A seat
# that reconnects takes its table over at once, once its owner no longer answers.
LEASE = 6.0
ORPHANS_AT_ONCE = 50  # tables whose lease ran out that one look takes over


class Leases:
    """This process's leases: its name in them, the address its peers relay seats to, and
    the lease's length (None: one process, no leases; the guard on each commit still
    holds)."""

    def __init__(
        self,
        store: Store,
        writer: Writer,
        metrics: Metrics,
        process: str,
        lease: float | None,
        address: str | None,
    ) -> None:
        self.store = store
        self.writer = writer
        self.metrics = metrics
        self.process = process
        self.lease = lease
        self.address = address
        self.claimed: dict[str, float] = {}  # when this process last claimed each table
        # The leases' writes, one at a time and in order (a release before a new claim).
        self.owners = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardtable-owners")
        self.keeper: asyncio.Task[None] | None = None

    def keep(
        self,
        tables: dict[str, Table],
        lost: Callable[[Table], None],
        locate: Callable[[str], Awaitable[object]],
        stopping: Callable[[], bool],
    ) -> None:
        """Start keeping the leases of ``tables`` (:meth:`_keep`), if there are leases."""
        if self.lease is not None:
            work = self._keep(tables, lost, locate, stopping)
            self.keeper = asyncio.get_running_loop().create_task(work)

    async def claim(self, table_id: str, dead: str | None = None) -> Owner | None:
        """The lease of a table about to be loaded; the process that holds it, if another
        one does (``dead``: a process found not answering, whose tables may be taken over
        before their leases run out)."""
        if self.lease is None:
            return None
        try:
            owner: Owner | None = await self._leasing(
                self.store.claim, table_id, self.process, self.address, self.lease, dead
            )
        except SQLAlchemyError as exc:
            raise unreachable(self.metrics, table_id, exc) from exc
        if owner is not None:
            return owner
        self.claimed[table_id] = time.monotonic()
        return None

    async def claim_new(self, table_id: str) -> None:
        """The lease of a table about to be opened (its id is new: nobody else holds it)."""
        if self.lease is not None:
            self.claimed[table_id] = time.monotonic()
            try:
                owner = await self._leasing(
                    self.store.claim, table_id, self.process, self.address, self.lease
                )
            except SQLAlchemyError as exc:  # as a commit the database did not take
                self.claimed.pop(table_id, None)
                raise unreachable(self.metrics, table_id, exc) from exc
            if owner is not None:
                raise TableError("unavailable", "that table id is taken; try again")

    def release(self, table_id: str) -> None:
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

    def stop(self) -> bool:
        """Renew no lease from now on; whether they were being kept until now."""
        if self.keeper is None:
            return False
        self.keeper.cancel()
        self.keeper = None
        return True

    async def give_up(self) -> None:
        """Give up every lease of this process: the others may take its tables over at once.
        Leases the database would not give up run out."""
        try:
            await self._leasing(self.store.release, [], self.process)
        except (UnavailableError, SQLAlchemyError):
            log.warning("leases not given up; they run out", extra={"lease": self.lease})

    def close(self) -> None:
        self.owners.shutdown(wait=False)

    async def _owning(self, work: Callable[..., Any], *args: Any) -> Any:
        """A read of the leases, in the owners' thread."""
        return await asyncio.get_running_loop().run_in_executor(self.owners, work, *args)

    def _leasing(self, work: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """A write of the leases, in the owners' thread (in order with the others), retried
        as a commit is (:class:`UnavailableError` once the database's time is up)."""
        return self.writer.patiently(partial(work, *args), self.owners)

    async def _keep(
        self,
        tables: dict[str, Table],
        lost: Callable[[Table], None],
        locate: Callable[[str], Awaitable[object]],
        stopping: Callable[[], bool],
    ) -> None:
        """Renew this process's leases, three times a lease; drop the tables whose lease
        another process took (``lost``); take over the tables whose owner's lease ran out
        (``locate`` loads one).

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
                for table_id, table in list(tables.items()):
                    if table_id in held or self.claimed.get(table_id, 0.0) >= started:
                        continue
                    if table.stored:
                        lost(table)
                    else:  # a tutorial's lease taken by mistake: this process has it
                        await self.claim_new(table_id)
                if stopping() or time.monotonic() < patient_until:
                    continue  # stopping, or just past a held-up renewal: it takes no table over
                orphans = await self._owning(self.store.orphans, self.process, ORPHANS_AT_ONCE)
                for table_id in orphans:
                    if table_id not in tables:
                        found = await locate(table_id)
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
