"""Hints cannot starve the tables' bots (docs/server.md, "Hints and their limits").

Hints are worked out in a pool of their own: with every hint worker busy, the bots of
other tables go on moving in theirs. A seat has one hint under way at a time, whatever
windows it asks from (``hint_busy``), and a number of hints a minute (``hint_limit``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from fastapi.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.thinking import pool
from server_pieces import Socket, humans, open_table, tokens_of

HOLD = 8.0  # seconds the only hint worker is kept busy
BOT_MOVES = 6  # bot moves that must be made meanwhile (each takes milliseconds)


@contextmanager
def busy_hint_pool(tmp_path: Path) -> Iterator[tuple[TestClient, Future[None]]]:
    """A server whose one hint worker is asleep for :data:`HOLD` seconds from the start
    (as if working out a long hint), bots moving at once and stand-ins playing at once."""
    hints: ProcessPoolExecutor = pool(1)
    try:
        app = create_app(
            f"sqlite:///{tmp_path / 't.db'}",
            grace=0,
            bot_delay=0,
            workers=1,
            hint_executor=hints,
        )
        with TestClient(app) as client:
            busy: Future[None] = hints.submit(time.sleep, HOLD)
            yield client, busy
    finally:
        hints.shutdown(wait=True, cancel_futures=True)


def test_bots_move_while_every_hint_worker_is_busy(tmp_path: Path) -> None:
    with busy_hint_pool(tmp_path) as (client, busy):
        asking = open_table(client, "knockout-whist", humans(2))
        seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "level": "medium"}] * 3
        bots = open_table(client, "knockout-whist", seats)
        with (
            client.websocket_connect(f"/ws/{asking['table']}") as first,
            client.websocket_connect(f"/ws/{asking['table']}") as second,
            client.websocket_connect(f"/ws/{bots['table']}") as watching,
        ):
            players = [Socket(first, "P0"), Socket(second, "P1")]
            for seat, player in enumerate(players):
                player.join(tokens_of(asking)[seat])
            players[0].barrier()
            mover = players[players[0].view["to_move"]]
            mover.send({"type": "hint"})  # waits behind the sleeping hint worker
            watcher = Socket(watching, "watcher")
            watcher.join(None)
            # Ana comes and goes: her stand-in (on the server) and the medium bots (in the
            # bot pool) play the table.
            with client.websocket_connect(f"/ws/{bots['table']}") as ana_session:
                Socket(ana_session, "Ana").join(tokens_of(bots)[0])
            moved = 0
            while moved < BOT_MOVES:
                frame = watcher.until(lambda f: f["type"] == "event")[-1]
                if frame["event"]["kind"] == "action" and frame["event"]["by"] == "bot":
                    moved += 1
            assert not busy.done(), "the bots' moves waited for the hint worker"
            hint = mover.until(lambda f: f["type"] == "hint", seconds=HOLD + 30)[-1]
            assert busy.done()
            assert hint["actions"], hint


def test_a_seat_has_one_hint_under_way_whatever_window_asks(tmp_path: Path) -> None:
    with busy_hint_pool(tmp_path) as (client, busy):
        opened = open_table(client, "knockout-whist", humans(2))
        table = opened["table"]
        with (
            client.websocket_connect(f"/ws/{table}") as first,
            client.websocket_connect(f"/ws/{table}") as second,
        ):
            watcher = Socket(first, "watcher")
            watcher.join(None)
            seat = watcher.view["to_move"]
            token = tokens_of(opened)[seat]
            with client.websocket_connect(f"/ws/{table}") as window:
                asker = Socket(window, "first window")
                asker.join(token)
                asker.send({"type": "hint"})  # under way: the hint worker is asleep
                # The same seat in another window takes the seat over, and asks again.
                again = Socket(second, "second window")
                again.join(token)
                again.send({"type": "hint"})
                refused = again.until(lambda f: f["type"] in ("hint", "error"))[-1]
                assert refused["type"] == "error" and refused["code"] == "hint_busy", refused
                assert not busy.done()
                # Once the first hint is answered, the seat may ask again.
                busy.result(timeout=HOLD + 30)
                deadline = time.monotonic() + 30
                while True:
                    again.send({"type": "hint"})
                    answer = again.until(lambda f: f["type"] in ("hint", "error"), 30)[-1]
                    if answer["type"] == "hint":
                        break
                    assert answer["code"] == "hint_busy", answer
                    assert time.monotonic() < deadline, "the first hint never ended"
                    time.sleep(0.1)


def test_a_seat_may_ask_for_so_many_hints_a_minute(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 't.db'}", bot_delay=0, workers=1, hint_workers=1, hints_per_minute=2
    )
    with TestClient(app) as client:
        opened = open_table(client, "knockout-whist", humans(2))
        with (
            client.websocket_connect(f"/ws/{opened['table']}") as first,
            client.websocket_connect(f"/ws/{opened['table']}") as second,
        ):
            players = [Socket(first, "P0"), Socket(second, "P1")]
            for seat, player in enumerate(players):
                player.join(tokens_of(opened)[seat])
            players[0].barrier()
            mover = players[players[0].view["to_move"]]
            other = players[1 - players.index(mover)]
            for _ in range(2):
                mover.send({"type": "hint"})
                assert (
                    mover.until(lambda f: f["type"] in ("hint", "error"), 30)[-1]["type"] == "hint"
                )
            mover.send({"type": "hint"})
            refused = mover.until(lambda f: f["type"] in ("hint", "error"), 30)[-1]
            assert refused["type"] == "error" and refused["code"] == "hint_limit", refused
            assert "2 hints a minute" in refused["message"]
            # The limit is the seat's: the table and the other seat are untouched.
            assert mover.act(mover.view["legal_actions"][0])[-1]["type"] == "event"
            other.catch_up(mover.seq)
            assert _ask_hint(other)["type"] == "hint"


def _ask_hint(socket: Socket) -> dict[str, object]:
    """Ask for a hint; its answer, or the refusal."""
    socket.send({"type": "hint"})
    return socket.until(lambda f: f["type"] in ("hint", "error"), 30)[-1]
