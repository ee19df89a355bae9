"""Backups as docs/hosting.md describes them, taken while the server serves and a table is
being played: SQLite's online backup (Python's ``sqlite3`` backup API) and PostgreSQL's
``pg_dump``/``pg_restore``. A new server on the restored database replays every table: each
one loads, none is quarantined, each holds what it held when the backup was taken, and
play goes on at them."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import threading
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from live_pieces import DATABASES, LiveSocket, describe, open_live_table, tokens
from served import ServerProcess

TABLES = 4
MOVES = 6


class Players:
    """Both seats of a two-player table, playing random legal moves."""

    def __init__(self, server: ServerProcess, table: str, seats: dict[int, str]) -> None:
        self.table = table
        self.seats = seats
        self.sockets = [LiveSocket(server, table) for _ in seats]
        snapshots = [socket.join(seats[n]) for n, socket in enumerate(self.sockets)]
        self.views = [s["view"] for s in snapshots]
        self.seq = snapshots[0]["seq"]
        self.rng = random.Random(table)

    def move(self) -> bool:
        """One move by the seat to move; False once the game is over."""
        mover = self.views[0].get("to_move")
        if mover is None:
            return False
        action = self.rng.choice(self.views[mover]["legal_actions"])
        self.sockets[mover].send(json.dumps({"type": "action", "action": action, "seq": self.seq}))
        for seat, socket in enumerate(self.sockets):
            while True:
                frame = socket.until("event")
                self.views[seat], self.seq = frame["view"], frame["seq"]
                if frame["event"]["kind"] == "action":
                    break
        return True

    def close(self) -> None:
        for socket in self.sockets:
            socket.close()


def backup_sqlite(database: Path, copy: Path) -> str:
    """SQLite's online backup, as docs/hosting.md gives it; the copy's URL."""
    source = sqlite3.connect(database)
    target = sqlite3.connect(copy)
    with target:
        source.backup(target)
    source.close()
    target.close()
    return f"sqlite:///{copy}"


def backup_postgresql(url: str, dump: Path) -> str:
    """``pg_dump`` of the served database, ``pg_restore`` into a new one; its URL."""
    from postgres_server import postgres_programs

    programs = postgres_programs()
    query = parse_qs(urlsplit(url).query)
    where = ["-h", query["host"][0], "-p", query["port"][0], "-U", "cardtable"]

    def run(*command: str) -> None:
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    run(str(programs / "pg_dump"), *where, "--format=custom", "--file", str(dump), "cardtable")
    run(str(programs / "createdb"), *where, "restored")
    run(str(programs / "pg_restore"), *where, "--no-owner", "--dbname", "restored", str(dump))
    return url.replace("/cardtable?", "/restored?")


@pytest.mark.parametrize("kind", DATABASES)
def test_a_backup_taken_while_serving_restores_every_table(kind: str, tmp_path: Path) -> None:
    with ExitStack() as stack:
        if kind == "sqlite":
            database: Path | str = tmp_path / "tables.db"
        else:
            from postgres_server import postgres_url

            database = stack.enter_context(postgres_url())
        server = ServerProcess(database, tmp_path / "server.log")
        server.start()
        stack.callback(server.stop)
        seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Boris"}]
        tables = [open_live_table(server, "kryt-navalivat", seats) for _ in range(TABLES)]
        players = [Players(server, t["table"], tokens(t)) for t in tables]
        for table in players:
            stack.callback(table.close)
            for _ in range(MOVES):
                table.move()
        # One table goes on being played while the backup is taken.
        busy, others = players[0], players[1:]
        before = busy.seq
        stop = threading.Event()

        def keep_playing() -> None:
            while not stop.is_set() and busy.move():
                pass

        playing = threading.Thread(target=keep_playing)
        playing.start()
        try:
            if isinstance(database, Path):
                restored = backup_sqlite(database, tmp_path / "backup.db")
            else:
                restored = backup_postgresql(database, tmp_path / "tables.dump")
        finally:
            stop.set()
            playing.join(60)
        after = busy.seq
        server.stop()

        again = ServerProcess(restored, tmp_path / "restored.log")
        again.start()
        stack.callback(again.stop)
        for table in others:
            assert describe(again, table.table)["seq"] == table.seq
        assert before <= describe(again, busy.table)["seq"] <= after
        assert httpx.get(f"{again.http}/health", timeout=10).json()["quarantined"] == 0
        # Play goes on at a restored table, its seats' tokens as before.
        table = others[0]
        table.close()
        goes_on = Players(again, table.table, table.seats)
        stack.callback(goes_on.close)
        assert goes_on.seq == table.seq
        assert goes_on.move()
        log = (tmp_path / "restored.log").read_text()
        assert "table quarantined" not in log
