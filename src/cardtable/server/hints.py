"""The hints the seats ask for: worked out in a pool of their own, one at a time for each
seat, and a bounded number a minute."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from concurrent.futures import Executor
from typing import Any

from cardtable.server.bots import move_seed
from cardtable.server.metrics import Metrics
from cardtable.server.table import Table, TableError
from cardtable.server.thinking import advise

__all__ = ["HINTS_PER_MINUTE", "HINT_WINDOW", "Hints"]

# A hint searches to the end of the hard level's budget: a seat may have one under way and
# ask for this many in a minute, so that a few seats cannot keep the hint workers for ever.
HINTS_PER_MINUTE = 12
HINT_WINDOW = 60.0


class Hints:
    """The hints under way, and when each seat asked for its recent ones."""

    def __init__(self, executor: Executor, metrics: Metrics, per_minute: int) -> None:
        self.executor = executor
        self.metrics = metrics
        self.per_minute = per_minute
        # (table, seat) of each hint under way, and when each seat asked for its recent ones.
        self.hinting: set[tuple[str, int]] = set()
        self.asked: dict[tuple[str, int], deque[float]] = {}

    async def ask(self, table: Table, seat: int) -> dict[str, Any]:
        """The ``hint`` message for ``seat``, to move at ``table``."""
        if table.state.to_move != seat:
            raise TableError("not_your_turn", "a hint is for one's own turn")
        key = (table.id, seat)
        if key in self.hinting:
            raise TableError("hint_busy", "this seat's last hint is still being worked out")
        now = time.monotonic()
        asked = self.asked.setdefault(key, deque())
        while asked and now - asked[0] >= HINT_WINDOW:
            asked.popleft()
        if len(asked) >= self.per_minute:
            wait = HINT_WINDOW - (now - asked[0])
            raise TableError(
                "hint_limit",
                f"a seat may ask for {self.per_minute} hints a minute; the next in {wait:.0f} s",
            )
        asked.append(now)
        self.hinting.add(key)
        self.metrics.hints_pending.inc()
        try:
            seq, view = table.seq, table.view(seat)
            loop = asyncio.get_running_loop()
            advice = await loop.run_in_executor(
                self.executor, advise, table.game_name, view, move_seed(table, seq)
            )
        finally:
            self.hinting.discard(key)
            self.metrics.hints_pending.dec()
        return {"type": "hint", "seq": seq, **advice}

    def forget(self, table_id: str) -> None:
        """Forget what the seats of a table that left memory asked for."""
        for key in [k for k in self.asked if k[0] == table_id]:
            del self.asked[key]
