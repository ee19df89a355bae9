"""Players the server knows (docs/server.md, "Players"): made with a name and a device key,
claiming their seats, rated when a game ends, listed with their history and on the
leaderboards, and removed by the operator."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from cardtable.bots.ratings import level_ratings
from cardtable.cli import app as cli
from cardtable.server.app import create_app
from cardtable.server.limits import Limits
from postgres_server import postgres_url
from server_pieces import Socket, card_strings, open_table, play_turn, seated, tokens_of

GAME = "kryt-navalivat"
SEATS: list[dict[str, Any]] = [
    {"kind": "human", "name": "Ana"},
    {"kind": "human", "name": "Bo"},
    {"kind": "bot", "level": "easy"},
]


def _app(path: Path | str, tables_per_minute: float = 0) -> Any:
    """The server on a SQLite file, or on the database ``path`` names (a URL)."""
    limits = Limits(tables_per_minute=tables_per_minute)
    url = path if isinstance(path, str) else f"sqlite:///{path}"
    return create_app(url, bot_delay=0, workers=1, limits=limits)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of each kind the server runs on."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 't.db'}"
    else:
        with postgres_url() as url:
            yield url


def _player(client: TestClient, name: str) -> tuple[str, dict[str, str]]:
    made = client.post("/api/players", json={"name": name})
    assert made.status_code == 201, made.text
    body = made.json()
    return body["player"], {"Authorization": f"Bearer {body['key']}"}


def _claim(client: TestClient, table: str, seat: int, token: str, auth: dict[str, str]) -> Any:
    return client.post(
        f"/api/tables/{table}/seats/{seat}/player", json={"token": token}, headers=auth
    )


def test_a_player_is_known_by_the_key_of_their_device(tmp_path: Path) -> None:
    """A player is made with a name and gets a key, which alone says who they are; the name
    is checked as a seat's is; a request without the key, or with one nobody holds, is
    refused as not signed in; a renamed player keeps their id."""
    with TestClient(_app(tmp_path / "t.db")) as client:
        ana, auth = _player(client, "  Ana ")
        assert client.get("/api/players/me", headers=auth).json() == {"player": ana, "name": "Ana"}
        for headers in ({}, {"Authorization": "Bearer nobody"}, {"Authorization": "Basic x"}):
            refused = client.get("/api/players/me", headers=headers)
            assert refused.status_code == 401 and refused.json()["error"] == "not_signed_in"
        for name in ("", "   ", "a\u0007b", "x" * 41, 7, None):
            refused = client.post("/api/players", json={"name": name})
            assert refused.status_code == 400 and refused.json()["error"] == "malformed", name
        unlabelled = client.post("/api/players", content='{"name": "Cy"}')
        assert unlabelled.status_code == 415
        renamed = client.post("/api/players/me/name", json={"name": "Ana B"}, headers=auth)
        assert renamed.status_code == 200, renamed.text
        page = client.get(f"/api/players/{ana}").json()
        assert (page["player"], page["name"], page["games"], page["ratings"]) == (
            ana,
            "Ana B",
            [],
            [],
        )
        assert "key" not in json.dumps(page)
        missing = client.get("/api/players/nobody")
        assert missing.status_code == 404 and missing.json()["error"] == "no_player"


def test_making_players_is_counted_against_the_clients_allowance(tmp_path: Path) -> None:
    """Players are made within the allowance a client has for new tables: past it, 429."""
    with TestClient(_app(tmp_path / "t.db", tables_per_minute=2)) as client:
        _player(client, "Ana")
        _player(client, "Bo")
        refused = client.post("/api/players", json={"name": "Cy"})
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"


def test_a_seat_is_claimed_by_the_holder_of_its_token_and_the_players_key(
    tmp_path: Path,
) -> None:
    """Only a holder of the seat's token claims it; once a player's, it is nobody else's;
    claiming it again is harmless."""
    with TestClient(_app(tmp_path / "t.db")) as client:
        opened = open_table(client, GAME, SEATS)
        table, tokens = opened["table"], tokens_of(opened)
        _, ana = _player(client, "Ana")
        _, bo = _player(client, "Bo")
        assert _claim(client, table, 0, tokens[1], ana).json()["error"] == "no_seat"
        assert _claim(client, table, 2, tokens[0], ana).status_code == 404
        assert _claim(client, "nope", 0, tokens[0], ana).status_code == 404
        assert _claim(client, table, 0, tokens[0], {}).status_code == 401
        bad = client.post(f"/api/tables/{table}/seats/0/player", json={"tok": 1}, headers=ana)
        assert bad.status_code == 400 and bad.json()["error"] == "malformed"
        assert _claim(client, table, 0, tokens[0], ana).status_code == 200
        assert _claim(client, table, 0, tokens[0], ana).status_code == 200
        taken = _claim(client, table, 0, tokens[0], bo)
        assert taken.status_code == 409 and taken.json()["error"] == "seat_claimed"


def _play_with_bot(sockets: dict[int, Socket], spectator: Socket, rng: random.Random) -> None:
    """Random legal play by the people, the bot playing its turns, to the game's end."""
    for _ in range(5000):
        mover = spectator.view["to_move"]
        if mover is None:
            return
        if mover in sockets:
            play_turn(sockets, [spectator], rng)
        else:
            spectator.until(lambda f: f["type"] == "event" and f["seq"] == f["table"]["seq"])
            for socket in sockets.values():
                socket.catch_up(spectator.seq)
    raise AssertionError("the game did not end")


def _finished_game(client: TestClient, seed: int) -> tuple[str, str, str, dict[str, Any]]:
    """A table of two players and an easy bot, played to its end: the players' ids, the
    table, and the game's ``over`` event as every seat saw it."""
    opened = open_table(client, GAME, SEATS)
    table, tokens = opened["table"], tokens_of(opened)
    ana, ana_auth = _player(client, "Ana")
    bo, bo_auth = _player(client, "Bo")
    assert _claim(client, table, 0, tokens[0], ana_auth).status_code == 200
    assert _claim(client, table, 1, tokens[1], bo_auth).status_code == 200
    with seated(client, opened) as (sockets, spectator):
        assert spectator is not None
        _play_with_bot(sockets, spectator, random.Random(seed))
        over = next(
            frame["event"]
            for frame in reversed(spectator.frames)
            if frame["type"] == "event" and frame["event"]["kind"] == "over"
        )
    return ana, bo, table, over


def test_a_finished_game_rates_its_players_and_is_in_their_history(database: str) -> None:
    """The game's end rates each player from their place (OpenSkill's Plackett-Luce, the bot
    at its level's measured rating, which does not move), lists the game in each player's
    history with their place, and puts both on the game's leaderboard beside the levels.
    Nothing on a player's page is a card: it holds what every seat may see once the game is
    over, the results and who sat where. On SQLite and on PostgreSQL (whose rating rows are
    locked while a game is rated)."""
    with TestClient(_app(database)) as client:
        ana, bo, table, over = _finished_game(client, 5)
        places = over["result"]["places"]
        place_of = {seat: place for place, tied in enumerate(places) for seat in tied}
        model = PlackettLuce()
        level = level_ratings(GAME)["easy"]
        expected = model.rate(
            [[model.rating()], [model.rating()], [model.rating(level["mu"], level["sigma"])]],
            ranks=[place_of[0], place_of[1], place_of[2]],
        )
        for seat, player in ((0, ana), (1, bo)):
            page = client.get(f"/api/players/{player}").json()
            (rating,) = page["ratings"]
            assert rating["game"] == GAME and rating["games"] == 1
            assert abs(rating["mu"] - expected[seat][0].mu) < 1e-3
            assert abs(rating["sigma"] - expected[seat][0].sigma) < 1e-3
            assert rating["near"] in level_ratings(GAME)
            (game,) = page["games"]
            assert (game["table"], game["number"], game["game"], game["seat"]) == (
                table,
                1,
                GAME,
                seat,
            )
            assert game["place"] == place_of[seat] and game["won"] == (
                seat in over["result"]["winners"]
            )
            assert [s["name"] for s in game["seats"]] == ["Ana", "Bo", "easy bot"]
            assert game["fair"] is True
            assert card_strings(page) == set(), "a player's page shows no card"
            assert "token" not in json.dumps(page)
        board = client.get(f"/api/leaderboard/{GAME}").json()["entries"]
        people = [entry for entry in board if "player" in entry]
        assert {entry["player"] for entry in people} == {ana, bo}
        assert [entry["rank"] for entry in people] == [1, 2]
        ordinals = [entry["ordinal"] for entry in board]
        assert ordinals == sorted(ordinals, reverse=True)
        assert {entry["level"] for entry in board if "level" in entry} == set(level_ratings(GAME))
        assert client.get("/api/leaderboard/chess").status_code == 404


def test_a_game_of_guests_rates_nobody(tmp_path: Path) -> None:
    """Guests (seats no player claimed) and bots are not the ladder's business: nothing is
    rated, nobody listed."""
    with TestClient(_app(tmp_path / "t.db")) as client:
        opened = open_table(client, GAME, SEATS)
        with seated(client, opened) as (sockets, spectator):
            assert spectator is not None
            _play_with_bot(sockets, spectator, random.Random(3))
        board = client.get(f"/api/leaderboard/{GAME}").json()["entries"]
        assert [entry for entry in board if "player" in entry] == []


def test_the_operator_forgets_a_player(tmp_path: Path) -> None:
    """``cardtable forget-player`` removes the player, their keys and ratings; their games
    stay at their tables, as a guest's; an unknown player is said so."""
    database = tmp_path / "t.db"
    with TestClient(_app(database)) as client:
        ana, bo, table, _ = _finished_game(client, 9)
    runner = CliRunner()
    done = runner.invoke(cli, ["forget-player", ana, "--database", f"sqlite:///{database}"])
    assert done.exit_code == 0, done.output
    again = runner.invoke(cli, ["forget-player", ana, "--database", f"sqlite:///{database}"])
    assert again.exit_code == 1 and "no player" in again.output
    with TestClient(_app(database)) as client:
        assert client.get(f"/api/players/{ana}").status_code == 404
        board = client.get(f"/api/leaderboard/{GAME}").json()["entries"]
        assert [entry["player"] for entry in board if "player" in entry] == [bo]
        (game,) = client.get(f"/api/players/{bo}").json()["games"]
        assert game["table"] == table and game["seats"][0]["player"] is None
        assert client.get(f"/api/tables/{table}").status_code == 200


def test_passkey_ceremonies_refuse_what_proves_nothing(tmp_path: Path) -> None:
    """A passkey needs a browser's page reached by name: no Origin, or an IP address, is
    refused and says why; an answer that is not a credential, or whose challenge the server
    never gave, changes nothing. (The whole ceremony, with Chromium's virtual authenticator,
    is in tests/web/test_web_players.py.)"""
    with TestClient(_app(tmp_path / "t.db")) as client:
        _, auth = _player(client, "Ana")
        bare = client.post("/api/sign-in/options", json={})
        assert bare.status_code == 400 and bare.json()["error"] == "no_origin"
        ip = "http://127.0.0.1:8000"
        by_address = client.post(f"{ip}/api/sign-in/options", json={}, headers={"Origin": ip})
        assert by_address.status_code == 400, by_address.text
        assert by_address.json()["error"] == "passkeys_need_a_name"
        assert "localhost" in by_address.json()["message"]
        by_name = client.post(
            "http://localhost/api/sign-in/options", json={}, headers={"Origin": "http://localhost"}
        )
        assert by_name.status_code == 200, by_name.text
        assert by_name.json()["rpId"] == "localhost"
        options = client.post(
            "http://localhost/api/passkeys/options",
            json={},
            headers={**auth, "Origin": "http://localhost"},
        ).json()
        assert options["rp"]["id"] == "localhost" and options["user"]["name"] == "Ana"
        origin = {"Origin": "http://localhost"}
        for body in ({}, {"response": {"clientDataJSON": "!!"}}, [1]):
            refused = client.post("http://localhost/api/sign-in", json=body, headers=origin)
            assert refused.status_code == 400 and refused.json()["error"] == "malformed", body
        forged = {
            "id": "AAAA",
            "rawId": "AAAA",
            "type": "public-key",
            "response": {
                "clientDataJSON": _client_data("AAAA"),
                "authenticatorData": "",
                "signature": "",
            },
        }
        refused = client.post("http://localhost/api/sign-in", json=forged, headers=origin)
        assert refused.status_code == 400 and refused.json()["error"] == "bad_challenge"
        unsigned = client.post(
            "http://localhost/api/passkeys", json=forged, headers={**auth, **origin}
        )
        assert unsigned.status_code == 400 and unsigned.json()["error"] == "bad_challenge"


def _client_data(challenge: str) -> str:
    import base64

    data = json.dumps(
        {"type": "webauthn.get", "challenge": challenge, "origin": "http://localhost"}
    )
    return base64.urlsafe_b64encode(data.encode()).decode().rstrip("=")


def test_a_player_rejoins_a_game_left_half_way_from_another_device(tmp_path: Path) -> None:
    """The player's own list of games to finish has the table while its game goes on;
    rejoining gives the seat a new link and the old one holds it no more; nobody else can
    move the seat or see the list; a finished game leaves it."""
    with TestClient(_app(tmp_path / "t.db")) as client:
        opened = open_table(client, GAME, SEATS)
        table, tokens = opened["table"], tokens_of(opened)
        ana, ana_auth = _player(client, "Ana")
        _, bo_auth = _player(client, "Bo")
        assert _claim(client, table, 0, tokens[0], ana_auth).status_code == 200
        listed = client.get("/api/players/me/tables", headers=ana_auth).json()
        assert [(t["table"], t["game"], t["seat"]) for t in listed] == [(table, GAME, 0)]
        assert [s["name"] for s in listed[0]["seats"]] == ["Ana", "Bo", "easy bot"]
        assert client.get("/api/players/me/tables", headers=bo_auth).json() == []
        assert client.get("/api/players/me/tables").status_code == 401
        stolen = client.post(f"/api/players/me/tables/{table}/seats/0", headers=bo_auth, json={})
        assert stolen.status_code == 404 and stolen.json()["error"] == "no_seat"
        moved = client.post(f"/api/players/me/tables/{table}/seats/0", headers=ana_auth, json={})
        assert moved.status_code == 200, moved.text
        new_token = tokens_of({"seats": [{"seat": 0, "invite": moved.json()["invite"]}]})[0]
        with client.websocket_connect(f"/ws/{table}") as session:
            old = Socket(session, "old link")
            old.send({"type": "join", "token": tokens[0], "since": None})
            refused = old.until(lambda f: f["type"] == "error")[-1]
            assert refused["code"] == "bad_token"
        with client.websocket_connect(f"/ws/{table}") as session:
            assert Socket(session, "Ana").join(new_token)["seat"] == 0
        _claim(client, table, 1, tokens[1], bo_auth)
        with seated(client, {**opened, "seats": _with_token(opened["seats"], 0, new_token)}) as (
            sockets,
            spectator,
        ):
            assert spectator is not None
            _play_with_bot(sockets, spectator, random.Random(2))
        assert client.get("/api/players/me/tables", headers=ana_auth).json() == []
        assert [g["table"] for g in client.get(f"/api/players/{ana}").json()["games"]] == [table]


def _with_token(seats: list[dict[str, Any]], seat: int, token: str) -> list[dict[str, Any]]:
    """The invitations with seat ``seat``'s link holding ``token``."""
    return [
        {**s, "invite": f"/t/x#seat={seat}&token={token}"} if s["seat"] == seat else s
        for s in seats
    ]


def test_no_log_line_names_a_player_or_holds_a_key(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """What the server logs of players (made, refused, seats claimed and moved) holds
    neither their key nor their id. (The test client's own log of the addresses it asks is
    not the server's.)"""
    caplog.set_level("DEBUG")
    with TestClient(_app(tmp_path / "t.db")) as client:
        opened = open_table(client, GAME, SEATS)
        table, tokens = opened["table"], tokens_of(opened)
        ana, auth = _player(client, "Ana")
        key = auth["Authorization"].removeprefix("Bearer ")
        _claim(client, table, 0, tokens[0], auth)
        client.post(f"/api/players/me/tables/{table}/seats/0", headers=auth, json={})
        client.post("/api/players/me/name", headers=auth, json={"name": "\u0007"})
        client.get(f"/api/players/{ana}x")
        client.get("/api/players/me", headers={"Authorization": f"Bearer {key}x"})
    server = [r for r in caplog.records if r.name.startswith(("cardtable", "uvicorn"))]
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in server)
    assert "player made" in logged and "seat moved" in logged
    assert key not in logged and ana not in logged
