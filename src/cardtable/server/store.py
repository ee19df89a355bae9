"""The database of the web table: tables, seats, events and the decks behind them.

A table is its record (DESIGN.md): the ``events`` rows, numbered per table, are everything
that happened at it, and the server replays them to rebuild the table after a restart.
``deals`` keeps each hand's deck and salt, which only the server reads until the hand is
over. Seats keep a hash of their token, never the token.

The schema is created and upgraded by Alembic (``cardtable/server/migrations``), one process
at a time (``schema.py``); the same code runs on SQLite (the default, in WAL mode) and
PostgreSQL.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    cast,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from cardtable.server.hangs import BOUND, HangWatch
from cardtable.server.schema import migrate

__all__ = [
    "WAIT",
    "AllowanceRow",
    "DealRow",
    "EventRow",
    "Finished",
    "Owner",
    "OwnerRow",
    "SeatRow",
    "Store",
    "StoredDataError",
    "StoredGame",
    "StoredTable",
    "TableRow",
]

# What the store calls with a table's finished games, in the transaction storing them.
Finished = Callable[[Connection, str, list[dict[str, Any]]], None]

WAIT = 5.0  # seconds a write waits on another's lock by default (Python's sqlite3 default)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)  # JSON: the rules played (no dealer)
    created: Mapped[float] = mapped_column(Float)
    # Why the table's record no longer replays (docs/server.md, "Quarantined tables"); None
    # for a table that serves.
    quarantined: Mapped[str | None] = mapped_column(Text, nullable=True)
    # Hex; server-side only: the table's server seeds and bots' seeds (docs/fairness.md).
    secret: Mapped[str | None] = mapped_column(String(64), nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "bot"
    name: Mapped[str] = mapped_column(String(64))
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # An open seat's deadline (seconds since the epoch): a bot of ``level`` takes it then if
    # nobody has (lobby.py). None for every other seat.
    open_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    # The player the seat is (players.py), once its holder said so; None for a guest's.
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)


class EventRow(Base):
    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[str] = mapped_column(Text)  # JSON: the public event
    created: Mapped[float] = mapped_column(Float)


class DealRow(Base):
    """A chance event of a game: a hand's deck, or a reshuffle the rules call for (the cut
    for trumps of Knockout Whist), numbered in the order drawn."""

    __tablename__ = "deals"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    game: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # "deck" or "reshuffle"
    hand: Mapped[int] = mapped_column(Integer)
    cards: Mapped[str] = mapped_column(Text)  # card strings, space-separated, index 0 first
    salt: Mapped[str] = mapped_column(String(64))


class AllowanceRow(Base):
    """A client's allowance of new tables (``--tables-per-minute``), shared by every server
    process on the database: ``tokens`` tables it may open, as counted at ``updated`` (the
    database's clock, or this machine's on SQLite), filling at the allowed rate. The client
    is the SHA-256 of its address."""

    __tablename__ = "allowances"

    client: Mapped[str] = mapped_column(String(64), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float, index=True)


class OwnerRow(Base):
    """The server process that holds a table in memory, until its lease runs out
    (docs/hosting.md, "Many processes"). A row says who serves the table's seats. What is
    stored is decided by the events' key (table, seq), and a change is stored only while the
    row names the process that made it (:meth:`Store.append_guarded`)."""

    __tablename__ = "owners"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    process: Mapped[str] = mapped_column(String(32), index=True)
    address: Mapped[str | None] = mapped_column(String(128), nullable=True)  # host:port
    # When it expires, in seconds since 1970 by the database's clock (PostgreSQL's: the
    # processes' own clocks may disagree), or this machine's on SQLite.
    until: Mapped[float] = mapped_column(Float, index=True)


@dataclass(frozen=True, slots=True)
class Owner:
    """Another process that holds a table: where its seats are served."""

    process: str
    address: str | None
    until: float


@dataclass(frozen=True, slots=True)
class NewTable:
    """A table to store, all in one transaction: its row, its seats and its first events."""

    id: str
    game: str
    options: dict[str, Any]
    seats: list[SeatRow]
    events: list[dict[str, Any]]
    deals: list[DealRow]
    secret: str | None = None


@dataclass(frozen=True, slots=True)
class StoredTable:
    """One table as the database holds it, ready to be replayed."""

    id: str
    game: str
    options: dict[str, Any]
    created: float
    seats: list[SeatRow]
    events: list[dict[str, Any]]
    deals: list[DealRow]
    quarantined: str | None = None
    secret: str | None = None
    # Each event's row: its number and kind as the row's own columns say (the events are
    # their ``data``), for the check that the two agree (``records.py``).
    rows: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game of a table as the database holds it (its events and chance rows: none if
    the table has no game ``number``), for the replay of a game no longer in memory."""

    id: str
    game: str
    options: dict[str, Any]
    quarantined: str | None
    games: int
    number: int
    events: list[dict[str, Any]]
    deals: list[DealRow]
    secret: str | None = None


class Store:
    """The tables' records in a database named by a SQLAlchemy URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.watch: HangWatch | None = None
        # Called with each table's ``over`` events in the transaction that stores them
        # (the ladder rates the finished games: ``ladder.rate_finished``); None: nothing.
        self.finished: Finished | None = None
        if make_url(url).get_backend_name() == "sqlite":
            self.engine = create_engine(url, future=True)
            event.listen(self.engine, "connect", _sqlite_pragmas)
            migrate(self.engine)
        else:
            # A server database's pooled connections die when it restarts or ends them, and
            # it may hang without ending them: each is tried before use and replaced if dead
            # (so that the first query after a restart, a /ready or a table's load, does not
            # fail on a connection that was dead already), and every use has a bound, every
            # wait for a free one too.
            self.engine = create_engine(url, future=True, pool_timeout=BOUND)
            migrate(self.engine)
            self.watch = HangWatch(self.engine)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def create_table(self, new: NewTable, wait: float = WAIT) -> float:
        """Store a new table with its first events, in one transaction; its creation time.
        ``wait``: seconds to wait for another writer's lock (SQLite) before giving up."""
        created = time.time()
        with self.writing(wait) as session:
            session.add(
                TableRow(
                    id=new.id,
                    game=new.game,
                    options=json.dumps(new.options),
                    created=created,
                    secret=new.secret,
                )
            )
            session.flush()  # the table row first: the others refer to it
            session.add_all(new.seats)
            self._add_events(session, new.id, new.events, new.deals)
        return created

    @contextmanager
    def writing(self, wait: float = WAIT) -> Iterator[Session]:
        """A session whose writes are committed together at the end of the block, or none
        of them. ``wait``: seconds to wait for another writer's lock (SQLite) before giving
        up; the server's writes are retried by :meth:`Writer.patiently`, which sets it."""
        with Session(self.engine) as session, session.begin():
            self._wait(session.connection(), wait)
            yield session

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session whose reads all see the database as it was at one moment, so that a
        table's rows read while another process appends to it (several processes on one
        PostgreSQL database) are all of before the append or all of after, never events
        without their deals. (SQLite is one process's, which reads no table it appends to.)"""
        with Session(self.engine) as session:
            if self.dialect == "postgresql":
                session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            yield session

    def append(self, table_id: str, events: list[dict[str, Any]], deals: list[DealRow]) -> None:
        """Commit events (each with its ``seq``) and the decks they dealt, all or none."""
        self.append_many([(table_id, events, deals)])

    def append_many(
        self, changes: list[tuple[str, list[dict[str, Any]], list[DealRow]]], wait: float = WAIT
    ) -> None:
        """Commit the changes of several tables in one transaction, all or none: a busy
        server pays for one commit per batch rather than one per move. ``wait``: seconds
        to wait for another writer's lock (SQLite; 0: fail at once if it is held)."""
        self._append(changes, wait, None)

    def _append(
        self,
        changes: list[tuple[str, list[dict[str, Any]], list[DealRow]]],
        wait: float,
        owner: str | None,
    ) -> set[str]:
        """:meth:`append_many`, of the changes whose table ``owner`` holds the lease of
        (all of them if ``owner`` is None); the tables whose lease it does not hold, none
        of whose rows were stored."""
        with self.engine.begin() as connection:
            self._wait(connection, wait)
            unheld: set[str] = set()
            if owner is not None:
                # The leases' rows are held (shared) until the commit: a claim by another
                # process waits for it, then loads what it stored.
                ids = sorted({table_id for table_id, _, _ in changes})
                held = connection.scalars(
                    select(OwnerRow.table_id)
                    .where(OwnerRow.table_id.in_(ids), OwnerRow.process == owner)
                    .with_for_update(read=True)
                )
                unheld = set(ids) - set(held)
                changes = [change for change in changes if change[0] not in unheld]
            self._insert(connection, changes)
            if self.finished is not None:
                for table_id, items, _ in changes:
                    overs = [item for item in items if item["kind"] == "over"]
                    if overs:
                        self.finished(connection, table_id, overs)
        return unheld

    @staticmethod
    def _insert(
        connection: Connection, changes: list[tuple[str, list[dict[str, Any]], list[DealRow]]]
    ) -> None:
        now = time.time()
        events = [
            {
                "table_id": table_id,
                "seq": item["seq"],
                "kind": item["kind"],
                "data": json.dumps(item),
                "created": now,
            }
            for table_id, items, _ in changes
            for item in items
        ]
        deals = [
            {
                "table_id": d.table_id,
                "game": d.game,
                "number": d.number,
                "kind": d.kind,
                "hand": d.hand,
                "cards": d.cards,
                "salt": d.salt,
            }
            for _, _, rows in changes
            for d in rows
        ]
        if deals:
            connection.execute(insert(DealRow), deals)
        if events:
            connection.execute(insert(EventRow), events)

    def append_guarded(
        self,
        changes: list[tuple[str, list[dict[str, Any]], list[DealRow]]],
        wait: float = WAIT,
        owner: str | None = None,
    ) -> set[str]:
        """Commit the changes as :meth:`append_many` does; the tables whose change the
        guard refused, none of whose rows were stored. The guard is the events' key: a
        change numbers its events from the table's ``seq`` as its process knew it, so a
        change made on a table another process has moved on collides with a stored event
        and is refused whole, whatever any lease says. The others' changes are stored:
        a batch that collides is committed again one table at a time. Only the key's
        collision is the guard's: any other error of the data is raised.

        ``owner``: the process committing, on a database several share: a change is
        stored only while its table's lease names ``owner`` (else it is refused as the
        guard refuses), so that a process whose lease ran out and was taken over (while
        the database was unreachable, say) stores nothing the new owner has not loaded."""
        try:
            return self._append(changes, wait, owner)
        except IntegrityError as exc:
            if not _collided(exc):
                raise
            if len(changes) == 1:
                return {changes[0][0]}
        refused = set()
        for change in changes:
            try:
                refused |= self._append([change], wait, owner)
            except IntegrityError as exc:
                if not _collided(exc):
                    raise
                refused.add(change[0])
        return refused

    # Owners ---------------------------------------------------------------------------------

    def claim(
        self,
        table_id: str,
        process: str,
        address: str | None,
        lease: float,
        dead: str | None = None,
        wait: float = WAIT,
    ) -> Owner | None:
        """Make ``process`` the table's owner for ``lease`` seconds, if nobody else holds it:
        no owner, an expired lease, or ``dead`` (a process found not answering). None if
        the table is now ``process``'s; else its owner. ``wait``: as :meth:`writing`'s."""
        now = self._now()
        with self.engine.begin() as connection:
            self._wait(connection, wait)
            free = (OwnerRow.process == process) | (OwnerRow.until < now)
            if dead is not None:
                free = free | (OwnerRow.process == dead)
            taken = connection.execute(
                update(OwnerRow)
                .where(OwnerRow.table_id == table_id, free)
                .values(process=process, address=address, until=now + lease)
            )
            if taken.rowcount == 1:
                return None
        try:
            with self.engine.begin() as connection:
                self._wait(connection, wait)
                connection.execute(
                    insert(OwnerRow).values(
                        table_id=table_id, process=process, address=address, until=now + lease
                    )
                )
            return None
        except IntegrityError:  # another process's lease, not expired
            pass
        with Session(self.engine) as session:
            row = session.get(OwnerRow, table_id)
            if row is None:  # released meanwhile: try again
                return self.claim(table_id, process, address, lease, dead, wait)
            return Owner(row.process, row.address, row.until)

    def owner(self, table_id: str) -> Owner | None:
        with Session(self.engine) as session:
            row = session.get(OwnerRow, table_id)
            return None if row is None else Owner(row.process, row.address, row.until)

    def renew(self, process: str, lease: float, wait: float = WAIT) -> set[str]:
        """Extend every lease ``process`` holds by ``lease`` seconds; the tables it holds."""
        with self.engine.begin() as connection:
            self._wait(connection, wait)
            connection.execute(
                update(OwnerRow)
                .where(OwnerRow.process == process)
                .values(until=self._now() + lease)
            )
            held = connection.execute(select(OwnerRow.table_id).where(OwnerRow.process == process))
            return set(held.scalars())

    def release(self, table_ids: list[str], process: str, wait: float = WAIT) -> None:
        """Give up ``process``'s leases of the tables (all of its leases: ``table_ids``
        empty)."""
        query = delete(OwnerRow).where(OwnerRow.process == process)
        if table_ids:
            query = query.where(OwnerRow.table_id.in_(table_ids))
        with self.engine.begin() as connection:
            self._wait(connection, wait)
            connection.execute(query)

    def orphans(self, process: str, limit: int) -> list[str]:
        """Tables whose owner's lease ran out (a process that died): the oldest first."""
        with Session(self.engine) as session:
            query = (
                select(OwnerRow.table_id)
                .where(OwnerRow.until < self._now(), OwnerRow.process != process)
                .order_by(OwnerRow.until)
                .limit(limit)
            )
            return list(session.scalars(query))

    def _now(self) -> Any:
        """The time now, for leases: the database's clock where it has one (all processes
        read the same), else this machine's."""
        if self.dialect == "postgresql":
            return cast(func.extract("epoch", func.clock_timestamp()), Float)
        return time.time()

    def _clock(self, session: Session) -> float:
        """The time now as :meth:`_now` tells it, as a number."""
        if self.dialect == "postgresql":
            return float(session.scalar(select(self._now())) or 0.0)
        return time.time()

    def _wait(self, connection: Connection, seconds: float) -> None:
        """Set how long SQLite waits on a lock held elsewhere, before the transaction
        writes (the pooled connection keeps whatever the last writer set)."""
        if self.dialect == "sqlite":
            connection.exec_driver_sql(f"PRAGMA busy_timeout = {round(seconds * 1000)}")

    @staticmethod
    def _add_events(
        session: Session, table_id: str, events: list[dict[str, Any]], deals: list[DealRow]
    ) -> None:
        now = time.time()
        session.add_all(deals)
        session.add_all(
            EventRow(
                table_id=table_id,
                seq=item["seq"],
                kind=item["kind"],
                data=json.dumps(item),
                created=now,
            )
            for item in events
        )

    def table_ids(self) -> list[str]:
        with Session(self.engine) as session:
            return list(session.scalars(select(TableRow.id).order_by(TableRow.created)))

    def count(self) -> int:
        """The tables stored, quarantined ones included."""
        with Session(self.engine) as session:
            return int(session.scalar(select(func.count()).select_from(TableRow)) or 0)

    def unwritable(self, wait: float = 1.0) -> str | None:
        """Why the database takes no write now, or None if it does: a PostgreSQL server
        read-only (a standby, ``default_transaction_read_only``, a maintenance window)
        answers reads but refuses every change; a SQLite file whose write lock another
        process has held for ``wait`` seconds stores nothing meanwhile (a move waits on it,
        and is refused when the writer's patience runs out)."""
        if self.dialect == "postgresql":
            with self.engine.begin() as connection:
                shown = connection.scalar(select(func.current_setting("transaction_read_only")))
                return "read-only" if shown == "on" else None
        raw = self.engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute(f"PRAGMA busy_timeout = {round(wait * 1000)}")
            try:
                # Takes the write lock as a write would, and gives it back at once.
                cursor.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    return "locked"
                raise
            cursor.execute("ROLLBACK")
            return None
        finally:
            raw.close()

    def exists(self, table_id: str) -> bool:
        with Session(self.engine) as session:
            return session.scalar(select(TableRow.id).where(TableRow.id == table_id)) is not None

    def take_allowance(self, client: str, per_minute: float, wait: float = WAIT) -> float:
        """Count one new table against ``client``'s allowance of ``per_minute`` a minute
        (in bursts of as many): 0.0 if it may open it now (then it is counted), else the
        seconds before it may. One transaction, the client's row locked, so that every
        process on the database counts the same tables."""
        key = _client_key(client)
        rate = per_minute / 60.0
        with self.writing(wait) as session:
            now = self._clock(session)
            # A bucket left alone for a minute is full again: its row says nothing more.
            session.execute(delete(AllowanceRow).where(AllowanceRow.updated < now - 60.0))
            upsert = pg_insert if self.dialect == "postgresql" else sqlite_insert
            session.execute(
                upsert(AllowanceRow)
                .values(client=key, tokens=per_minute, updated=now)
                .on_conflict_do_nothing()
            )
            row = session.scalars(
                select(AllowanceRow).where(AllowanceRow.client == key).with_for_update()
            ).one()
            tokens = min(per_minute, row.tokens + max(0.0, now - row.updated) * rate)
            row.updated = now
            if tokens < 1.0:
                row.tokens = tokens
                return (1.0 - tokens) / rate
            row.tokens = tokens - 1.0
            return 0.0

    def refund_allowance(self, client: str, per_minute: float, wait: float = WAIT) -> None:
        """Give back the table :meth:`take_allowance` counted, for a request refused
        for what it asked."""
        key = _client_key(client)
        with self.writing(wait) as session:
            row = session.scalars(
                select(AllowanceRow).where(AllowanceRow.client == key).with_for_update()
            ).one_or_none()
            if row is not None:
                row.tokens = min(per_minute, row.tokens + 1.0)

    def quarantine(self, table_id: str, reason: str, wait: float = WAIT) -> None:
        """Set a table aside: its record no longer replays, for ``reason``."""
        with self.writing(wait) as session:
            session.execute(
                update(TableRow).where(TableRow.id == table_id).values(quarantined=reason[:2000])
            )

    def quarantined_ids(self) -> set[str]:
        with Session(self.engine) as session:
            marked = select(TableRow.id).where(TableRow.quarantined.is_not(None))
            return set(session.scalars(marked))

    def events(self, table_id: str, after: int, upto: int) -> list[dict[str, Any]]:
        """The table's events numbered ``after`` + 1 to ``upto``, in order."""
        with Session(self.engine) as session:
            return [
                json.loads(data)
                for data in session.scalars(
                    select(EventRow.data)
                    .where(
                        EventRow.table_id == table_id, EventRow.seq > after, EventRow.seq <= upto
                    )
                    .order_by(EventRow.seq)
                )
            ]

    def load_game(self, table_id: str, number: int) -> StoredGame | None:
        """One game of a table, as stored: None if there is no such table."""
        with self.reading() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            # The events of game n run from its ``game`` event to the next game's.
            starts = list(
                session.scalars(
                    select(EventRow.seq)
                    .where(EventRow.table_id == table_id, EventRow.kind == "game")
                    .order_by(EventRow.seq)
                )
            )
            events: list[dict[str, Any]] = []
            deals: list[DealRow] = []
            if 1 <= number <= len(starts):
                upto = starts[number] - 1 if number < len(starts) else None
                query = select(EventRow.data).where(
                    EventRow.table_id == table_id, EventRow.seq >= starts[number - 1]
                )
                if upto is not None:
                    query = query.where(EventRow.seq <= upto)
                events = [json.loads(d) for d in session.scalars(query.order_by(EventRow.seq))]
                deals = list(
                    session.scalars(
                        select(DealRow)
                        .where(DealRow.table_id == table_id, DealRow.game == number)
                        .order_by(DealRow.number)
                    )
                )
                session.expunge_all()
            return StoredGame(
                id=row.id,
                game=row.game,
                options=json.loads(row.options),
                quarantined=row.quarantined,
                games=len(starts),
                number=number,
                events=events,
                deals=deals,
                secret=row.secret,
            )

    def load(self, table_id: str) -> StoredTable | None:
        with self.reading() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            if row.quarantined is not None:  # its rows are not read again
                return StoredTable(
                    row.id, row.game, {}, row.created, [], [], [], quarantined=row.quarantined
                )
            seats = list(
                session.scalars(
                    select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
                )
            )
            stored = session.execute(
                select(EventRow.seq, EventRow.kind, EventRow.data)
                .where(EventRow.table_id == table_id)
                .order_by(EventRow.seq)
            ).all()
            events = [_parsed(data, f"event {seq}") for seq, _, data in stored]
            deals = list(
                session.scalars(
                    select(DealRow)
                    .where(DealRow.table_id == table_id)
                    .order_by(DealRow.game, DealRow.number)
                )
            )
            session.expunge_all()
            return StoredTable(
                id=row.id,
                game=row.game,
                options=_parsed(row.options, "options"),
                created=row.created,
                secret=row.secret,
                seats=seats,
                events=events,
                deals=deals,
                quarantined=row.quarantined,
                rows=[(seq, kind) for seq, kind, _ in stored],
            )

    def by(self, deadline: float) -> contextlib.AbstractContextManager[None]:
        """The block's uses of the database end by ``deadline`` (``time.monotonic()``) at the
        latest, even if it hangs (``hangs.py``; SQLite bounds its own waits)."""
        return contextlib.nullcontext() if self.watch is None else self.watch.by(deadline)

    def close(self) -> None:
        if self.watch is not None:
            self.watch.close()
        self.engine.dispose()


class StoredDataError(ValueError):
    """A stored field that is not what this server writes; the message names the field
    (``records.RecordError`` for all the others)."""


def _client_key(client: str) -> str:
    """How a client's allowance is keyed: the SHA-256 of its address, not the address."""
    return hashlib.sha256(client.encode()).hexdigest()


def _parsed(text: str, where: str) -> Any:
    """A stored JSON field, or :class:`StoredDataError` naming it (not the parser alone)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoredDataError(f"{where}: not JSON ({exc.msg}, at character {exc.pos})") from None


def _collided(exc: IntegrityError) -> bool:
    """Whether a write failed on a key already stored (the guard), not on another rule of
    the data (a check, a foreign key, a null)."""
    original = exc.orig
    state = getattr(original, "sqlstate", None)
    if state is not None:
        return bool(state == "23505")  # PostgreSQL's unique_violation
    name = getattr(original, "sqlite_errorname", "")
    return name in ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE")


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets readers go on while a write commits; NORMAL still survives a killed process
    # (only a power cut can lose the last transactions in WAL mode).
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
