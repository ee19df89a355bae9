"""The FastAPI application of the web table: pages, the JSON API and the websocket.

``create_app`` builds it around a database URL, from the routes of each concern (``api.py``,
``pages.py``, ``play.py``, ``health.py``); ``cardtable serve`` runs it under uvicorn. The
protocol is in ``docs/server.md``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Iterable
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware

from cardtable.server.api import api_routes
from cardtable.server.collector import scheduled_full_collections
from cardtable.server.commits import COMMIT_PATIENCE, unavailable
from cardtable.server.headers import API_DOCS, SecurityHeaders
from cardtable.server.health import health_routes
from cardtable.server.hints import HINTS_PER_MINUTE
from cardtable.server.hub import Hub
from cardtable.server.leases import LEASE
from cardtable.server.limits import BodyLimit, ConnectionLimit, Limits
from cardtable.server.origins import SameOrigin, origin_text, parse_origin
from cardtable.server.pages import WEB, not_found_page, page_routes, wants_page
from cardtable.server.play import play_routes
from cardtable.server.player_api import player_routes
from cardtable.server.reviews import check_review_level
from cardtable.server.store import Store
from cardtable.server.thinking import HINT_NICENESS, pool
from cardtable.server.wire import error

__all__ = ["create_app", "default_database_url"]

log = logging.getLogger("cardtable.server")

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


def default_database_url() -> str:
    """``CARDTABLE_DATABASE_URL``, else a SQLite file in the user's data directory."""
    url = os.environ.get("CARDTABLE_DATABASE_URL")
    if url:
        return url
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("cardtable"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'cardtable.db'}"


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
    server_names: Iterable[str] = (),
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
    may open tables and sockets here, besides the server's own, and which are sent CORS
    headers; ``server_names``: the names (besides IP addresses and ``localhost``) that the
    server's own pages are served under (``origins.py``)."""
    url = database_url or default_database_url()
    limits = limits or Limits()
    allowed_origins = tuple(allowed_origins)
    parsed = [parse_origin(origin) for origin in allowed_origins]
    for origin, read in zip(allowed_origins, parsed, strict=True):
        if read is None:
            raise ValueError(f"{origin!r} is not an origin: write https://host or http://host:port")
    check_review_level()  # a review's budget that cannot be read fails now, not at each review
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
    app.add_middleware(
        SameOrigin, allowed=allowed_origins, limits=limits, server_names=server_names
    )
    if allowed_origins:
        # Outside the origin check: a preflight (OPTIONS) is answered for the allowed
        # origins alone, and their requests' answers carry the header that lets their
        # pages read them.
        app.add_middleware(
            CORSMiddleware,
            allow_origins=[origin_text(read) for read in parsed if read is not None],
            allow_methods=["GET", "POST"],
            allow_headers=["content-type"],
            max_age=600,
        )
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
        if exc.status_code == 404 and wants_page(request):
            return not_found_page()
        code = HTTP_CODES.get(exc.status_code, "http_error")
        return error(exc.status_code, code, str(exc.detail), exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> Response:
        return error(400, "malformed", "the request's path or query is not valid")

    @app.exception_handler(SQLAlchemyError)
    async def database_error(_request: Request, exc: SQLAlchemyError) -> Response:
        refusal = unavailable(hub().metrics, exc)
        if refusal is None:
            raise exc  # an error of the data: a bug, answered as any other
        return error(503, refusal.code, str(refusal), {"Retry-After": "1"})

    @app.exception_handler(Exception)
    async def server_error(_request: Request, exc: Exception) -> Response:
        # A bug, logged by the server with its traceback; the client still gets the shape.
        return error(500, "server_error", "the server failed to answer; nothing was changed")

    def hub() -> Hub:
        return state["hub"]

    app.include_router(health_routes(hub))
    app.include_router(page_routes(hub))
    app.include_router(api_routes(hub, limits))
    app.include_router(player_routes(hub, limits))
    app.include_router(play_routes(hub))
    return app
