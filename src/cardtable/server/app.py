"""The FastAPI application of the web table: pages, the JSON API and the websocket.

``create_app`` builds it around a database URL; ``cardtable serve`` runs it under uvicorn.
The protocol is in ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import AsyncIterator, Iterable, Mapping
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

import cardtable
from cardtable.bots.base import LEVELS
from cardtable.rules.kryt_navalivat.game import TRUMP_MODES
from cardtable.rules.neuf.ledger import TRUMP_SEQUENCES
from cardtable.server.chat import Chat
from cardtable.server.collector import scheduled_full_collections
from cardtable.server.commits import COMMIT_PATIENCE, UNAVAILABLE, MovedError, UnavailableError
from cardtable.server.draining import MOVED_AWAY, RESTART_CODE, RESTARTING
from cardtable.server.hints import HINTS_PER_MINUTE
from cardtable.server.hub import Hub
from cardtable.server.leases import LEASE
from cardtable.server.limits import (
    MAX_BODY,
    BodyLimit,
    ConnectionLimit,
    CreationLimit,
    Limits,
    client_of,
)
from cardtable.server.loading import DAMAGED, QUARANTINED
from cardtable.server.metrics import CONTENT_TYPE
from cardtable.server.origins import SameOrigin, parse_origin
from cardtable.server.outages import outage
from cardtable.server.relay import RELAYED, relay
from cardtable.server.reviews import Reviewer
from cardtable.server.sockets import Connection
from cardtable.server.store import Owner, Store
from cardtable.server.table import TITLES, Table, TableError
from cardtable.server.thinking import HINT_NICENESS, pool
from cardtable.tutorial import tutorial_of

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "MAX_BODY",
    "MAX_DEPTH",
    "MAX_MESSAGE",
    "SECURITY_HEADERS",
    "create_app",
    "default_database_url",
    "parse_json",
]

log = logging.getLogger("cardtable.server")

MAX_MESSAGE = 4096  # bytes of one websocket message; every client message is far smaller
MAX_DEPTH = 16  # nesting of arrays and objects in a message or a body; the protocol needs 3
BYTE_ORDER_MARK = "\ufeff"
JSON_TYPE = "application/json"

# Every response's headers (docs/server.md, "Security headers"). The pages load their
# scripts, styles and locale files from the server alone and set no inline script or style
# attribute; the favicon is a data: URL. The websocket is the page's own origin ('self'
# covers ws: and wss: there).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
# FastAPI's API explorer is a page of inline scripts from a CDN: it keeps the other headers.
API_DOCS = "/api/docs"

# The ``error`` code of an HTTP error that no route answered itself.
HTTP_CODES = {
    400: "malformed",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    422: "malformed",
    429: "rate_limited",
    503: "unavailable",
}
# Seconds ``/health`` and ``/ready`` wait for the database's answer: a database that does
# not answer in that time is as good as down for the players.
DATABASE_CHECK_SECONDS = 3.0
# The close codes with which the websocket protocol fails a connection (transport.py), for
# the websocket errors' metric.
FAILED_CLOSES = {1007: "malformed", 1009: "too_large"}
WEB = Path(str(files("cardtable") / "web"))
# The header of a socket one server process relays to another (the table's owner).
RELAY_HEADER = "x-cardtable-relay"
PAGE_METHODS = ["GET", "HEAD"]

# The choices of each option that is not a flag, for the lobby's form.
CHOICES: dict[str, tuple[str, ...]] = {
    "trump_sequence": tuple(TRUMP_SEQUENCES),
    "trump_mode": tuple(TRUMP_MODES),
}


def default_database_url() -> str:
    """``CARDTABLE_DATABASE_URL``, else a SQLite file in the user's data directory."""
    url = os.environ.get("CARDTABLE_DATABASE_URL")
    if url:
        return url
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("cardtable"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'cardtable.db'}"


def describe_games() -> list[dict[str, Any]]:
    described = []
    for name in cardtable.games():
        kind = type(cardtable.make(name))
        defaults = getattr(kind, "defaults", {})
        options = []
        for option, default in defaults.items():
            if option in ("players", "dealer"):
                continue
            if isinstance(default, bool):
                options.append({"name": option, "kind": "flag", "default": default})
            else:
                choices = list(CHOICES.get(option, (default,)))
                options.append(
                    {"name": option, "kind": "choice", "choices": choices, "default": default}
                )
        described.append(
            {
                "name": name,
                "title": TITLES.get(name, name),
                "players": {
                    "min": kind.min_players,
                    "max": kind.max_players,
                    "default": defaults.get("players", kind.min_players),
                },
                "options": options,
                "levels": list(LEVELS),
            }
        )
    return described


def _wants_page(request: Request) -> bool:
    """Whether a request is a browser opening a page (not a script's fetch, not the API):
    a GET or HEAD that accepts HTML, of a path outside the API, the files and the socket."""
    path = request.url.path
    return (
        request.method in PAGE_METHODS
        and "text/html" in request.headers.get("accept", "")
        and not path.startswith(("/api/", "/static/", "/ws/"))
    )


def _not_found_page() -> Response:
    """The page of an address that leads nowhere: 404, HTML, in the reader's language."""
    return FileResponse(WEB / "notfound.html", status_code=404)


def _error(
    status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> Response:
    """The documented error body. Its JSON is ASCII: a message that quotes the request
    (a lone surrogate in a name) can always be sent."""
    body = json.dumps({"error": code, "message": message})
    return Response(body, status, headers, media_type="application/json")


def parse_json(data: str | bytes) -> Any:
    """A message or body read as JSON; :class:`TableError` ``malformed`` if it is not JSON
    (NaN and Infinity are not), not UTF-8, or nested more than :data:`MAX_DEPTH` deep. A
    leading byte-order mark is ignored (RFC 8259, 8.1 lets a parser do so), in a body and
    in a websocket's text frame alike."""
    try:
        # UTF-8 only (RFC 8259, 8.1), not the UTF-16 and -32 json.loads would guess at.
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(text.removeprefix(BYTE_ORDER_MARK), parse_constant=_not_json)
    except RecursionError:  # nested past the interpreter's own limit
        raise TableError("malformed", f"JSON nested more than {MAX_DEPTH} deep") from None
    except ValueError:  # includes bytes that are not UTF-8, and numbers of 4,300 digits
        raise TableError("malformed", "not JSON (RFC 8259, in UTF-8)") from None
    if _depth(value) > MAX_DEPTH:
        raise TableError("malformed", f"JSON nested more than {MAX_DEPTH} deep")
    return value


def _json_labelled(request: Request) -> bool:
    """Whether a request says its body is JSON: ``Content-Type: application/json``, with
    or without parameters (a charset, which RFC 8259 says changes nothing)."""
    kind = request.headers.get("content-type", "")
    return kind.split(";", 1)[0].strip().lower() == JSON_TYPE


def _unlabelled() -> Response:
    # A page of another site may send text/plain, or a form, without asking the server
    # first (no CORS preflight); only application/json needs the server's leave.
    log.info("request refused", extra={"code": "unsupported_media_type"})
    return _error(
        415,
        "unsupported_media_type",
        f"a request's body is JSON, sent with Content-Type: {JSON_TYPE}",
    )


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _depth(value: object) -> int:
    """How deep arrays and objects nest in a JSON value (a scalar: 0), without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                children = item.values() if isinstance(item, dict) else item
                stack.extend((child, depth + 1) for child in children)
    return deepest


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response (ASGI middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = str(scope.get("path", "")).startswith(API_DOCS)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if not (docs and name == "Content-Security-Policy"):
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, sending)


def create_app(
    database_url: str | None = None,
    *,
    grace: float = 60.0,
    bot_delay: float = 0.6,
    workers: int | None = None,
    hint_workers: int | None = None,
    executor: Executor | None = None,
    hint_executor: Executor | None = None,
    hints_per_minute: int = HINTS_PER_MINUTE,
    commit_patience: float = COMMIT_PATIENCE,
    full_collection_every: float | None = None,
    limits: Limits | None = None,
    lease: float = LEASE,
    peer_address: str | None = None,
    allowed_origins: Iterable[str] = (),
) -> FastAPI:
    """The web table on the database at ``database_url`` (see :func:`default_database_url`).

    ``grace``: seconds a disconnected player's turn waits before a stand-in bot plays;
    ``bot_delay``: seconds before each bot move, so people can follow the play;
    ``workers``: bot processes (the number of cores by default);
    ``hint_workers``: hint processes, apart from the bots' (a quarter of the cores, at
    least one); ``executor``, ``hint_executor``: pools to use instead of those processes;
    ``hints_per_minute``: the hints a seat may ask for in a minute;
    ``commit_patience``: seconds a commit is retried on a busy database before the change
    is refused as ``unavailable``;
    ``full_collection_every``: seconds between the garbage collector's full collections,
    which then never run on their own (``cardtable serve``: 600; see ``collector.py``);
    ``limits``: how far one client and the tables in memory may go (:class:`Limits`);
    ``lease``: seconds a table's lease lasts on a database several processes may share
    (PostgreSQL; docs/hosting.md, "Many processes"; SQLite is one process's, no leases);
    ``peer_address``: host:port at which the other processes reach this one, to relay the
    seats of its tables (``cardtable serve`` listens there too);
    ``allowed_origins``: the origins (``https://host[:port]``) of other sites whose pages
    may open tables and sockets here, besides the server's own (``origins.py``)."""
    url = database_url or default_database_url()
    limits = limits or Limits()
    allowed_origins = tuple(allowed_origins)
    for origin in allowed_origins:
        if parse_origin(origin) is None:
            raise ValueError(f"{origin!r} is not an origin: write https://host or http://host:port")
    creations = CreationLimit(limits.tables_per_minute, limits.clients)
    state: dict[str, Hub] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(url)
        cores = os.cpu_count() or 1
        bots = executor or pool(workers or cores)
        hints = hint_executor or pool(hint_workers or max(1, cores // 4), niceness=HINT_NICENESS)
        hub = state["hub"] = Hub(
            store,
            bots,
            hints,
            grace=grace,
            bot_delay=bot_delay,
            hints_per_minute=hints_per_minute,
            commit_patience=commit_patience,
            evict_after=limits.evict_after,
            lease=None if store.dialect == "sqlite" else lease,
            address=peer_address,
        )
        _app.state.hub = hub
        stored = hub.start()
        log.info(
            "server started",
            extra={
                "tables": stored,
                "quarantined": len(hub.quarantined),
                "database": store.dialect,
            },
        )
        try:
            if full_collection_every is None:
                yield
            else:
                with scheduled_full_collections(full_collection_every):
                    yield
        finally:
            # ``cardtable serve`` drains before it stops listening; here it is done already.
            await hub.drain(commit_patience + 1.0)
            await hub.close()
            for made, given in ((bots, executor), (hints, hint_executor)):
                if given is None:
                    made.shutdown(wait=False, cancel_futures=True)
            store.close()

    app = FastAPI(title="cardtable", lifespan=lifespan, docs_url=API_DOCS)
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    app.add_middleware(BodyLimit, limit=limits.max_body)
    app.add_middleware(SameOrigin, allowed=allowed_origins, limits=limits)
    if limits.client_header is not None and limits.connections_per_client > 0:
        # A trusted proxy's connections carry many clients: each one's requests and sockets
        # are counted here by the address the proxy writes (connections.py counts every
        # other connection by its address as it opens).
        peer_port = int(peer_address.rsplit(":", 1)[1]) if peer_address else None
        app.add_middleware(ConnectionLimit, limits=limits, exempt_port=peer_port)
    app.add_middleware(SecurityHeaders)

    # Every HTTP error has the documented shape, not FastAPI's {"detail": ...}; a browser
    # that opens a page nobody serves gets a page that says so.
    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 404 and _wants_page(request):
            return _not_found_page()
        code = HTTP_CODES.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail), exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> Response:
        return _error(400, "malformed", "the request's path or query is not valid")

    @app.exception_handler(SQLAlchemyError)
    async def database_error(_request: Request, exc: SQLAlchemyError) -> Response:
        refusal = _unavailable(hub(), exc)
        if refusal is None:
            raise exc  # an error of the data: a bug, answered as any other
        return _error(503, refusal.code, str(refusal), {"Retry-After": "1"})

    @app.exception_handler(Exception)
    async def server_error(_request: Request, exc: Exception) -> Response:
        # A bug, logged by the server with its traceback; the client still gets the shape.
        return _error(500, "server_error", "the server failed to answer; nothing was changed")

    def hub() -> Hub:
        return state["hub"]

    # Every page and every GET of the API answers HEAD too (FastAPI's routes answer only
    # the methods they name): a HEAD gets the GET's status and headers, without the body.
    # /health: the process is alive (a database that is down does not make it fail: a
    # restart would not bring the database back); /ready: it serves the players now.
    @app.api_route("/health", methods=PAGE_METHODS)
    async def health() -> dict[str, Any]:
        try:
            stored: int | None = await _count_tables(hub())
        except (SQLAlchemyError, TimeoutError):
            stored = None
        return {
            "status": "ok",
            "tables": stored,
            "loaded": len(hub().tables),
            "quarantined": len(hub().quarantined),
            "database": hub().store.dialect,
        }

    @app.api_route("/ready", methods=PAGE_METHODS)
    async def ready() -> Any:
        if hub().draining:
            return _unready("stopping", "the server is stopping; it takes no new table")
        metrics = hub().metrics
        try:
            stored = await _count_tables(hub())
            writable = await asyncio.wait_for(
                asyncio.to_thread(hub().store.writable), DATABASE_CHECK_SECONDS
            )
        except TimeoutError:
            metrics.database_up.set(0)
            return _unready(
                "database", f"the database did not answer in {DATABASE_CHECK_SECONDS:g} s"
            )
        except SQLAlchemyError as exc:
            metrics.database_up.set(0)
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
            why = reason[0] if reason else type(exc).__name__
            return _unready("database", f"the database is unreachable: {why}")
        if not writable:
            metrics.database_up.set(0)
            return _unready("database", "the database is read-only: it stores no change")
        metrics.database_answered()
        return {
            "status": "ready",
            "tables": stored,
            "loaded": len(hub().tables),
            "database": hub().store.dialect,
        }

    @app.api_route("/metrics", methods=PAGE_METHODS)
    async def metrics() -> Response:
        return Response(hub().metrics.exposition(), media_type=CONTENT_TYPE)

    @app.api_route("/", methods=PAGE_METHODS)
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "index.html")

    # A page's address that leads nowhere (a mistyped table link) is answered with a page,
    # in the reader's language, that says so and leads back to the lobby.
    @app.api_route("/t/{table_id}", methods=PAGE_METHODS)
    async def table_page(table_id: str) -> Any:
        if not await hub().known(table_id):
            return _not_found_page()
        return FileResponse(WEB / "table.html")

    @app.api_route("/rules/{game}", methods=PAGE_METHODS)
    async def rules_page(game: str) -> Any:
        if game not in cardtable.GAMES:
            return _not_found_page()
        return FileResponse(WEB / "rules.html")

    @app.api_route("/learn/{game}", methods=PAGE_METHODS)
    async def tutorial_page(game: str) -> Any:
        if game not in cardtable.GAMES:
            return _not_found_page()
        return FileResponse(WEB / "tutorial.html")

    @app.api_route("/api/tutorials", methods=PAGE_METHODS)
    async def tutorials() -> list[dict[str, Any]]:
        return [tutorial_of(name).describe() for name in cardtable.games()]

    @app.api_route("/api/tutorials/{game}", methods=PAGE_METHODS)
    async def describe_tutorial(game: str) -> Any:
        if game not in cardtable.GAMES:
            return _error(404, "unknown_game", f"there is no tutorial {game!r}")
        return tutorial_of(game).describe()

    @app.post("/api/tutorials/{game}", status_code=201)
    async def open_tutorial(game: str, request: Request) -> Any:
        # Not counted against the client's allowance of tables: a tutorial table is in
        # memory only, and the hub keeps a bounded number of them (hub.py).
        try:
            body = await request.body()  # BodyLimit refuses one over the limit as it arrives
        except ClientDisconnect:  # gone, or too slow (connections.py): nobody to answer
            return Response(status_code=400)
        if body.strip() and not _json_labelled(request):
            return _unlabelled()
        try:
            data = parse_json(body) if body.strip() else {}
            if not isinstance(data, dict):
                raise TableError("malformed", "the body is a JSON object")
            return await hub().open_tutorial(game, data.get("step", 0))
        except TableError as exc:
            log.info("tutorial refused", extra={"code": exc.code, "reason": str(exc)})
            status = {"unknown_game": 404, UNAVAILABLE: 503}.get(exc.code, 400)
            return _error(status, exc.code, str(exc))

    @app.api_route("/api/games", methods=PAGE_METHODS)
    async def games() -> list[dict[str, Any]]:
        return describe_games()

    @app.post("/api/tables", status_code=201)
    async def open_table(request: Request) -> Any:
        if not _json_labelled(request):
            return _unlabelled()
        client = client_of(request.scope, limits).address
        wait = creations.wait(client)
        if wait:
            log.info("table refused", extra={"code": "rate_limited", "client": client})
            return _error(
                429,
                "rate_limited",
                f"at most {limits.tables_per_minute:g} new tables a minute from one client; "
                f"try again in {CreationLimit.retry_after(wait)} s",
                {"Retry-After": CreationLimit.retry_after(wait)},
            )
        try:
            body = await request.body()  # BodyLimit refuses one over the limit as it arrives
        except HTTPException:
            creations.refund(client)
            raise
        except ClientDisconnect:  # gone, or too slow (connections.py): nobody to answer
            creations.refund(client)
            return Response(status_code=400)
        try:
            data = parse_json(body)
            if not isinstance(data, dict):
                raise TableError("malformed", "the body is a JSON object")
            return await hub().open(data.get("game"), data.get("options", {}), data.get("seats"))
        except TableError as exc:
            creations.refund(client)  # only tables opened count against the client
            log.info("table refused", extra={"code": exc.code, "reason": str(exc)})
            return _error(503 if exc.code == UNAVAILABLE else 400, exc.code, str(exc))

    @app.api_route("/api/tables/{table_id}", methods=PAGE_METHODS)
    async def describe_table(table_id: str) -> Any:
        try:
            table = await hub().find(table_id)
        except TableError as exc:
            return _error(503, exc.code, str(exc))
        if table is None:
            return _error(404, "no_table", f"there is no table {table_id!r}")
        return table.describe()

    @app.api_route("/api/tables/{table_id}/replay/{number}", methods=PAGE_METHODS)
    async def replay(table_id: str, number: str) -> Any:
        try:
            if not (number.isascii() and number.isdecimal() and len(number) < 10):
                if not await hub().known(table_id):
                    return _error(404, "no_table", f"there is no table {table_id!r}")
                raise TableError("no_game", f"a game is numbered from 1, not {number!r}")
            replayed = await hub().replay(table_id, int(number))
        except TableError as exc:
            status = {"not_over": 409, QUARANTINED: 503, DAMAGED: 503}.get(exc.code, 404)
            return _error(status, exc.code, str(exc))
        if replayed is None:
            return _error(404, "no_table", f"there is no table {table_id!r}")
        return replayed

    @app.websocket("/ws/{table_id}")
    async def play(socket: WebSocket, table_id: str) -> None:
        await socket.accept()
        if hub().draining:  # a proxy may still send one here: it goes to another server
            await socket.close(code=RESTART_CODE, reason=RESTARTING)
            return
        try:
            table = await _owned(hub(), socket, table_id)
            if table == RELAYED:
                return
        except TableError as exc:  # quarantined: its seats hear why, then the socket closes
            await socket.send_json({"type": "error", "code": exc.code, "message": str(exc)})
            await socket.close(code=4503, reason=exc.code)
            return
        if table is None:
            await socket.send_json(
                {"type": "error", "code": "no_table", "message": f"no table {table_id!r}"}
            )
            await socket.close(code=4404, reason="no_table")
            return
        assert not isinstance(table, str)
        connection = Connection(socket, table)
        hub().attach(connection)
        pump = _spawn(connection.pump())
        try:
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    failed = FAILED_CLOSES.get(message.get("code", 1000))
                    if failed is not None:
                        hub().metrics.websocket_errors.labels(code=failed).inc()
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                await _serve(hub(), connection, data)
        except WebSocketDisconnect:
            pass
        finally:
            hub().leave(connection)
            connection.close()
            pump.cancel()

    return app


async def _count_tables(hub: Hub) -> int:
    """The tables stored, read from the database: a real query on the schema; TimeoutError
    when the database does not answer in :data:`DATABASE_CHECK_SECONDS`."""
    return await asyncio.wait_for(asyncio.to_thread(hub.store.count), DATABASE_CHECK_SECONDS)


def _unready(reason: str, message: str) -> Response:
    body = json.dumps({"status": "unready", "reason": reason, "message": message})
    return Response(body, 503, media_type="application/json")


async def _owned(hub: Hub, socket: WebSocket, table_id: str) -> Table | str | None:
    """The table of a socket, if this process owns it (or takes it); :data:`RELAYED` once
    the socket was served by the process that owns it, relayed from here, or closed for its
    page to reconnect (:data:`RESTART_CODE`). An owner that does not answer is taken for
    dead: its table is taken over here at once (the guard on each commit holds should it be
    alive after all). A socket relayed here from another process is never relayed on: if
    this process no longer owns the table, the page reconnects and finds its owner from the
    start."""
    dead: str | None = None
    for _attempt in range(3):
        found = await hub.locate(table_id, dead)
        if not isinstance(found, Owner):
            return found
        if RELAY_HEADER in socket.headers:
            break
        if found.address is not None and await relay(
            socket, found.address, table_id, {RELAY_HEADER: hub.leases.process}
        ):
            return RELAYED
        log.warning(
            "owner not answering; taking its table over",
            extra={"table": table_id, "owner": found.process},
        )
        dead = found.process
    await socket.close(code=RESTART_CODE, reason=MOVED_AWAY)
    return RELAYED


async def _serve(hub: Hub, connection: Connection, data: str | bytes) -> None:
    """Answer one client message (a text frame, or a binary one holding UTF-8 text); every
    refusal goes to that client alone, and the connection stays open."""
    table = connection.table
    if hub.tables.get(table.id) is not table:
        return  # the table moved to another process: this socket is closing
    try:
        size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "replace"))
        if size > MAX_MESSAGE:
            raise TableError("too_large", f"a message is at most {MAX_MESSAGE} bytes")
        if not connection.admit():
            raise TableError("flood", "too many messages; at most 20 a second")
        message = parse_json(data)
        if not isinstance(message, dict):
            raise TableError("malformed", "a message is a JSON object")
        kind = message.get("type")
        if kind == "join":
            await hub.join(
                connection, message.get("token"), message.get("since"), message.get("seed")
            )
        elif kind == "action":
            await hub.act(connection, message.get("action"), message.get("seq"))
        elif kind == "hint":
            connection.send(await hub.hint(connection))
        elif kind == "next":
            await hub.next_game(connection)
        elif kind == "stand_in":
            await hub.stand_in(connection, message.get("seat"))
        elif kind == "review":
            await Reviewer.of(hub).ask(connection, message.get("game"))
        elif kind == "chat":
            Chat.of(hub).say(connection, message.get("id"))
        elif kind == "ping":
            connection.send({"type": "pong"})
        else:
            named = f" {kind!r}" if isinstance(kind, str) and len(kind) <= 40 else ""
            raise TableError("malformed", f"unknown message type{named}; see docs/server.md")
    except MovedError:
        pass  # the table moved to another process: this socket is closing
    except TableError as exc:
        log.info(
            "message refused",
            extra={"table": table.id, "seat": connection.seat, "code": exc.code},
        )
        hub.metrics.websocket_errors.labels(code=exc.code).inc()
        connection.send(exc.as_message())
    except Exception as exc:  # a bug: logged, answered, and the connection lives on
        refusal = _unavailable(hub, exc) if isinstance(exc, SQLAlchemyError) else None
        if refusal is not None:  # a read the database could not answer now
            hub.metrics.websocket_errors.labels(code=refusal.code).inc()
            connection.send(refusal.as_message())
            return
        log.exception("message failed", extra={"table": table.id, "seat": connection.seat})
        hub.metrics.websocket_errors.labels(code="server_error").inc()
        connection.send(
            {
                "type": "error",
                "code": "server_error",
                "message": "the server failed to answer this message",
            }
        )


def _unavailable(hub: Hub, exc: SQLAlchemyError) -> UnavailableError | None:
    """A read the database could not answer now (a join's older events, a stored review,
    whether a table exists): counted and logged as the writer's failures are, without a
    traceback, and answered ``unavailable``, to be asked again. None: an error of the data
    (``outages.py``), which is a bug."""
    kind = outage(exc)
    if kind is None:
        return None
    hub.metrics.database_failed(kind)
    reason = str(getattr(exc, "orig", None) or exc).strip()
    log.warning("database unavailable for a read", extra={"kind": kind, "reason": reason})
    return UnavailableError(
        "the database could not be read just now; nothing was changed: try again"
    )


_background: set[Any] = set()


def _spawn(coroutine: Any) -> Any:
    task = asyncio.get_running_loop().create_task(coroutine)
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task
