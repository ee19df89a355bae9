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
from typing import Any

from sqlalchemy import and_, func, select, update
from sqlalchemy.orm import Session

from cardtable.server.store import SeatRow, Store, TableRow

__all__ = [
    "LISTED",
    "fill_seat",
    "open_tables",
    "seat_rows",
    "take_seat",
    "waiting_tables",
]

LISTED = 50  # the most open tables one listing gives, newest first


def _open_seat() -> Any:
    return and_(SeatRow.kind == "human", SeatRow.token_hash.is_(None))


def open_tables(store: Store, game: str | None, limit: int = LISTED) -> list[dict[str, Any]]:
    """The newest tables (of ``game``, or of any) with a seat open, quarantined ones left
    out, as the lobby lists them: ``table``, ``game``, ``options``, ``created`` and every
    seat, who sits there (a name, a bot's level) or that it is open."""
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
                    "level": None if is_open else row.level,
                    "open": is_open,
                    "open_until": row.open_until,
                }
            )
    return [
        {
            "table": table.id,
            "game": table.game,
            "options": json.loads(table.options),
            "created": table.created,
            "seats": seats[table.id],
        }
        for table in tables
    ]


def take_seat(store: Store, table_id: str, seat: int, digest: str, name: str, wait: float) -> bool:
    """Give the open ``seat`` of ``table_id`` the token whose hash is ``digest`` and the
    taker's ``name``, if it is still open: whether it was (one write, so that it goes to
    one taker however many ask at once)."""
    return _if_open(store, table_id, seat, wait, token_hash=digest, name=name, open_until=None)


def fill_seat(store: Store, table_id: str, seat: int, level: str, wait: float) -> bool:
    """Give the open ``seat``, untaken in time, to a bot of ``level``, if it is still open:
    whether it was (taken meanwhile through another process, it stays its taker's)."""
    return _if_open(store, table_id, seat, wait, kind="bot", name=f"{level} bot", open_until=None)


def _if_open(store: Store, table_id: str, seat: int, wait: float, **values: Any) -> bool:
    """Write ``values`` to the seat's row if the seat is still open, in one conditional
    write: whether it was."""
    with store.writing(wait) as session:
        written = session.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat, _open_seat())
            .values(**values)
        )
        return bool(getattr(written, "rowcount", 0) == 1)


def waiting_tables(store: Store, game: str, players: int) -> list[tuple[str, list[int]]]:
    """The tables of ``game`` for ``players`` with a seat open, the longest waiting first,
    each with its open seats: where a quick match looks for people first."""
    with Session(store.engine) as session:
        rows = session.execute(
            select(SeatRow.table_id, SeatRow.seat)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .where(TableRow.game == game, TableRow.quarantined.is_(None), _open_seat())
            .order_by(TableRow.created, SeatRow.seat)
            .limit(LISTED * 4)
        ).all()
        tables: dict[str, list[int]] = {}
        for table_id, seat in rows:
            tables.setdefault(table_id, []).append(int(seat))
        counts = dict(
            session.execute(
                select(SeatRow.table_id, func.count())
                .where(SeatRow.table_id.in_(list(tables)))
                .group_by(SeatRow.table_id)
            ).all()
        )
    return [(table_id, seats) for table_id, seats in tables.items() if counts[table_id] == players]


def seat_rows(store: Store, table_id: str) -> list[tuple[int, str, str, str | None]]:
    """Each seat of a table as stored: (seat, kind, name, token hash)."""
    with Session(store.engine) as session:
        rows = session.execute(
            select(SeatRow.seat, SeatRow.kind, SeatRow.name, SeatRow.token_hash).where(
                SeatRow.table_id == table_id
            )
        )
        return [(int(seat), str(kind), str(name), digest) for seat, kind, name, digest in rows]
