"""Bots at the web table: a table never waits for ever on a bot. Should the pool of bot
processes break, the bot's move is a random legal one, and the failure is logged."""

from __future__ import annotations

import logging
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardtable.server.app import create_app
from server_pieces import Socket, open_table, tokens_of


def test_a_broken_bot_pool_does_not_stall_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    broken = ProcessPoolExecutor(max_workers=1)
    broken.shutdown()  # every submission now fails, as with a worker that died
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", bot_delay=0, executor=broken)
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "medium"}]
    with caplog.at_level(logging.ERROR, "cardtable.server"), TestClient(app) as client:
        opened = open_table(client, "knockout-whist", seats, {})
        with client.websocket_connect(f"/ws/{opened['table']}") as session:
            ana = Socket(session, "Ana")
            ana.join(tokens_of(opened)[0], since=0)
            bot_moves = 0
            while bot_moves < 3 and not ana.view.get("winner"):
                if ana.view["to_move"] == 0:
                    ana.act(ana.view["legal_actions"][0])
                    continue
                frame = ana.until(lambda f: f["type"] == "event" and f["event"]["kind"] == "action")
                assert frame[-1]["event"]["seat"] == 1 and frame[-1]["event"]["by"] == "bot"
                bot_moves += 1
                ana.catch_up(frame[-1]["table"]["seq"])
    assert bot_moves == 3
    assert any(
        r.getMessage() == "bot failed" and r.levelno >= logging.ERROR for r in caplog.records
    )


@pytest.mark.parametrize("game", ["knockout-whist", "neuf", "kryt-navalivat"])
def test_an_expert_bot_takes_a_seat_and_plays(tmp_path: Path, game: str) -> None:
    # `expert` is a level like the others, each game's (its descriptor's `expert`): hard's
    # search with the learned estimate in Knockout Whist, hard's search at five times the
    # iterations with the exact endgame beside it in Kryt'-navalivat', the hints' analysis
    # in Neuf; run in
    # the bots' worker pool.
    app = create_app(f"sqlite:///{tmp_path / 't.db'}", bot_delay=0)
    seats = [
        {"kind": "human", "name": "Ana"},
        {"kind": "bot", "level": "expert"},
        {"kind": "bot", "level": "easy"},
    ]
    with TestClient(app) as client:
        opened = open_table(client, game, seats, {})
        with client.websocket_connect(f"/ws/{opened['table']}") as session:
            ana = Socket(session, "Ana")
            ana.join(tokens_of(opened)[0], since=0)
            expert_moves = 0
            while expert_moves < 2 and not ana.view.get("winner"):
                if ana.view["to_move"] == 0:
                    ana.act(ana.view["legal_actions"][0])
                    continue
                frame = ana.until(lambda f: f["type"] == "event" and f["event"]["kind"] == "action")
                event = frame[-1]["event"]
                assert event["by"] == "bot"
                expert_moves += event["seat"] == 1
                ana.catch_up(frame[-1]["table"]["seq"])
    assert expert_moves == 2
