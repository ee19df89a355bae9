"""Whether the server is alive (``/health``), whether it serves the players now
(``/ready``), and its metrics (``/metrics``): for a load balancer, an orchestrator and a
monitor (docs/hosting.md)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from sqlalchemy.exc import SQLAlchemyError

from cardtable.server.hub import Hub
from cardtable.server.metrics import CONTENT_TYPE
from cardtable.server.pages import PAGE_METHODS

__all__ = ["DATABASE_CHECK_SECONDS", "health_routes"]

# Seconds ``/health`` and ``/ready`` wait for the database's answer: a database that does
# not answer in that time is as good as down for the players.
DATABASE_CHECK_SECONDS = 3.0


def health_routes(hub: Callable[[], Hub]) -> APIRouter:
    """The routes of ``/health``, ``/ready`` and ``/metrics``, on the server's hub."""
    router = APIRouter()

    # Every page and every GET of the API answers HEAD too (FastAPI's routes answer only
    # the methods they name): a HEAD gets the GET's status and headers, without the body.
    # /health: the process is alive (a database that is down does not make it fail: a
    # restart would not bring the database back); /ready: it serves the players now.
    @router.api_route("/health", methods=PAGE_METHODS)
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

    @router.api_route("/ready", methods=PAGE_METHODS)
    async def ready() -> Any:
        if hub().draining:
            return _unready("stopping", "the server is stopping; it takes no new table")
        metrics = hub().metrics
        try:
            stored = await _count_tables(hub())
            unwritable = await asyncio.wait_for(
                asyncio.to_thread(hub().store.unwritable), DATABASE_CHECK_SECONDS
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
        if unwritable is not None:
            metrics.database_up.set(0)
            return _unready("database", UNWRITABLE[unwritable])
        metrics.database_answered()
        return {
            "status": "ready",
            "tables": stored,
            "loaded": len(hub().tables),
            "database": hub().store.dialect,
        }

    @router.api_route("/metrics", methods=PAGE_METHODS)
    async def metrics() -> Response:
        return Response(hub().metrics.exposition(), media_type=CONTENT_TYPE)

    return router


async def _count_tables(hub: Hub) -> int:
    """The tables stored, read from the database: a real query on the schema; TimeoutError
    when the database does not answer in :data:`DATABASE_CHECK_SECONDS`."""
    return await asyncio.wait_for(asyncio.to_thread(hub.store.count), DATABASE_CHECK_SECONDS)


UNWRITABLE = {
    "read-only": "the database is read-only: it stores no change",
    "locked": "another process holds the database's write lock: it stores no change now",
}


def _unready(reason: str, message: str) -> Response:
    body = json.dumps({"status": "unready", "reason": reason, "message": message})
    return Response(body, 503, media_type="application/json")
