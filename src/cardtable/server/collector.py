"""Keeping Python's garbage collector out of the latency of moves.

A server holding hundreds of tables keeps a large heap of long-lived objects (states,
records, events). CPython's automatic full collections walk all of it: at 500 tables one
takes a quarter of a second, during which no table moves, and it runs every few seconds
under load (measured with ``gc.callbacks`` during ``benchmarks/server.py``). Almost every
cycle of garbage the server makes dies young and the cheap collections of the young
generations find it, so the server turns automatic full collections off and runs one on a
timer instead: one pause every few minutes rather than several a minute.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["scheduled_full_collections"]

log = logging.getLogger("cardtable.server")

NEVER = 1_000_000  # young-generation collections between full ones: in practice, never


@contextmanager
def scheduled_full_collections(every: float) -> Iterator[asyncio.Task[None]]:
    """Within the block, full collections run every ``every`` seconds and never on their
    own; the collector's settings are restored afterwards."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)
    task = asyncio.get_running_loop().create_task(_collect(every))
    try:
        yield task
    finally:
        task.cancel()
        gc.set_threshold(young, middle, old)


async def _collect(every: float) -> None:
    while True:
        await asyncio.sleep(every)
        began = time.perf_counter()
        found = gc.collect()
        log.info(
            "full collection",
            extra={"unreachable": found, "ms": round((time.perf_counter() - began) * 1000, 1)},
        )
