"""A server's memory and start-up do not grow with what it has served (docs/server.md,
"Limits"): tables are loaded when first asked for and leave memory when idle or finished,
a finished game keeps nothing in memory but its line of the tally, one client cannot open
tables without end, and a body over the limit is refused while it arrives. A table whose
record no longer replays is quarantined and every other table serves."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import select
import socket
import sqlite3
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from cardtable.server.app import create_app
from cardtable.server.hub import Hub
from cardtable.server.limits import CreationLimit, Limits
from cardtable.server.store import Store
from served import ServerProcess
from server_pieces import Socket, handshake, humans, open_table, table_count, tokens_of, until

BOTS = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]


@contextmanager
def serving(database: Path, *, grace: float = 0, **limits: Any) -> Iterator[TestClient]:
    """The web table on a SQLite file: bots move at once, stand-ins too (no grace)."""
    app = create_app(
        f"sqlite:///{database}", grace=grace, bot_delay=0, workers=1, limits=Limits(**limits)
    )
    with TestClient(app) as client:
        yield client


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def finish_by_stand_in(client: TestClient, opened: dict[str, Any]) -> dict[str, Any]:
    """The one human takes the seat and leaves: with no grace, a stand-in plays the game
    out with the bots. The table's description once the game is over."""
    table = opened["table"]
    with client.websocket_connect(f"/ws/{table}") as session:
        Socket(session, "seat 0").join(tokens_of(opened)[0])

    def over() -> bool:
        return bool(client.get(f"/api/tables/{table}").json()["results"])

    until(over)
    described: dict[str, Any] = client.get(f"/api/tables/{table}").json()
    return described


def lasting(described: dict[str, Any]) -> dict[str, Any]:
    """A table's description without who is at it now (not stored: a reload starts afresh)."""
    seats = [{k: seat[k] for k in ("seat", "kind", "name", "level")} for seat in described["seats"]]
    return {**described, "seats": seats}


# Quarantine -------------------------------------------------------------------------------


def corrupt(database: Path, table: str, data: str, seq: int = 2) -> None:
    """Overwrite one stored event of ``table`` without the server (sqlite3)."""
    with sqlite3.connect(database) as connection:
        changed = connection.execute(
            "UPDATE events SET data = ? WHERE table_id = ? AND seq = ?", (data, table, seq)
        ).rowcount
    assert changed == 1


@pytest.mark.parametrize(
    "garbage",
    [
        "\x00not json{",
        # JSON, and numbered right, but an action the game does not have at that point.
        json.dumps(
            {"seq": 4, "kind": "action", "game": 1, "seat": 0, "action": "play 99X", "by": "human"}
        ),
    ],
    ids=["not JSON", "an action that is not legal"],
)
def test_a_table_whose_record_does_not_replay_is_quarantined_and_the_rest_serve(
    tmp_path: Path, garbage: str, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / "tables.db"
    with serving(database) as client:
        broken = open_table(client, "knockout-whist", [*humans(1), *BOTS])
        sound = open_table(client, "knockout-whist", [*humans(1), *BOTS])
        finish_by_stand_in(client, broken)
        before = client.get(f"/api/tables/{sound['table']}").json()
    corrupt(database, broken["table"], garbage, seq=4)
    caplog.set_level(logging.INFO, logger="cardtable.server")
    with serving(database) as client:
        # The server started; the sound table serves over HTTP and the websocket.
        assert client.get(f"/api/tables/{sound['table']}").json() == before
        with client.websocket_connect(f"/ws/{sound['table']}") as session:
            snapshot = Socket(session, "seat 0").join(tokens_of(sound)[0])
            assert snapshot["seq"] == before["seq"]
        # The broken one answers "quarantined", on every path, as often as it is asked.
        for _ in range(3):
            answer = client.get(f"/api/tables/{broken['table']}")
            assert answer.status_code == 503
            assert answer.json()["error"] == "quarantined" and answer.json()["message"]
        replay = client.get(f"/api/tables/{broken['table']}/replay/1")
        assert (replay.status_code, replay.json()["error"]) == (503, "quarantined")
        with client.websocket_connect(f"/ws/{broken['table']}") as session:
            assert session.receive_json()["code"] == "quarantined"
            with pytest.raises(WebSocketDisconnect) as closed:
                session.receive_json()
            assert closed.value.code == 4503
        # The page still opens: it shows the socket's error.
        assert client.get(f"/t/{broken['table']}").status_code == 200
        health = client.get("/health").json()
        assert health["tables"] == 2 and health["quarantined"] == 1
    logged = [r for r in caplog.records if r.getMessage() == "table quarantined"]
    assert [getattr(r, "table", None) for r in logged] == [broken["table"]]
    with sqlite3.connect(database) as connection:
        marks = dict(connection.execute("SELECT id, quarantined FROM tables").fetchall())
    assert marks[sound["table"]] is None and marks[broken["table"]]
    # A new start knows it from the mark, without replaying it again.
    caplog.clear()
    with serving(database) as client:
        assert client.get("/health").json()["quarantined"] == 1
        assert client.get(f"/api/tables/{broken['table']}").status_code == 503
        assert client.get(f"/api/tables/{sound['table']}").status_code == 200
    assert not [r for r in caplog.records if r.getMessage() == "table quarantined"]


# Lazy loading, eviction, archive ----------------------------------------------------------


def test_a_start_loads_no_table_and_finished_tables_are_replayed_from_the_database(
    tmp_path: Path,
) -> None:
    database = tmp_path / "tables.db"
    with serving(database) as client:
        finished = [open_table(client, "knockout-whist", [*humans(1), *BOTS]) for _ in range(3)]
        waiting = open_table(client, "neuf", humans(3))
        described = {o["table"]: finish_by_stand_in(client, o) for o in finished}
        replays = {t: client.get(f"/api/tables/{t}/replay/1").json() for t in described}
        # Archived: a finished table nobody is at leaves memory at the next sweep.
        until(lambda: not set(described) & set(hub_of(client).tables))
        # Its replay comes from the database, without loading it again.
        for table, replay in replays.items():
            again = client.get(f"/api/tables/{table}/replay/1").json()
            assert again["frames"] == replay["frames"]
            assert again["record"]["actions"] == replay["record"]["actions"]
        assert not set(described) & set(hub_of(client).tables)
    with serving(database) as client:
        hub = hub_of(client)
        assert hub.tables == {}  # the start replayed nothing
        health = client.get("/health").json()
        assert (health["tables"], health["loaded"]) == (4, 0)
        # A table is loaded when it is asked for, and is the same table.
        for table, before in described.items():
            assert lasting(client.get(f"/api/tables/{table}").json()) == lasting(before)
        assert client.get(f"/api/tables/{waiting['table']}").status_code == 200
        assert waiting["table"] in hub.tables
        until(lambda: not set(described) & set(hub.tables))
        assert waiting["table"] in hub.tables  # unfinished, and not idle for long yet


def test_an_idle_table_leaves_memory_and_comes_back_the_same(tmp_path: Path) -> None:
    database = tmp_path / "tables.db"
    with serving(database, grace=60, evict_after=0.3) as client:
        opened = open_table(client, "kryt-navalivat", humans(2))
        table, tokens = opened["table"], tokens_of(opened)
        hub = hub_of(client)
        with (
            client.websocket_connect(f"/ws/{table}") as one,
            client.websocket_connect(f"/ws/{table}") as two,
        ):
            sockets = {0: Socket(one, "seat 0"), 1: Socket(two, "seat 1")}
            for seat, socket in sockets.items():
                socket.join(tokens[seat], since=0)
            for socket in sockets.values():
                socket.barrier()
            for _ in range(6):
                mover = sockets[0].view["to_move"]
                sockets[mover].act(sockets[mover].view["legal_actions"][0])
                for socket in sockets.values():
                    socket.catch_up(sockets[mover].seq)
            time.sleep(1.0)
            assert table in hub.tables  # sockets are connected: it stays
            seen = {seat: (s.seq, s.view) for seat, s in sockets.items()}
            described = client.get(f"/api/tables/{table}").json()
        until(lambda: table not in hub.tables)
        with (
            client.websocket_connect(f"/ws/{table}") as one,
            client.websocket_connect(f"/ws/{table}") as two,
        ):
            again = {0: Socket(one, "seat 0"), 1: Socket(two, "seat 1")}
            for seat, socket in again.items():
                snapshot = socket.join(tokens[seat], since=0)
                assert (snapshot["seq"], snapshot["view"]) == seen[seat]
                assert [e["seq"] for e in snapshot["missed"]] == list(range(1, seen[seat][0] + 1))
            for socket in again.values():
                socket.barrier()
            reloaded = client.get(f"/api/tables/{table}").json()
            assert lasting(reloaded) == lasting(described)
            # And it plays on from there.
            mover = again[0].view["to_move"]
            frames = again[mover].act(again[mover].view["legal_actions"][0])
            assert frames[-1]["type"] == "event" and frames[-1]["seq"] == seen[0][0] + 1


# Memory per finished game -----------------------------------------------------------------


def test_memory_stays_flat_as_games_are_played_at_the_same_table(tmp_path: Path) -> None:
    """Games at one table, each played out by a stand-in: after each batch the memory the
    process holds is measured (tracemalloc, after a full collection). It grew by 53 KiB a
    game when every finished game stayed in memory; the table's tally, which the protocol
    sends, is all that may grow."""
    batches, per_batch = 4, 5
    with serving(tmp_path / "tables.db", evict_after=3600) as client:
        opened = open_table(client, "knockout-whist", [*humans(1), *BOTS])
        table, token = opened["table"], tokens_of(opened)[0]
        hub = hub_of(client)
        with client.websocket_connect(f"/ws/{table}") as session:
            socket = Socket(session, "seat 0")
            socket.join(token)

            def play_one(number: int) -> None:
                # Watching, the seat is left: its stand-in plays at once (no grace).
                socket.send({"type": "join", "token": None, "since": None})
                socket.until(lambda f: f["type"] == "event" and f["event"]["kind"] == "over", 60.0)
                socket.join(token)
                socket.send({"type": "next"})
                socket.until(lambda f: f["type"] == "event" and f["event"]["game"] == number)
                socket.barrier()
                socket.frames.clear()

            number = 1
            for _ in range(4):  # warm up: the caches the first games fill
                number += 1
                play_one(number)
            # What the test's own client holds (its frames, the test client's timers) is
            # left out: the server's memory is measured.
            client_side = [
                tracemalloc.Filter(False, pattern, all_frames=True)
                for pattern in ("*/tests/*", "*/anyio/*", "*/starlette/testclient.py")
            ]
            # Each collection below scans what the test's games made, not the heap the
            # whole test run left in this process (set aside: it was allocated before the
            # tracing starts, so it is not measured either way).
            gc.collect()
            gc.freeze()
            tracemalloc.start(8)
            sizes = []
            try:
                for _ in range(batches):
                    for _ in range(per_batch):
                        number += 1
                        play_one(number)
                    gc.collect()
                    held = tracemalloc.take_snapshot().filter_traces(client_side)
                    sizes.append(sum(stat.size for stat in held.statistics("filename")))
            finally:
                tracemalloc.stop()
                gc.unfreeze()
            live = hub.tables[table]
            # Structurally: the table holds its current game's events only.
            assert live.first > 0 and all(e["game"] == number for e in live.events)
            assert len(live.describe()["results"]) == number - 1
    games = [per_batch * (i + 1) for i in range(batches)]
    mean_games, mean_size = sum(games) / batches, sum(sizes) / batches
    slope = sum((g - mean_games) * (s - mean_size) for g, s in zip(games, sizes, strict=True))
    slope /= sum((g - mean_games) ** 2 for g in games)
    print(f"bytes per game: {slope:.0f} ({sizes})")
    assert slope < 4096, f"{slope / 1024:.1f} KiB stay behind per game ({sizes})"


# The creation limit -----------------------------------------------------------------------


def test_a_client_over_its_creation_limit_gets_429_and_opens_nothing(tmp_path: Path) -> None:
    database = tmp_path / "tables.db"
    request = {"game": "neuf", "seats": humans(3)}
    with serving(database, tables_per_minute=3) as client:
        for _ in range(5):  # refused for what they ask: they do not count
            assert client.post("/api/tables", json={"game": "chess"}).status_code == 400
        for _ in range(3):
            assert client.post("/api/tables", json=request).status_code == 201
        refused = client.post("/api/tables", json=request)
        assert refused.status_code == 429
        assert set(refused.json()) == {"error", "message"}
        assert refused.json()["error"] == "rate_limited"
        assert 1 <= int(refused.headers["Retry-After"]) <= 20  # a table every 20 s
        assert table_count(database) == 3
        # A request refused for what it asks did not count: here it is refused for its rate.
        bad = client.post("/api/tables", json={"game": "chess", "seats": humans(2)})
        assert bad.status_code == 429
        # Without a trusted header, a header the client writes changes nothing.
        spoofed = client.post(
            "/api/tables", json=request, headers={"X-Forwarded-For": "203.0.113.9"}
        )
        assert spoofed.status_code == 429
        assert table_count(database) == 3


def test_behind_a_trusted_proxy_each_client_has_its_own_allowance(tmp_path: Path) -> None:
    request = {"game": "neuf", "seats": humans(3)}
    # The test client's peer is "testclient", no address: only * trusts it.
    with serving(
        tmp_path / "tables.db",
        tables_per_minute=1,
        client_header="X-Forwarded-For",
        trusted_proxies=("*",),
    ) as client:

        def post(forwarded: str) -> int:
            headers = {"X-Forwarded-For": forwarded}
            return client.post("/api/tables", json=request, headers=headers).status_code

        assert post("198.51.100.1") == 201
        assert post("198.51.100.1") == 429
        assert post("198.51.100.2") == 201
        # What the client wrote before the proxy's entry is not believed.
        assert post("198.51.100.7, 198.51.100.1") == 429


def test_the_allowance_refills_and_the_clients_remembered_are_bounded() -> None:
    limit = CreationLimit(per_minute=2, clients=3)
    assert limit.wait("a", now=0.0) == 0.0
    assert limit.wait("a", now=0.0) == 0.0
    assert limit.wait("a", now=0.0) == pytest.approx(30.0)
    assert limit.wait("a", now=30.0) == 0.0  # one table every 30 s
    limit.refund("a")  # that request opened nothing
    assert limit.wait("a", now=30.0) == 0.0
    assert limit.wait("a", now=30.0) > 0
    for number in range(100):
        limit.wait(f"client {number}", now=31.0)
        assert len(limit.buckets) <= 3


def test_the_allowance_of_tables_is_kept_in_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every process on a database counts one client's tables in the same row (a token
    bucket: 2 a minute here, in bursts of 2); a request refused for what it asked gives its
    table back; a bucket full again leaves the database."""
    from sqlalchemy import text

    now = [1000.0]
    monkeypatch.setattr("cardtable.server.store.time.time", lambda: now[0])
    first, second = (Store(f"sqlite:///{tmp_path / 'tables.db'}") for _ in range(2))
    try:
        assert first.take_allowance("198.51.100.1", 2) == 0.0
        assert second.take_allowance("198.51.100.1", 2) == 0.0
        assert first.take_allowance("198.51.100.1", 2) == pytest.approx(30.0)
        assert second.take_allowance("198.51.100.2", 2) == 0.0  # another client's own
        second.refund_allowance("198.51.100.1", 2)
        assert first.take_allowance("198.51.100.1", 2) == 0.0
        now[0] += 15.0
        assert second.take_allowance("198.51.100.1", 2) == pytest.approx(15.0)
        now[0] += 15.0
        assert first.take_allowance("198.51.100.1", 2) == 0.0
        with first.engine.connect() as connection:
            rows = connection.execute(text("SELECT client FROM allowances")).scalars().all()
        assert len(rows) == 2 and "198.51.100.1" not in rows  # a hash, not the address
        now[0] += 61.0
        assert second.take_allowance("203.0.113.5", 2) == 0.0
        with first.engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM allowances")).scalar() == 1
    finally:
        first.close()
        second.close()


# The body limit ---------------------------------------------------------------------------


def call_app(
    app: Any, headers: list[tuple[bytes, bytes]], chunks: int, chunk: int = 65536
) -> tuple[int, dict[str, str], bytes, int]:
    """POST /api/tables straight to the ASGI application, with a body of ``chunks``
    chunks; the status, headers and body of the answer, and the body bytes it read."""
    read = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read >= chunks * chunk:
            return {"type": "http.disconnect"}
        read += chunk
        return {"type": "http.request", "body": b"x" * chunk, "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/tables",
        "raw_path": b"/api/tables",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    answer_headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return start["status"], answer_headers, body, read


def test_a_streamed_body_is_refused_at_the_limit_without_reading_the_rest(
    tmp_path: Path,
) -> None:
    # Called without its lifespan (no hub, no database): no allowance of tables to count.
    limits = Limits(max_body=16384, tables_per_minute=0)
    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}", limits=limits)
    # 200 MB offered in chunks of 64 KiB, no length announced: one chunk is read.
    status, headers, body, read = call_app(app, [], chunks=3200)
    assert status == 413 and read == 65536
    assert json.loads(body)["error"] == "too_large"
    assert headers["connection"] == "close"  # the server stops reading the connection
    # A length announced over the limit: refused before a byte is read.
    status, headers, body, read = call_app(app, [(b"content-length", b"200000000")], chunks=3200)
    assert (status, read) == (413, 0)
    assert json.loads(body) == {"error": "too_large", "message": "a request is at most 16384 bytes"}


def resident(pid: int) -> int:
    """A process's resident memory in bytes (Linux)."""
    status = Path(f"/proc/{pid}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
    return int(line.split()[1]) * 1024


def test_a_live_server_refuses_a_huge_streamed_body_and_its_memory_stays_put(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path / "tables.db", tmp_path / "server.log")
    server.start()
    try:
        assert server.process is not None
        pid = server.process.pid
        before = resident(pid)
        offered, answer = 0, b""
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            sock.setblocking(False)
            chunk = b"10000\r\n" + b"x" * 65536 + b"\r\n"
            pending = chunk
            # Push chunks as fast as the server takes them, reading whatever it answers,
            # until it closes the connection (or 200 MB have gone).
            while offered < 200_000_000:
                readable, writable, _ = select.select([sock], [sock], [], 10.0)
                assert readable or writable, "the server neither reads nor answers"
                try:
                    if readable:
                        part = sock.recv(65536)
                        if not part:
                            break
                        answer += part
                    elif writable:
                        done = sock.send(pending)
                        offered += done
                        pending = pending[done:] or chunk
                except OSError:  # reset by the server, which stopped reading
                    break
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b'"too_large"' in answer
        assert offered < 200_000_000, "the server read the whole body"
        grown = resident(pid) - before
        assert grown < 32 * 2**20, f"the server grew by {grown / 2**20:.0f} MiB"
        assert httpx.get(f"{server.http}/health").status_code == 200
    finally:
        server.stop()


# Eviction beside the writer's retries and the tutorials -----------------------------------


def test_a_table_whose_bot_waits_on_a_busy_database_stays_in_memory(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Another connection holds the write lock: the stand-in's moves are refused and tried
    again each second. Between two tries no task holds the table, and it must not leave
    memory then (its retry would find it gone, and nobody would load it again): once the
    lock is gone the game is played to its end with nobody asking for the table."""
    database = tmp_path / "tables.db"
    app = create_app(
        f"sqlite:///{database}",
        grace=0,
        bot_delay=0,
        workers=1,
        commit_patience=0.2,
        limits=Limits(evict_after=0.1),
    )
    caplog.set_level(logging.INFO, logger="cardtable.server")
    with TestClient(app) as client:
        hub = hub_of(client)
        opened = open_table(client, "knockout-whist", [*humans(1), *BOTS])
        table = opened["table"]
        # The bots have moved up to the seat's turn: its invited player has not come.
        until(lambda: table not in hub.bots.thinking and hub.tables[table].state.to_move == 0)
        loaded = hub.tables[table]
        holder = sqlite3.connect(database, isolation_level=None, timeout=30)
        try:
            holder.execute("BEGIN EXCLUSIVE")
            with client.websocket_connect(f"/ws/{table}") as session:
                Socket(session, "seat 0").join(tokens_of(opened)[0])
            # Gone with no grace: a stand-in plays, and the database refuses its moves.
            deadline = time.monotonic() + 2.5  # two retries, many sweeps
            while time.monotonic() < deadline:
                assert hub.tables.get(table) is loaded
                time.sleep(0.05)
            refused = [m for m in caplog.messages if m == "bot move not stored; trying again"]
            assert len(refused) >= 2
        finally:
            holder.execute("COMMIT")
            holder.close()

        def over_stored() -> bool:
            with sqlite3.connect(database) as connection:
                kinds = connection.execute(
                    "SELECT data FROM events WHERE table_id = ? ORDER BY seq", (table,)
                ).fetchall()
            return any(json.loads(data)["kind"] == "over" for (data,) in kinds)

        until(over_stored, 60.0)
        loads = [r for r in caplog.records if r.getMessage() == "table loaded"]
        assert [getattr(r, "table", None) for r in loads] == []  # nobody reloaded it


def test_tutorial_tables_count_against_no_allowance_and_leave_once_idle(tmp_path: Path) -> None:
    with serving(tmp_path / "tables.db", tables_per_minute=1, evict_after=0.5) as client:
        hub = hub_of(client)
        opened = [client.post("/api/tutorials/knockout-whist", json={"step": 0}) for _ in range(3)]
        assert [answer.status_code for answer in opened] == [201, 201, 201]
        learner, *left = [answer.json() for answer in opened]
        # The client's one table a minute is still there to open, and then spent.
        assert client.post("/api/tables", json={"game": "neuf", "seats": humans(3)}).is_success
        assert (
            client.post("/api/tables", json={"game": "neuf", "seats": humans(3)}).status_code == 429
        )
        token = learner["invite"].split("token=")[1]
        with client.websocket_connect(f"/ws/{learner['table']}") as session:
            Socket(session, "learner").join(token)
            # The tables nobody is at leave once idle; the learner's stays as long as needed.
            until(lambda: not {t["table"] for t in left} & set(hub.tables))
            time.sleep(1.5)
            assert learner["table"] in hub.tables
        until(lambda: learner["table"] not in hub.tables)
        # Stored nowhere, it is gone for good: its page opens a new one.
        assert client.get(f"/api/tables/{learner['table']}").json()["error"] == "no_table"
        assert hub.tutorials == []


def test_a_finished_tutorial_game_stays_in_memory_with_its_replays(tmp_path: Path) -> None:
    """A stored table whose game is over leaves memory at once (archived); a tutorial table
    has no database to be archived in, so it stays until idle, and keeps its finished games
    for their replays and for a page that asks for events since before the current game."""
    with serving(tmp_path / "tables.db", evict_after=3600) as client:
        hub = hub_of(client)
        steps = client.get("/api/tutorials/knockout-whist").json()["steps"]
        opened = client.post("/api/tutorials/knockout-whist", json={"step": steps}).json()
        table, token = opened["table"], opened["invite"].split("token=")[1]
        with client.websocket_connect(f"/ws/{table}") as session:
            Socket(session, "learner").join(token)
        # The learner gone (no grace), a stand-in plays the game out with the bots.
        until(lambda: hub.tables[table].state.is_over, 60.0)
        time.sleep(2.5)  # two sweeps or more
        assert table in hub.tables
        first = client.get(f"/api/tables/{table}/replay/1")
        assert first.status_code == 200
        with client.websocket_connect(f"/ws/{table}") as session:
            learner = Socket(session, "learner")
            learner.join(token)
            learner.send({"type": "next"})
            learner.until(lambda f: f["type"] == "event" and f["event"]["kind"] == "game")
            learner.barrier()
            seq = learner.seq
        assert client.get(f"/api/tables/{table}/replay/1").json() == first.json()
        with client.websocket_connect(f"/ws/{table}") as session:
            snapshot = Socket(session, "learner").join(token, since=0)
        # Every event from the first, the finished game's among them. (With no grace, the
        # stand-in may have played on in game 2 since the learner left: those come too.)
        assert snapshot["seq"] >= seq
        assert [e["seq"] for e in snapshot["missed"]] == list(range(1, snapshot["seq"] + 1))


SILENT, SILENT_SECONDS = 4, 20.0  # sockets of one address, seconds of asking


def _a_played_table(server: ServerProcess) -> str:
    """A table whose game was played to its end (by a stand-in for the player, who came
    and went, and a bot): every ``join`` from event 0 is sent all its events again."""
    easy = {"kind": "bot", "level": "easy"}
    request = {"game": "knockout-whist", "seats": [{"kind": "human"}, *[easy] * 6]}
    opened = httpx.post(f"{server.http}/api/tables", json=request).json()
    table: str = opened["table"]
    token = opened["seats"][0]["invite"].split("token=")[1]
    with connect(server.ws(table), open_timeout=10) as page:
        page.send(json.dumps({"type": "join", "token": token, "since": None}))
        page.recv(timeout=10)
    deadline = time.monotonic() + 60
    while not httpx.get(f"{server.http}/api/tables/{table}").json()["results"]:
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.2)
    return table


def _silent_socket(port: int, table: str) -> socket.socket:
    """A websocket to ``table`` that reads nothing after its handshake, through a receive
    buffer of 4 KiB: what the server sends it piles up at the server."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(handshake(table))
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)  # the handshake's answer alone, byte by byte
    assert answer.startswith(b"HTTP/1.1 101"), answer
    sock.setblocking(False)
    return sock


def _frame(text: str) -> bytes:
    """One masked text frame, as a client sends it (RFC 6455; a payload under 126 bytes)."""
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


def test_sockets_that_ask_and_never_read_are_closed_and_the_servers_memory_stays_put(
    tmp_path: Path,
) -> None:
    """One address, 4 websockets, each asking for the whole table again (``join`` from
    event 0: 21 KB) 20 times a second for 20 s and reading nothing: what the server would
    send them is bounded per socket, each socket that falls that far behind is closed
    (``4008 behind``), its messages after that cost nothing, and the server's memory stays
    within 12 MB of where it was."""
    server = ServerProcess(tmp_path / "tables.db", tmp_path / "server.log", grace=0.0)
    server.start()
    try:
        assert server.process is not None
        pid = server.process.pid
        table = _a_played_table(server)
        before = resident(pid)
        sockets = [_silent_socket(server.port, table) for _ in range(SILENT)]
        join = _frame(json.dumps({"type": "join", "token": None, "since": 0}))
        peak, closed = before, 0
        deadline = time.monotonic() + SILENT_SECONDS
        while time.monotonic() < deadline:
            for sock in sockets:
                with contextlib.suppress(BlockingIOError, BrokenPipeError, ConnectionResetError):
                    sock.send(join)
            peak = max(peak, resident(pid))
            time.sleep(0.05)
        for sock in sockets:
            sock.close()
        log = server.log.read_text()
        closed = log.count("socket behind")
        # Gone, they leave nothing behind: the server answers at once.
        began = time.monotonic()
        assert httpx.get(f"{server.http}/health", timeout=10).status_code == 200
        assert time.monotonic() - began < 1.0
    finally:
        server.stop()
    # Each socket holds at most OUTBOX_BYTES queued (1 MiB) before it is closed; unbounded,
    # twice this load grew the server by 35 MB in the 20 s, and on for as long as it lasted.
    assert peak - before < 12_000_000, (before, peak)
    assert closed == SILENT, f"{closed} of {SILENT} sockets closed as behind"
