"""A locked database holds up no table for good and never the event loop.

Another connection holds SQLite's write lock (``BEGIN EXCLUSIVE``) for longer than the
server retries a commit (docs/server.md, "Storage"): meanwhile ``/health`` and pings are
answered at once and no socket closes; a seat's action is refused with ``unavailable`` and
changes nothing; a table is not opened; and once the lock is gone every bot table plays on
to the end of its game (the refused bot moves are tried again).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from cardtable.server.app import create_app
from live_pieces import LiveSocket, describe, open_live_table, tokens
from served import ServerProcess
from server_pieces import Socket, humans, locked, open_table, table_count, tokens_of

TABLES = 8
LOCK_SECONDS = 8.0  # longer than the server's patience with a commit (5 s)
FAST = 0.5  # seconds: an answer that did not wait on the database
FINISH_SECONDS = 120.0


class _HealthPoller(threading.Thread):
    """Asks for ``/health`` over and over while ``holder`` holds the lock; ``times``: the
    seconds each answer took, ``failures``: any answer that was not 200, or no answer."""

    def __init__(self, server: ServerProcess, holder: threading.Thread) -> None:
        super().__init__(name="health-poller")
        self.server = server
        self.holder = holder
        self.times: list[float] = []
        self.failures: list[str] = []

    def run(self) -> None:
        with httpx.Client(base_url=self.server.http, timeout=10.0) as client:
            while self.holder.is_alive():
                began = time.monotonic()
                try:
                    answer = client.get("/health")
                except httpx.HTTPError as exc:
                    self.failures.append(repr(exc))
                else:
                    if answer.status_code != 200:
                        self.failures.append(answer.text)
                self.times.append(time.monotonic() - began)
                time.sleep(0.05)


def _poll_health(server: ServerProcess, holder: threading.Thread) -> _HealthPoller:
    poller = _HealthPoller(server, holder)
    poller.start()
    return poller


def _ping(socket: LiveSocket) -> float:
    """Seconds a ping took to be answered (events that arrive first are read past)."""
    began = time.monotonic()
    socket.send(json.dumps({"type": "ping"}))
    socket.until("pong")
    return time.monotonic() - began


def test_bot_tables_play_on_after_a_long_lock_and_the_server_answers_meanwhile(
    tmp_path: Path,
) -> None:
    database = tmp_path / "tables.db"
    # grace 0: a human seat whose player has come and gone is played by its stand-in at once.
    server = ServerProcess(database, tmp_path / "server.log", grace=0)
    server.start()
    try:
        seats = [{"kind": "human", "name": "Ana"}] + [{"kind": "bot", "level": "medium"}] * 3
        opened = [open_live_table(server, "knockout-whist", seats) for _ in range(TABLES)]
        watchers = [LiveSocket(server, table["table"]) for table in opened]
        for watcher in watchers:
            watcher.join(None)
        with locked(database, LOCK_SECONDS) as holder:
            polling = _poll_health(server, holder)
            # Each table's human comes and goes: from now on only bots play, and every move
            # of theirs needs a commit the lock refuses.
            for table in opened:
                with LiveSocket(server, table["table"]) as ana:
                    ana.join(tokens(table)[0])
            slowest = 0.0
            while holder.is_alive():
                slowest = max(slowest, _ping(watchers[0]))
                time.sleep(0.1)
            polling.join()
        assert not polling.failures and polling.times, polling.failures
        slowest = max(slowest, *polling.times)
        assert slowest < FAST, f"the server took {slowest:.2f} s to answer while locked"
        log = (tmp_path / "server.log").read_text()
        assert "bot move not stored; trying again" in log, log[-3000:]
        deadline = time.monotonic() + FINISH_SECONDS
        for table, watcher in zip(opened, watchers, strict=True):
            while not describe(server, table["table"])["results"]:
                assert time.monotonic() < deadline, f"table {table['table']} stopped"
                time.sleep(0.2)
            # The watcher's socket lived through it all, and heard the game end.
            while (frame := watcher.until("event"))["event"]["kind"] != "over":
                pass
            assert frame["type"] == "event"
            assert watcher.is_open
            watcher.quiet()
            watcher.close()
    finally:
        server.stop()


def test_a_refused_commit_changes_nothing_and_the_seat_hears_why(tmp_path: Path) -> None:
    database = tmp_path / "t.db"
    app = create_app(f"sqlite:///{database}", bot_delay=0, workers=1, commit_patience=0.5)
    with TestClient(app) as client:
        opened = open_table(client, "knockout-whist", humans(2))
        table = opened["table"]
        with (
            client.websocket_connect(f"/ws/{table}") as first,
            client.websocket_connect(f"/ws/{table}") as second,
        ):
            sockets = {0: Socket(first, "P0"), 1: Socket(second, "P1")}
            for seat, socket in sockets.items():
                socket.join(tokens_of(opened)[seat])
            for socket in sockets.values():
                socket.barrier()
            mover = sockets[sockets[0].view["to_move"]]
            action = mover.view["legal_actions"][0]
            before = client.get(f"/api/tables/{table}").json()
            with locked(database, 2.0):
                refused = mover.act(action)[-1]
                assert refused["type"] == "error" and refused["code"] == "unavailable", refused
                # The table did not move: not in memory, not in the database.
                assert client.get(f"/api/tables/{table}").json() == before
                answer = client.post(
                    "/api/tables", json={"game": "knockout-whist", "seats": humans(2)}
                )
                assert answer.status_code == 503, answer.text
                assert answer.json()["error"] == "unavailable"
            assert table_count(database) == 1
            with sqlite3.connect(database) as connection:
                (stored,) = connection.execute("SELECT count(*) FROM events").fetchone()
            assert stored == before["seq"]
            # Once the lock is gone the same action, at the same event number, is taken.
            accepted = mover.act(action)[-1]
            assert accepted["type"] == "event" and accepted["event"]["action"] == action
            assert accepted["seq"] == before["seq"] + 1


def test_a_join_whose_seed_cannot_be_stored_joins_nothing_and_may_be_sent_again(
    tmp_path: Path,
) -> None:
    """A page's new seed is a stored event (docs/fairness.md): while the database refuses
    it, the join is answered ``unavailable`` and the seat is not taken (no deal could be
    derived from a seed the record lacks); the same join afterwards stores it once."""
    database = tmp_path / "t.db"
    app = create_app(f"sqlite:///{database}", bot_delay=0, workers=1, commit_patience=0.5)
    with TestClient(app) as client:
        opened = open_table(client, "neuf", humans(3))
        table, token = opened["table"], tokens_of(opened)[1]
        before = client.get(f"/api/tables/{table}").json()
        join = {"type": "join", "token": token, "since": None, "seed": "page-seed"}
        with client.websocket_connect(f"/ws/{table}") as session:
            socket = Socket(session, "P1")
            with locked(database, 2.0):
                socket.send(join)
                refused = socket.until(lambda f: f["type"] in ("error", "snapshot"))[-1]
                assert refused["type"] == "error" and refused["code"] == "unavailable", refused
                assert client.get(f"/api/tables/{table}").json() == before
                socket.send({"type": "action", "action": "pass", "seq": before["seq"]})
                assert socket.until(lambda f: f["type"] == "error")[-1]["code"] == "not_joined"
            socket.send(join)
            snapshot = socket.until(lambda f: f["type"] == "snapshot")[-1]
            assert snapshot["seq"] == before["seq"] + 1
            socket.send(join)  # the same seed again: nothing to store
            assert socket.until(lambda f: f["type"] == "snapshot")[-1]["seq"] == snapshot["seq"]
        with sqlite3.connect(database) as connection:
            seeds = connection.execute(
                "SELECT data FROM events WHERE kind = 'seed' AND table_id = ?", (table,)
            ).fetchall()
        assert [json.loads(data) for (data,) in seeds] == [
            {"seq": before["seq"] + 1, "kind": "seed", "seat": 1, "seed": "page-seed"}
        ]
