"""Who a client is, and what one client may hold, against a live ``cardtable serve``.

- The client is the connection's address unless the operator names a proxy
  (``--client-header``): a forwarded header any client can write gets no fresh allowance
  of tables (uvicorn believed ``X-Forwarded-For`` from loopback by itself). Even then the
  forwarded headers count only on connections from the proxies it trusts
  (``--trusted-proxy``, loopback by default): any other connection is its own client, for
  the tables it opens, the connections it holds and the scheme its page is checked with.
- A request arrives within ``--read-timeout`` seconds, or its connection is cut: headers
  or a body trickled a byte at a time held a connection for as long as the client liked.
- One address holds at most ``--connections-per-client`` connections at once; behind a
  proxy, one client (by the address the proxy writes) as many requests and websockets.

Real sockets from several loopback addresses (127.0.0.2, …: Linux routes all of 127/8 to
the loopback), real server processes; nothing is mocked.
"""

from __future__ import annotations

import json
import select
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from cardtable.server.limits import Limits
from live_pieces import table_total
from served import ServerProcess
from server_pieces import handshake

READ_TIMEOUT = 2.0  # the servers' --read-timeout here: short, so that the tests are quick
CONNECTIONS = 4  # their --connections-per-client
NEUF = {"game": "neuf", "seats": [{"kind": "human"}] * 3}


def started(folder: Path, *options: str) -> ServerProcess:
    server = ServerProcess(folder / "tables.db", folder / "server.log", options=options)
    server.start()
    return server


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with short bounds, and one table a minute for each client."""
    server = started(
        tmp_path_factory.mktemp("guarded"),
        *("--tables-per-minute", "1", "--read-timeout", str(READ_TIMEOUT)),
        *("--connections-per-client", str(CONNECTIONS)),
    )
    try:
        yield server
    finally:
        server.stop()


def from_address(server: ServerProcess, address: str) -> socket.socket:
    """A connection to ``server`` from the loopback address ``address``."""
    return socket.create_connection(("127.0.0.1", server.port), 10, source_address=(address, 0))


def client_at(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10.0)


def websocket_at(
    server: ServerProcess, address: str, table: str, headers: dict[str, str] | None = None
) -> ClientConnection:
    return connect(
        server.ws(table),
        sock=from_address(server, address),
        additional_headers=headers,
        open_timeout=10,
    )


def trickled(sock: socket.socket, data: bytes, every: float = 0.2) -> tuple[float, bytes]:
    """Send ``data`` a byte every ``every`` seconds, reading whatever the server answers,
    until it closes the connection (or all is sent and 4 read timeouts have passed): the
    seconds that took, and the answer."""
    start = time.monotonic()
    answer, sent, closed = b"", 0, False
    sock.setblocking(False)
    while not closed and time.monotonic() - start < 4 * READ_TIMEOUT:
        if sent < len(data):
            try:
                sent += sock.send(data[sent : sent + 1])
            except OSError:  # reset: the server is gone
                break
        readable, _, _ = select.select([sock], [], [], every)
        while readable:
            try:
                part = sock.recv(65536)
            except BlockingIOError:
                break
            except OSError:
                closed = True
                break
            if not part:
                closed = True
                break
            answer += part
    return time.monotonic() - start, answer


def body_of(answer: bytes) -> dict[str, Any]:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), head
    decoded: dict[str, Any] = json.loads(body)
    return decoded


# ---------------------------------------------------------------- who the client is


def test_a_forwarded_header_from_loopback_gets_no_fresh_allowance(tmp_path: Path) -> None:
    """30 tables, each asked for with another X-Forwarded-For, from loopback, to a server
    that names no proxy: the allowance of 5 goes, then 429."""
    server = started(tmp_path, "--tables-per-minute", "5")
    try:
        statuses = [
            httpx.post(
                f"{server.http}/api/tables",
                json=NEUF,
                headers={"X-Forwarded-For": f"203.0.113.{number}"},
                timeout=10.0,
            ).status_code
            for number in range(30)
        ]
        assert statuses == [201] * 5 + [429] * 25, statuses
        assert table_total(server) == 5
    finally:
        server.stop()


def test_behind_a_named_proxy_each_client_has_its_allowance_and_its_connections(
    tmp_path: Path,
) -> None:
    """--client-header X-Forwarded-For: the last address in it is the client, for the
    creation limit and for the connections it holds; the proxy's own connections (all from
    one address) are not counted."""
    server = started(
        tmp_path,
        *("--tables-per-minute", "1", "--client-header", "X-Forwarded-For"),
        *("--connections-per-client", "2"),
    )
    try:

        def post(forwarded: str) -> int:
            headers = {"X-Forwarded-For": forwarded}
            return httpx.post(
                f"{server.http}/api/tables", json=NEUF, headers=headers, timeout=10.0
            ).status_code

        assert post("198.51.100.1") == 201
        assert post("198.51.100.1") == 429
        assert post("198.51.100.2") == 201
        assert post("198.51.100.7, 198.51.100.1") == 429  # what the client wrote first
        table = _a_table(server)

        def socket_of(client: str) -> ClientConnection:
            headers = {"X-Forwarded-For": client}
            return connect(server.ws(table), additional_headers=headers, open_timeout=10)

        with ExitStack() as stack:
            held = [stack.enter_context(socket_of("198.51.100.3")) for _ in range(2)]
            with pytest.raises(InvalidStatus) as refused:
                socket_of("198.51.100.3")
            assert refused.value.response.status_code == 429
            assert json.loads(refused.value.response.body)["error"] == "too_many_connections"
            # Another client, through the same proxy address, is served.
            others = [stack.enter_context(socket_of(f"198.51.100.{n}")) for n in (4, 5, 6)]
            for each in [*held, *others]:
                each.send(json.dumps({"type": "ping"}))
                assert json.loads(each.recv(timeout=10)) == {"type": "pong"}
            held[0].close()
            with socket_of("198.51.100.3") as again:  # its place was given back
                again.send(json.dumps({"type": "ping"}))
                assert json.loads(again.recv(timeout=10)) == {"type": "pong"}
    finally:
        server.stop()


def opened_from(address: str, server: ServerProcess, forwarded: str | None = None) -> int:
    """The status of a table asked for from ``address``, with ``forwarded`` for its
    X-Forwarded-For."""
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    with client_at(address) as client:
        return client.post(f"{server.http}/api/tables", json=NEUF, headers=headers).status_code


def test_forwarded_headers_count_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    """--trusted-proxy 127.0.0.2: each client it forwards has its allowance of tables and
    its connections, and the proxy's own connections are not counted; 127.0.0.3 writing
    X-Forwarded-For itself is 127.0.0.3, for the tables it opens and the connections it
    holds, whatever address it writes."""
    server = started(
        tmp_path,
        *("--tables-per-minute", "1", "--client-header", "X-Forwarded-For"),
        *("--trusted-proxy", "127.0.0.2", "--connections-per-client", "2"),
    )
    try:
        for number in range(1, 6):  # the proxy's clients: an allowance each
            assert opened_from("127.0.0.2", server, f"198.51.100.{number}") == 201
        assert opened_from("127.0.0.2", server, "198.51.100.1") == 429
        # Another peer's header is its own writing: its address is the client.
        assert opened_from("127.0.0.3", server, "198.51.100.20") == 201
        statuses = [opened_from("127.0.0.3", server, f"198.51.100.{n}") for n in range(21, 25)]
        assert statuses == [429] * 4, statuses
        assert opened_from("127.0.0.3", server) == 429
        assert table_total(server) == 6
        with client_at("127.0.0.2") as proxy:
            answer = proxy.post(
                f"{server.http}/api/tables",
                json=NEUF,
                headers={"X-Forwarded-For": "198.51.100.9"},
            )
        table = answer.json()["table"]
        with ExitStack() as stack:
            # The proxy holds more connections than one client may: they are its clients'.
            through_proxy = [
                stack.enter_context(
                    websocket_at(server, "127.0.0.2", table, {"X-Forwarded-For": f"198.51.100.{n}"})
                )
                for n in (30, 31, 32)
            ]
            # 127.0.0.3 holds its two, each written another forwarded address; a third is
            # turned away as it opens, a new forwarded address or not.
            direct = [
                stack.enter_context(
                    websocket_at(server, "127.0.0.3", table, {"X-Forwarded-For": f"198.51.100.{n}"})
                )
                for n in (40, 41)
            ]
            for more in ("X-Forwarded-For: 198.51.100.42\r\n", ""):
                with from_address(server, "127.0.0.3") as sock:
                    _, refusal = trickled(sock, handshake(table, more), every=0)
                assert refusal.startswith(b"HTTP/1.1 429 "), refusal[:100]
                assert body_of(refusal)["error"] == "too_many_connections"
            for each in [*through_proxy, *direct]:
                each.send(json.dumps({"type": "ping"}))
                assert json.loads(each.recv(timeout=10)) == {"type": "pong"}
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("proxies", "untrusted"),
    [(("127.0.0.4/31", "fd00::/8"), ["127.0.0.6"]), (("*",), [])],
    ids=["networks", "every peer"],
)
def test_a_trusted_proxy_is_a_network_or_every_peer(
    tmp_path: Path, proxies: tuple[str, ...], untrusted: list[str]
) -> None:
    """127.0.0.4/31 trusts 127.0.0.4 and .5, not .6; * trusts every connection."""
    options = [option for proxy in proxies for option in ("--trusted-proxy", proxy)]
    server = started(
        tmp_path,
        *("--tables-per-minute", "1", "--client-header", "X-Forwarded-For", *options),
    )
    try:
        for peer, address in enumerate(("127.0.0.4", "127.0.0.5", "127.0.0.6")):
            statuses = [opened_from(address, server, f"198.51.100.{peer}{n}") for n in range(3)]
            if address in untrusted:
                assert statuses == [201, 429, 429], (address, statuses)
            else:
                assert statuses == [201, 201, 201], (address, statuses)
    finally:
        server.stop()


def test_a_peer_is_trusted_by_its_address_in_the_list_and_only_with_a_client_header() -> None:
    """The decision every count and the origin check ask (``Limits.trusts``), for peers a
    loopback socket cannot be: IPv6, an IPv4 peer of a socket listening on IPv6, no IP."""
    proxies = ("10.0.0.0/8", "fd00::/8", "192.0.2.7")
    limits = Limits(client_header="X-Forwarded-For", trusted_proxies=proxies)
    for peer in ("10.1.2.3", "::ffff:10.1.2.3", "fd12::1", "192.0.2.7"):
        assert limits.trusts(peer), peer
    for other in ("11.0.0.1", "fe80::1", "192.0.2.8", "127.0.0.1", "testclient", "", None):
        assert not limits.trusts(other), other
    assert Limits(client_header="X-Forwarded-For").trusts("::1")  # loopback by default
    assert Limits(client_header="X-Forwarded-For", trusted_proxies=("*",)).trusts("testclient")
    assert not Limits(trusted_proxies=("*",)).trusts("10.1.2.3")  # no header to believe
    with pytest.raises(ValueError, match=r"'10\.0\.0\.1/8' is not a network"):
        Limits(client_header="X-Forwarded-For", trusted_proxies=("10.0.0.1/8",))


def test_an_untrusted_peers_forwarded_scheme_does_not_decide_its_origin(tmp_path: Path) -> None:
    """X-Forwarded-Proto: https makes the page https:// on the server's own host, from the
    trusted proxy only: from another peer, an https page is another origin (403) and the
    plain http page the server's own (201)."""
    server = started(
        tmp_path,
        *("--tables-per-minute", "0", "--client-header", "X-Forwarded-For"),
        *("--trusted-proxy", "127.0.0.2"),
    )
    own = f"127.0.0.1:{server.port}"
    try:
        for address, origin, status in [
            ("127.0.0.2", f"https://{own}", 201),
            ("127.0.0.2", f"http://{own}", 403),
            ("127.0.0.3", f"https://{own}", 403),
            ("127.0.0.3", f"http://{own}", 201),
        ]:
            headers = {"Origin": origin, "X-Forwarded-Proto": "https"}
            with client_at(address) as client:
                answer = client.post(f"{server.http}/api/tables", json=NEUF, headers=headers)
            assert answer.status_code == status, (address, origin, answer.text)
            if status == 403:
                assert answer.json()["error"] == "cross_origin"
        assert table_total(server) == 2
    finally:
        server.stop()


def _a_table(server: ServerProcess) -> str:
    """A table opened by a client of its own (the one the proxy would name 198.51.100.9)."""
    answer = httpx.post(
        f"{server.http}/api/tables",
        json=NEUF,
        headers={"X-Forwarded-For": "198.51.100.9"},
        timeout=10.0,
    )
    assert answer.status_code == 201, answer.text
    table: str = answer.json()["table"]
    return table


# ---------------------------------------------------------------- slow requests


def test_headers_trickled_a_byte_at_a_time_are_cut_off_at_the_read_timeout(
    guarded: ServerProcess,
) -> None:
    with from_address(guarded, "127.0.0.2") as sock:
        taken, answer = trickled(sock, b"GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 200)
    assert READ_TIMEOUT - 0.2 < taken < READ_TIMEOUT + 1.5, taken
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:100]
    refusal = body_of(answer)
    assert refusal["error"] == "too_slow" and refusal["message"]


def test_a_body_trickled_a_byte_at_a_time_is_cut_off_and_opens_nothing(
    guarded: ServerProcess,
) -> None:
    before = table_total(guarded)
    body = json.dumps(NEUF).encode()
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body) + 200).encode() + b"\r\n\r\n"
    )
    with from_address(guarded, "127.0.0.3") as sock:
        sock.sendall(head)
        taken, answer = trickled(sock, body + b" " * 200)
    assert READ_TIMEOUT - 0.2 < taken < READ_TIMEOUT + 1.5, taken
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:100]
    assert body_of(answer)["error"] == "too_slow"
    assert table_total(guarded) == before
    # The request opened nothing, so it did not count: the address's one table a minute is
    # still there for an honest request.
    with client_at("127.0.0.3") as client:
        assert client.post(f"{guarded.http}/api/tables", json=NEUF).status_code == 201


def test_a_connection_that_never_sends_is_closed_at_the_read_timeout(
    guarded: ServerProcess,
) -> None:
    with from_address(guarded, "127.0.0.4") as sock:
        taken, answer = trickled(sock, b"")
    assert READ_TIMEOUT - 0.2 < taken < READ_TIMEOUT + 1.5, taken
    assert answer == b""  # nothing was asked: nothing to answer


def test_an_honest_client_is_not_hurried(guarded: ServerProcess) -> None:
    """The bound is on each request, not on a connection: requests on one kept-alive
    connection over longer than the bound, and a websocket open past it, are served."""
    with client_at("127.0.0.5") as client:
        opened = client.post(f"{guarded.http}/api/tables", json=NEUF)
        assert opened.status_code == 201, opened.text
        table = opened.json()["table"]
        with websocket_at(guarded, "127.0.0.5", table) as player:
            start = time.monotonic()
            while time.monotonic() - start < READ_TIMEOUT * 1.5:
                assert client.get(f"{guarded.http}/api/tables/{table}").status_code == 200
                time.sleep(0.5)
            player.send(json.dumps({"type": "ping"}))
            assert json.loads(player.recv(timeout=10)) == {"type": "pong"}


# ---------------------------------------------------------------- connections per address


def test_one_address_holds_at_most_its_connections_and_others_are_served(
    guarded: ServerProcess,
) -> None:
    with client_at("127.0.0.6") as client:
        opened = client.post(f"{guarded.http}/api/tables", json=NEUF)
    assert opened.status_code == 201, opened.text
    table = opened.json()["table"]
    with ExitStack() as stack:
        held = [
            stack.enter_context(websocket_at(guarded, "127.0.0.7", table))
            for _ in range(CONNECTIONS)
        ]
        # One more from that address is turned away at once, answered before anything is
        # read: a request, or a websocket's handshake.
        for request in (b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n", handshake(table)):
            with from_address(guarded, "127.0.0.7") as sock:
                taken, answer = trickled(sock, request, every=0)
            assert taken < 1.5, taken
            assert answer.startswith(b"HTTP/1.1 429 "), answer[:100]
            assert body_of(answer)["error"] == "too_many_connections"
        # Its connections are served still, and so is every other address.
        for player in held:
            player.send(json.dumps({"type": "ping"}))
            assert json.loads(player.recv(timeout=10)) == {"type": "pong"}
        with client_at("127.0.0.8") as other:
            assert other.get(f"{guarded.http}/health").status_code == 200
        # A connection closed gives its place back.
        held.pop().close()
        deadline = time.monotonic() + 5
        while True:
            try:
                with client_at("127.0.0.7") as again:
                    assert again.get(f"{guarded.http}/health").status_code == 200
                break
            except (httpx.TransportError, AssertionError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
