"""The database of the web table: tables, seats, events and the decks behind them.

A table is its record (DESIGN.md): the ``events`` rows, numbered per table, are everything
that happened at it, and the server replays them to rebuild the table after a restart.
``deals`` keeps each hand's deck and salt, which only the server reads until the hand is
over. Seats keep a hash of their token, never the token.

The schema is created and upgraded by Alembic (``cardtable/server/migrations``); the same
code runs on SQLite (the default, in WAL mode) and PostgreSQL.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    insert,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

__all__ = ["DealRow", "EventRow", "SeatRow", "Store", "TableRow"]


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)  # JSON: the rules played (no dealer)
    created: Mapped[float] = mapped_column(Float)
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


@dataclass(frozen=True, slots=True)
class StoredTable:
    """One table as the database holds it, ready to be replayed."""

    id: str
    game: str
    options: dict[str, Any]
    created: float
    secret: str | None
    seats: list[SeatRow]
    events: list[dict[str, Any]]
    deals: list[DealRow]


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest revision (a fresh database is created)."""
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Store:
    """The tables' records in a database named by a SQLAlchemy URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = create_engine(url, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrate(self.engine)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def create_table(
        self,
        table_id: str,
        game: str,
        options: dict[str, Any],
        seats: list[SeatRow],
        events: list[dict[str, Any]],
        deals: list[DealRow],
        secret: str | None = None,
    ) -> float:
        """Store a new table with its first events, in one transaction; its creation time."""
        created = time.time()
        with Session(self.engine) as session, session.begin():
            session.add(
                TableRow(
                    id=table_id,
                    game=game,
                    options=json.dumps(options),
                    created=created,
                    secret=secret,
                )
            )
            session.flush()  # the table row first: the others refer to it
            session.add_all(seats)
            self._add_events(session, table_id, events, deals)
        return created

    def append(self, table_id: str, events: list[dict[str, Any]], deals: list[DealRow]) -> None:
        """Commit events (each with its ``seq``) and the decks they dealt, all or none."""
        self.append_many([(table_id, events, deals)])

    def append_many(self, changes: list[tuple[str, list[dict[str, Any]], list[DealRow]]]) -> None:
        """Commit the changes of several tables in one transaction, all or none: a busy
        server pays for one commit per batch rather than one per move."""
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
        with self.engine.begin() as connection:
            if deals:
                connection.execute(insert(DealRow), deals)
            if events:
                connection.execute(insert(EventRow), events)

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

    def load(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = list(
                session.scalars(
                    select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
                )
            )
            events = [
                json.loads(data)
                for data in session.scalars(
                    select(EventRow.data)
                    .where(EventRow.table_id == table_id)
                    .order_by(EventRow.seq)
                )
            ]
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
                options=json.loads(row.options),
                created=row.created,
                secret=row.secret,
                seats=seats,
                events=events,
                deals=deals,
            )

    def close(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets readers go on while a write commits; NORMAL still survives a killed process
    # (only a power cut can lose the last transactions in WAL mode).
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
