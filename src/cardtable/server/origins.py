"""Which web pages may change the server's state: its own, and those the operator lists
(docs/server.md, "Origins").

A browser lets any site send a POST with a plain-text body, or open a websocket, to any
server, and says which site the page is from in the ``Origin`` header. A request that
changes something (any method but GET, HEAD and OPTIONS) and every websocket handshake is
refused ``403 cross_origin`` when its ``Origin`` names another site than the server's own
address (its ``Host`` header, with the scheme the client used) or one of the origins the
operator allows (``cardtable serve --allow-origin``). A request without ``Origin`` (a script,
``curl``, another server process relaying a socket) is not a browser's page, and passes.

The server's own address is its own only under a name it knows it by: an IP address,
``localhost``, or a name the operator gives (``cardtable serve --server-name``). A page of
any other name that reaches the server is another site's that had its name pointed at the
server's address (DNS rebinding: ``Host`` and ``Origin`` then agree), and is refused.

The origins the operator allows are sent CORS headers (``Access-Control-Allow-Origin``, and
an answer to a preflight), so that their pages' JSON requests reach the server and their
answers the page; nobody else's are.

Behind a reverse proxy the scheme the client used is the proxy's to tell: it is read from
``X-Forwarded-Proto`` on a connection from a proxy the server trusts (``--client-header``
and ``--trusted-proxy``: ``limits.client_of``), else from the connection. Host and port
are compared, an absent port being the scheme's own (80, 443).
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from cardtable.server.limits import Limits, client_of, refuse

__all__ = [
    "SAFE_METHODS",
    "Origin",
    "SameOrigin",
    "known_name",
    "origin_text",
    "parse_origin",
    "request_origin",
]

log = logging.getLogger("cardtable.server")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})  # change nothing (RFC 9110, 9.2.1)
DEFAULT_PORTS = {"http": 80, "https": 443}
WEBSOCKET_SCHEMES = {"ws": "http", "wss": "https"}

Origin = tuple[str, str, int]  # scheme, host (lower case), port


def parse_origin(text: str) -> Origin | None:
    """``scheme://host[:port]`` (an ``Origin`` header, an allowed origin) as its three
    parts; None if it is not an http(s) origin ("null", a path, credentials)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:  # a port that is no number, or out of range
        return None
    scheme = parts.scheme.lower()
    if (
        scheme not in DEFAULT_PORTS
        or not parts.hostname
        or parts.username is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def origin_text(origin: Origin) -> str:
    """An origin as a browser writes it in ``Origin``: the scheme's own port left out."""
    scheme, host, port = origin
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address
    return f"{scheme}://{host}" if DEFAULT_PORTS[scheme] == port else f"{scheme}://{host}:{port}"


def known_name(host: str, names: Iterable[str]) -> bool:
    """Whether a page at ``host`` (lower case) may be the server's own: an IP address, a
    name of the loopback (``localhost``, ``*.localhost``: RFC 6761), or one of ``names``."""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host == "localhost" or host.endswith(".localhost") or host in names
    return True


def request_origin(scope: Scope, trust_proxy: bool) -> Origin | None:
    """The origin a request was sent to: the scheme the client used (the proxy's
    ``X-Forwarded-Proto`` when ``trust_proxy``, else the connection's) and its ``Host``."""
    headers = Headers(scope=scope)
    scheme = str(scope.get("scheme", "http"))
    forwarded = headers.get("x-forwarded-proto") if trust_proxy else None
    if forwarded:
        scheme = forwarded.rsplit(",", 1)[-1].strip().lower()  # the proxy's own entry
    scheme = WEBSOCKET_SCHEMES.get(scheme, scheme)
    host = headers.get("host")
    if not host or any(mark in host for mark in "/@?#\\"):
        return None
    return parse_origin(f"{scheme}://{host}")


class SameOrigin:
    """Refuses ``403 cross_origin`` a state-changing request or a websocket handshake from
    a page of another origin than the server's own and the ``allowed`` ones (ASGI
    middleware). ``limits``: which connections are trusted proxies, whose
    ``X-Forwarded-Proto`` is the request's scheme (:func:`limits.client_of`).
    ``server_names``: the names besides IP addresses and ``localhost`` that the server's own
    pages are served under (:func:`known_name`)."""

    def __init__(
        self,
        app: ASGIApp,
        allowed: Iterable[str] = (),
        limits: Limits | None = None,
        server_names: Iterable[str] = (),
    ) -> None:
        self.app = app
        self.limits = limits or Limits()
        self.server_names = frozenset(name.lower() for name in server_names)
        self.allowed: set[Origin] = set()
        for text in allowed:
            origin = parse_origin(text)
            if origin is None:
                raise ValueError(
                    f"{text!r} is not an origin: write https://host or http://host:port"
                )
            self.allowed.add(origin)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket" or (kind == "http" and scope["method"] not in SAFE_METHODS):
            given = Headers(scope=scope).getlist("origin")
            if given and not self.admits(scope, given):
                what = "open a socket" if kind == "websocket" else "send this request"
                message = (
                    f"a page of {given[0][:100]!r} may not {what}: only the server's own "
                    "pages, and the origins its operator allows, may"
                )
                log.info(
                    "request refused", extra={"code": "cross_origin", "origin": given[0][:100]}
                )
                await refuse(scope, send, 403, "cross_origin", message)
                return
        await self.app(scope, receive, send)

    def admits(self, scope: Scope, given: list[str]) -> bool:
        if len(given) != 1:
            return False
        origin = parse_origin(given[0])
        if origin is None:
            return False
        if origin in self.allowed:
            return True
        own = request_origin(scope, client_of(scope, self.limits).proxied)
        return origin == own and known_name(origin[1], self.server_names)
