"""A stored table is checked field by field before it is served (docs/server.md,
"Quarantined tables"; ``cardtable/server/records.py``): a row changed outside the server
into something the server never writes (a seat of an unknown kind, an option its game has
not, an event of the wrong shape, a deal that is not cards) is quarantined when the table
is loaded, for a reason that names the field, and never served, while every other table
of the database serves. Every table the server writes passes the check.
"""

from __future__ import annotations

import logging
import shutil
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
from cardtable.server.records import check_table
from cardtable.server.store import Store
from server_pieces import Socket, humans, open_table, tokens_of

BOT = {"kind": "bot", "level": "easy"}


@contextmanager
def serving(database: Path) -> Iterator[TestClient]:
    """The web table on a SQLite file: bots move at once, and a player who has left is
    played by a stand-in at once (no grace)."""
    app = create_app(f"sqlite:///{database}", grace=0, bot_delay=0, workers=1)
    with TestClient(app) as client:
        yield client


def come_and_go(client: TestClient, table: str, token: str, message: Any = None) -> None:
    """A player takes the seat (with a seed of its page), sends ``message`` if any, and
    leaves: a stand-in plays for it from then on."""
    with client.websocket_connect(f"/ws/{table}") as session:
        player = Socket(session, "player")
        player.send({"type": "join", "token": token, "since": None, "seed": "page-seed-1"})
        player.until(lambda f: f["type"] == "snapshot")
        if message is not None:
            player.send(message)
            player.barrier()


def games_over(client: TestClient, table: str, games: int) -> dict[str, Any]:
    """The table's description once ``games`` of its games are over."""
    deadline = time.monotonic() + 60
    while True:
        described: dict[str, Any] = client.get(f"/api/tables/{table}").json()
        if len(described["results"]) >= games:
            return described
        assert time.monotonic() < deadline, f"table {table} stopped: {described}"
        time.sleep(0.05)


def play_out(client: TestClient, opened: dict[str, Any], games: int = 1) -> None:
    """Every human comes and goes; the stand-ins and the bots play ``games`` games."""
    table, tokens = opened["table"], tokens_of(opened)
    for token in tokens.values():
        come_and_go(client, table, token)
    for number in range(1, games + 1):
        games_over(client, table, number)
        if number < games:
            come_and_go(client, table, tokens[0], {"type": "next"})


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A database holding tables of every game, played by stand-ins and bots: ``broken``
    (Knockout Whist, two games, seats human, bot, human) is the one each test damages,
    ``sound`` another that must go on serving; ``database``, ``tables`` (every id)."""
    database = tmp_path_factory.mktemp("records") / "tables.db"
    with serving(database) as client:
        broken = open_table(client, "knockout-whist", [humans(1)[0], BOT, humans(2)[1]])
        sound = open_table(client, "knockout-whist", humans(2))
        neuf = open_table(client, "neuf", [*humans(1), BOT, BOT], {"tie_avoidance": True})
        # Only dealt: easy bots can take a Kryt'-navalivat' hand to thousands of moves.
        kryt_navalivat = open_table(client, "kryt-navalivat", [*humans(1), BOT])
        play_out(client, broken, games=2)
        play_out(client, neuf)
        described = client.get(f"/api/tables/{sound['table']}").json()
    tables = [o["table"] for o in (broken, sound, neuf, kryt_navalivat)]
    return {
        "database": database,
        "broken": broken["table"],
        "sound": sound["table"],
        "described": described,
        "tables": tables,
    }


def test_every_table_the_server_writes_passes_the_check(
    stored: dict[str, Any], tmp_path: Path
) -> None:
    database = tmp_path / "tables.db"
    shutil.copy(stored["database"], database)
    store = Store(f"sqlite:///{database}")
    try:
        for table in stored["tables"]:
            loaded = store.load(table)
            assert loaded is not None
            check_table(loaded)
        with store.engine.connect() as connection:
            kinds = set(connection.exec_driver_sql("SELECT DISTINCT kind FROM events").scalars())
    finally:
        store.close()
    assert kinds == {"game", "action", "deal", "reveal", "over", "seed"}
    with serving(database) as client:
        for table in stored["tables"]:
            assert client.get(f"/api/tables/{table}").status_code == 200
        assert client.get("/health").json()["quarantined"] == 0


FIRST_ACTION = "(SELECT min(seq) FROM events WHERE table_id = :t AND kind = 'action')"
LAST_ACTION = "(SELECT max(seq) FROM events WHERE table_id = :t AND kind = 'action')"
SEED = "(SELECT min(seq) FROM events WHERE table_id = :t AND kind = 'seed')"
OVER = "(SELECT min(seq) FROM events WHERE table_id = :t AND kind = 'over')"
LAST = "(SELECT max(seq) FROM events WHERE table_id = :t)"
FIRST_DEAL = "table_id = :t AND game = 1 AND number = 0"

# (what is damaged, the SQL that damages it, what the quarantine's reason says)
DAMAGES = [
    (
        "seat of an unknown kind",
        "UPDATE seats SET kind = 'alien' WHERE table_id = :t AND seat = 1",
        "seat 1: kind 'alien' is not human or bot",
    ),
    (
        "bot of an unknown level",
        "UPDATE seats SET level = 'grandmaster' WHERE table_id = :t AND seat = 1",
        "seat 1: level 'grandmaster' is not one of easy, medium, hard, expert",
    ),
    (
        "human with a level",
        "UPDATE seats SET level = 'easy' WHERE table_id = :t AND seat = 0",
        "seat 0: a human seat with a level ('easy')",
    ),
    (
        "seat numbers with a gap",
        "UPDATE seats SET seat = 3 WHERE table_id = :t AND seat = 2",
        "seats are numbered [0, 1, 3], not 0 to 2 (the options say 3 players)",
    ),
    (
        "seat name with a control character",
        "UPDATE seats SET name = 'P' || char(7) WHERE table_id = :t AND seat = 0",
        "seat 0: name 'P\\x07' holds control characters",
    ),
    (
        "seat name too long",
        f"UPDATE seats SET name = '{'x' * 41}' WHERE table_id = :t AND seat = 2",
        "seat 2: name 'xxxxx",
    ),
    (
        "game unknown",
        "UPDATE tables SET game = 'poker' WHERE id = :t",
        "game: unknown game 'poker'",
    ),
    (
        "option unknown",
        "UPDATE tables SET options = json_set(options, '$.jokers', 2) WHERE id = :t",
        "options: knockout-whist has no option 'jokers'",
    ),
    (
        "option of the wrong type",
        "UPDATE tables SET options = json_set(options, '$.players', json('true')) WHERE id = :t",
        "options: knockout-whist is for 2 to 7 players, not True",
    ),
    (
        "options not an object",
        "UPDATE tables SET options = '[]' WHERE id = :t",
        "options: options are an object of the game's rules",
    ),
    (
        "secret not hex",
        "UPDATE tables SET secret = 'not a secret' WHERE id = :t",
        "secret 'not a secret' is not 64 hex digits",
    ),
    (
        "event without a field",
        f"UPDATE events SET data = json_remove(data, '$.by') "
        f"WHERE table_id = :t AND seq = {FIRST_ACTION}",
        "(action): no 'by'",
    ),
    (
        "event field of the wrong type",
        f"UPDATE events SET data = json_set(data, '$.seat', '1') "
        f"WHERE table_id = :t AND seq = {FIRST_ACTION}",
        "(action): seat '1' is not a seat (0 to 2)",
    ),
    (
        "event with a field of no event",
        f"UPDATE events SET data = json_set(data, '$.note', 'hi') "
        f"WHERE table_id = :t AND seq = {FIRST_ACTION}",
        "(action): a field 'note' that no action event has",
    ),
    (
        "event of an unknown kind",
        f"UPDATE events SET kind = 'magic', data = json_set(data, '$.kind', 'magic') "
        f"WHERE table_id = :t AND seq = {FIRST_ACTION}",
        "kind 'magic' is not one of game, action, deal, reveal, over, seed",
    ),
    (
        "event not an object",
        f"UPDATE events SET data = '[1, 2]' WHERE table_id = :t AND seq = {FIRST_ACTION}",
        "is not an object",
    ),
    (
        "event that is not JSON",
        f"UPDATE events SET data = '{{\"kind\": ' WHERE table_id = :t AND seq = {FIRST_ACTION}",
        ": not JSON (Expecting value, at character 9)",
    ),
    (
        "options that are not JSON",
        "UPDATE tables SET options = 'players=3' WHERE id = :t",
        "options: not JSON (Expecting value, at character 0)",
    ),
    (
        "event numbers with a gap",
        f"UPDATE events SET data = json_set(data, '$.seq', seq + 1) "
        f"WHERE table_id = :t AND seq = {FIRST_ACTION}",
        "(action): numbered",
    ),
    (
        "event row renumbered",
        f"UPDATE events SET seq = seq + 100 WHERE table_id = :t AND seq = {LAST}",
        "its row is numbered",
    ),
    (
        "seed of a bot's seat",
        f"UPDATE events SET data = json_set(data, '$.seat', 1) "
        f"WHERE table_id = :t AND seq = {SEED}",
        "(seed): seat 1 is a bot's seat, which gives no seed",
    ),
    (
        "result with a winner that is no seat",
        f"UPDATE events SET data = json_set(data, '$.result.winners', json('[\"Ana\"]')) "
        f"WHERE table_id = :t AND seq = {OVER}",
        "(over): result",
    ),
    (
        "deal of a card that is none",
        f"UPDATE deals SET cards = replace(cards, 'AS', 'ZZ') WHERE {FIRST_DEAL}",
        "deal 0 of game 1: the deck, card",
    ),
    (
        "deal of an unknown kind",
        f"UPDATE deals SET kind = 'joker' WHERE {FIRST_DEAL}",
        "deal 0 of game 1: kind 'joker' is not deck or reshuffle",
    ),
    (
        "deal that is not the one published",
        f"UPDATE deals SET salt = '00' WHERE {FIRST_DEAL}",
        "deal 0 of game 1: its cards and salt do not give the commitment of event",
    ),
]


@pytest.mark.parametrize(
    ("damage", "reason"), [d[1:] for d in DAMAGES], ids=[d[0] for d in DAMAGES]
)
def test_a_table_with_a_field_the_server_does_not_write_is_quarantined_and_never_served(
    stored: dict[str, Any],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    damage: str,
    reason: str,
) -> None:
    database = tmp_path / "tables.db"
    shutil.copy(stored["database"], database)
    broken, sound = stored["broken"], stored["sound"]
    with sqlite3.connect(database) as connection:
        assert connection.execute(damage, {"t": broken}).rowcount == 1
    caplog.set_level(logging.INFO, logger="cardtable.server")
    with serving(database) as client:
        for _ in range(2):
            answer = client.get(f"/api/tables/{broken}")
            assert (answer.status_code, answer.json()["error"]) == (503, "quarantined")
        with client.websocket_connect(f"/ws/{broken}") as session:
            refused = session.receive_json()
            assert (refused["type"], refused["code"]) == ("error", "quarantined")
            with pytest.raises(WebSocketDisconnect) as closed:
                session.receive_json()
            assert closed.value.code == 4503
        # The other table of the database serves, as it did.
        assert client.get(f"/api/tables/{sound}").json() == stored["described"]
        with client.websocket_connect(f"/ws/{sound}") as session:
            assert Socket(session, "watcher").join(None)["seq"] == stored["described"]["seq"]
        assert client.get("/health").json()["quarantined"] == 1
    logged = [r for r in caplog.records if r.getMessage() == "table quarantined"]
    assert [getattr(r, "table", None) for r in logged] == [broken]
    with sqlite3.connect(database) as connection:
        marks = dict(connection.execute("SELECT id, quarantined FROM tables").fetchall())
    assert reason in marks[broken], marks[broken]
    assert [t for t, mark in marks.items() if mark is not None] == [broken]


def test_a_quarantines_reason_is_bounded_whatever_the_value_it_names(
    stored: dict[str, Any], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An action of a million characters (in the game being played, which is replayed)
    does not replay, and the refusal's words hold the action: the reason logged and stored
    is cut to a line, saying how long it was."""
    database = tmp_path / "tables.db"
    shutil.copy(stored["database"], database)
    huge = "replace(hex(zeroblob(500000)), '00', 'x')"
    damage = (
        f"UPDATE events SET data = json_set(data, '$.action', {huge}) "
        f"WHERE table_id = :t AND seq = {LAST_ACTION}"
    )
    with sqlite3.connect(database) as connection:
        assert connection.execute(damage, {"t": stored["broken"]}).rowcount == 1
    caplog.set_level(logging.INFO, logger="cardtable.server")
    with serving(database) as client:
        answer = client.get(f"/api/tables/{stored['broken']}")
        assert answer.status_code == 503, answer.text[:300]
        assert answer.json()["error"] == "quarantined"
    (logged,) = [r for r in caplog.records if r.getMessage() == "table quarantined"]
    reason = getattr(logged, "reason", "")
    assert len(reason) <= 500 and reason.endswith(" characters in all)"), reason[-80:]
    assert "xxxx" in reason  # what was wrong is still said, cut short
    with sqlite3.connect(database) as connection:
        (mark,) = connection.execute(
            "SELECT quarantined FROM tables WHERE id = ?", (stored["broken"],)
        ).fetchone()
    assert mark == reason
