"""The server's Prometheus metrics, served at ``/metrics`` (docs/hosting.md, "Metrics").

Each value is updated where its event happens (a table loaded or dropped, a seat joined or
left, an action committed, a bot's move chosen), never computed by walking the tables when
Prometheus scrapes. Every server has a registry of its own, so that several servers in one
process (the tests) never share a count; each server process answers for itself, and
Prometheus scrapes each one.
"""

from __future__ import annotations

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from cardtable.server.outages import KINDS

__all__ = ["CONTENT_TYPE", "Metrics"]

# The text format every Prometheus reads (the newer 1.0.0 differs only in names that need
# escaping, and these need none).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# A commit takes a fraction of a millisecond on SQLite and a few on PostgreSQL; a busy
# database's retries last up to the writer's patience (5 s).
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
# The easy level decides in microseconds, the expert one searches for seconds.
THINK_BUCKETS = (0.0001, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)


class Metrics:
    """The metrics of one server, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.tables_open = Gauge(
            "cardtable_tables_open",
            "Tables in memory (stored and tutorial tables)",
            registry=registry,
        )
        self.sockets_open = Gauge(
            "cardtable_sockets_open",
            "Websockets open at tables (seats and spectators)",
            registry=registry,
        )
        self.seats_connected = Gauge(
            "cardtable_seats_connected",
            "Human seats with at least one connection",
            registry=registry,
        )
        self.actions = Counter(
            "cardtable_actions",
            "Actions accepted and stored, by who played them (human, bot, stand-in)",
            ["by"],
            registry=registry,
        )
        self.commit_seconds = Histogram(
            "cardtable_commit_seconds",
            "Seconds from a change's computation to its commit in the database",
            buckets=COMMIT_BUCKETS,
            registry=registry,
        )
        self.think_seconds = Histogram(
            "cardtable_bot_think_seconds",
            "Seconds a bot (or a stand-in) took to choose its move, by level",
            ["level"],
            buckets=THINK_BUCKETS,
            registry=registry,
        )
        self.hints_pending = Gauge(
            "cardtable_hints_pending",
            "Hints asked for and not yet answered (waiting for or in a hint worker)",
            registry=registry,
        )
        self.websocket_errors = Counter(
            "cardtable_websocket_errors",
            "Websocket messages refused and connections failed, by error code",
            ["code"],
            registry=registry,
        )
        self.commits_unavailable = Counter(
            "cardtable_commits_unavailable",
            "Changes refused because the database would not store them in time",
            registry=registry,
        )
        self.database_errors = Counter(
            "cardtable_database_errors",
            "Uses of the database that failed because it was unavailable (each attempt of a "
            "commit tried again counts), by kind: connection, read_only, timeout, busy, "
            "resources",
            ["kind"],
            registry=registry,
        )
        for kind in KINDS:  # each kind is shown from the start, at 0
            self.database_errors.labels(kind=kind)
        self.database_up = Gauge(
            "cardtable_database_up",
            "1 if the server's last use of the database succeeded, 0 if it failed because "
            "the database was unavailable",
            registry=registry,
        )
        self.database_up.set(1)

    def database_failed(self, kind: str) -> None:
        """A use of the database failed because it was unavailable (``outages.py``)."""
        self.database_errors.labels(kind=kind).inc()
        self.database_up.set(0)

    def database_answered(self) -> None:
        self.database_up.set(1)

    def exposition(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)
