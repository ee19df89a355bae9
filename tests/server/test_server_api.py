"""The web table's HTTP side (docs/server.md, "HTTP"): health, the games, opening tables and
every way to ask for one badly, the pages, and replays."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.server.limits import MAX_BODY
from server_pieces import (
    events_of,
    humans,
    open_table,
    play_to_end,
    play_turn,
    seated,
    serving,
    table_count,
    tokens_of,
)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "api.db"


@pytest.fixture
def client(database: Path) -> Iterator[TestClient]:
    with serving(database) as client:
        yield client


def test_health_counts_the_tables(client: TestClient, database: Path) -> None:
    assert client.get("/health").json() == {
        "status": "ok",
        "tables": 0,
        "loaded": 0,
        "quarantined": 0,
        "database": "sqlite",
    }
    open_table(client, "neuf", humans(3))
    health = client.get("/health").json()
    assert health["tables"] == 1 == table_count(database) == health["loaded"]


def test_games_lists_each_game_with_its_options_and_levels(client: TestClient) -> None:
    games = {item["name"]: item for item in client.get("/api/games").json()}
    assert sorted(games) == cardtable.games() == ["knockout-whist", "kryt-navalivat", "neuf"]
    assert games["kryt-navalivat"]["title"] == "Kryt'-navalivat'"
    for name, item in games.items():
        kind = cardtable.game_class(name)
        assert item["players"]["min"] == kind.min_players
        assert item["players"]["max"] == kind.max_players
        assert kind.min_players <= item["players"]["default"] <= kind.max_players
        assert item["levels"] == ["easy", "medium", "hard", "expert"]
        for option in item["options"]:
            assert option["name"] not in ("players", "dealer")
            # Every advertised default is accepted by the game itself.
            cardtable.make(name, **{option["name"]: option["default"]})
            if option["kind"] == "choice":
                assert option["default"] in option["choices"]
                for choice in option["choices"]:
                    cardtable.make(name, **{option["name"]: choice})
            else:
                assert option["kind"] == "flag" and isinstance(option["default"], bool)
    options = {name: {o["name"]: o for o in item["options"]} for name, item in games.items()}
    assert options["kryt-navalivat"]["trump_mode"]["choices"] == ["turned", "permanent"]
    assert "HDCS-NT" in options["neuf"]["trump_sequence"]["choices"]
    assert options["neuf"]["tie_avoidance"]["kind"] == "flag"
    assert options["knockout-whist"] == {}


def test_opening_a_table_gives_invitations_once(client: TestClient, database: Path) -> None:
    seats = [
        {"kind": "human", "name": "Ana"},
        {"kind": "bot", "level": "hard"},
        {"kind": "human"},
    ]
    answer = client.post(
        "/api/tables", json={"game": "neuf", "options": {"tie_avoidance": True}, "seats": seats}
    )
    assert answer.status_code == 201
    opened = answer.json()
    table = opened["table"]
    assert opened["spectate"] == f"/t/{table}"
    assert [s["kind"] for s in opened["seats"]] == ["human", "bot", "human"]
    assert opened["seats"][1]["level"] == "hard" and "invite" not in opened["seats"][1]
    tokens = tokens_of(opened)
    assert sorted(tokens) == [0, 2] and tokens[0] != tokens[2]
    for seat in (0, 2):
        assert opened["seats"][seat]["invite"].startswith(f"/t/{table}#seat={seat}&token=")
        assert len(tokens[seat]) >= 22  # 128 random bits, URL-safe base64
    assert table_count(database) == 1
    described = client.get(f"/api/tables/{table}")
    assert described.status_code == 200
    public = described.json()
    text = described.text + client.get("/health").text
    assert all(token not in text for token in tokens.values())
    assert public["table"] == table and public["game"] == "neuf" and public["title"] == "Neuf"
    assert public["options"]["tie_avoidance"] is True and public["options"]["players"] == 3
    assert "dealer" not in public["options"]
    assert [s["name"] for s in public["seats"]][0::2] == ["Ana", "Player 3"]
    assert public["seats"][1]["kind"] == "bot" and public["seats"][1]["connected"] is True
    assert public["seats"][0]["connected"] is False and public["seats"][0]["stand_in"] is False
    assert public["games"] == 1 and public["seq"] >= 2 and public["created"] > 0


def seat_list(count: int) -> list[dict[str, Any]]:
    return humans(count)


BAD_TABLES: list[tuple[str, object, int, str]] = [
    ("unknown game", {"game": "bridge", "seats": seat_list(4)}, 400, "unknown_game"),
    ("no game", {"seats": seat_list(3)}, 400, "unknown_game"),
    ("game not text", {"game": 7, "seats": seat_list(3)}, 400, "unknown_game"),
    (
        "bad option value",
        {"game": "kryt-navalivat", "options": {"trump_mode": "sideways"}, "seats": seat_list(2)},
        400,
        "bad_options",
    ),
    (
        "flag not a flag",
        {"game": "neuf", "options": {"tie_avoidance": "yes"}, "seats": seat_list(3)},
        400,
        "bad_options",
    ),
    (
        "option of another game",
        {"game": "neuf", "options": {"trump_mode": "turned"}, "seats": seat_list(3)},
        400,
        "bad_options",
    ),
    (
        "dealer chosen",
        {"game": "neuf", "options": {"dealer": 0}, "seats": seat_list(3)},
        400,
        "bad_options",
    ),
    (
        "options not an object",
        {"game": "neuf", "options": [], "seats": seat_list(3)},
        400,
        "bad_options",
    ),
    ("too few seats", {"game": "knockout-whist", "seats": seat_list(1)}, 400, "bad_options"),
    ("too many seats", {"game": "kryt-navalivat", "seats": seat_list(7)}, 400, "bad_options"),
    ("neuf for five", {"game": "neuf", "seats": seat_list(5)}, 400, "bad_options"),
    ("no seats", {"game": "neuf", "seats": []}, 400, "bad_seats"),
    ("seats not a list", {"game": "neuf", "seats": {"kind": "human"}}, 400, "bad_seats"),
    ("seats missing", {"game": "neuf"}, 400, "bad_seats"),
    (
        "seat of no kind",
        {"game": "neuf", "seats": [*seat_list(2), {"kind": "alien"}]},
        400,
        "bad_seats",
    ),
    ("seat not an object", {"game": "neuf", "seats": [*seat_list(2), "bot"]}, 400, "bad_seats"),
    (
        "name too long",
        {"game": "neuf", "seats": [*seat_list(2), {"kind": "human", "name": "x" * 41}]},
        400,
        "bad_seats",
    ),
    (
        "name not text",
        {"game": "neuf", "seats": [*seat_list(2), {"kind": "human", "name": 5}]},
        400,
        "bad_seats",
    ),
    (
        "all bots",
        {"game": "kryt-navalivat", "seats": [{"kind": "bot"}, {"kind": "bot", "level": "easy"}]},
        400,
        "bad_seats",
    ),
    (
        "bad level",
        {"game": "neuf", "seats": [*seat_list(2), {"kind": "bot", "level": "grandmaster"}]},
        400,
        "bad_seats",
    ),
    ("a JSON array", [{"game": "neuf"}], 400, "malformed"),
    ("a JSON number", 3, 400, "malformed"),
]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [case[1:] for case in BAD_TABLES],
    ids=[case[0] for case in BAD_TABLES],
)
def test_a_bad_request_for_a_table_is_refused_and_creates_nothing(
    client: TestClient, database: Path, body: object, status: int, code: str
) -> None:
    before = table_count(database)
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == status, answer.text
    refusal = answer.json()
    assert set(refusal) == {"error", "message"}
    assert refusal["error"] == code and refusal["message"]
    assert table_count(database) == before
    assert client.get("/health").json()["tables"] == before


@pytest.mark.parametrize(
    ("content", "status", "code"),
    [
        (b"{not json", 400, "malformed"),
        (b"", 400, "malformed"),
        (b"\xff\xfe\x00", 400, "malformed"),
        (
            json.dumps({"game": "neuf", "seats": humans(3), "pad": "x" * MAX_BODY}).encode(),
            413,
            "too_large",
        ),
    ],
    ids=["not JSON", "empty", "not text", "oversized"],
)
def test_a_body_that_cannot_be_read_is_refused_and_creates_nothing(
    client: TestClient, database: Path, content: bytes, status: int, code: str
) -> None:
    answer = client.post(
        "/api/tables", content=content, headers={"content-type": "application/json"}
    )
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == code and answer.json()["message"]
    assert table_count(database) == 0
    assert client.get("/health").json()["tables"] == 0


def test_unknown_tables_games_and_replays_are_404(client: TestClient) -> None:
    opened = open_table(client, "knockout-whist", humans(3))
    table = opened["table"]
    for path in ["/t/nosuchtable", "/rules/bridge"]:
        # A page's address: a page that says there is nothing there (web/notfound.html).
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.headers["content-type"].startswith("text/html"), path
        assert "/static/notfound.js" in answer.text, path
    for path, code in [
        ("/api/tables/nosuchtable", "no_table"),
        ("/api/tables/nosuchtable/replay/1", "no_table"),
        (f"/api/tables/{table}/replay/2", "no_game"),
        (f"/api/tables/{table}/replay/0", "no_game"),
    ]:
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.json()["error"] == code, path
        assert answer.json()["message"], path


def test_the_pages_are_served(client: TestClient) -> None:
    table = open_table(client, "kryt-navalivat", humans(2))["table"]
    for path in ["/", f"/t/{table}", *(f"/rules/{name}" for name in cardtable.games())]:
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["content-type"].startswith("text/html"), path
        assert "<html" in answer.text.lower(), path
    assert client.get("/").text != client.get(f"/t/{table}").text


def test_a_replay_waits_for_the_end_then_shows_every_action(client: TestClient) -> None:
    opened = open_table(client, "knockout-whist", humans(3))
    table = opened["table"]
    rng = random.Random(5)
    with seated(client, opened) as (sockets, spectator):
        assert spectator is not None
        early = client.get(f"/api/tables/{table}/replay/1")
        assert early.status_code == 409 and early.json()["error"] == "not_over"
        play_turn(sockets, [spectator], rng)
        assert client.get(f"/api/tables/{table}/replay/1").status_code == 409
        play_to_end(sockets, [spectator], rng)
        events = events_of(spectator.frames)
        final = spectator.view
    answer = client.get(f"/api/tables/{table}/replay/1")
    assert answer.status_code == 200
    replay = answer.json()
    actions = [e for e in events if e["kind"] == "action"]
    over = next(e for e in events if e["kind"] == "over")
    frames = replay["frames"]
    assert len(frames) == len(actions) + 1
    assert frames[0]["action"] is None and frames[0]["seat"] is None
    assert [(f["seat"], f["action"]) for f in frames[1:]] == [
        (e["seat"], e["action"]) for e in actions
    ]
    assert replay["record"]["actions"] == [e["action"] for e in actions]
    last = frames[-1]["view"]
    assert last["to_move"] is None
    assert [last["winner"]] == over["result"]["winners"]
    assert {k: v for k, v in last.items() if k != "hands"} == final
    # Every hand is shown in a replay: the first frame holds each seat's dealt cards.
    first_hands = frames[0]["view"]["hands"]
    assert [len(h) for h in first_hands] == [7, 7, 7]
    assert len({c for h in first_hands for c in h}) == 21
