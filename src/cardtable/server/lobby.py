"""Open tables: the lobby lists the tables with a seat anyone may take, and gives that seat
to whoever asks first (docs/server.md, "Open tables").

A table's creator marks a human seat ``open`` instead of inviting someone to it: the seat
has no token until it is taken, so nobody holds a link to it. Taking it makes the seat's
token then, and stores its hash with the taker's name in one conditional write (the seat
row whose token is still empty), so that of two players who click at once, on one server
process or on two, one gets the seat and the other hears ``seat_taken``. The listing and
the taking read and write the database, not one process's memory: every process of a
server lists the same tables, and the process holding a taken seat's table learns of the
taker from the database when the taker first joins (:meth:`Seats.join`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, select, update
from sqlalchemy.orm import Session

from cardtable.server.store import SeatRow, Store, TableRow

__all__ = ["LISTED", "OpenTable", "open_tables", "seat_rows", "take_seat"]

LISTED = 50  # the most open tables one listing gives, newest first


@dataclass(frozen=True, slots=True)
class OpenTable:
    """A table with a seat to take, as the lobby lists it."""

    table: str
    game: str
    options: dict[str, Any]
    created: float
    seats: list[dict[str, Any]]

    def describe(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "game": self.game,
            "options": self.options,
            "created": self.created,
            "seats": self.seats,
        }


def _open_seat() -> Any:
    return and_(SeatRow.kind == "human", SeatRow.token_hash.is_(None))


def open_tables(store: Store, game: str | None, limit: int = LISTED) -> list[OpenTable]:
    """The newest tables (of ``game``, or of any) with a seat open, quarantined ones left
    out, each with every seat: who sits there (a name, a bot's level) or that it is open."""
    with Session(store.engine) as session:
        listed = (
            select(TableRow)
            .where(
                TableRow.quarantined.is_(None),
                TableRow.id.in_(select(SeatRow.table_id).where(_open_seat())),
            )
            .order_by(TableRow.created.desc())
            .limit(limit)
        )
        if game is not None:
            listed = listed.where(TableRow.game == game)
        tables = list(session.scalars(listed))
        seats: dict[str, list[dict[str, Any]]] = {table.id: [] for table in tables}
        rows = session.scalars(
            select(SeatRow).where(SeatRow.table_id.in_(list(seats))).order_by(SeatRow.seat)
        )
        for row in rows:
            is_open = row.kind == "human" and row.token_hash is None
            seats[row.table_id].append(
                {
                    "seat": row.seat,
                    "kind": row.kind,
                    "name": None if is_open else row.name,
                    "level": row.level,
                    "open": is_open,
                }
            )
    return [
        OpenTable(table.id, table.game, json.loads(table.options), table.created, seats[table.id])
        for table in tables
    ]


def take_seat(store: Store, table_id: str, seat: int, digest: str, name: str, wait: float) -> bool:
    """Give the open ``seat`` of ``table_id`` the token whose hash is ``digest`` and the
    taker's ``name``, if it is still open: whether it was (one write, so that it goes to
    one taker however many ask at once)."""
    with store.writing(wait) as session:
        taken = session.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat, _open_seat())
            .values(token_hash=digest, name=name)
        )
        return bool(getattr(taken, "rowcount", 0) == 1)


def seat_rows(store: Store, table_id: str) -> list[tuple[int, str, str | None]]:
    """Each seat of a table as stored: (seat, name, token hash)."""
    with Session(store.engine) as session:
        rows = session.execute(
            select(SeatRow.seat, SeatRow.name, SeatRow.token_hash).where(
                SeatRow.table_id == table_id
            )
        )
        return [(int(seat), str(name), digest) for seat, name, digest in rows]
