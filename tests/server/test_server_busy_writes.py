"""Every write of the server waits out a busy database as a move's commit does, and one the
database still refuses is told to whoever asked, never only to the log (docs/server.md,
"Storage"): a game's review, and the mark of a quarantined table.

Another connection holds SQLite's write lock (``BEGIN EXCLUSIVE``) while the write is due:
let go within the server's patience, the write is made; held past it, the seat hears
``review_failed`` (``unavailable``), the server logs no traceback, and asking again once
the lock is gone stores and sends the review made, without making it again.
"""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardtable.server.app import create_app
from server_pieces import (
    Frame,
    Socket,
    humans,
    locked,
    open_table,
    play_to_end,
    play_turn,
    seated,
)

PATIENCE = 1.0  # seconds the server retries a write on the locked database
LOCK_SECONDS = 30.0  # the most a lock is held: each test lets it go before then
BUSY = "database unavailable; trying again"


@contextmanager
def serving(database: Path, caplog: pytest.LogCaptureFixture) -> Iterator[TestClient]:
    """The web table on a SQLite file, patient with a busy database for :data:`PATIENCE`
    seconds; its log in ``caplog``."""
    caplog.set_level(logging.INFO, logger="cardtable.server")
    app = create_app(f"sqlite:///{database}", bot_delay=0, workers=1, commit_patience=PATIENCE)
    with TestClient(app) as client:
        yield client


def logged(caplog: pytest.LogCaptureFixture, message: str, seconds: float = 20.0) -> None:
    """Wait until the server has logged ``message``."""
    deadline = time.monotonic() + seconds
    while not any(r.getMessage() == message for r in list(caplog.records)):
        assert time.monotonic() < deadline, f"the server never logged {message!r}"
        time.sleep(0.01)


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info is not None]


def review_answer(socket: Socket) -> Frame:
    """The frame that ends a review asked for: the review, or why it did not come."""
    return socket.until(lambda f: f["type"] in ("review", "review_failed", "error"), 60)[-1]


def stored_reviews(database: Path, table: str) -> dict[int, dict[str, Any]]:
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT seat, data FROM reviews WHERE table_id = ? AND game = 1", (table,)
        ).fetchall()
    return {seat: json.loads(data) for seat, data in rows}


def test_a_review_waits_out_a_busy_database_and_one_it_could_not_store_comes_when_asked_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDTABLE_REVIEW_LEVEL", "analysis:deals=4,iterations=200")
    database = tmp_path / "t.db"
    with serving(database, caplog) as client:
        opened = open_table(client, "knockout-whist", humans(2))
        table = opened["table"]
        with seated(client, opened, watcher=False) as (sockets, _):
            play_to_end(sockets, [], random.Random(7))
            ana, bo = sockets[0], sockets[1]

            # Locked while the review is made, let go once its store has found the lock:
            # the review is stored and sent.
            with locked(database, LOCK_SECONDS) as holder:
                ana.send({"type": "review", "game": 1})
                logged(caplog, BUSY)
                holder.release.set()
            reviewed = review_answer(ana)
            assert reviewed["type"] == "review", reviewed
            assert stored_reviews(database, table) == {0: reviewed["review"]}

            # Locked past the server's patience: the seat hears that its review did not come.
            caplog.clear()
            with locked(database, LOCK_SECONDS) as holder:
                bo.send({"type": "review", "game": 1})
                failed = review_answer(bo)
                holder.release.set()
            assert failed["type"] == "review_failed", failed
            assert (failed["game"], failed["code"]) == (1, "unavailable")
            assert "ask again" in failed["message"]
            assert stored_reviews(database, table).keys() == {0}
            assert not tracebacks(caplog), tracebacks(caplog)
            assert not [r for r in caplog.records if r.getMessage() == "review failed"]

            # Asked again once the lock is gone: the review made is stored and sent at once.
            caplog.clear()
            bo.send({"type": "review", "game": 1})
            again = bo.until(lambda f: f["type"] != "presence")[-1]
            assert again["type"] == "review" and again["review"]["seat"] == 1, again
            assert stored_reviews(database, table)[1] == again["review"]
            assert not [r for r in caplog.records if r.getMessage() == "game reviewed"]
            bo.send({"type": "review", "game": 1})  # and from the database from now on
            assert bo.until(lambda f: f["type"] != "presence")[-1] == again


def test_a_table_found_damaged_on_a_busy_database_is_set_aside_and_marked_at_the_next_start(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The mark of a quarantined table is a write like any other: on a database locked
    past the server's patience the table is answered ``quarantined`` all the same (never
    ``server_error``), the log says the mark was not stored, without a traceback, and the
    next start that loads the table marks it."""
    database = tmp_path / "t.db"
    with serving(database, caplog) as client:
        broken = open_table(client, "knockout-whist", humans(2))["table"]
        sound = open_table(client, "knockout-whist", humans(2))
    with sqlite3.connect(database) as connection:
        connection.execute(
            "UPDATE events SET data = 'not JSON' WHERE table_id = ? AND seq = 1", (broken,)
        )
    with serving(database, caplog) as client:
        # A move on the other table first: the server's connections have written.
        with seated(client, sound, watcher=False) as (sockets, _):
            play_turn(sockets, [], random.Random(1))
        caplog.clear()
        with locked(database, LOCK_SECONDS) as holder:
            began = time.monotonic()
            answer = client.get(f"/api/tables/{broken}")
            waited = time.monotonic() - began
            with client.websocket_connect(f"/ws/{broken}") as session:
                assert session.receive_json()["code"] == "quarantined"
                with pytest.raises(WebSocketDisconnect):
                    session.receive_json()
            holder.release.set()
        assert (answer.status_code, answer.json()["error"]) == (503, "quarantined"), answer.text
        assert waited < PATIENCE + 2.0
        assert client.get("/health").json()["quarantined"] == 1
        assert client.get(f"/api/tables/{sound['table']}").status_code == 200
        said = [r.getMessage() for r in caplog.records]
        assert said.count("table quarantined") == 1
        assert "quarantine not marked in the database" in said
        assert not tracebacks(caplog), tracebacks(caplog)
    with sqlite3.connect(database) as connection:
        (mark,) = connection.execute(
            "SELECT quarantined FROM tables WHERE id = ?", (broken,)
        ).fetchone()
    assert mark is None
    with serving(database, caplog) as client:
        assert client.get(f"/api/tables/{broken}").status_code == 503
    with sqlite3.connect(database) as connection:
        (mark,) = connection.execute(
            "SELECT quarantined FROM tables WHERE id = ?", (broken,)
        ).fetchone()
    assert mark.startswith("event 1: not JSON (")


def test_a_change_the_database_refuses_fails_alone_not_its_whole_batch(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Moves at several tables are stored in one transaction. One change the database will
    not take (here: events of a table it has no row of, which its foreign key refuses)
    would fail them all; its batch is stored again change by change, so that the others
    are kept and only that one's mover is refused."""
    import asyncio

    from sqlalchemy.exc import IntegrityError

    from cardtable.server.commits import Writer
    from cardtable.server.store import Store
    from cardtable.server.table import Change, Table

    store = Store(f"sqlite:///{tmp_path / 'tables.db'}")
    tables = []
    for _ in range(2):
        table, _tokens, opened = Table.open("knockout-whist", {}, humans(2))
        store.create_table(table.creation(opened))
        table.commit(opened)
        tables.append(table)
    moves = []
    for table in tables:
        mover = table.state.to_move
        assert mover is not None
        moves.append(table.act(mover, str(table.state.legal_actions()[0]), "human", table.seq))
    stray = Change([{**moves[0].events[0], "seq": 1}], [], moves[0].run)
    caplog.set_level(logging.INFO, logger="cardtable.server")

    async def commit_together() -> list[BaseException | None]:
        writer = Writer(store)
        try:
            answers = await asyncio.gather(
                writer.commit(tables[0].id, moves[0]),
                writer.commit("no-such-table", stray),
                writer.commit(tables[1].id, moves[1]),
                return_exceptions=True,
            )
            return list(answers)
        finally:
            await writer.close()

    try:
        first, refused, second = asyncio.run(commit_together())
        assert first is None and second is None
        assert isinstance(refused, IntegrityError)
        assert any(
            r.getMessage() == "commit failed; storing its changes one by one"
            for r in caplog.records
        ), "the three changes were not one batch: nothing was tested"
        for table, move in zip(tables, moves, strict=True):
            stored = store.load(table.id)
            assert stored is not None and stored.events[-1] == move.events[-1]
    finally:
        store.close()


def test_a_move_whose_turn_comes_after_its_patience_is_refused_not_stored_late(
    tmp_path: Path,
) -> None:
    """A move that found the database locked waits in the commits' thread; if its turn
    comes only after its patience (behind a write that took long), it is refused then, as
    promised, even though the lock has gone meanwhile: never acknowledged late."""
    import asyncio

    from cardtable.server.commits import UnavailableError, Writer
    from cardtable.server.store import Store
    from cardtable.server.table import Table

    path = tmp_path / "tables.db"
    store = Store(f"sqlite:///{path}")
    table, _tokens, opened = Table.open("knockout-whist", {}, humans(2))
    store.create_table(table.creation(opened))
    table.commit(opened)
    mover = table.state.to_move
    assert mover is not None
    move = table.act(mover, str(table.state.legal_actions()[0]), "human", table.seq)

    async def move_behind_a_long_write() -> tuple[BaseException | None, float]:
        writer = Writer(store, patience=0.5)
        try:
            # The commits' thread is busy for 1.2 s (a write that took that long).
            slow = writer.patiently(lambda wait: time.sleep(1.2))
            began = time.monotonic()
            with locked(path, 0.3):  # found locked: handed to the busy thread
                answer = asyncio.ensure_future(writer.commit(table.id, move))
                await asyncio.sleep(0.1)
            try:
                await answer
                refused: BaseException | None = None
            except UnavailableError as exc:
                refused = exc
            await slow
            return refused, time.monotonic() - began
        finally:
            await writer.close()

    try:
        refused, took = asyncio.run(move_behind_a_long_write())
        assert isinstance(refused, UnavailableError), f"stored after {took:.2f} s"
        stored = store.load(table.id)
        assert stored is not None and stored.events[-1]["seq"] == table.seq
    finally:
        store.close()
