"""What another web site's page can make a visitor's browser do to the server: nothing that
changes it (docs/server.md, "Origins").

A page of any site may send a POST with a ``text/plain`` body (no CORS preflight) and open
a websocket to any server. So a body is read only when labelled ``application/json``
(which a page of another site cannot send without the server's leave), and a POST or a
websocket handshake whose ``Origin`` is another site's than the server's own, or the ones
its operator allows, is refused ``403 cross_origin``. The application on a real SQLite
database, through Starlette's test client (whose server is ``http://testserver``);
``test_web_origins.py`` does the same from a real browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from cardtable.server.app import create_app
from cardtable.server.limits import Limits
from server_pieces import humans, table_count

BODY = b'{"game": "neuf", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}'
OWN = "http://testserver"  # the test client's server, as a page of its own would name it


@contextmanager
def serving(database: Path, **settings: Any) -> Iterator[TestClient]:
    # The test client's server is "testserver": a name of the server's, as an operator
    # names a domain with --server-name (unless a test says otherwise).
    settings.setdefault("server_names", ["testserver"])
    app = create_app(f"sqlite:///{database}", bot_delay=0, workers=1, **settings)
    with TestClient(app) as client:
        yield client


def post(client: TestClient, headers: dict[str, str], body: bytes = BODY) -> Any:
    return client.post("/api/tables", content=body, headers=headers)


def refused(answer: Any, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert set(answer.json()) == {"error", "message"}
    assert answer.json()["error"] == code and answer.json()["message"]


# ---------------------------------------------------------------- the body's type


@pytest.mark.parametrize(
    "kind",
    [None, "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded"],
)
def test_a_body_not_labelled_json_is_refused_and_opens_nothing(
    tmp_path: Path, kind: str | None
) -> None:
    database = tmp_path / "tables.db"
    with serving(database, limits=Limits(tables_per_minute=1)) as client:
        headers = {} if kind is None else {"content-type": kind}
        for _ in range(3):
            answer = post(client, headers)
            refused(answer, 415, "unsupported_media_type")
            assert "application/json" in answer.json()["message"]
        assert table_count(database) == 0
        # Refused for its type, it did not count: the client's one table a minute is there.
        assert post(client, {"content-type": "application/json"}).status_code == 201


@pytest.mark.parametrize(
    "kind",
    ["application/json", "application/json; charset=utf-8", "Application/JSON ;charset=UTF-8"],
)
def test_a_body_labelled_json_is_read(tmp_path: Path, kind: str) -> None:
    with serving(tmp_path / "tables.db") as client:
        assert post(client, {"content-type": kind}).status_code == 201


def test_a_tutorial_is_opened_with_json_or_no_body(tmp_path: Path) -> None:
    with serving(tmp_path / "tables.db") as client:
        path = "/api/tutorials/neuf"
        refused(
            client.post(path, content=b'{"step": 1}', headers={"content-type": "text/plain"}),
            415,
            "unsupported_media_type",
        )
        assert client.post(path).status_code == 201  # no body: step 0
        assert client.post(path, json={"step": 1}).json()["step"] == 1


# ---------------------------------------------------------------- the page's origin


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "null",  # a sandboxed frame, a file, a redirect across sites
        "https://testserver",  # the server's name, another scheme
        "http://testserver:8080",  # another port
        "http://testserver.evil.example",
        "http://testserver@evil.example",
        "http://evil.example/testserver",
    ],
)
def test_a_page_of_another_origin_opens_no_table_and_no_socket(tmp_path: Path, origin: str) -> None:
    database = tmp_path / "tables.db"
    with serving(database) as client:
        json_type = {"content-type": "application/json"}
        refused(post(client, {**json_type, "origin": origin}), 403, "cross_origin")
        refused(
            client.post("/api/tutorials/neuf", json={}, headers={"origin": origin}),
            403,
            "cross_origin",
        )
        assert table_count(database) == 0
        table = post(client, json_type).json()["table"]
        socket = client.websocket_connect(f"/ws/{table}", headers={"origin": origin})
        with pytest.raises(WebSocketDenialResponse) as denied, socket:
            pass
        refused(denied.value, 403, "cross_origin")
        # Reading is not refused: a page of another site cannot read the answer anyway.
        answer = client.get(f"/api/tables/{table}", headers={"origin": origin})
        assert answer.status_code == 200


def test_the_servers_own_pages_and_clients_without_origin_are_served(tmp_path: Path) -> None:
    database = tmp_path / "tables.db"
    with serving(database) as client:
        for origin in (OWN, "HTTP://TestServer:80", None):
            headers = {"content-type": "application/json"}
            if origin is not None:
                headers["origin"] = origin
            opened = post(client, headers)
            assert opened.status_code == 201, (origin, opened.text)
            socket_headers = {} if origin is None else {"origin": origin}
            url = f"/ws/{opened.json()['table']}"
            with client.websocket_connect(url, headers=socket_headers) as socket:
                socket.send_json({"type": "ping"})
                assert socket.receive_json() == {"type": "pong"}
        assert table_count(database) == 3


def test_the_origins_the_operator_allows_are_served(tmp_path: Path) -> None:
    database = tmp_path / "tables.db"
    allowed = ["https://club.example", "http://localhost:8000/"]
    with serving(database, allowed_origins=allowed) as client:
        json_type = {"content-type": "application/json"}
        for origin in ("https://club.example", "https://CLUB.example:443", "http://localhost:8000"):
            assert post(client, {**json_type, "origin": origin}).status_code == 201, origin
        for origin in ("http://club.example", "https://club.example:8443", "http://localhost"):
            refused(post(client, {**json_type, "origin": origin}), 403, "cross_origin")
        assert table_count(database) == 3
    with pytest.raises(ValueError, match="not an origin"):
        create_app(f"sqlite:///{database}", allowed_origins=["club.example"])


def test_the_scheme_a_named_proxy_forwards_is_believed_and_no_one_elses(
    tmp_path: Path,
) -> None:
    """Behind a TLS proxy the page is ``https:`` and the connection plain HTTP: the proxy's
    X-Forwarded-Proto says so, believed only from the proxy the operator names (the test
    client's peer is "testclient", which only ``*`` trusts; a real server from other
    addresses: test_server_clients.py)."""
    headers = {
        "content-type": "application/json",
        "origin": "https://testserver",
        "x-forwarded-proto": "https",
        "x-forwarded-for": "198.51.100.1",
    }
    proxied = Limits(client_header="X-Forwarded-For", trusted_proxies=("*",))
    with serving(tmp_path / "proxied.db", limits=proxied) as client:
        opened = post(client, headers)
        assert opened.status_code == 201, opened.text
        socket_headers = {key: headers[key] for key in ("origin", "x-forwarded-proto")}
        with client.websocket_connect(
            f"/ws/{opened.json()['table']}", headers=socket_headers
        ) as socket:
            socket.send_json({"type": "ping"})
            assert socket.receive_json() == {"type": "pong"}
        refused(post(client, {**headers, "origin": OWN}), 403, "cross_origin")
    with serving(tmp_path / "direct.db") as client:
        refused(post(client, headers), 403, "cross_origin")
    untrusted = Limits(client_header="X-Forwarded-For")  # loopback's headers only
    with serving(tmp_path / "untrusted.db", limits=untrusted) as client:
        refused(post(client, headers), 403, "cross_origin")
        assert post(client, {**headers, "origin": OWN}).status_code == 201


def test_a_page_under_a_name_the_server_does_not_know_is_another_sites(tmp_path: Path) -> None:
    """DNS rebinding: another site points its name at the server's address, and its page,
    now at the server, sends ``Host`` and ``Origin`` that agree. A name the operator has not
    given the server (--server-name) is taken for such a site's; an IP address or
    ``localhost`` is the server's own, whatever the operator said."""
    database = tmp_path / "tables.db"
    json_type = {"content-type": "application/json"}
    with serving(database, server_names=[]) as client:
        answer = post(client, {**json_type, "origin": OWN})
        refused(answer, 403, "cross_origin")
        table = post(client, json_type).json()["table"]
        socket = client.websocket_connect(f"/ws/{table}", headers={"origin": OWN})
        with pytest.raises(WebSocketDenialResponse) as denied, socket:
            pass
        refused(denied.value, 403, "cross_origin")
        for host in ("127.0.0.1:8000", "[::1]:8000", "localhost:8000", "cards.localhost"):
            headers = {**json_type, "host": host, "origin": f"http://{host}"}
            assert post(client, headers).status_code == 201, host
        rebound = {**json_type, "host": "evil.example", "origin": "http://evil.example"}
        refused(post(client, rebound), 403, "cross_origin")
        assert table_count(database) == 5
    with serving(database, server_names=["Cards.Example.org"]) as client:
        named = {**json_type, "host": "cards.example.org", "origin": "http://cards.example.org"}
        assert post(client, named).status_code == 201
        refused(post(client, rebound), 403, "cross_origin")


def test_the_allowed_origins_get_cors_headers_and_no_one_else(tmp_path: Path) -> None:
    """A site listed with --allow-origin sends its JSON requests from its own pages: the
    browser asks first (a preflight, OPTIONS), and reads an answer only with the header
    that names the site. Both are given to the listed sites alone."""
    database = tmp_path / "tables.db"
    club = "https://club.example"
    with serving(database, allowed_origins=["https://CLUB.example:443"]) as client:
        ask = {
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
        }
        preflight = client.options("/api/tables", headers={**ask, "origin": club})
        assert preflight.status_code == 200, preflight.text
        assert preflight.headers["access-control-allow-origin"] == club
        assert "POST" in preflight.headers["access-control-allow-methods"]
        assert "content-type" in preflight.headers["access-control-allow-headers"].lower()
        stranger = client.options("/api/tables", headers={**ask, "origin": "https://evil.example"})
        assert stranger.status_code == 400
        assert "access-control-allow-origin" not in stranger.headers
        opened = post(client, {"content-type": "application/json", "origin": club})
        assert opened.status_code == 201
        assert opened.headers["access-control-allow-origin"] == club
        answer = post(
            client, {"content-type": "application/json", "origin": "https://evil.example"}
        )
        refused(answer, 403, "cross_origin")
        assert "access-control-allow-origin" not in answer.headers
    with serving(database) as client:  # no site listed: no CORS headers at all
        preflight = client.options("/api/tables", headers={**ask, "origin": club})
        assert "access-control-allow-origin" not in preflight.headers


# ---------------------------------------------------------------- options and marks


def test_a_byte_order_mark_is_ignored_in_a_body_and_in_a_message(tmp_path: Path) -> None:
    with serving(tmp_path / "tables.db") as client:
        opened = post(client, {"content-type": "application/json"}, b"\xef\xbb\xbf" + BODY)
        assert opened.status_code == 201, opened.text
        with client.websocket_connect(f"/ws/{opened.json()['table']}") as socket:
            socket.send_text('\ufeff{"type": "ping"}')
            assert socket.receive_json() == {"type": "pong"}


def test_players_given_with_the_seats_must_be_their_number(tmp_path: Path) -> None:
    database = tmp_path / "tables.db"
    with serving(database) as client:
        for players in (True, False, "3", 3.0, 4, [3]):
            answer = client.post(
                "/api/tables",
                json={"game": "neuf", "options": {"players": players}, "seats": humans(3)},
            )
            refused(answer, 400, "bad_options")
            assert "number of seats (3)" in answer.json()["message"]
        assert table_count(database) == 0
        answer = client.post(
            "/api/tables", json={"game": "neuf", "options": {"players": 3}, "seats": humans(3)}
        )
        assert answer.status_code == 201, answer.text
