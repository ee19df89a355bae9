"""A server stopped with SIGTERM (a supervisor's or a container's stop) stops gracefully
(docs/hosting.md, "Graceful shutdown"): it takes no new table, answers ``/ready`` 503,
commits the action under way and announces it, tells its sockets to connect again (close
code 1012), and exits with status 0.

The action is kept under way by another connection holding SQLite's write lock, as a
backup or a script would: the server's commit waits for it while the stop begins.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed

from live_pieces import LiveSocket, describe, live_server, open_live_table, tokens
from served import ServerProcess

STOP_SECONDS = 30.0  # far more than the server's bound (its writer's patience, and 5 s)


def _frames_until_closed(socket: LiveSocket) -> tuple[list[dict[str, Any]], int | None]:
    """Every frame the server sends before it closes the socket, and its close code."""
    frames = []
    try:
        while True:
            frames.append(socket.receive(STOP_SECONDS))
    except ConnectionClosed as closed:
        return frames, None if closed.rcvd is None else closed.rcvd.code


def test_sigterm_during_play_commits_the_pending_action_and_exits_0(tmp_path: Path) -> None:
    database = tmp_path / "tables.db"
    with live_server(tmp_path) as server:
        opened = open_live_table(
            server,
            "kryt-navalivat",
            [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Boris"}],
        )
        table = opened["table"]
        seats = tokens(opened)
        sockets = [LiveSocket(server, table) for _ in seats]
        snapshots = [socket.join(seats[n]) for n, socket in enumerate(sockets)]
        mover, seq = snapshots[0]["view"]["to_move"], snapshots[0]["seq"]
        action = snapshots[mover]["view"]["legal_actions"][0]
        # A connection kept open across the stop, as a load balancer's checks are.
        http = httpx.Client(base_url=server.http, timeout=10.0)
        assert http.get("/ready").status_code == 200

        holder = sqlite3.connect(database, isolation_level=None, timeout=30)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            sockets[mover].send(json.dumps({"type": "action", "action": action, "seq": seq}))
            time.sleep(0.5)  # the commit now waits for the lock, in the server's writer
            process = server.process
            assert process is not None
            os.kill(process.pid, signal.SIGTERM)  # the server alone, as a container's stop
            time.sleep(0.5)
            # Stopping: not ready, no new table; the action is still under way.
            ready = http.get("/ready")
            assert ready.status_code == 503
            assert ready.json()["reason"] == "stopping"
            refused = http.post(
                "/api/tables",
                json={"game": "kryt-navalivat", "seats": [{"kind": "human", "name": "C"}] * 2},
            )
            assert refused.status_code == 503
            assert refused.json()["error"] == "unavailable"
            tutorial = http.post("/api/tutorials/kryt-navalivat", json={})
            assert tutorial.status_code == 503
            assert tutorial.json()["error"] == "unavailable"
            assert process.poll() is None
        finally:
            holder.execute("COMMIT")
            holder.close()
        # The action is committed and announced to both seats, then each socket is told to
        # connect again.
        for socket in sockets:
            frames, code = _frames_until_closed(socket)
            events = [f for f in frames if f["type"] == "event"]
            assert [e["event"]["action"] for e in events] == [action], frames
            assert events[0]["seq"] == seq + 1
            assert code == 1012
        assert process.wait(STOP_SECONDS) == 0
        server.process = None
        http.close()
    # Durable: the database holds the action, and a new server serves the table from it.
    with sqlite3.connect(database) as reading:
        stored = reading.execute(
            "SELECT seq, data FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT 1", (table,)
        ).fetchone()
    assert stored[0] == seq + 1 and json.loads(stored[1])["action"] == action
    log = (tmp_path / "server.log").read_text()
    assert '"message": "server stopping"' in log
    assert "changes left unfinished" not in log
    again = ServerProcess(database, tmp_path / "again.log")
    again.start()
    try:
        assert describe(again, table)["seq"] == seq + 1
    finally:
        again.stop()


def test_sigterm_of_an_idle_server_exits_0_at_once(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        with LiveSocket(server, "none") as socket:
            assert socket.receive()["code"] == "no_table"
        process = server.process
        assert process is not None
        os.kill(process.pid, signal.SIGTERM)
        assert process.wait(STOP_SECONDS) == 0
        server.process = None
    assert '"message": "server stopped taking changes"' in (tmp_path / "server.log").read_text()
