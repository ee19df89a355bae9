"""A bound on every wait for a server database, even one that hangs without closing its
connections.

A database over the network can stop answering and leave its connections open: a frozen
machine, a network partition, a proxy that stops forwarding. Nothing else bounds that wait:
``statement_timeout`` is the database's to enforce, and TCP keepalives are answered by
whatever holds the other end (a proxy, a NAT, a kernel that has not noticed), so a thread
waiting on such a connection waits for ever. The commit thread would then hold every
table's moves, and each ``/ready`` that gave up on it would leave behind one of the threads
that every read shares.

So each pooled connection is watched from the moment it is checked out of the pool until it
is back: past its deadline, a watchdog thread shuts its socket down, and the call waiting on
it fails at once as a lost connection (``outages.CONNECTION``), which the writer and the
readers already answer ``unavailable``. The deadline is :data:`BOUND` seconds after the
checkout, or sooner where the caller has promised an answer sooner (:meth:`HangWatch.by`:
the writer's patience). A new connection is bounded the same way (``connect_timeout``), and
the check that a pooled connection is still alive (the pool's pre-ping) is made here, under
the watch, instead of by the pool.

SQLite is a file on this machine: it has no connection to hang, and no watch.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError

__all__ = ["BOUND", "CONNECT_LEAST", "HangWatch"]

log = logging.getLogger("cardtable.server")

# Seconds one use of a pooled connection may take, from its checkout to its return: the
# server's transactions take milliseconds, and a move is refused after the writer's
# patience (5 s) anyway, so a connection silent this long is taken for a hung one.
BOUND = 5.0
CONNECT_LEAST = 2  # psycopg waits at least 2 s for a new connection, whatever it is told
TICK = 0.05  # seconds between two looks of the watchdog
FRESH = "cardtable_fresh"  # a connection's mark until its first checkout: no ping needed


class HangWatch:
    """The watch on the pooled connections of ``engine`` (a PostgreSQL one): each checked
    out is cut once it has been out ``bound`` seconds, or past the deadline its thread set
    with :meth:`by`. ``cuts``: how many were cut so far."""

    def __init__(self, engine: Engine, bound: float = BOUND) -> None:
        self.engine = engine
        self.bound = bound
        self.cuts = 0
        self.lock = threading.Lock()
        # The connections out of the pool: their deadline (monotonic) and DBAPI connection,
        # by the pool's record of each.
        self.out: dict[Any, tuple[float, Any]] = {}
        self.local = threading.local()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="cardtable-hangs", daemon=True)
        event.listen(engine, "do_connect", self._connecting)
        event.listen(engine.pool, "connect", self._connected)
        event.listen(engine.pool, "checkout", self._checkout)
        # Back in the pool, or about to be closed (the pool says so before it closes one):
        # a connection no longer watched, whose socket may soon be another's.
        for gone in ("checkin", "invalidate", "soft_invalidate", "detach", "close"):
            event.listen(engine.pool, gone, self._returned)
        self.thread.start()

    @contextlib.contextmanager
    def by(self, deadline: float) -> Iterator[None]:
        """Every connection this thread checks out within the block is cut at ``deadline``
        (``time.monotonic()``) at the latest: a caller that promised an answer by then
        (the writer, to a mover) is not held past it by a hung database."""
        before = getattr(self.local, "deadline", None)
        self.local.deadline = deadline
        try:
            yield
        finally:
            self.local.deadline = before

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(1.0)

    def _deadline(self) -> float:
        bound = time.monotonic() + self.bound
        promised: float | None = getattr(self.local, "deadline", None)
        return bound if promised is None else min(bound, promised)

    def _connecting(self, _dialect: Any, _record: Any, _args: Any, params: dict[str, Any]) -> None:
        """A new connection waits no longer than a checked-out one may (psycopg's own
        default is 130 s), nor longer than a URL's own ``connect_timeout`` says."""
        left = max(CONNECT_LEAST, math.ceil(self._deadline() - time.monotonic()))
        given = params.get("connect_timeout")
        params["connect_timeout"] = left if given is None else min(int(given), left)

    @staticmethod
    def _connected(_connection: Any, record: Any) -> None:
        record.info[FRESH] = True

    def _checkout(self, connection: Any, record: Any, _proxy: Any) -> None:
        deadline = self._deadline()
        with self.lock:
            self.out[record] = (deadline, connection)
        if record.info.pop(FRESH, False):
            return
        try:
            self.engine.dialect.do_ping(connection)
        except Exception as exc:
            self._returned(connection, record)
            if time.monotonic() >= deadline:
                raise  # cut: no new connection now, which would wait again
            # Dead since its last use (a restart, a connection ended): the pool opens
            # another in its place.
            raise DisconnectionError(f"a pooled connection was dead: {exc}") from exc

    def _returned(self, _connection: Any, record: Any, *_rest: Any) -> None:
        with self.lock:
            self.out.pop(record, None)

    def _watch(self) -> None:
        while not self.stopping.wait(TICK):
            now = time.monotonic()
            with self.lock:
                late = [record for record, (deadline, _) in self.out.items() if deadline <= now]
                for record in late:
                    _, connection = self.out.pop(record)
                    # Under the lock: the pool cannot close the connection meanwhile (it
                    # says so first, and waits for the lock), whose socket's number another
                    # may then take.
                    _cut(connection)
                    self.cuts += 1
            if late:
                log.warning(
                    "database did not answer; connection cut",
                    extra={"connections": len(late), "bound": self.bound},
                )


def _cut(connection: Any) -> None:
    """Shut the socket of a psycopg connection down, both ways, from another thread: the
    call waiting on it reads the end of the stream and fails as a lost connection. (Closing
    it instead would free its number for another socket while its owner still uses it.)"""
    with contextlib.suppress(Exception):  # already closed or lost: nothing to cut
        duplicate = socket.socket(fileno=os.dup(connection.fileno()))
        try:
            duplicate.shutdown(socket.SHUT_RDWR)
        finally:
            duplicate.close()
