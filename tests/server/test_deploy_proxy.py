"""The topology of ``deploy/compose.yaml`` with processes instead of containers (no Docker
engine runs here): two ``cardtable serve`` processes on one PostgreSQL database, behind
nginx with ``deploy/nginx.conf`` and TLS, on loopback.

Players reach a table through the proxy over ``wss:``; both seats' sockets reach the same
server (the proxy hashes the table's id); that server is stopped gracefully during play,
its sockets are told to connect again, and they do, through the proxy, to the other
server, which serves the table from the database and takes the next moves. A page of the
site, as the browser names it (https, the proxy's port), opens tables and sockets through
the proxy, and one of another origin does not.
"""

from __future__ import annotations

import glob
import json
import os
import random
import signal
import ssl
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from live_pieces import tokens
from proxy_pieces import NGINX, Proxy, nginx_proxy
from served import ServerProcess

pytestmark = pytest.mark.skipif(
    not (Path(NGINX).exists() and glob.glob("/usr/lib/postgresql/*/bin/initdb")),
    reason="no nginx or PostgreSQL server programs (scripts/install-test-deps)",
)

READ_SECONDS = 20.0
MOVES = 4  # before the stop, and again after it


class Seat:
    """A player's socket through the proxy."""

    def __init__(self, proxy: Proxy, context: ssl.SSLContext, table: str, token: str) -> None:
        self.proxy, self.context, self.table, self.token = proxy, context, table, token
        self.socket: ClientConnection | None = None
        self.seq = 0
        self.view: dict[str, Any] = {}
        self.events: dict[int, dict[str, Any]] = {}  # every event heard, by number

    def hear(self, item: dict[str, Any]) -> None:
        """An event, in order and once: one heard before a crash is never rewritten."""
        assert item["seq"] == len(self.events) + 1, (item["seq"], len(self.events))
        self.events[item["seq"]] = item

    def join(self) -> dict[str, Any]:
        self.socket = connect(
            self.proxy.ws(self.table), ssl=self.context, open_timeout=READ_SECONDS
        ).__enter__()
        self.send({"type": "join", "token": self.token, "since": self.seq})
        snapshot = self.until("snapshot")
        for item in snapshot["missed"]:
            self.hear(item)
        self.seq, self.view = snapshot["seq"], snapshot["view"]
        return snapshot

    def rejoin(self) -> dict[str, Any]:
        """:meth:`join` as the page reconnects: again and again until a server answers (the
        proxy refuses with 502 while it counts every server down, for 10 s after each
        failed one, nginx's ``fail_timeout``; a server killed in the middle of the handshake
        ends it with no answer at all)."""
        deadline = time.monotonic() + READ_SECONDS
        while True:
            try:
                return self.join()
            except (InvalidHandshake, OSError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def send(self, message: dict[str, Any]) -> None:
        assert self.socket is not None
        self.socket.send(json.dumps(message))

    def receive(self) -> dict[str, Any]:
        assert self.socket is not None
        frame: dict[str, Any] = json.loads(self.socket.recv(timeout=READ_SECONDS))
        if frame["type"] == "event":
            self.hear(frame["event"])
        return frame

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            frame = self.receive()
            if frame["type"] == kind:
                return frame

    def close_code(self) -> int | None:
        """Read until the server closes the socket; its close code."""
        try:
            while True:
                frame = self.receive()
                if frame["type"] == "event":
                    self.seq, self.view = frame["seq"], frame["view"]
        except ConnectionClosed as closed:
            return None if closed.rcvd is None else closed.rcvd.code

    def close(self) -> None:
        if self.socket is not None:
            self.socket.__exit__(None, None, None)


def play(seats: list[Seat], moves: int, rng: random.Random) -> None:
    """``moves`` actions, each by the seat to move, each heard by every seat."""
    for _ in range(moves):
        mover = seats[seats[0].view["to_move"]]
        action = rng.choice(mover.view["legal_actions"])
        mover.send({"type": "action", "action": action, "seq": mover.seq})
        for seat in seats:
            while True:
                frame = seat.until("event")
                seat.seq, seat.view = frame["seq"], frame["view"]
                if frame["event"]["kind"] == "action":
                    assert frame["event"]["action"] == action
                    break


def metric(server: ServerProcess, name: str) -> float:
    """A metric without labels, scraped from the server directly."""
    for line in httpx.get(f"{server.http}/metrics", timeout=10.0).text.splitlines():
        if line.startswith(f"{name} "):
            return float(line.split()[1])
    raise AssertionError(f"no {name}")


def sockets_open(server: ServerProcess) -> float:
    return metric(server, "cardtable_sockets_open")


@dataclass
class Topology:
    """Two servers on one PostgreSQL database behind nginx with TLS, on loopback."""

    url: str
    servers: list[ServerProcess]
    proxy: Proxy
    context: ssl.SSLContext
    https: httpx.Client


def topology(stack: ExitStack, tmp_path: Path, grace: float = 60.0) -> Topology:
    """The topology, each part closed with ``stack``; the servers started one after the
    other (the first creates the schema)."""
    from postgres_server import postgres_url

    url = stack.enter_context(postgres_url())
    servers = []
    for number in (1, 2):
        server = ServerProcess(
            url,
            tmp_path / f"server-{number}.log",
            grace=grace,
            options=("--tables-per-minute", "0", "--client-header", "X-Forwarded-For"),
        )
        server.start()
        stack.callback(server.stop)
        servers.append(server)
    proxy = stack.enter_context(nginx_proxy(tmp_path / "proxy", [s.port for s in servers]))
    context = ssl.create_default_context(cafile=str(proxy.certificate))
    https = stack.enter_context(httpx.Client(base_url=proxy.url, verify=context))
    return Topology(url, servers, proxy, context, https)


def seated(stack: ExitStack, where: Topology) -> tuple[str, list[Seat]]:
    """A Kryt'-navalivat' table of two people opened through the proxy, both joined."""
    opened = where.https.post(
        "/api/tables",
        json={
            "game": "kryt-navalivat",
            "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Boris"}],
        },
    )
    assert opened.status_code == 201, opened.text
    table = opened.json()["table"]
    seats = [
        Seat(where.proxy, where.context, table, token)
        for _, token in sorted(tokens(opened.json()).items())
    ]
    for seat in seats:
        seat.join()
        stack.callback(seat.close)
    return table, seats


def test_two_servers_behind_nginx_with_tls_and_a_graceful_restart(tmp_path: Path) -> None:
    rng = random.Random(11)
    with ExitStack() as stack:
        where = topology(stack, tmp_path)
        servers, proxy, https = where.servers, where.proxy, where.https

        # TLS, the redirect to it, and what the proxy keeps to the host's network.
        assert https.get("/ready").json()["status"] == "ready"
        redirect = httpx.get(f"http://127.0.0.1:{proxy.http}/t/x", timeout=10.0)
        assert redirect.status_code == 301
        assert redirect.headers["location"] == "https://127.0.0.1/t/x"
        assert https.get("/metrics").status_code == 404

        table, seats = seated(stack, where)
        play(seats, MOVES, rng)

        # Both sockets are served by one server, the table's holder: the one the proxy
        # chose by the table's id, or, had the lobby's request opened the table on the
        # other, that one, to which the chosen server relays them (docs/hosting.md). The
        # table is in one server's memory only.
        counts = [sockets_open(server) for server in servers]
        assert sorted(counts) == [0, 2], counts
        holder = servers[counts.index(2)]
        other = servers[1 - counts.index(2)]
        assert metric(holder, "cardtable_tables_open") == 1
        assert metric(other, "cardtable_tables_open") == 0

        # Its graceful stop: every socket is told to connect again, and the process ends 0.
        assert holder.process is not None
        os.kill(holder.process.pid, signal.SIGTERM)
        for seat in seats:
            assert seat.close_code() == 1012
        assert holder.process.wait(30) == 0
        holder.process = None

        # Through the proxy again: the other server serves the table from the database.
        before = seats[0].seq
        for seat in seats:
            snapshot = seat.join()
            assert snapshot["seq"] == before and snapshot["missed"] == []
        assert sockets_open(other) == 2
        play(seats, MOVES, rng)
        assert https.get(f"/api/tables/{table}").json()["seq"] == seats[0].seq > before

        # A page of the site, as the browser names it (https, the proxy's port), opens
        # tables and sockets through the proxy; one of another origin does not.
        request = {"game": "kryt-navalivat", "seats": [{"kind": "human"}] * 2}
        own = proxy.url
        opened = https.post("/api/tables", json=request, headers={"origin": own})
        assert opened.status_code == 201, opened.text
        address = proxy.ws(opened.json()["table"])
        with connect(address, ssl=where.context, origin=Origin(own)) as page:
            page.send(json.dumps({"type": "ping"}))
            assert json.loads(page.recv(timeout=READ_SECONDS)) == {"type": "pong"}
        strangers = [f"http://127.0.0.1:{proxy.https}", "https://127.0.0.1", "https://evil.example"]
        for stranger in strangers:
            refused = https.post("/api/tables", json=request, headers={"origin": stranger})
            assert refused.status_code == 403, (stranger, refused.text)
            assert refused.json()["error"] == "cross_origin"


def test_two_servers_behind_nginx_lose_nothing_when_the_tables_holder_is_killed(
    tmp_path: Path,
) -> None:
    """The same topology; the server holding the table is killed (SIGKILL: nothing gets to
    clean up) at a random moment of play, three times, and started again each time. The
    seats reconnect through the proxy, which sends them to the server still up; it finds
    the dead one not answering and takes the table over from the database. Nothing a seat
    was told is lost, no action is stored twice, and both seats end on the database's
    events."""
    from postgres_server import stored_events

    rng = random.Random(13)
    with ExitStack() as stack:
        where = topology(stack, tmp_path, grace=3600)
        servers = where.servers
        table, seats = seated(stack, where)
        for _ in range(3):
            play(seats, rng.randint(1, MOVES), rng)
            counts = [sockets_open(server) for server in servers]
            holder = servers[counts.index(2)]
            heard = seats[0].seq
            holder.kill()
            for seat in seats:
                # Every event was heard before the kill (``play`` waits for each): the
                # socket that died with its server is dropped without reading it to its end.
                seat.close()
            for seat in seats:
                snapshot = seat.rejoin()
                assert snapshot["seq"] >= heard  # nothing acknowledged is lost
            holder.start()  # back on its port, for the next round
        play(seats, MOVES, rng)
        stored = stored_events(where.url, table)
        assert [item["seq"] for item in stored] == list(range(1, len(stored) + 1))
        for seat in seats:
            assert seat.events == {item["seq"]: item for item in stored}
        logs = "".join(server.log.read_text() for server in servers)
        assert "table taken over" in logs or "owner not answering" in logs
