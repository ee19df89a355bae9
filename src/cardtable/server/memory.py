"""The tables a server process holds in memory, and what it keeps of each: its lock (every
change of a table is made under it), its sockets, and when it was last used."""

from __future__ import annotations

import asyncio
import time

from cardtable.server.commits import MovedError
from cardtable.server.metrics import Metrics
from cardtable.server.sockets import Connection
from cardtable.server.table import Table

__all__ = ["Memory"]


class Memory:
    """The tables in memory, by id, with their locks, sockets and last use."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.connections: dict[str, set[Connection]] = {}
        self.touched: dict[str, float] = {}  # when each table in memory was last used

    def holds(self, table: Table) -> bool:
        """Whether this very table is in memory (not one that left it, nor its reload)."""
        return self.tables.get(table.id) is table

    def lock(self, table: Table) -> asyncio.Lock:
        """The table's lock; :class:`MovedError` if the table has left this process."""
        if self.tables.get(table.id) is not table:
            raise MovedError(table.id)
        return self.locks[table.id]

    def touch(self, table_id: str) -> None:
        self.touched[table_id] = time.monotonic()

    def add(self, table: Table) -> None:
        if table.id not in self.tables:
            self.metrics.tables_open.inc()
        self.tables[table.id] = table
        self.locks[table.id] = asyncio.Lock()
        self.connections[table.id] = set()
        self.touched[table.id] = time.monotonic()

    def remove(self, table_id: str) -> None:
        del self.tables[table_id], self.locks[table_id]
        self.metrics.tables_open.dec()
        del self.connections[table_id], self.touched[table_id]
