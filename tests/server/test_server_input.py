"""Bad input against a live ``cardtable serve`` (DESIGN "Server and web": bad input never costs
a connection, a table or the server): each input that could drop a socket or give a 500
gets the protocol's documented error instead, the connection stays open and the table does
not change; a message too large to read is answered before the connection closes; every
HTTP error has the documented shape; the pages send security headers; and a seat left by a
socket that joins again elsewhere gets its stand-in.

Nothing is mocked: a real server process, real websockets (``websockets``), real HTTP
(``httpx``) and a real database (SQLite, and PostgreSQL where it is installed).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from cardtable.server.headers import CONTENT_SECURITY_POLICY
from cardtable.server.play import MAX_MESSAGE
from cardtable.server.transport import MAX_FRAME
from cardtable.server.wire import MAX_DEPTH
from live_pieces import (
    DATABASES,
    LiveSocket,
    describe,
    live_server,
    live_server_on,
    open_live_table,
    table_total,
    tokens,
)
from served import ServerProcess


@pytest.fixture(scope="module", params=DATABASES)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    with live_server_on(
        request.param, tmp_path_factory.mktemp(f"input-{request.param}")
    ) as running:
        yield running


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with live_server(tmp_path_factory.mktemp("input")) as running:
        yield running


@pytest.fixture
def table(sqlite_server: ServerProcess) -> dict[str, Any]:
    """A Knockout Whist table for three that nobody has joined: nothing moves on it."""
    return open_live_table(sqlite_server, "knockout-whist", [{"kind": "human"}] * 3)


def refused(socket: LiveSocket, data: str | bytes, code: str) -> dict[str, Any]:
    """The one answer to ``data``: the error ``code``; the connection still answers."""
    answer = socket.ask(data)
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert isinstance(answer["message"], str) and answer["message"]
    socket.quiet()
    return answer


def nested(depth: int) -> str:
    return '{"type": "join", "token": ' + "[" * depth + "]" * depth + "}"


# ---------------------------------------------------------------- the websocket


def test_a_token_utf8_cannot_carry_is_refused_and_the_socket_stays_open(
    sqlite_server: ServerProcess, table: dict[str, Any]
) -> None:
    """A lone surrogate (JSON's ``\\ud800``) raised UnicodeEncodeError while hashing the
    token and dropped the socket."""
    before = describe(sqlite_server, table["table"])
    with LiveSocket(sqlite_server, table["table"]) as socket:
        for token in ["\ud800", "\udfff", "a\udc80b", "\x00", "x" * 4000]:
            message = json.dumps({"type": "join", "token": token, "since": None})
            refused(socket, message, "bad_token")
        seat = socket.join(tokens(table)[1])
        assert seat["seat"] == 1
    assert describe(sqlite_server, table["table"])["seq"] == before["seq"]


def test_json_nested_past_the_limit_is_malformed_and_the_socket_stays_open(
    sqlite_server: ServerProcess, table: dict[str, Any]
) -> None:
    """2,000 levels raised RecursionError in the JSON parser and dropped the socket."""
    with LiveSocket(sqlite_server, table["table"]) as socket:
        assert len(nested(2000).encode()) <= MAX_MESSAGE
        refused(socket, nested(2000), "malformed")
        refused(socket, nested(MAX_DEPTH), "malformed")  # the message object is one more
        refused(socket, "[" * 4000, "malformed")  # never closed
        # Within the limit, the token is merely of the wrong type.
        refused(socket, nested(MAX_DEPTH - 1), "malformed")
        refused(socket, '{"type": "join", "token": null, "since": 1e400}', "malformed")
        assert socket.join(None)["seat"] is None


def test_binary_messages_are_read_as_utf8_text(
    sqlite_server: ServerProcess, table: dict[str, Any]
) -> None:
    with LiveSocket(sqlite_server, table["table"]) as socket:
        refused(socket, b"\xff\xfe{}", "malformed")
        refused(socket, b'{"type": "join", "token": "\xc3("}', "malformed")
        assert socket.ask(b'{"type": "ping"}') == {"type": "pong"}


def test_a_leading_byte_order_mark_is_ignored_in_a_message_and_in_a_body(
    sqlite_server: ServerProcess, table: dict[str, Any]
) -> None:
    """A body's mark was ignored and a text frame's refused ``malformed``: one rule for both
    (RFC 8259, 8.1, lets a parser ignore it)."""
    with LiveSocket(sqlite_server, table["table"]) as socket:
        assert socket.ask('\ufeff{"type": "ping"}') == {"type": "pong"}
        assert socket.ask('\ufeff{"type": "ping"}'.encode()) == {"type": "pong"}
        refused(socket, '\ufeff\ufeff{"type": "ping"}', "malformed")  # one mark, at the start
        refused(socket, '{"type": "ping"}\ufeff', "malformed")
    body = json.dumps({"game": "neuf", "seats": [{"kind": "human"}] * 3})
    before = table_total(sqlite_server)
    answer = httpx.post(
        f"{sqlite_server.http}/api/tables",
        content="\ufeff".encode() + body.encode(),
        headers={"content-type": "application/json"},
    )
    assert answer.status_code == 201, answer.text
    assert table_total(sqlite_server) == before + 1


def test_a_message_over_the_read_limit_is_answered_before_the_connection_closes(
    sqlite_server: ServerProcess, table: dict[str, Any]
) -> None:
    """Over 4,096 bytes: refused, the connection stays. Over 65,536 the server reads no
    further: it used to close with 1009 alone; now the client is told why first."""
    socket = LiveSocket(sqlite_server, table["table"])
    refused(socket, json.dumps({"type": "ping", "pad": "x" * (MAX_FRAME - 100)}), "too_large")
    socket.send(json.dumps({"type": "ping", "pad": "x" * MAX_FRAME}))
    answer = socket.receive()
    assert answer["type"] == "error" and answer["code"] == "too_large", answer
    with pytest.raises(ConnectionClosed) as closed:
        socket.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    socket.close()
    # The server and the table carry on.
    with LiveSocket(sqlite_server, table["table"]) as again:
        again.quiet()


def test_a_text_frame_that_is_not_utf8_is_answered_before_the_connection_closes(
    sqlite_server: ServerProcess, table: dict[str, Any]
) -> None:
    """RFC 6455 (8.1) makes the server fail the connection (1007); the client is told why."""
    socket = LiveSocket(sqlite_server, table["table"])
    socket.send(b'{"type": "ping", "x": "\xff"}', text=True)
    answer = socket.receive()
    assert answer["type"] == "error" and answer["code"] == "malformed", answer
    with pytest.raises(ConnectionClosed) as closed:
        socket.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    socket.close()


def test_joining_again_as_another_seat_leaves_the_old_seat_to_its_stand_in(
    tmp_path: Path,
) -> None:
    """A socket that held the seat to move and joined again as another seat (or to watch)
    left its old seat with no grace timer: nobody played for it and the table stalled."""
    with live_server(tmp_path, grace=1.0) as server:
        for then in ("other seat", "watch"):
            opened = open_live_table(server, "knockout-whist", [{"kind": "human"}] * 2)
            table, seats = opened["table"], tokens(opened)
            with LiveSocket(server, table) as socket:
                mover = socket.join(None)["view"]["to_move"]
                socket.join(seats[mover])
                socket.join(seats[1 - mover] if then == "other seat" else None)
                deadline = time.monotonic() + 20.0
                while True:
                    frame = socket.receive(max(0.1, deadline - time.monotonic()))
                    if frame["type"] == "event" and frame["event"]["kind"] == "action":
                        break
                assert frame["event"]["seat"] == mover, frame
                assert frame["event"]["by"] == "stand-in", frame


# ---------------------------------------------------------------- HTTP

NAME_REFUSALS = [
    ("surrogate", "Ana\ud800"),
    ("lone low surrogate", "\udc00"),
    ("NUL", "Ana\x00"),
    ("control", "Ana\x1b[31m"),
    ("DEL", "Ana\x7f"),
]


@pytest.mark.parametrize(("case", "name"), NAME_REFUSALS, ids=[c for c, _ in NAME_REFUSALS])
def test_a_name_that_cannot_be_stored_is_refused(
    server: ServerProcess, case: str, name: str
) -> None:
    """A surrogate gave 500 (UTF-8 cannot encode it); a NUL was stored on SQLite and gave 500
    on PostgreSQL, which cannot store it in text."""
    before = table_total(server)
    for kind in ("human", "bot"):
        seats = [{"kind": kind, "name": name}, {"kind": "human", "name": "Bo"}]
        body = json.dumps({"game": "knockout-whist", "seats": seats})  # \ud800 escapes
        answer = httpx.post(
            f"{server.http}/api/tables",
            content=body.encode(),
            headers={"content-type": "application/json"},
        )
        assert answer.status_code == 400, answer.text
        assert answer.json() == {"error": "bad_seats", "message": answer.json()["message"]}
    assert table_total(server) == before


def test_names_in_any_script_are_stored_and_shown_as_given(server: ServerProcess) -> None:
    names = ["زه\u200cرا", "Zoë 🂡", "Влад"]  # a Persian name needs its zero-width non-joiner
    seats = [{"kind": "human", "name": name} for name in names]
    opened = httpx.post(f"{server.http}/api/tables", json={"game": "neuf", "seats": seats})
    assert opened.status_code == 201, opened.text
    shown = describe(server, opened.json()["table"])
    assert [seat["name"] for seat in shown["seats"]] == names


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 3000 + b"]" * 3000,
        b'{"game": "neuf", "seats": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        b'{"game": "neuf", "options": {"x": ' + b"[" * 18 + b"1" + b"]" * 18 + b"}}",
        b'{"game": "neuf", "seats": [], "n": ' + b"9" * 5000 + b"}",
        b'{"game": NaN}',
        b'{"game": "neuf\xff"}',
        '{"game": "neuf"}'.encode("utf-16"),
    ],
    ids=["deep array", "deep seats", "deep options", "huge number", "NaN", "not UTF-8", "UTF-16"],
)
def test_a_body_that_is_not_plain_json_is_malformed(server: ServerProcess, body: bytes) -> None:
    """Deep nesting gave 500 (RecursionError)."""
    before = table_total(server)
    answer = httpx.post(
        f"{server.http}/api/tables", content=body, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400, answer.text
    assert answer.json() == {"error": "malformed", "message": answer.json()["message"]}
    assert table_total(server) == before


def test_a_refusal_that_quotes_a_surrogate_is_still_sent(server: ServerProcess) -> None:
    for body in [
        {"game": "\ud800", "seats": [{"kind": "human"}] * 3},
        {"game": "neuf", "options": {"\ud800": 1}, "seats": [{"kind": "human"}] * 3},
        {"game": "neuf", "options": {"trump_sequence": "\ud800"}, "seats": [{"kind": "human"}] * 3},
        {"game": "neuf", "seats": [{"kind": "\ud800"}] * 3},
        {"game": "neuf", "seats": [{"kind": "bot", "level": "\ud800"}, {"kind": "human"}] * 2},
    ]:
        answer = httpx.post(
            f"{server.http}/api/tables",
            content=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        assert answer.status_code == 400, answer.text
        assert set(answer.json()) == {"error", "message"}


def test_every_http_error_has_the_documented_shape(
    sqlite_server: ServerProcess, table: dict[str, Any]
) -> None:
    """``/replay/abc`` answered FastAPI's ``{"detail": [...]}`` with 422."""
    base, tid = sqlite_server.http, table["table"]
    for method, path, status, code in [
        ("GET", f"/api/tables/{tid}/replay/abc", 404, "no_game"),
        ("GET", f"/api/tables/{tid}/replay/1.5", 404, "no_game"),
        ("GET", f"/api/tables/{tid}/replay/-1", 404, "no_game"),
        ("GET", f"/api/tables/{tid}/replay/{'9' * 30}", 404, "no_game"),
        ("GET", f"/api/tables/{tid}/replay/1", 409, "not_over"),
        ("GET", "/api/tables/nosuch/replay/abc", 404, "no_table"),
        ("GET", "/nosuch", 404, "not_found"),
        ("GET", "/static/nosuch.js", 404, "not_found"),
        ("GET", "/api/tables", 405, "method_not_allowed"),
        ("POST", "/health", 405, "method_not_allowed"),
        ("DELETE", f"/api/tables/{tid}", 405, "method_not_allowed"),
    ]:
        answer = httpx.request(method, f"{base}{path}")
        assert answer.status_code == status, (path, answer.text)
        assert answer.headers["content-type"] == "application/json", path
        assert answer.json() == {"error": code, "message": answer.json()["message"]}, path
        assert answer.json()["message"], path


def test_every_response_sends_the_security_headers(
    sqlite_server: ServerProcess, table: dict[str, Any]
) -> None:
    base, tid = sqlite_server.http, table["table"]
    for path in [
        "/",
        f"/t/{tid}",
        "/rules/neuf",
        "/static/table.js",
        "/static/style.css",
        "/api/games",
        f"/api/tables/{tid}",
        "/health",
        "/nosuch",
    ]:
        headers = httpx.get(f"{base}{path}").headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        assert headers["x-frame-options"] == "DENY", path
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["referrer-policy"] == "no-referrer", path
    policy = dict(part.split(" ", 1) for part in CONTENT_SECURITY_POLICY.split("; "))
    assert policy["frame-ancestors"] == "'none'" and "unsafe" not in CONTENT_SECURITY_POLICY
    # FastAPI's API explorer runs inline scripts from a CDN: no policy, the other headers.
    docs = httpx.get(f"{base}/api/docs").headers
    assert "content-security-policy" not in docs and docs["x-frame-options"] == "DENY"


# ---------------------------------------------------------------- pages: HEAD, and nowhere

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_every_page_and_every_get_answers_head(
    sqlite_server: ServerProcess, table: dict[str, Any]
) -> None:
    """``HEAD /`` answered 405. Each page, each GET of the API and each
    file answers HEAD with the status and headers of its GET, and no body."""
    base, tid = sqlite_server.http, table["table"]
    for path, status in [
        ("/", 200),
        (f"/t/{tid}", 200),
        ("/rules/neuf", 200),
        ("/health", 200),
        ("/api/games", 200),
        (f"/api/tables/{tid}", 200),
        ("/static/table.js", 200),
        ("/t/nosuchtable", 404),
        ("/rules/bridge", 404),
        ("/api/tables/nosuch", 404),
    ]:
        got = httpx.get(f"{base}{path}")
        head = httpx.head(f"{base}{path}")
        assert (got.status_code, head.status_code) == (status, status), path
        assert head.content == b"", path
        for header in ("content-type", "content-length", "content-security-policy"):
            assert head.headers.get(header) == got.headers.get(header), (path, header)


def test_an_address_that_leads_nowhere_is_answered_with_a_page(
    sqlite_server: ServerProcess,
) -> None:
    """A mistyped table link showed the API's raw JSON. A page's address
    that leads nowhere answers 404 with the page that says so (web/notfound.html: in the
    reader's language, with the way back to the lobby): a table or a game's rules that do not
    exist, whoever asks; any other address a browser opens as a page. The API, the files and
    a script's requests keep the documented JSON errors."""
    base = sqlite_server.http
    for path, accept in [
        ("/t/nosuchtable", BROWSER_ACCEPT),
        ("/t/nosuchtable", "*/*"),
        ("/rules/bridge", "*/*"),
        ("/t/nosuchtable/more", BROWSER_ACCEPT),
        ("/tables/x", BROWSER_ACCEPT),
    ]:
        answer = httpx.get(f"{base}{path}", headers={"accept": accept})
        assert answer.status_code == 404, path
        assert answer.headers["content-type"].startswith("text/html"), path
        assert '<script type="module" src="/static/notfound.js">' in answer.text, path
        assert 'href="/"' in answer.text, path
        assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
    for path in ["/api/tables/nosuch", "/api/nosuch", "/static/nosuch.js", "/nosuch"]:
        accept = "*/*" if path == "/nosuch" else BROWSER_ACCEPT
        answer = httpx.get(f"{base}{path}", headers={"accept": accept})
        assert answer.status_code == 404, path
        assert answer.headers["content-type"] == "application/json", path
        assert set(answer.json()) == {"error", "message"}, path
