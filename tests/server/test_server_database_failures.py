"""The server survives its database failing under it (docs/hosting.md, "When the database
fails").

On a private PostgreSQL server (and SQLite where it has the same failure): which errors mean
the database is unavailable for now and which are errors of the data, each made for real; a
read-only database refuses changes ``unavailable`` and is not ready; a write the data's rules
refuse is not taken for another process's; a restarted database is ready at the first look;
a process whose lease was taken over while it could not renew stores nothing more; a change
waiting behind a refused batch is refused within the patience; a commit whose answer was
lost is never acknowledged, and its seats resume from what was stored. Last, two real server
processes play tables through every failure of ``failure_pieces.py`` (restarts, every
connection ended, the database unreachable for 10 s, read-only for a while, silent without
closing anything), each case's figures printed as a JSON line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketDisconnect

from cardtable.server.app import create_app
from cardtable.server.commits import COMMIT_PATIENCE
from cardtable.server.hangs import BOUND, CONNECT_LEAST
from cardtable.server.hub import Hub
from cardtable.server.outages import BUSY, CONNECTION, READ_ONLY, TIMEOUT, outage
from cardtable.server.store import Store
from failure_pieces import Database, cases, run_case
from postgres_proxy import PostgresProxy
from postgres_server import pg_ctl, postgres_url, stored_events
from restart_pieces import Client, _clients, _open_table, _seed
from served import ServerProcess
from server_pieces import Socket, humans, locked, open_table, play_to_end, tokens_of

TABLES = 2  # tables played through each failure, besides the probe's


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_url() as url:
        Store(url).close()  # the schema
        yield url


def _error_of(url: str, *statements: str) -> SQLAlchemyError:
    """The error the database answers the statements with, run in one transaction."""
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            for statement in statements:
                connection.execute(text(statement))
    except SQLAlchemyError as exc:
        return exc
    finally:
        engine.dispose()
    raise AssertionError(f"no error from {statements}")


def test_which_errors_mean_the_database_is_unavailable(database: str, tmp_path: Path) -> None:
    """Each error made for real: the kinds of an unavailable database, which a commit
    waits out; the errors of the data (a value, a key, a reference, a missing table), which
    it never tries again."""
    owner = "INSERT INTO owners VALUES ('t', 'p', NULL, 0)"
    read_only = _error_of(database, "SET TRANSACTION READ ONLY", owner)
    assert outage(read_only) == READ_ONLY
    timed_out = _error_of(database, "SET LOCAL statement_timeout = 10", "SELECT pg_sleep(1)")
    assert outage(timed_out) == TIMEOUT
    assert outage(_error_of(database, "INSERT INTO owners VALUES ('t', 'p', NULL, 'x')")) is None
    assert outage(_error_of(database, "INSERT INTO events VALUES ('no', 1, 'k', '{}', 0)")) is None
    assert outage(_error_of(database, "SELECT * FROM no_such_table")) is None
    assert outage(_error_of(database, owner, owner)) is None  # the key, twice
    admin = Database(database)
    engine = create_engine(database)
    try:
        # A lock another transaction holds, past lock_timeout: busy.
        with engine.begin() as holder:
            holder.execute(text("LOCK TABLE owners IN ACCESS EXCLUSIVE MODE"))
            waited = _error_of(database, "SET LOCAL lock_timeout = 50", "SELECT * FROM owners")
            assert outage(waited) == BUSY
        # A pooled connection the database ended since it was last used.
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        assert admin.terminate() >= 1
        with pytest.raises(SQLAlchemyError) as ended, engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        assert outage(ended.value) == CONNECTION
        # A database that lets nobody in.
        admin.refuse()
        try:
            assert outage(_error_of(database, "SELECT 1")) == CONNECTION
        finally:
            admin.admit()
    finally:
        engine.dispose()
    # SQLite: a lock held elsewhere, a file it may not write; a table it does not have.
    path = tmp_path / "t.db"
    with contextlib.closing(sqlite3.connect(path)) as made:
        made.execute("CREATE TABLE t (x)")
    with locked(path, 30.0) as holder:
        busy = _error_of(f"sqlite:///{path}?timeout=0", "INSERT INTO t VALUES (1)")
        holder.release.set()
    assert outage(busy) == BUSY
    unwritable = _error_of(f"sqlite:///file:{path}?mode=ro&uri=true", "INSERT INTO t VALUES (1)")
    assert outage(unwritable) == READ_ONLY
    assert outage(_error_of(f"sqlite:///{path}", "SELECT * FROM nothing")) is None


def test_a_hung_database_fails_each_wait_within_its_bound(database: str) -> None:
    """Through a proxy that forwards nothing and closes nothing (a frozen machine, a network
    partition), no wait on the database is for ever: a query on a pooled connection fails as
    a lost connection after the watch's bound; one whose caller promised an answer sooner
    (:meth:`Store.by`, as the writer does) fails at that deadline; a new connection gives up
    at psycopg's least connect timeout. Once the network heals, the same store answers."""
    with PostgresProxy(database) as proxy:
        store = Store(proxy.url)
        try:
            with store.engine.connect() as one, store.engine.connect() as two:
                for connection in (one, two):  # two pooled connections, both alive
                    connection.execute(text("SELECT 1"))
            proxy.hang()
            for deadline, bound in ((None, BOUND), (1.0, 1.0), (1.0, CONNECT_LEAST)):
                began = time.monotonic()
                within = store.by(began + deadline) if deadline else contextlib.nullcontext()
                with pytest.raises(SQLAlchemyError) as hung, within:
                    store.count()
                waited = time.monotonic() - began
                assert outage(hung.value) == CONNECTION, hung.value
                assert bound - 0.1 <= waited < bound + 0.8, (deadline, waited)
            assert store.watch is not None and store.watch.cuts == 2  # the third never began
            proxy.heal()
            assert store.count() >= 0
        finally:
            store.close()


def _metric(client: TestClient, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", client.get("/metrics").text, re.MULTILINE)
    assert found is not None, name
    return float(found.group(1))


@contextlib.contextmanager
def _seats(client: TestClient, opened: dict[str, Any]) -> Iterator[dict[int, Socket]]:
    """A joined socket for each seat of a table of people."""
    table = opened["table"]
    with contextlib.ExitStack() as stack:
        sockets = {}
        for seat, token in tokens_of(opened).items():
            session = stack.enter_context(client.websocket_connect(f"/ws/{table}"))
            sockets[seat] = Socket(session, f"seat {seat}")
            sockets[seat].join(token)
        for socket in sockets.values():
            socket.barrier()
        yield sockets


def test_a_read_only_database_refuses_changes_unavailable_and_is_not_ready(
    database: str,
) -> None:
    """A database that takes no writes (a standby, a maintenance window) still answers
    reads: each change is tried again for the patience, then refused ``unavailable`` and
    counted; ``/ready`` says 503 ``database``, and the metrics say why. Writable again,
    the same action is taken."""
    admin = Database(database)
    app = create_app(database, bot_delay=0, workers=1, commit_patience=0.5)
    with TestClient(app) as client:
        opened = open_table(client, "knockout-whist", humans(2))
        with _seats(client, opened) as sockets:
            mover = sockets[sockets[0].view["to_move"]]
            action, seq = mover.view["legal_actions"][0], mover.seq
            admin.read_only(True)
            try:
                began = time.monotonic()
                refused = mover.act(action)[-1]
                assert refused["type"] == "error" and refused["code"] == "unavailable", refused
                assert time.monotonic() - began >= 0.5  # tried again for the patience
                ready = client.get("/ready")
                assert ready.status_code == 503, ready.text
                assert ready.json()["reason"] == "database"
                assert "read-only" in ready.json()["message"]
                assert _metric(client, 'cardtable_database_errors_total{kind="read_only"}') >= 2
                assert _metric(client, "cardtable_commits_unavailable_total") == 1
                assert _metric(client, "cardtable_database_up") == 0
            finally:
                admin.read_only(False)
            accepted = mover.act(action)[-1]
            assert accepted["type"] == "event" and accepted["event"]["action"] == action
            assert accepted["seq"] == seq + 1
            assert client.get("/ready").status_code == 200
            assert _metric(client, "cardtable_database_up") == 1


def test_sqlite_locked_by_another_process_is_not_ready(tmp_path: Path) -> None:
    """Another process holding SQLite's write lock stores every change of this one's
    meanwhile (each waits, then is refused): ``/ready`` says 503 ``database`` while the lock
    is held, and ready again once it goes."""
    path = tmp_path / "tables.db"
    app = create_app(f"sqlite:///{path}", bot_delay=0, workers=1)
    with TestClient(app) as client:
        assert client.get("/ready").status_code == 200
        with locked(path, 30) as holder:
            began = time.monotonic()
            ready = client.get("/ready")
            assert time.monotonic() - began < 3.0  # the check's own bound, not the lock's
            holder.release.set()
        assert ready.status_code == 503, ready.text
        assert ready.json()["reason"] == "database"
        assert "holds the database's write lock" in ready.json()["message"]
        assert client.get("/ready").status_code == 200


def test_a_read_the_database_cannot_answer_is_refused_unavailable(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reads too: while the database lets nobody in, a seat asking for the review of its
    finished game and a page opened on a table not in memory are told ``unavailable`` (503
    over HTTP), logged without a traceback and counted, never ``server_error``; once the
    database is back, both are answered."""
    # The review, once begun, quick.
    monkeypatch.setenv("CARDTABLE_REVIEW_LEVEL", "analysis:deals=4,iterations=200")
    admin = Database(database)
    # A short patience, not so short that a commit of the game played first outlasts it on
    # a machine busy with other tests.
    app = create_app(database, bot_delay=0, workers=1, commit_patience=2.0)
    with TestClient(app) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        resting = open_table(client, "knockout-whist", humans(2))["table"]
        hub.evict_after = 0.0
        assert hub.sweep() == 1 and resting not in hub.tables
        opened = open_table(client, "knockout-whist", humans(2))
        page = f"/t/{resting}"
        html = {"accept": "text/html"}
        with _seats(client, opened) as sockets:
            play_to_end(sockets, [], random.Random(5))
            seat = sockets[0]
            admin.refuse()
            try:
                seat.send({"type": "review", "game": 1})
                answer = seat.until(lambda f: f["type"] in ("error", "review_progress"))[-1]
                assert answer["type"] == "error" and answer["code"] == "unavailable", answer
                opened_page = client.get(page, headers=html)
                assert opened_page.status_code == 503, opened_page.text
                assert opened_page.json()["error"] == "unavailable"
                assert _metric(client, 'cardtable_database_errors_total{kind="connection"}') >= 2
            finally:
                admin.admit()
            seat.send({"type": "review", "game": 1})
            answer = seat.until(lambda f: f["type"] in ("error", "review_progress"))[-1]
            assert answer["type"] == "review_progress", answer
            assert client.get(page, headers=html).status_code == 200


def test_a_write_the_data_refuses_is_not_taken_for_another_process_s(database: str) -> None:
    """A change the database's own rules refuse (here a check an operator added on the
    events) is an error of the data: not tried again, answered ``server_error`` at once, and
    the table stays in memory with its seats, where a key already taken (another process's
    change) would have closed them for a reload. Without the rule the same action is taken."""
    app = create_app(database, bot_delay=0, workers=1)
    with TestClient(app) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        opened = open_table(client, "knockout-whist", humans(2))
        table = hub.tables[opened["table"]]
        with _seats(client, opened) as sockets:
            mover = sockets[sockets[0].view["to_move"]]
            action, seq = mover.view["legal_actions"][0], mover.seq
            rule = f"ALTER TABLE events ADD CONSTRAINT until_now CHECK (seq <= {seq}) NOT VALID"
            engine = create_engine(database, isolation_level="AUTOCOMMIT")
            try:
                with engine.connect() as connection:
                    connection.execute(text(rule))
                began = time.monotonic()
                refused = mover.act(action)[-1]
                assert refused["type"] == "error" and refused["code"] == "server_error"
                assert time.monotonic() - began < COMMIT_PATIENCE / 2  # not tried again
                assert hub.tables[table.id] is table and table.seq == seq
                assert len(stored_events(database, table.id)) == seq
            finally:
                with engine.connect() as connection:
                    connection.execute(text("ALTER TABLE events DROP CONSTRAINT until_now"))
                engine.dispose()
            accepted = mover.act(action)[-1]
            assert accepted["type"] == "event" and accepted["seq"] == seq + 1


def test_a_restarted_database_is_ready_at_the_first_look(database: str) -> None:
    """The pooled connections a restart ended are replaced before use: the first look at
    ``/ready`` after the restart, and the first table loaded, find the database up."""
    with TestClient(create_app(database, bot_delay=0, workers=1)) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        opened = open_table(client, "knockout-whist", humans(2))
        assert client.get("/ready").status_code == 200
        hub.evict_after = 0.0
        assert hub.sweep() >= 1
        pg_ctl(database, "stop")
        pg_ctl(database, "start")
        ready = client.get("/ready")
        assert ready.status_code == 200, ready.text
        looked = client.get(f"/api/tables/{opened['table']}")
        assert looked.status_code == 200, looked.text


def test_a_process_whose_lease_was_taken_over_stores_nothing_more(database: str) -> None:
    """Two processes on one database. The first holds a table, and its lease runs out
    without it knowing (as while the database was unreachable and no renewal could be
    made); the second takes the table over and loads it. A change the first then makes is
    refused (its seats reconnect), so that the copy the second loaded is never behind what
    a seat was told."""
    with (
        TestClient(create_app(database, bot_delay=0, workers=1)) as first,
        TestClient(create_app(database, bot_delay=0, workers=1)) as second,
    ):
        hub: Hub = first.app.state.hub  # type: ignore[attr-defined]
        keeper = hub.leases.keeper
        assert keeper is not None and first.portal is not None
        first.portal.call(keeper.cancel)  # the first process renews nothing from now on
        opened = open_table(first, "knockout-whist", humans(2))
        table = opened["table"]
        with _seats(first, opened) as sockets:
            mover = sockets[sockets[0].view["to_move"]]
            seq = mover.seq
            engine = create_engine(database)
            try:
                with engine.begin() as connection:
                    connection.execute(
                        text("UPDATE owners SET until = 0 WHERE table_id = :t"), {"t": table}
                    )
            finally:
                engine.dispose()
            with second.websocket_connect(f"/ws/{table}") as session:
                watcher = Socket(session, "second")
                assert watcher.join(None)["seq"] == seq  # taken over, loaded
                mover.send({"type": "action", "action": mover.view["legal_actions"][0], "seq": seq})
                with pytest.raises(WebSocketDisconnect) as closed:
                    answer = mover.until(lambda f: f["type"] in ("event", "error"))[-1]
                    raise AssertionError(f"the change was answered: {answer}")
                assert closed.value.code == 1012
                assert len(stored_events(database, table)) == seq
            # The seat reconnects, to the second process: its copy is the stored one.
            taker: Hub = second.app.state.hub  # type: ignore[attr-defined]
            assert taker.tables[table].seq == seq
            store = Store(database)
            try:
                owner = store.owner(table)
                assert owner is not None and owner.process == taker.leases.process
            finally:
                store.close()


def test_a_change_waiting_behind_a_refused_batch_is_refused_within_the_patience(
    tmp_path: Path,
) -> None:
    """Changes that arrive while a batch is being tried wait for the next; once the first
    is refused, a change that has waited its patience already is refused after one more
    try, not after a patience of its own: a seat hears ``unavailable`` at most about the
    patience after it sent its action."""
    path = tmp_path / "t.db"
    patience = 3.0
    app = create_app(f"sqlite:///{path}", bot_delay=0, workers=1, commit_patience=patience)
    with TestClient(app) as client:
        first, second = (open_table(client, "knockout-whist", humans(2)) for _ in range(2))
        with _seats(client, first) as ones, _seats(client, second) as twos:
            one = ones[ones[0].view["to_move"]]
            two = twos[twos[0].view["to_move"]]
            with locked(path, 30.0) as holder:
                one.send({"type": "action", "action": one.view["legal_actions"][0], "seq": one.seq})
                time.sleep(patience / 2)
                sent = time.monotonic()
                refused = two.act(two.view["legal_actions"][0])[-1]
                waited = time.monotonic() - sent
                holder.release.set()
            assert refused["type"] == "error" and refused["code"] == "unavailable", refused
            assert waited < patience + 0.7, waited
            assert one.until(lambda f: f["type"] == "error")[-1]["code"] == "unavailable"


async def _answers_until_closed(client: Client) -> tuple[list[dict[str, Any]], int | None]:
    """What the server sends the client until it closes the socket; the close code."""
    assert client.socket is not None
    got: list[dict[str, Any]] = []
    try:
        while True:
            got.append(json.loads(await asyncio.wait_for(client.socket.recv(), 20)))
    except websockets.ConnectionClosed as closed:
        return got, closed.rcvd.code if closed.rcvd else None


def test_a_commit_whose_answer_was_lost_is_never_acknowledged_and_its_seats_resume(
    database: str, tmp_path: Path
) -> None:
    """The connection is cut after the server sent COMMIT and PostgreSQL carried it out: the
    server cannot know the move was stored. It does not acknowledge it; its retry finds the
    move's event number taken, so the table is loaded again as stored and its seats'
    sockets close (1012), and each seat, joining again, is sent the move. If the database
    is then unreachable past the patience, the mover hears ``unavailable``; another move it
    sends at the same number once the database is back is not stored, and it is sent the
    one that was. No seat is ever told of an event the record does not hold at that number."""
    with PostgresProxy(database) as proxy:
        server = ServerProcess(proxy.url, tmp_path / "server.log", grace=3600)

        async def scenario() -> None:
            opened = await _open_table(server, "knockout-whist", humans(2))
            table = opened["table"]
            clients = _clients(opened, 7)
            for client in clients:
                await client.connect(server, table)
            for answer_only in (True, False):
                mover = next(c for c in clients if c.choice(c.views[-1][1]) is not None)
                legal = mover.views[-1][1]["legal_actions"]
                seq, action = mover.seq, legal[0]
                proxy.lose_next_commit(then_refuse=not answer_only)
                await mover.send_action(action)
                if not answer_only:
                    refused = await mover.receive()
                    while refused["type"] == "presence":
                        refused = await mover.receive()
                    assert refused["type"] == "error" and refused["code"] == "unavailable"
                    ready = httpx.get(f"{server.http}/ready", timeout=10)
                    assert ready.status_code == 503 and ready.json()["reason"] == "database"
                    proxy.admit()
                    # Another move, at the same number, as a person might choose after a
                    # refusal: the server's copy is behind the record, and takes nothing.
                    await mover.send_action(legal[-1])
                for client in clients:
                    told, code = await _answers_until_closed(client)
                    assert proxy.lost.is_set()
                    assert code == 1012, (told, code)
                    assert [m for m in told if m["type"] in ("event", "error")] == []
                    await client.close()
                    await client.connect(server, table)  # sent what it missed
                    assert client.events[seq + 1]["action"] == action
                assert mover.acknowledged == []
            record = stored_events(database, table)
            assert all(item["seq"] == number for number, item in enumerate(record, 1))
            for client in clients:
                assert client.events == {item["seq"]: item for item in record}
            # And the table plays on.
            mover = next(c for c in clients if c.choice(c.views[-1][1]) is not None)
            await mover.send_action(mover.choice(mover.views[-1][1]) or "")
            while not mover.acknowledged:
                mover.take(await mover.receive())

        server.start()
        try:
            asyncio.run(scenario())
        finally:
            server.kill()


def test_tables_play_on_through_every_database_failure(database: str, tmp_path: Path) -> None:
    """Two server processes, tables played on both, and the database fails under them each
    way of ``failure_pieces.cases`` in turn: restarted (fast, down 6.5 s; immediate),
    every connection ended, unreachable for 10 s, read-only for 7 s, hung for 7 s (the
    servers reach it through a proxy, which then forwards nothing and closes nothing).
    Every time nothing
    acknowledged is lost and every client's record is the database's (``run_case``); an
    action sent during a failure that outlasts the patience is refused ``unavailable``
    within it, and stored once sent again after; ``/ready`` says 503 ``database`` on both
    processes meanwhile and 200 soon after; the metrics count it; every table stays with
    the process that served it (the leases ran out meanwhile) and plays on within seconds
    of the database's return. Each case's figures are printed, one JSON line each
    (``pytest -s``)."""
    seed = _seed()
    failures = cases(restart=6.5, unreachable=10.0, read_only=7.0, hung=7.0)
    figures: list[dict[str, Any]] = []
    with PostgresProxy(database) as proxy:  # the servers' way to the database, to hang
        admin = Database(database, proxy)
        servers = [
            ServerProcess(proxy.url, tmp_path / f"server-{n}.log", grace=3600) for n in range(2)
        ]

        async def scenario() -> None:
            for server in servers:
                await asyncio.to_thread(server.start)
            for number, case in enumerate(failures):
                figures.append(await run_case(case, servers, admin, TABLES, seed + 100 * number))
                print(json.dumps(figures[-1]), flush=True)

        try:
            asyncio.run(scenario())
        finally:
            for server in servers:
                if server.process is not None:
                    server.kill()
    for case, found in zip(failures, figures, strict=True):
        assert found["acknowledged_lost"] == 0, found
        assert found["actions_acknowledged"] > 0, found
        assert found["resume_every_table_s"] is not None, found
        assert found["resume_every_table_s"] < 5.0, found
        assert all(s is not None and s < 5.0 for s in found["ready_again_after_back_s"]), found
        assert found["database_up_after"] == [1.0, 1.0], found
        # Every table stayed with the process that served it: no socket had to reconnect.
        assert found["reconnections"] == 0, found
        errors = f'cardtable_database_errors_total{{kind="{case.kind}"}}'
        if case.refusals:
            assert found["probe_refused_after_s"] is not None, found
            assert found["probe_refused_after_s"] < COMMIT_PATIENCE + 1.5, found
            assert found["probe_stored_after_back_s"] < 5.0, found
            assert all(unready > 0 for unready in found["ready_503_while_failed"]), found
            assert found["ready_reasons"] == ["database"], found
            counted = found["metrics"]
            assert sum(c.get("cardtable_commits_unavailable_total", 0) for c in counted) >= 1
            assert all(c.get(errors, 0) > 0 for c in counted), found
        if case.name == "terminate":
            assert found["connections_ended"] >= 2, found
