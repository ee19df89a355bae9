"""Which database errors mean that the database is unavailable for now, and which are errors
of the data.

A database that is unavailable (restarting, unreachable, its connection cut, read-only for
a failover or maintenance, locked, out of disk) fails a write now and takes the same write
later: the writer tries it again for its patience, and the change is then refused
``unavailable``, to be sent again (``commits.py``). An error of the data (a constraint the
rows break, a value the column cannot hold, a table that does not exist) fails the same way
each time: it is never tried again.

PostgreSQL says which with its SQLSTATE (Appendix A of its manual); a connection that failed
or was lost has none. SQLite says it with its result code.
"""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout

__all__ = ["BUSY", "CONNECTION", "KINDS", "READ_ONLY", "RESOURCES", "TIMEOUT", "outage"]

# The kinds of unavailability, as the metrics and the logs name them.
CONNECTION = "connection"  # no connection, or one lost (a restart, a network, a kill)
READ_ONLY = "read_only"  # the database takes no writes (a standby, a maintenance window)
TIMEOUT = "timeout"  # a statement cancelled (statement_timeout, an operator's cancel)
BUSY = "busy"  # a lock, a deadlock, a serialization failure: another writer was first
RESOURCES = "resources"  # disk full, out of memory, too many connections, an I/O error
KINDS = (CONNECTION, READ_ONLY, TIMEOUT, BUSY, RESOURCES)

# PostgreSQL's SQLSTATEs of a database unavailable for now: whole classes, then codes.
_POSTGRES_CLASSES = {
    "08": CONNECTION,  # connection_exception
    "53": RESOURCES,  # insufficient_resources: disk full, out of memory, too many connections
}
_POSTGRES_CODES = {
    "40001": BUSY,  # serialization_failure
    "40P01": BUSY,  # deadlock_detected
    "58000": RESOURCES,  # system_error
    "58030": RESOURCES,  # io_error
    "57P01": CONNECTION,  # admin_shutdown: a fast stop, pg_terminate_backend
    "57P02": CONNECTION,  # crash_shutdown: another backend crashed
    "57P03": CONNECTION,  # cannot_connect_now: starting up, shutting down
    "57P05": CONNECTION,  # idle_session_timeout
    "57014": TIMEOUT,  # query_canceled: statement_timeout
    "25006": READ_ONLY,  # read_only_sql_transaction
    "55P03": BUSY,  # lock_not_available: lock_timeout
    "55006": BUSY,  # object_in_use
}
# SQLite's primary result codes (the low byte of its extended ones).
_SQLITE_CODES = {
    5: BUSY,  # SQLITE_BUSY: another connection holds the lock
    6: BUSY,  # SQLITE_LOCKED
    8: READ_ONLY,  # SQLITE_READONLY
    10: RESOURCES,  # SQLITE_IOERR
    13: RESOURCES,  # SQLITE_FULL
    14: CONNECTION,  # SQLITE_CANTOPEN
    15: BUSY,  # SQLITE_PROTOCOL
}


def outage(exc: BaseException) -> str | None:
    """The kind of unavailability ``exc`` says the database is in (:data:`KINDS`); None if it
    is an error of the data (or no database error at all), which trying again would not
    mend."""
    if isinstance(exc, PoolTimeout):
        return BUSY  # every pooled connection in use for the pool's whole timeout
    if not isinstance(exc, SQLAlchemyError):
        return None
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return CONNECTION  # the connection was lost, whatever the error said
    original = getattr(exc, "orig", None)
    state = getattr(original, "sqlstate", None)
    if isinstance(state, str) and state:
        return _POSTGRES_CODES.get(state) or _POSTGRES_CLASSES.get(state[:2])
    code = getattr(original, "sqlite_errorcode", None)
    if isinstance(code, int):
        return _SQLITE_CODES.get(code & 0xFF)
    if isinstance(exc, OperationalError | InterfaceError):
        # PostgreSQL: a connection that could not be made or was lost (no SQLSTATE).
        return CONNECTION
    return None
