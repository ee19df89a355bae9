"""The web table on PostgreSQL (DESIGN "Server and web": CARDTABLE_DATABASE_URL selects it):
the migrations create the schema, a table's events are committed there, and a new server
on the same database restores the table exactly."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from cardtable.server import create_app
from postgres_server import postgres_url


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_url() as url:
        yield url


def _until(socket: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == kind:
            return message


def test_migrations_create_the_schema_on_postgresql(database: str) -> None:
    with TestClient(create_app(database, bot_delay=0, workers=1)) as client:
        assert client.get("/health").json() == {
            "status": "ok",
            "tables": 0,
            "loaded": 0,
            "quarantined": 0,
            "database": "postgresql",
        }
    engine = create_engine(database)
    tables = set(inspect(engine).get_table_names())
    assert {"tables", "seats", "events", "deals", "alembic_version"} <= tables
    # Every revision ran, in order: the quarantine's column, fair deals' secret, reviews,
    # the tables' owners, the clients' allowances of new tables, open seats' deadlines, the
    # players (their keys, passkeys, ceremonies and ratings) and each seat's player.
    columns = {c["name"] for c in inspect(engine).get_columns("tables")}
    assert {"quarantined", "secret"} <= columns
    assert {"open_until", "player_id"} <= {c["name"] for c in inspect(engine).get_columns("seats")}
    assert {"reviews", "owners", "allowances", "players", "player_keys", "passkeys"} <= tables
    assert {"challenges", "ratings"} <= tables
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).all() == [
            ("0008",)
        ]
    engine.dispose()


def test_a_table_played_on_postgresql_is_restored_by_a_new_server(database: str) -> None:
    rng = random.Random(5)
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Boris"}]
    with TestClient(create_app(database, bot_delay=0, workers=1)) as client:
        opened = client.post("/api/tables", json={"game": "kryt-navalivat", "seats": seats})
        assert opened.status_code == 201
        table = opened.json()["table"]
        tokens = [s["invite"].split("token=")[1] for s in opened.json()["seats"]]
        sockets = [client.websocket_connect(f"/ws/{table}") for _ in tokens]
        views = {}
        for seat, (socket, token) in enumerate(zip(sockets, tokens, strict=True)):
            socket.__enter__()
            socket.send_json({"type": "join", "token": token, "since": None, "seed": f"s-{seat}"})
            snapshot = _until(socket, "snapshot")
            views[seat], seq, fair = snapshot["view"], snapshot["seq"], snapshot["fair"]
        for _ in range(12):
            mover = views[0]["to_move"]
            action = rng.choice(views[mover]["legal_actions"])
            sockets[mover].send_json({"type": "action", "action": action, "seq": seq})
            for seat, socket in enumerate(sockets):
                while True:
                    message = _until(socket, "event")
                    views[seat], seq = message["view"], message["seq"]
                    if message["event"]["kind"] == "action":
                        break
        for socket in sockets:
            socket.__exit__(None, None, None)
        before = client.get(f"/api/tables/{table}").json()
    with TestClient(create_app(database, bot_delay=0, workers=1)) as client:
        after = client.get(f"/api/tables/{table}").json()
        assert after["seq"] == before["seq"] == seq
        with client.websocket_connect(f"/ws/{table}") as socket:
            socket.send_json({"type": "join", "token": tokens[1], "since": None, "seed": "s-1"})
            snapshot = _until(socket, "snapshot")
            assert snapshot["view"] == views[1]
            # The same secret (so the same commitment), and the seat's seed read back: the
            # same seed again adds no event.
            assert (snapshot["fair"], snapshot["seq"]) == (fair, seq)
            assert fair is not None and fair["commitment"]
