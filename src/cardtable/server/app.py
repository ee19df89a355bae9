"""The FastAPI application of the web table: pages, the JSON API and the websocket.

``create_app`` builds it around a database URL; ``cardtable serve`` runs it under uvicorn.
The protocol is in ``docs/server.md``.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

import cardtable
from cardtable.bots.base import LEVELS
from cardtable.rules.kryt_navalivat.game import TRUMP_MODES
from cardtable.rules.neuf.ledger import TRUMP_SEQUENCES
from cardtable.server.collector import scheduled_full_collections
from cardtable.server.hub import Connection, Hub
from cardtable.server.store import Store
from cardtable.server.table import TITLES, TableError

__all__ = ["MAX_MESSAGE", "create_app", "default_database_url"]

log = logging.getLogger("cardtable.server")

MAX_MESSAGE = 4096  # bytes of one websocket message; every client message is far smaller
MAX_BODY = 16384
WEB = Path(str(files("cardtable") / "web"))

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


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def create_app(
    database_url: str | None = None,
    *,
    grace: float = 60.0,
    bot_delay: float = 0.6,
    workers: int | None = None,
    executor: Executor | None = None,
    full_collection_every: float | None = None,
) -> FastAPI:
    """The web table on the database at ``database_url`` (see :func:`default_database_url`).

    ``grace``: seconds a disconnected player's turn waits before a stand-in bot plays;
    ``bot_delay``: seconds before each bot move, so people can follow the play;
    ``workers``: bot processes (the number of cores by default);
    ``full_collection_every``: seconds between the garbage collector's full collections,
    which then never run on their own (``cardtable serve``: 600; see ``collector.py``)."""
    url = database_url or default_database_url()
    state: dict[str, Hub] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(url)
        # forkserver: the workers start from a clean process, not a copy of the server's threads.
        pool = executor or ProcessPoolExecutor(
            max_workers=workers or os.cpu_count() or 1,
            mp_context=multiprocessing.get_context("forkserver"),
        )
        hub = state["hub"] = Hub(store, pool, grace=grace, bot_delay=bot_delay)
        restored = hub.restore()
        log.info("server started", extra={"tables": restored, "database": store.dialect})
        for table in hub.tables.values():
            hub.poke(table)
        try:
            if full_collection_every is None:
                yield
            else:
                with scheduled_full_collections(full_collection_every):
                    yield
        finally:
            await hub.close()
            if executor is None:
                pool.shutdown(wait=False, cancel_futures=True)
            store.close()

    app = FastAPI(title="cardtable", lifespan=lifespan, docs_url="/api/docs")
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def hub() -> Hub:
        return state["hub"]

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "tables": len(hub().tables), "database": hub().store.dialect}

    @app.get("/")
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/t/{table_id}")
    async def table_page(table_id: str) -> Any:
        if table_id not in hub().tables:
            return _error(404, "no_table", f"there is no table {table_id!r}")
        return FileResponse(WEB / "table.html")

    @app.get("/rules/{game}")
    async def rules_page(game: str) -> Any:
        if game not in cardtable.GAMES:
            return _error(404, "unknown_game", f"unknown game {game!r}")
        return FileResponse(WEB / "rules.html")

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return describe_games()

    @app.post("/api/tables", status_code=201)
    async def open_table(request: Request) -> Any:
        body = await request.body()
        if len(body) > MAX_BODY:
            return _error(413, "too_large", f"a request is at most {MAX_BODY} bytes")
        try:
            data = json.loads(body)
        except ValueError:
            return _error(400, "malformed", "the body is not JSON")
        if not isinstance(data, dict):
            return _error(400, "malformed", "the body is a JSON object")
        try:
            return await hub().open(data.get("game"), data.get("options", {}), data.get("seats"))
        except TableError as exc:
            log.info("table refused", extra={"code": exc.code, "reason": str(exc)})
            return _error(400, exc.code, str(exc))

    @app.get("/api/tables/{table_id}")
    async def describe_table(table_id: str) -> Any:
        table = hub().tables.get(table_id)
        if table is None:
            return _error(404, "no_table", f"there is no table {table_id!r}")
        return table.describe()

    @app.get("/api/tables/{table_id}/replay/{number}")
    async def replay(table_id: str, number: int) -> Any:
        table = hub().tables.get(table_id)
        if table is None:
            return _error(404, "no_table", f"there is no table {table_id!r}")
        try:
            return table.replay(number)
        except TableError as exc:
            return _error(409 if exc.code == "not_over" else 404, exc.code, str(exc))

    @app.websocket("/ws/{table_id}")
    async def play(socket: WebSocket, table_id: str) -> None:
        await socket.accept()
        table = hub().tables.get(table_id)
        if table is None:
            await socket.send_json(
                {"type": "error", "code": "no_table", "message": f"no table {table_id!r}"}
            )
            await socket.close(code=4404)
            return
        connection = Connection(socket, table)
        hub().attach(connection)
        pump = _spawn(connection.pump())
        try:
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = (message.get("bytes") or b"").decode("utf-8", "replace")
                await _serve(hub(), connection, text)
        except WebSocketDisconnect:
            pass
        finally:
            hub().leave(connection)
            connection.close()
            pump.cancel()

    return app


async def _serve(hub: Hub, connection: Connection, text: str) -> None:
    """Answer one client message; every refusal goes to that client alone."""
    table = connection.table
    try:
        if len(text.encode()) > MAX_MESSAGE:
            raise TableError("too_large", f"a message is at most {MAX_MESSAGE} bytes")
        if not connection.admit():
            raise TableError("flood", "too many messages; at most 20 a second")
        try:
            message = json.loads(text)
        except ValueError:
            raise TableError("malformed", "a message is a JSON object") from None
        if not isinstance(message, dict):
            raise TableError("malformed", "a message is a JSON object")
        kind = message.get("type")
        if kind == "join":
            await hub.join(connection, message.get("token"), message.get("since"))
        elif kind == "action":
            await hub.act(connection, message.get("action"), message.get("seq"))
        elif kind == "hint":
            connection.send(await hub.hint(connection))
        elif kind == "next":
            await hub.next_game(connection)
        elif kind == "ping":
            connection.send({"type": "pong"})
        else:
            raise TableError("malformed", f"unknown message type {kind!r}; see docs/server.md")
    except TableError as exc:
        log.info(
            "message refused",
            extra={"table": table.id, "seat": connection.seat, "code": exc.code},
        )
        connection.send({"type": "error", "code": exc.code, "message": str(exc)})


_background: set[Any] = set()


def _spawn(coroutine: Any) -> Any:
    import asyncio

    task = asyncio.get_running_loop().create_task(coroutine)
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task
