"""Which web pages may change the server's state: its own, and those the operator lists
(docs/server.md, "Origins").

A browser lets any site send a POST with a plain-text body, or open a websocket, to any
server, and says which site the page is from in the ``Origin`` header. A request that
changes something (any method but GET, HEAD and OPTIONS) and every websocket handshake is
refused ``403 cross_origin`` when its ``Origin`` names another site than the server's own
address (its ``Host`` header, with the scheme the client used) or one of the origins the
operator allows (``cardtable serve --allow-origin``). A request without ``Origin`` (a script,
``curl``, another server process relaying a socket) is not a browser's page, and passes.

Behind a reverse proxy the scheme the client used is the proxy's to tell: it is read from
``X-Forwarded-Proto`` on a connection from a proxy the server trusts (``--client-header``
and ``--trusted-proxy``: ``limits.client_of``), else from the connection. Host and port
are compared, an absent port being the scheme's own (80, 443).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from cardtable.server.limits import Limits, client_of, refuse

__all__ = ["SAFE_METHODS", "Origin", "SameOrigin", "parse_origin", "request_origin"]

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
    ``X-Forwarded-Proto`` is the request's scheme (:func:`limits.client_of`)."""

    def __init__(
        self, app: ASGIApp, allowed: Iterable[str] = (), limits: Limits | None = None
    ) -> None:
        self.app = app
        self.limits = limits or Limits()
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
        return origin == request_origin(scope, client_of(scope, self.limits).proxied)
