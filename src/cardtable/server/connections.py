"""The HTTP protocol ``cardtable serve`` runs under uvicorn: uvicorn's own (httptools), with
two bounds on what a slow or greedy client may hold (docs/server.md, "Limits").

- **A request arrives in time.** From a request's first byte (a new connection's opening,
  for its first request) to its body's last, ``Limits.read_timeout`` seconds. A client
  slower than that (headers or body trickled a byte at a time: "slowloris") is answered
  ``408 too_slow`` if nothing was answered yet, and its connection is closed. uvicorn bounds
  the wait between two requests of a connection (``timeout_keep_alive``), never the time a
  request takes to arrive.
- **A client holds at most so many connections.** ``Limits.connections_per_client``
  connections from one address at once, websockets included; one more is answered ``429
  too_many_connections`` and closed at once, before anything is read. A trusted reverse
  proxy's connections (``Limits.trusts``: ``--client-header`` and ``--trusted-proxy``)
  carry many clients, so they are not counted here: ``limits.ConnectionLimit`` counts
  each client's requests and websockets by the address the proxy writes (the creation
  limit's client), and the proxy bounds the connections it takes (deploy/nginx.conf).
  Every other connection is counted by its address, whatever headers it sends.
  Connections to the peer port (the sockets other server processes relay here) are never
  counted.

uvicorn takes a protocol class; :func:`protocols` makes the pair (HTTP and websocket) that
share one process's count.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from cardtable.server.headers import SECURITY_HEADERS
from cardtable.server.limits import ConnectionCount, Limits
from cardtable.server.transport import LINGER, WebSocketProtocol

__all__ = [
    "GuardedHttpProtocol",
    "GuardedWebSocketProtocol",
    "protocols",
]

log = logging.getLogger("cardtable.server")


@dataclass
class Guard:
    """One server process's bounds, shared by its HTTP and websocket protocols.
    ``connections``: the count of connections per address, None where none is counted;
    ``limits``: which peers are trusted proxies (their connections are not counted here);
    ``exempt_ports``: local ports whose connections are not counted (the peer port)."""

    read_timeout: float
    connections: ConnectionCount | None
    limits: Limits = field(default_factory=Limits)
    exempt_ports: frozenset[int] = field(default_factory=frozenset)


def answer(
    status: int, code: str, message: str, headers: list[tuple[bytes, bytes]] | None = None
) -> bytes:
    """A whole HTTP response written by the protocol itself (the application never saw the
    request): the documented error shape, the security headers, and the connection closed."""
    body = json.dumps({"error": code, "message": message}).encode()
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".encode()]
    lines += [name + b": " + value for name, value in headers or []]
    lines += [
        b"content-type: application/json",
        b"content-length: " + str(len(body)).encode(),
        b"connection: close",
        *(f"{name}: {value}".encode() for name, value in SECURITY_HEADERS.items()),
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol with the :class:`Guard`'s bounds: a request that takes over
    ``read_timeout`` seconds to arrive is cut short, and a client past its connections is
    turned away."""

    guard: ClassVar[Guard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadline: asyncio.TimerHandle | None = None
        self.reading = False  # a request's headers began and are not all here yet
        self.counted: str | None = None  # the address this connection is counted under
        self.lingering: asyncio.TimerHandle | None = None  # turned away: its end

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        count = self.guard.connections
        address = self.client[0] if self.client else None
        exempt = (
            self.server is not None and self.server[1] in self.guard.exempt_ports
        ) or self.guard.limits.trusts(address)
        if count is not None and address is not None and not exempt:
            if not count.take(address):
                # Nothing is read: the answer goes out at once, and the connection closes.
                log.info(
                    "connection refused",
                    extra={"code": "too_many_connections", "client": address},
                )
                headers = self.server_state.default_headers
                self._turn_away(answer(429, "too_many_connections", count.refusal(), headers))
                return
            self.counted = address
        self._arm()  # the first request's headers are due within the bound too

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._give_back()
        if self.lingering is not None:
            self.lingering.cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.lingering is None:
            super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.reading = True
        self._arm()

    def on_headers_complete(self) -> None:
        self.reading = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        # The handshake's headers are all here; from now on the websocket protocol serves
        # the connection, and gives its count back when it ends.
        self._disarm()
        self.reading = False
        super().handle_websocket_upgrade()
        successor = self.transport.get_protocol()
        if isinstance(successor, GuardedWebSocketProtocol):
            successor.counted, self.counted = self.counted, None

    def _arm(self) -> None:
        if self.deadline is None and not self.transport.is_closing():
            self.deadline = self.loop.call_later(self.guard.read_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _give_back(self) -> None:
        if self.counted is not None and self.guard.connections is not None:
            self.guard.connections.give_back(self.counted)
        self.counted = None

    def _too_slow(self) -> None:
        """The request did not arrive in time: answered ``408`` if nothing is being
        answered on the connection, and the connection closed."""
        self.deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        idle = cycle is None or cycle.response_complete  # no request being answered
        waiting_for_body = (
            cycle is not None
            and not self.reading
            and not cycle.response_started
            and not self.pipeline
        )
        if not ((self.reading and idle) or waiting_for_body):
            self.transport.close()  # nothing asked yet, or an answer already under way
            return
        if waiting_for_body:
            # The application waits for the rest of the body: it hears that the client
            # went (starlette's ClientDisconnect), and whatever it answers is dropped.
            cycle.disconnected = True
            cycle.message_event.set()
        message = (
            f"a request's headers and body arrive within {self.guard.read_timeout:g} s; "
            "this one took longer"
        )
        client = self.client[0] if self.client else None
        log.info("connection refused", extra={"code": "too_slow", "client": client})
        self._turn_away(answer(408, "too_slow", message, self.server_state.default_headers))

    def _turn_away(self, payload: bytes) -> None:
        """Answer ``payload`` and end the connection: its sending side at once, the rest
        after :data:`LINGER` seconds, reading nothing meanwhile (closed at once, with the
        client's bytes unread, it would be reset, and the client could lose the answer)."""
        self._disarm()
        self.transport.write(payload)
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.lingering = self.loop.call_later(LINGER, self.transport.abort)


class GuardedWebSocketProtocol(WebSocketProtocol):
    """The websocket protocol of a connection upgraded by :class:`GuardedHttpProtocol`: it
    holds the connection's place in the count until it ends."""

    guard: ClassVar[Guard]
    counted: str | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted is not None and self.guard.connections is not None:
            self.guard.connections.give_back(self.counted)
        self.counted = None
        super().connection_lost(exc)


def protocols(
    limits: Limits, exempt_ports: Collection[int] = ()
) -> tuple[type[GuardedHttpProtocol], type[GuardedWebSocketProtocol]]:
    """The HTTP and websocket protocol classes of one server process, for uvicorn's
    ``http`` and ``ws``; ``exempt_ports``: local ports whose connections are not counted
    (the peer port)."""
    guard = Guard(
        limits.read_timeout,
        ConnectionCount(limits.connections_per_client) if limits.connections_per_client else None,
        limits,
        frozenset(exempt_ports),
    )

    class Http(GuardedHttpProtocol):
        pass

    class WebSocket(GuardedWebSocketProtocol):
        pass

    Http.guard = WebSocket.guard = guard
    return Http, WebSocket
