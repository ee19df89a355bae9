"""Upgrading the database's schema when a server starts, one process at a time.

Several server processes may start at the same moment on one database (a deployment that
restarts them all, ``docker compose up``). Alembic itself takes no lock: two processes that
both found the schema old would both create or alter its tables, and one would fail. So
the upgrade runs in one transaction holding a lock of the database's own, and a process
that waits for it then finds the schema already up to date and changes nothing:

- PostgreSQL: a transaction-level advisory lock (``pg_advisory_xact_lock``), released by
  the transaction's commit or rollback, and by the server if the process dies;
- SQLite: the whole upgrade in a ``BEGIN EXCLUSIVE`` transaction (SQLite's DDL is
  transactional), on a connection of its own; another process waits on SQLite's lock.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import NullPool

__all__ = ["LOCK_KEY", "LOCK_WAIT", "migrate"]

log = logging.getLogger("cardtable.server")

# The advisory lock's key on PostgreSQL: any number no other program on the database uses
# ("card" in ASCII).
LOCK_KEY = 0x63617264
# Seconds a SQLite upgrade waits for another process's: an upgrade that copies a large
# table (SQLite alters a table by copying it) may take a while.
LOCK_WAIT = 600.0


def migrate(engine: Engine) -> tuple[str | None, str | None]:
    """Bring the schema of ``engine``'s database up to the newest revision (a fresh
    database is created), under the lock; the revisions before and after (equal when
    another process had upgraded it already)."""
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
            return _upgrade(connection)
    if engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
        locking = _exclusive_engine(engine)
        try:
            with locking.begin() as connection:
                return _upgrade(connection)
        finally:
            locking.dispose()
    # A database in this process's memory is its own: nobody else can upgrade it.
    with engine.begin() as connection:
        return _upgrade(connection)


def _upgrade(connection: Connection) -> tuple[str | None, str | None]:
    before = MigrationContext.configure(connection).get_current_revision()
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
    after = MigrationContext.configure(connection).get_current_revision()
    if before != after:
        log.info("schema upgraded", extra={"from_revision": before, "to_revision": after})
    return before, after


def _exclusive_engine(engine: Engine) -> Engine:
    """An engine on the same SQLite file whose transactions begin ``BEGIN EXCLUSIVE``.
    Python's sqlite3 would begin a transaction only before the first row written, after
    the schema was read: the driver's own transactions are turned off, and SQLAlchemy's
    begin says when (SQLAlchemy's documented recipe for SQLite)."""
    locking = create_engine(engine.url, poolclass=NullPool, connect_args={"timeout": LOCK_WAIT})

    @event.listens_for(locking, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(locking, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN EXCLUSIVE")

    return locking
