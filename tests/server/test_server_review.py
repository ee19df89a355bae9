"""Game reviews at the web table (docs/server.md, "Game reviews"), on a live ``cardtable
serve``: a seat's review of a finished game goes to that seat alone, never before the game
is over, is worked out in the background with progress, is the library's review of the
game's record, and is stored with the table: asked again after a restart, it comes at once.
A review stored by an earlier version, in other units, is made again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from cardtable.core import Record
from cardtable.review import review
from cardtable.server.reviews import load_review, save_review
from cardtable.server.store import Store
from live_pieces import DATABASES, LiveSocket, live_server_on, open_live_table, tokens
from served import ServerProcess

LEVEL = "analysis:deals=8,iterations=300"
SEATS = [
    {"kind": "human", "name": "Ana"},
    {"kind": "human", "name": "Bo"},
    {"kind": "bot", "level": "easy"},
]


def play_to_the_end(player: LiveSocket, snapshot: dict[str, Any]) -> None:
    """Play seat 0's first legal action at each of its turns until the game is over; on
    the way, once, ask for the review of the game still being played."""
    view, seq, asked = snapshot["view"], snapshot["seq"], False
    latest = True
    while True:
        if latest and view.get("to_move") == 0 and view.get("legal_actions"):
            if not asked:
                refused = player.ask(json.dumps({"type": "review", "game": 1}))
                assert (refused["type"], refused["code"]) == ("error", "not_over"), refused
                asked = True
            action = view["legal_actions"][0]
            player.send(json.dumps({"type": "action", "action": action, "seq": seq}))
        frame = player.receive()
        if frame["type"] == "event":
            # The events of one change come together: act on the last one's number.
            view, seq = frame["view"], frame["seq"]
            latest = seq == frame["table"]["seq"]
            if frame["event"]["kind"] == "over":
                return


def answer(player: LiveSocket, message: dict[str, Any]) -> dict[str, Any]:
    """Send a message and read its answer, past the news of others coming and going."""
    player.send(json.dumps(message))
    while True:
        frame = player.receive()
        if frame["type"] != "presence":
            return frame


def read_review(player: LiveSocket) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The progress messages and the review that follows them."""
    progress: list[dict[str, Any]] = []
    while True:
        frame = player.receive(seconds=60)
        if frame["type"] == "review":
            return progress, frame
        if frame["type"] == "presence":
            continue
        assert frame["type"] == "review_progress", frame
        progress.append(frame)


def asked_again(
    server: ServerProcess, table: str, token: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Start the server again and ask seat 0's review of game 1: its progress, its answer."""
    server.start()
    with LiveSocket(server, table) as ana:
        ana.join(token)
        ana.send(json.dumps({"type": "review", "game": 1}))
        return read_review(ana)


@pytest.mark.parametrize("database", DATABASES)
def test_a_review_is_its_seats_alone_after_the_end_and_stored(
    database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDTABLE_REVIEW_LEVEL", LEVEL)
    with live_server_on(database, tmp_path) as server:
        opened = open_live_table(server, "knockout-whist", SEATS)
        table, token = opened["table"], tokens(opened)
        with LiveSocket(server, table) as ana:
            snapshot = ana.join(token[0])
            ana.ask(json.dumps({"type": "stand_in", "seat": 1}))  # a bot plays Bo's seat
            play_to_the_end(ana, snapshot)
            with LiveSocket(server, table) as bo, LiveSocket(server, table) as watcher:
                bo.join(token[1])
                watcher.join(None)
                refused = answer(watcher, {"type": "review", "game": 1})
                assert (refused["type"], refused["code"]) == ("error", "spectator")
                for wrong, code in ((2, "no_game"), ("1", "malformed"), (0, "no_game")):
                    refused = answer(ana, {"type": "review", "game": wrong})
                    assert (refused["type"], refused.get("code")) == ("error", code), refused
                ana.send(json.dumps({"type": "review", "game": 1}))
                progress, reviewed = read_review(ana)
                # Nothing of it reached the other seat or the watcher.
                bo.quiet()
                watcher.quiet()
        done = reviewed["review"]
        assert reviewed["game"] == 1 and done["seat"] == 0 and done["level"] == LEVEL
        total = len(done["decisions"])
        assert [p["done"] for p in progress] == list(range(total))
        assert all(p["total"] == total and p["game"] == 1 for p in progress)
        # The library's review of the game's record, from the same seed.
        replayed = httpx.get(f"{server.http}/api/tables/{table}/replay/1", timeout=10).json()
        record = Record.from_dict(replayed["record"])
        assert done == review(record, 0, level=LEVEL, rng_seed=done["rng_seed"]).to_dict()

        server.stop()
        store = Store(server.url)
        try:
            assert load_review(store, table, 1, 0) == done
            assert load_review(store, table, 1, 1) is None
        finally:
            store.close()
        server.start()
        with LiveSocket(server, table) as ana:
            ana.join(token[0])
            again = answer(ana, {"type": "review", "game": 1})
            assert again == {"type": "review", "game": 1, "review": done}

        # Stored by version 1 (a bot's search, in returns of the whole game, with its
        # "stake"): not sent, made again and stored in its place.
        server.stop()
        old = {k: v for k, v in done.items() if k not in ("unit", "thresholds")}
        old |= {"version": 1, "level": "pimc:deals=8", "stake": {"chance_of": "win"}}
        store = Store(server.url)
        try:
            save_review(store, table, 1, 0, old)
            assert load_review(store, table, 1, 0) == old
        finally:
            store.close()
        progress, remade = asked_again(server, table, token[0])
        assert [p["done"] for p in progress] == list(range(total))
        assert remade == {"type": "review", "game": 1, "review": done}
        server.stop()
        store = Store(server.url)
        try:
            assert load_review(store, table, 1, 0) == done
        finally:
            store.close()

        # Stored reviews are checked as a table's rows are: one this server did not write
        # (not JSON; another seat's; a decision without its fields) is set aside, logged,
        # made again and stored in its place, never sent.
        damaged = [
            "{not json",
            json.dumps({**done, "seat": 1}),
            json.dumps({**done, "decisions": [{"index": 0}]}),
        ]
        for data in damaged:
            engine = create_engine(server.url)
            with engine.begin() as connection:
                connection.execute(
                    text("UPDATE reviews SET data = :d WHERE table_id = :t AND seat = 0"),
                    {"d": data, "t": table},
                )
            engine.dispose()
            _progress, remade = asked_again(server, table, token[0])
            assert remade == {"type": "review", "game": 1, "review": done}, data
            server.stop()
            assert "stored review set aside; made again" in server.log.read_text()


def test_a_review_level_that_names_no_budget_stops_the_server_before_it_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``CARDTABLE_REVIEW_LEVEL`` is read when the app is made: a budget it cannot name
    (an old bot spec) is refused then, with the variable named, never at each review."""
    from cardtable.server.app import create_app

    monkeypatch.setenv("CARDTABLE_REVIEW_LEVEL", "pimc:deals=8")
    with pytest.raises(ValueError, match="CARDTABLE_REVIEW_LEVEL: a review's level is expert"):
        create_app(f"sqlite:///{tmp_path / 't.db'}")
    monkeypatch.setenv("CARDTABLE_REVIEW_LEVEL", "analysis:deals=8")
    assert create_app(f"sqlite:///{tmp_path / 't.db'}") is not None
