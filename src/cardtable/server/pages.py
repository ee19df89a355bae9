"""The pages a browser opens: the lobby, a table, a game's rules, a tutorial, a player's
page, a game's leaderboard, and the page of an address that leads nowhere."""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

import cardtable
from cardtable.server.hub import Hub

__all__ = ["PAGE_METHODS", "WEB", "not_found_page", "page_routes", "wants_page"]

WEB = Path(str(files("cardtable") / "web"))
PAGE_METHODS = ["GET", "HEAD"]


def page_routes(hub: Callable[[], Hub]) -> APIRouter:
    """The routes of the pages, on the server's hub."""
    router = APIRouter()

    @router.api_route("/", methods=PAGE_METHODS)
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "index.html")

    # A page's address that leads nowhere (a mistyped table link) is answered with a page,
    # in the reader's language, that says so and leads back to the lobby.
    @router.api_route("/t/{table_id}", methods=PAGE_METHODS)
    async def table_page(table_id: str) -> Any:
        if not await hub().known(table_id):
            return not_found_page()
        return FileResponse(WEB / "table.html")

    @router.api_route("/rules/{game}", methods=PAGE_METHODS)
    async def rules_page(game: str) -> Any:
        if game not in cardtable.GAMES:
            return not_found_page()
        return FileResponse(WEB / "rules.html")

    @router.api_route("/learn/{game}", methods=PAGE_METHODS)
    async def tutorial_page(game: str) -> Any:
        if game not in cardtable.GAMES:
            return not_found_page()
        return FileResponse(WEB / "tutorial.html")

    # A player's page and the leaderboards read what they show from the API (a player that
    # does not exist is said so there, in the reader's language).
    @router.api_route("/players/{player_id}", methods=PAGE_METHODS)
    async def player_page(player_id: str) -> FileResponse:
        return FileResponse(WEB / "player.html")

    @router.api_route("/leaderboard", methods=PAGE_METHODS)
    async def leaderboards_page() -> FileResponse:
        return FileResponse(WEB / "leaderboard.html")

    @router.api_route("/leaderboard/{game}", methods=PAGE_METHODS)
    async def leaderboard_page(game: str) -> Any:
        if game not in cardtable.GAMES:
            return not_found_page()
        return FileResponse(WEB / "leaderboard.html")

    return router


def wants_page(request: Request) -> bool:
    """Whether a request is a browser opening a page (not a script's fetch, not the API):
    a GET or HEAD that accepts HTML, of a path outside the API, the files and the socket."""
    path = request.url.path
    return (
        request.method in PAGE_METHODS
        and "text/html" in request.headers.get("accept", "")
        and not path.startswith(("/api/", "/static/", "/ws/"))
    )


def not_found_page() -> Response:
    """The page of an address that leads nowhere: 404, HTML, in the reader's language."""
    return FileResponse(WEB / "notfound.html", status_code=404)
