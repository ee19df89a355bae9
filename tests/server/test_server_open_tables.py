"""Open tables (docs/server.md, "Open tables"): a seat left for anyone, listed in the lobby, and
given to whoever asks first, on one server process and across two on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.limits import Limits
from postgres_server import postgres_url
from served import ServerProcess
from server_pieces import Socket, open_table, tokens_of

SEATS: list[dict[str, Any]] = [
    {"kind": "human", "name": "Ana"},
    {"kind": "human", "open": True},
    {"kind": "bot", "level": "easy"},
]


def _token(invite: str) -> str:
    return parse_qs(urlsplit(invite).fragment)["token"][0]


def _app(tmp_path: Path, tables_per_minute: float = 0) -> Any:
    limits = Limits(tables_per_minute=tables_per_minute)
    return create_app(f"sqlite:///{tmp_path / 't.db'}", bot_delay=0, workers=1, limits=limits)


def test_an_open_seat_is_listed_until_someone_takes_it(tmp_path: Path) -> None:
    """The creator's table has an open seat: no invitation for it, and the lobby lists the
    table (who sits where, the bot's level, the seat open) for its game and for all, never
    another's. The first to take the seat gets its invitation and is told of by presence to
    those at the table; the table leaves the listing; the seat is nobody else's."""
    with TestClient(_app(tmp_path)) as client:
        opened = open_table(client, "kryt-navalivat", SEATS)
        table = opened["table"]
        assert [("invite" in seat) for seat in opened["seats"]] == [True, False, False]
        listed = client.get("/api/open-tables").json()
        assert [entry["table"] for entry in listed] == [table]
        entry = listed[0]
        assert entry["game"] == "kryt-navalivat" and entry["options"]["players"] == 3
        assert [(s["name"], s["kind"], s["level"], s["open"]) for s in entry["seats"]] == [
            ("Ana", "human", None, False),
            (None, "human", None, True),
            ("easy bot", "bot", "easy", False),
        ]
        assert "token" not in json.dumps(listed)
        assert client.get("/api/open-tables?game=kryt-navalivat").json() == listed
        assert client.get("/api/open-tables?game=neuf").json() == []
        assert client.get("/api/open-tables?game=chess").status_code == 404
        with client.websocket_connect(f"/ws/{table}") as session:
            creator = Socket(session, "Ana")
            creator.join(tokens_of(opened)[0])
            assert creator.view["seat"] == 0
            took = client.post(f"/api/tables/{table}/seats/1", json={"name": "Bo"})
            assert took.status_code == 201, took.text
            assert took.json()["seat"] == 1 and took.json()["name"] == "Bo"
            told = creator.until(lambda f: f["type"] == "presence")[-1]
            assert told["table"]["seats"][1]["name"] == "Bo"
            assert not told["table"]["seats"][1]["open"]
        assert client.get("/api/open-tables").json() == []
        again = client.post(f"/api/tables/{table}/seats/1", json={"name": "Cy"})
        assert again.status_code == 409 and again.json()["error"] == "seat_taken"
        with client.websocket_connect(f"/ws/{table}") as session:
            taker = Socket(session, "Bo")
            assert taker.join(_token(took.json()["invite"]))["seat"] == 1


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/api/tables/nosuchtable1/seats/1", {}, 404, "no_table"),
        ("/api/tables/{table}/seats/0", {}, 409, "seat_taken"),  # the creator's, invited
        ("/api/tables/{table}/seats/2", {}, 409, "seat_taken"),  # a bot's
        ("/api/tables/{table}/seats/9", {}, 409, "seat_taken"),  # no such seat
        ("/api/tables/{table}/seats/x", {}, 400, "malformed"),
        ("/api/tables/{table}/seats/1", {"name": "a\u0007b"}, 400, "malformed"),
        ("/api/tables/{table}/seats/1", {"name": "n" * 65}, 400, "malformed"),
        ("/api/tables/{table}/seats/1", [], 400, "malformed"),
    ],
)
def test_a_seat_that_cannot_be_taken_is_refused_and_stays_open(
    tmp_path: Path, path: str, body: object, status: int, code: str
) -> None:
    with TestClient(_app(tmp_path)) as client:
        table = open_table(client, "kryt-navalivat", SEATS)["table"]
        refused = client.post(path.format(table=table), json=body)
        assert (refused.status_code, refused.json()["error"]) == (status, code), refused.text
        assert [s["open"] for s in client.get("/api/open-tables").json()[0]["seats"]] == [
            False,
            True,
            False,
        ]


def test_a_table_refuses_an_open_seat_that_is_not_a_person_s_or_is_named(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client:
        for seat, says in (
            ({"kind": "bot", "open": True}, "open is true or false, for a human"),
            ({"kind": "human", "open": "yes"}, "open is true or false, for a human"),
            ({"kind": "human", "open": True, "name": "X"}, "an open seat's taker names it"),
        ):
            seats = [{"kind": "human", "name": "Ana"}, seat]
            refused = client.post("/api/tables", json={"game": "neuf", "seats": [*seats] * 2})
            assert refused.status_code == 400 and says in refused.json()["message"], refused.text


def test_two_asking_at_once_one_gets_the_seat(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client:
        table = open_table(client, "kryt-navalivat", SEATS)["table"]

        def ask(name: str) -> int:
            return client.post(f"/api/tables/{table}/seats/1", json={"name": name}).status_code

        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(ask, [f"P{n}" for n in range(8)]))
        assert sorted(answers) == [201] + [409] * 7


def test_taking_a_seat_counts_against_the_client_s_allowance(tmp_path: Path) -> None:
    """A table opened and a seat taken are two of the client's allowance; past it, 429."""
    with TestClient(_app(tmp_path, tables_per_minute=2)) as client:
        table = open_table(client, "kryt-navalivat", [*SEATS[:2], {"kind": "human", "open": True}])
        assert client.post(f"/api/tables/{table['table']}/seats/1", json={}).status_code == 201
        refused = client.post(f"/api/tables/{table['table']}/seats/2", json={})
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"


def test_a_seat_taken_through_another_process_is_learnt_by_the_table_s_holder(
    tmp_path: Path,
) -> None:
    """Two processes on one PostgreSQL database: the table is held by the first; the seat is
    taken through the second, which lists what the first opened; the taker's socket, at the
    first, is seated (the holder learns the seat from the database) and plays."""
    with postgres_url() as url:
        servers = [ServerProcess(url, tmp_path / f"server-{n}.log") for n in range(2)]
        for server in servers:
            server.start()
        try:
            made = httpx.post(
                f"{servers[0].http}/api/tables",
                json={"game": "knockout-whist", "seats": [SEATS[0], SEATS[1]]},
                timeout=10,
            )
            assert made.status_code == 201, made.text
            table = made.json()["table"]
            assert [t["table"] for t in httpx.get(f"{servers[1].http}/api/open-tables").json()] == [
                table
            ]
            took = httpx.post(
                f"{servers[1].http}/api/tables/{table}/seats/1", json={"name": "Bo"}, timeout=10
            )
            assert took.status_code == 201, took.text

            async def join() -> dict[str, Any]:
                async with websockets.connect(servers[0].ws(table)) as socket:
                    token = _token(took.json()["invite"])
                    await socket.send(json.dumps({"type": "join", "token": token, "since": None}))
                    while True:
                        frame = json.loads(await asyncio.wait_for(socket.recv(), 20))
                        if frame["type"] in ("snapshot", "error"):
                            return dict(frame)

            snapshot = asyncio.run(join())
            assert snapshot["type"] == "snapshot" and snapshot["seat"] == 1, snapshot
            assert snapshot["table"]["seats"][1]["name"] == "Bo"
        finally:
            for server in servers:
                server.stop()


def _quick(client: TestClient, name: str, **asked: Any) -> dict[str, Any]:
    body = {"game": "kryt-navalivat", "players": 2, "name": name, **asked}
    answer = client.post("/api/quick-match", json=body)
    assert answer.status_code == 201, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_quick_match_with_no_one_else_starts_with_bots_after_its_wait(tmp_path: Path) -> None:
    """Nobody waiting: a table is opened, the other seats open for the wait (listed, with
    their deadline), then a bot of the level asked takes each, those at the table are told,
    and the bot plays."""
    with TestClient(_app(tmp_path)) as client:
        mine = _quick(client, "Ana", wait=1, level="easy")
        assert not mine["matched"] and mine["seat"] == 0
        table = mine["table"]
        [listed] = client.get("/api/open-tables").json()
        assert listed["table"] == table and listed["seats"][1]["open"]
        assert listed["seats"][1]["open_until"] > time.time()
        with client.websocket_connect(f"/ws/{table}") as session:
            ana = Socket(session, "Ana")
            ana.join(_token(mine["invite"]))
            told = ana.until(
                lambda f: f["type"] == "presence" and not f["table"]["seats"][1]["open"]
            )
            seat = told[-1]["table"]["seats"][1]
            assert (seat["kind"], seat["level"], seat["name"]) == ("bot", "easy", "easy bot")
            if ana.view["to_move"] != 0:  # the bot is to play first: it does
                ana.until(lambda f: f["type"] == "event" and f["event"].get("seat") == 1)
        assert client.get("/api/open-tables").json() == []
        assert client.get(f"/api/tables/{table}").json()["seats"][1]["kind"] == "bot"


def test_a_quick_match_finds_the_player_waiting_longest(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path)) as client:
        ana = _quick(client, "Ana", wait=60)
        bo = _quick(client, "Bo")
        assert bo["matched"] and (bo["table"], bo["seat"]) == (ana["table"], 1)
        assert client.get(f"/api/tables/{ana['table']}").json()["seats"][1]["name"] == "Bo"
        cy = _quick(client, "Cy")  # the table is full: a new one, waiting for the next
        assert not cy["matched"] and cy["table"] != ana["table"]
        other = _quick(client, "Di", players=3)  # not the same number of players
        assert not other["matched"] and other["table"] != cy["table"]


@pytest.mark.parametrize(
    ("asked", "code", "says"),
    [
        ({"game": "chess"}, "unknown_game", "unknown game"),
        ({"players": 9}, "bad_options", "players"),
        ({"players": "2"}, "bad_options", "players is the number of seats"),
        ({"wait": 0}, "bad_seats", "wait is 1 to 600 seconds"),
        ({"wait": True}, "bad_seats", "wait is 1 to 600 seconds"),
        ({"level": "godlike"}, "bad_seats", "level is one of"),
        ({"name": 5}, "malformed", "a name is text"),
    ],
)
def test_a_quick_match_asked_wrong_is_refused(
    tmp_path: Path, asked: dict[str, Any], code: str, says: str
) -> None:
    with TestClient(_app(tmp_path)) as client:
        body = {"game": "kryt-navalivat", "players": 2, **asked}
        refused = client.post("/api/quick-match", json=body)
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"] == code and says in refused.json()["message"]
        assert client.get("/api/open-tables").json() == []
