"""``cardtable serve --workers N``: N server processes on one machine behind one port.

The parent binds the listening sockets, then forks the workers, which inherit them and
each accept connections on them (the kernel hands each new connection to one of the
processes waiting), so one port serves them all. The workers share the database
(PostgreSQL: docs/hosting.md, "Many processes"); each also listens on a socket of its
own (``--peer-host``), where the others relay the seats of the tables it owns.

The parent only watches: a worker that dies (a crash, ``kill -9``, the kernel's memory
killer) is started again after a moment, and its tables are taken over meanwhile by the
others. SIGINT or SIGTERM to the parent stops the workers gracefully (each gives up its
tables, :meth:`Hub.close`) and then the parent.

With a JSON log, what a worker writes on stderr reaches it through the parent, line by line:
the log's own lines as they are, any other line as a record of its own (``worker
printed``), so that a service reading the log finds one JSON object per line even where a
library, or a process of its own such as multiprocessing's resource tracker, prints a
warning (it does, for the semaphores of a worker that was killed).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType

from cardtable.server.logs import bounded

__all__ = ["RESTART_AFTER", "supervise"]

log = logging.getLogger("cardtable.server")

# Seconds before a worker that died is started again: a worker that fails at start (the
# database gone) must not be restarted in a tight loop.
RESTART_AFTER = 1.0
STOP_WITHIN = 30.0  # seconds the workers have to stop gracefully before they are killed


def supervise(count: int, work: Callable[[int, bool], None], json_log: bool = False) -> int:
    """Fork ``count`` workers running ``work(index, first)`` (``first``: not a restart)
    and keep them running until the parent is told to stop; the exit status. ``json_log``:
    the workers' stderr is relayed into the JSON log (:func:`_relay`)."""
    workers: dict[int, int] = {}  # pid: index
    stopping = False

    def start(index: int, first: bool) -> None:
        reader, writer = os.pipe() if json_log else (-1, -1)
        pid = os.fork()
        if pid == 0:  # the worker
            if json_log:
                os.dup2(writer, sys.stderr.fileno())
                os.close(writer)
                os.close(reader)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            status = 0
            try:
                work(index, first)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                log.exception("worker failed", extra={"worker": index})
                status = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(status)
        workers[pid] = index
        if json_log:
            os.close(writer)
            threading.Thread(target=_relay, args=(reader, index), daemon=True).start()

    def stop(_number: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(workers):
            # SIGTERM: a graceful stop (uvicorn), as Ctrl+C's own SIGINT to the group.
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    for index in range(count):
        start(index, True)
    deadline: float | None = None
    while workers:
        if stopping and deadline is None:
            deadline = time.monotonic() + STOP_WITHIN
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            if deadline is not None and time.monotonic() > deadline:
                for late in workers:
                    os.kill(late, signal.SIGKILL)
            time.sleep(0.1)
            continue
        index = workers.pop(pid)
        if stopping:
            continue
        log.warning(
            "worker died; starting it again",
            extra={"worker": index, "pid": pid, "status": os.waitstatus_to_exitcode(status)},
        )
        time.sleep(RESTART_AFTER)
        if not stopping:
            start(index, False)
    return 0


def _relay(fd: int, index: int) -> None:
    """Worker ``index``'s stderr, until it closes (the worker and its children are gone),
    into the parent's: a JSON line as it is, any other as a ``worker printed`` record."""
    with os.fdopen(fd, "rb") as lines:
        for raw in lines:
            text = raw.decode("utf-8", "replace").rstrip("\r\n")
            if text.startswith("{") and text.endswith("}"):
                sys.stderr.write(text + "\n")
                sys.stderr.flush()
            elif text.strip():
                log.warning("worker printed", extra={"worker": index, "text": bounded(text)})
