"""Every websocket a live ``cardtable serve`` ends, it ends with a close frame the client
receives: a code and a reason, never a connection that only broke (1006).

A client that goes on sending after a message the server will not read (one too large to
read, a text frame that is not UTF-8) used to see 1006: the server closed its socket with
those bytes unread, the kernel answered them with a reset, and the reset threw away the
error and the close frame the client had not read yet. The server now ends its half of the
connection and drops what the client still sends until the client closes too
(``server/transport.py``; docs/server.md, "Messages that end the connection").
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from live_pieces import live_server, open_live_table, tokens
from served import ServerProcess
from server_pieces import humans

SOCKETS = 12  # of each kind; before the fix, most of them saw 1006
READ_SECONDS = 10.0


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, str]]:
    with live_server(tmp_path_factory.mktemp("closes")) as server:
        seats = [*humans(1), {"kind": "bot", "level": "easy"}]
        opened = open_live_table(server, "knockout-whist", seats)
        yield server, opened["table"]


def ended(socket: ClientConnection) -> tuple[list[dict[str, Any]], int | None, str | None]:
    """What the server sent before the connection ended, and the close the client received
    (None, None: the connection broke without one)."""
    frames = []
    try:
        while True:
            frames.append(json.loads(socket.recv(timeout=READ_SECONDS)))
    except ConnectionClosed as closed:
        if closed.rcvd is None:
            return frames, None, None
        return frames, closed.rcvd.code, closed.rcvd.reason


def keep_sending(socket: ClientConnection, first: str | bytes, *, text: bool) -> None:
    """``first``, then message after message without reading, as a client that does not
    wait for answers does, until the server's close stops it."""
    try:
        socket.send(first, text=text)
        for _ in range(200):
            socket.send(json.dumps({"type": "ping", "pad": "x" * 3000}))
    except ConnectionClosed:
        pass


@pytest.mark.parametrize(
    ("message", "code", "error"),
    [
        pytest.param(b"\xff\xfe" * 1500, 1007, "malformed", id="not UTF-8"),
        pytest.param(b"x" * 70000, 1009, "too_large", id="over 65,536 bytes"),
    ],
)
def test_a_client_sending_on_after_an_unreadable_message_hears_why_and_the_close(
    served: tuple[ServerProcess, str], message: bytes, code: int, error: str
) -> None:
    server, table = served
    seen = []
    for _ in range(SOCKETS):
        with connect(server.ws(table), max_size=None, open_timeout=READ_SECONDS) as socket:
            keep_sending(socket, message, text=True)
            frames, close, _reason = ended(socket)
        errors = [frame["code"] for frame in frames if frame.get("type") == "error"]
        seen.append((close, errors[-1:]))
    assert seen == [(code, [error])] * SOCKETS, seen
    log = server.log.read_text()
    assert '"level": "error"' not in log, log[-2000:]


def test_each_close_the_server_chooses_has_a_code_and_a_reason(
    served: tuple[ServerProcess, str], tmp_path: Path
) -> None:
    server, _ = served
    with connect(server.ws("no-such-table"), open_timeout=READ_SECONDS) as socket:
        frames, close, reason = ended(socket)
    assert [frame["code"] for frame in frames] == ["no_table"]
    assert (close, reason) == (4404, "no_table")

    opened = open_live_table(server, "knockout-whist", humans(2))
    token = tokens(opened)[0]
    join = json.dumps({"type": "join", "token": token, "since": None})
    with connect(server.ws(opened["table"]), open_timeout=READ_SECONDS) as first:
        first.send(join)
        assert json.loads(first.recv(timeout=READ_SECONDS))["type"] == "snapshot"
        with connect(server.ws(opened["table"]), open_timeout=READ_SECONDS) as second:
            second.send(join)  # the same seat, in another window: it takes the seat over
            frames, close, reason = ended(first)
            assert [f["code"] for f in frames if f["type"] == "error"] == ["replaced"]
            assert (close, reason) == (1000, "replaced")
            assert json.loads(second.recv(timeout=READ_SECONDS))["type"] == "snapshot"

    # A server that stops tells every socket to connect again, and why.
    stopping = ServerProcess(tmp_path / "stopping.db", tmp_path / "stopping.log")
    stopping.start()
    try:
        watched = open_live_table(stopping, "knockout-whist", humans(2))["table"]
        with connect(stopping.ws(watched), open_timeout=READ_SECONDS) as watcher:
            watcher.send(json.dumps({"type": "join", "token": None, "since": None}))
            assert json.loads(watcher.recv(timeout=READ_SECONDS))["type"] == "snapshot"
            stopping.stop()
            _frames, close, reason = ended(watcher)
    finally:
        stopping.stop()
    assert (close, reason) == (1012, "the server is restarting; connect again")


def test_a_close_that_is_not_clean_is_logged_with_its_code(
    served: tuple[ServerProcess, str],
) -> None:
    """A socket that ends otherwise than cleanly (1000, 1001, or no code) is in the log with
    its code and reason, whoever chose it: here the client, with 1011; the protocol's own
    (a ping the client never answered) is logged the same way. A clean close is not."""
    server, table = served
    before = len(server.log.read_text().splitlines())  # the module's other tests' lines
    for code, reason in ((1000, ""), (1011, "client trouble")):  # the clean one first
        with connect(server.ws(table), open_timeout=READ_SECONDS) as socket:
            socket.send(json.dumps({"type": "join", "token": None, "since": None}))
            assert json.loads(socket.recv(timeout=READ_SECONDS))["type"] == "snapshot"
            socket.close(code=code, reason=reason)
    deadline = time.monotonic() + READ_SECONDS
    while time.monotonic() < deadline:
        closed = [
            json.loads(line)
            for line in server.log.read_text().splitlines()[before:]
            if '"socket closed"' in line
        ]
        if closed:
            break
        time.sleep(0.1)
    assert [(c["close_code"], c["reason"], c["table"]) for c in closed] == [
        (1011, "client trouble", table)
    ]
