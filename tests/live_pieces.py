"""What the tests of a live ``cardtable serve`` share: a server on SQLite or PostgreSQL,
tables opened over HTTP, and a websocket client that keeps under the flood limit and reads
every answer with a timeout (a silent server fails the test instead of hanging it)."""

from __future__ import annotations

import glob
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from websockets.protocol import State
from websockets.sync.client import ClientConnection, connect

from served import ServerProcess

__all__ = [
    "DATABASES",
    "DOCUMENTED_CODES",
    "LiveSocket",
    "describe",
    "live_server",
    "live_server_on",
    "open_live_table",
    "table_total",
    "tokens",
]

READ_SECONDS = 10.0

# The databases a live server runs on: PostgreSQL wherever its server programs are
# installed (scripts/install-test-deps installs them for CI).
DATABASES = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=pytest.mark.skipif(
            not glob.glob("/usr/lib/postgresql/*/bin/initdb"),
            reason="no PostgreSQL server programs",
        ),
    ),
]

# The error codes docs/server.md lists for the websocket.
DOCUMENTED_CODES = frozenset(
    {
        "malformed",
        "too_large",
        "flood",
        "not_joined",
        "bad_token",
        "spectator",
        "not_your_turn",
        "stale",
        "illegal",
        "invalid_action",
        "game_over",
        "not_over",
        "replaced",
        "not_absent",
        "hint_busy",
        "hint_limit",
        "no_game",
        "review_busy",
        "unavailable",
        "quarantined",
        "server_error",
    }
)


@contextmanager
def live_server(
    folder: Path, database: str | None = None, *, grace: float = 60.0
) -> Iterator[ServerProcess]:
    """``cardtable serve`` on ``database`` (a URL; a SQLite file in ``folder`` if None)."""
    server = ServerProcess(database or folder / "tables.db", folder / "server.log", grace=grace)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def live_server_on(kind: str, folder: Path) -> Iterator[ServerProcess]:
    """:func:`live_server` on one of :data:`DATABASES`: ``sqlite`` (a file in ``folder``) or
    ``postgresql`` (a fresh cluster of its own)."""
    if kind == "sqlite":
        with live_server(folder) as running:
            yield running
    else:
        from postgres_server import postgres_url

        with postgres_url() as url, live_server(folder, url) as running:
            yield running


def open_live_table(
    server: ServerProcess, game: str, seats: list[dict[str, Any]]
) -> dict[str, Any]:
    answer = httpx.post(
        f"{server.http}/api/tables", json={"game": game, "seats": seats}, timeout=10.0
    )
    assert answer.status_code == 201, answer.text
    opened: dict[str, Any] = answer.json()
    return opened


def tokens(opened: dict[str, Any]) -> dict[int, str]:
    """Each human seat's token, from its invitation's fragment."""
    found = {}
    for seat in opened["seats"]:
        if "invite" in seat:
            found[seat["seat"]] = parse_qs(urlsplit(seat["invite"]).fragment)["token"][0]
    return found


def describe(server: ServerProcess, table: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.http}/api/tables/{table}", timeout=10.0)
    assert answer.status_code == 200, answer.text
    described: dict[str, Any] = answer.json()
    return described


def table_total(server: ServerProcess) -> int:
    """The tables the server holds, by its ``/health``."""
    return int(httpx.get(f"{server.http}/health", timeout=10.0).json()["tables"])


class LiveSocket:
    """A websocket to a live server's table, paced a little inside the flood limit (a
    burst of 40, then 20 a second: docs/server.md)."""

    BURST = 30.0
    RATE = 16.0

    def __init__(self, server: ServerProcess, table: str) -> None:
        self.socket: ClientConnection = connect(
            server.ws(table), open_timeout=READ_SECONDS, max_size=None
        ).__enter__()
        self.allowance = self.BURST
        self.checked = time.monotonic()

    def __enter__(self) -> LiveSocket:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.socket.__exit__(None, None, None)

    @property
    def is_open(self) -> bool:
        return self.socket.protocol.state is State.OPEN

    def send(self, data: str | bytes, *, text: bool | None = None) -> None:
        now = time.monotonic()
        self.allowance = min(self.BURST, self.allowance + (now - self.checked) * self.RATE)
        self.checked = now
        if self.allowance < 1.0:
            time.sleep((1.0 - self.allowance) / self.RATE)
            self.allowance, self.checked = 1.0, time.monotonic()
        self.allowance -= 1.0
        self.socket.send(data, text=text)

    def receive(self, seconds: float = READ_SECONDS) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.socket.recv(timeout=seconds))
        return frame

    def ask(self, data: str | bytes, *, text: bool | None = None) -> dict[str, Any]:
        """Send one message and read its one answer."""
        self.send(data, text=text)
        return self.receive()

    def until(self, kind: str, seconds: float = READ_SECONDS) -> dict[str, Any]:
        """The next frame of ``kind``, each frame read within ``seconds``."""
        while True:
            frame = self.receive(seconds)
            if frame["type"] == kind:
                return frame

    def quiet(self) -> None:
        """Check that the connection is open and nothing else is pending: the next frame is
        the answer to a ping."""
        answer = self.ask(json.dumps({"type": "ping"}))
        assert answer == {"type": "pong"}, answer

    def join(self, token: str | None) -> dict[str, Any]:
        """Join (a seat, or watch); the snapshot, and a seat's own presence notice read."""
        snapshot = self.ask(json.dumps({"type": "join", "token": token, "since": None}))
        assert snapshot["type"] == "snapshot", snapshot
        if token is not None:
            self.until("presence")
        return snapshot
