"""What bounds a server's growth: how fast one client may open tables, how large a request's
body may be and how long it may take to arrive, how many connections one client may hold
open, and how long an idle table stays in memory (docs/server.md, "Limits"); and who a
request's client is (:func:`client_of`): the connection's address, or the one a trusted
reverse proxy forwards.

Every limit is a setting of :class:`Limits`, which ``cardtable serve`` fills from its
options; the defaults are those documented.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "CONNECTIONS_PER_CLIENT",
    "EVERY_PEER",
    "LOOPBACK",
    "MAX_BODY",
    "READ_TIMEOUT",
    "BodyLimit",
    "Client",
    "ConnectionCount",
    "ConnectionLimit",
    "CreationLimit",
    "Limits",
    "client_of",
    "proxy_networks",
    "refuse",
]

log = logging.getLogger("cardtable.server")

MAX_BODY = 16384  # bytes of a request's body by default; the lobby's requests are far smaller
# Seconds from a request's first byte (a new connection's opening) to its body's last: the
# lobby's requests are a few hundred bytes, sent at once; only a slow client takes longer.
READ_TIMEOUT = 10.0
# Connections one client may hold open at once: a table page holds one websocket and
# fetches over a few more, and a club behind one NAT address is a few dozen pages.
CONNECTIONS_PER_CLIENT = 64
# The proxies believed by default: this machine's own (uvicorn's --forwarded-allow-ips too).
LOOPBACK = ("127.0.0.1", "::1")
EVERY_PEER = "*"  # a trusted proxy that trusts every connection

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def proxy_networks(entries: Iterable[str]) -> tuple[Network, ...] | None:
    """The networks of ``entries`` (an IP address, a network such as ``10.0.0.0/8``, or
    ``*``); None: every peer (``*`` among them). ValueError names an entry that is none."""
    networks: list[Network] = []
    every = False
    for entry in entries:
        if entry.strip() == EVERY_PEER:
            every = True
            continue
        try:
            networks.append(ipaddress.ip_network(entry.strip()))
            continue
        except ValueError:
            pass
        try:
            loose = ipaddress.ip_network(entry.strip(), strict=False)
        except ValueError:
            raise ValueError(
                f"{entry!r} is not an IP address, a network (10.0.0.0/8, fd00::/8) or *"
            ) from None
        raise ValueError(
            f"{entry!r} is not a network: bits are set past its /{loose.prefixlen}; write {loose}"
        )
    return None if every else tuple(networks)


@dataclass(frozen=True, slots=True)
class Limits:
    """``tables_per_minute``: tables one client may open a minute, in bursts of as many
    (0: no limit); ``client_header``: the header a trusted reverse proxy writes the
    client's address in (``X-Forwarded-For``), None to take the connection's address;
    ``trusted_proxies``: the peers whose forwarded headers (``client_header``,
    ``X-Forwarded-Proto``) are believed, IP addresses and networks (``10.0.0.0/8``), ``*``
    for every peer (loopback by default); a connection from any other is its own client;
    ``max_body``: bytes of a request's body; ``read_timeout``: seconds from a request's
    first byte to its body's last (``cardtable serve`` closes a connection slower than
    that); ``connections_per_client``: connections (requests under way and websockets
    through a trusted proxy) one client may hold open at once (0: no limit); ``evict_after``:
    seconds an idle table (no socket, no bot to move) stays in memory. Each client's
    allowance of tables is kept in the database, shared by every process on it
    (:meth:`cardtable.server.store.Store.take_allowance`)."""

    tables_per_minute: float = 20.0
    client_header: str | None = None
    trusted_proxies: tuple[str, ...] = LOOPBACK
    max_body: int = MAX_BODY
    read_timeout: float = READ_TIMEOUT
    connections_per_client: int = CONNECTIONS_PER_CLIENT
    evict_after: float = 600.0
    # trusted_proxies parsed (None: every peer); set by __post_init__.
    _networks: tuple[Network, ...] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.tables_per_minute < 0 or self.max_body < 1 or self.evict_after < 0:
            raise ValueError(
                "tables per minute and seconds before eviction are 0 or more, the body "
                "limit 1 byte or more"
            )
        if not self.read_timeout > 0 or self.connections_per_client < 0:
            raise ValueError(
                "the read timeout is over 0 seconds, the connections per client 0 or more"
            )
        object.__setattr__(self, "_networks", proxy_networks(self.trusted_proxies))

    def trusts(self, peer: str | None) -> bool:
        """Whether a connection from the address ``peer`` is a proxy whose forwarded headers
        are believed: a client header is named, and ``peer`` is among the trusted proxies."""
        if self.client_header is None or peer is None:
            return False
        if self._networks is None:
            return True
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:  # not an IP address: a Unix socket's peer, a test client's name
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped  # an IPv4 peer of a socket listening on IPv6
        return any(address in network for network in self._networks)


@dataclass(frozen=True, slots=True)
class Client:
    """Who a request comes from: ``address``, the client's; ``proxied``: the connection is a
    trusted proxy's, whose forwarded headers are believed (its ``X-Forwarded-Proto`` too)."""

    address: str
    proxied: bool


def client_of(scope: Scope, limits: Limits) -> Client:
    """The client of a request: the connection's address, or, on a connection from a trusted
    proxy (:meth:`Limits.trusts`), the last address in the header it writes (the one that
    proxy appended; anything before it the client wrote itself, and is not believed). A
    header on a connection from anywhere else is anyone's to write, and counts for nothing."""
    peer = scope.get("client")
    address = str(peer[0]) if peer else None
    header = limits.client_header
    if header is None or not limits.trusts(address):
        return Client(address or "unknown", proxied=False)
    value = Headers(scope=scope).get(header)
    last = value.rsplit(",", 1)[-1].strip() if value else ""
    return Client(last[:64] or address or "unknown", proxied=True)


class CreationLimit:
    """A token bucket per client: ``per_minute`` tables a minute, up to ``per_minute`` at
    once. Memory is bounded: at most ``clients`` buckets, and a full bucket is the same as
    none, so the full ones are forgotten first."""

    def __init__(self, per_minute: float, clients: int = 10000) -> None:
        self.per_minute = per_minute
        self.clients = clients
        self.buckets: dict[str, tuple[float, float]] = {}  # client: (allowance, when)

    def wait(self, client: str, now: float | None = None) -> float:
        """Seconds before ``client`` may open a table; 0: it may now (the table is counted)."""
        if self.per_minute <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        rate = self.per_minute / 60.0
        allowance, when = self.buckets.pop(client, (self.per_minute, now))
        allowance = min(self.per_minute, allowance + (now - when) * rate)
        if allowance < 1.0:
            self.buckets[client] = (allowance, now)
            return (1.0 - allowance) / rate
        self.buckets[client] = (allowance - 1.0, now)  # the newest last: dicts keep order
        if len(self.buckets) > self.clients:
            self._forget(now, rate)
        return 0.0

    def refund(self, client: str) -> None:
        """Give back the table counted by :meth:`wait` for a request refused otherwise."""
        if client in self.buckets:
            allowance, when = self.buckets[client]
            self.buckets[client] = (min(self.per_minute, allowance + 1.0), when)

    def _forget(self, now: float, rate: float) -> None:
        full = [
            client
            for client, (allowance, when) in self.buckets.items()
            if allowance + (now - when) * rate >= self.per_minute
        ]
        for client in full:
            del self.buckets[client]
        while len(self.buckets) > self.clients:  # all still counting: the oldest goes
            del self.buckets[next(iter(self.buckets))]

    @staticmethod
    def retry_after(seconds: float) -> str:
        """A ``Retry-After`` value: whole seconds, rounded up."""
        return str(max(1, math.ceil(seconds)))


class BodyLimit:
    """Refuses an HTTP request's body over ``limit`` bytes while it arrives (ASGI middleware):
    at once if its ``Content-Length`` says so, else as soon as the chunks read add up past
    the limit; the rest is never read, and the connection closes after the ``413``."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # A body read past the limit raises the refusal inside the route, where the
        # application's handler of HTTP errors answers it in the documented shape.
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            refusal = self.refusal()
            body = json.dumps({"error": "too_large", "message": refusal.detail})
            answer = Response(body, 413, refusal.headers, media_type="application/json")
            await answer(scope, receive, send)
            return
        read = 0

        async def receiving() -> Message:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.limit:
                    raise self.refusal()
            return message

        await self.app(scope, receiving, send)

    def refusal(self) -> HTTPException:
        # "Connection: close": the server stops reading the connection after answering.
        return HTTPException(
            413, f"a request is at most {self.limit} bytes", headers={"Connection": "close"}
        )


class ConnectionCount:
    """Connections open per client, at most ``limit`` each (0: no limit). Only clients with
    a connection open are remembered."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def take(self, client: str) -> bool:
        """Count one more connection of ``client``; False (nothing counted) past the limit."""
        held = self.open.get(client, 0)
        if self.limit and held >= self.limit:
            return False
        self.open[client] = held + 1
        return True

    def give_back(self, client: str) -> None:
        held = self.open.get(client, 0) - 1
        if held > 0:
            self.open[client] = held
        else:
            self.open.pop(client, None)

    def refusal(self) -> str:
        return (
            f"at most {self.limit} connections from one client at once; close one "
            "(another tab of the table?) and try again"
        )


class ConnectionLimit:
    """Behind a reverse proxy, the connections per client counted by the address the proxy
    writes (:func:`client_of`): each client's requests under way and websockets open, at
    most ``limits.connections_per_client`` at once (ASGI middleware). One more is answered
    ``429 too_many_connections``; a websocket's handshake is refused with that answer. Only
    requests through a trusted proxy are counted here (the others are counted by their
    connection's address as it opens: ``connections.py``), and none on the peer port
    (``exempt_port``: sockets other server processes relay)."""

    def __init__(self, app: ASGIApp, limits: Limits, exempt_port: int | None = None) -> None:
        self.app = app
        self.count = ConnectionCount(limits.connections_per_client)
        self.limits = limits
        self.exempt_port = exempt_port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        server = scope.get("server")
        if scope["type"] not in ("http", "websocket") or (
            server is not None and server[1] == self.exempt_port
        ):
            await self.app(scope, receive, send)
            return
        client = client_of(scope, self.limits)
        if not client.proxied:
            await self.app(scope, receive, send)
            return
        if not self.count.take(client.address):
            log.info(
                "request refused",
                extra={"code": "too_many_connections", "client": client.address},
            )
            await refuse(scope, send, 429, "too_many_connections", self.count.refusal())
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.count.give_back(client.address)


async def refuse(scope: Scope, send: Send, status: int, code: str, message: str) -> None:
    """Answer an HTTP request or a websocket's handshake with the documented error shape,
    before the application sees it. A websocket server without the ASGI extension for
    that closes the handshake instead (a 403 from uvicorn)."""
    body = json.dumps({"error": code, "message": message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if scope["type"] == "websocket":
        if "websocket.http.response" not in (scope.get("extensions") or {}):
            await send({"type": "websocket.close", "code": 1008, "reason": code})
            return
        start = {"type": "websocket.http.response.start", "status": status, "headers": headers}
        await send(start)
        await send({"type": "websocket.http.response.body", "body": body})
        return
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
