"""The JSON API of the lobby: the games and their options, tables opened, described and
replayed, and the tutorials (docs/server.md)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect

import cardtable
from cardtable.bots.base import LEVELS
from cardtable.bots.ratings import level_ratings, rated_players
from cardtable.rules.kryt_navalivat.game import TRUMP_MODES
from cardtable.rules.neuf.ledger import TRUMP_SEQUENCES
from cardtable.server.commits import UNAVAILABLE, unavailable
from cardtable.server.hub import Hub
from cardtable.server.limits import CreationLimit, Limits, client_of
from cardtable.server.loading import DAMAGED, QUARANTINED
from cardtable.server.pages import PAGE_METHODS
from cardtable.server.table import TableError
from cardtable.server.wire import error, json_labelled, parse_json, unlabelled
from cardtable.tutorial import tutorial_of

__all__ = ["CHOICES", "api_routes", "counted", "describe_games"]

log = logging.getLogger("cardtable.server")

# A quick match's wait for people (seconds) and the bots' level after it, unless asked.
QUICK_WAIT = 30
QUICK_LEVEL = "medium"

# The choices of each option that is not a flag, for the lobby's form.
CHOICES: dict[str, tuple[str, ...]] = {
    "trump_sequence": tuple(TRUMP_SEQUENCES),
    "trump_mode": tuple(TRUMP_MODES),
}


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
                "title": cardtable.GAMES[name].title,
                "players": {
                    "min": kind.min_players,
                    "max": kind.max_players,
                    "default": defaults.get("players", kind.min_players),
                },
                "options": options,
                "levels": list(LEVELS),
                # How strong each level is, and a random player for scale, on one scale
                # (benchmarks/ratings.py); empty for a game not rated yet.
                "ratings": level_ratings(name),
                "ratings_players": rated_players(name),
            }
        )
    return described


async def counted(
    hub: Callable[[], Hub],
    limits: Limits,
    request: Request,
    what: str,
    answer: Callable[[dict[str, Any]], Awaitable[Any]],
) -> Any:
    """``answer`` the request's JSON object, counted against the client's allowance of
    tables (a table opened, an open seat taken, a player made): refused 429 past it; given
    back if the request is refused for what it asked."""
    if not json_labelled(request):
        return unlabelled()
    client = client_of(request.scope, limits).address
    per_minute = limits.tables_per_minute

    async def refund() -> None:
        if per_minute > 0:
            await hub().refund_creation(client, per_minute)

    try:
        wait = await hub().creation_wait(client, per_minute) if per_minute > 0 else 0.0
    except TableError as exc:
        return error(503, exc.code, str(exc))
    if wait:
        log.info(f"{what} refused", extra={"code": "rate_limited", "client": client})
        return error(
            429,
            "rate_limited",
            f"at most {limits.tables_per_minute:g} new tables or seats a minute from one "
            f"client; try again in {CreationLimit.retry_after(wait)} s",
            {"Retry-After": CreationLimit.retry_after(wait)},
        )
    try:
        body = await request.body()  # BodyLimit refuses one over the limit as it arrives
    except HTTPException:
        await refund()
        raise
    except ClientDisconnect:  # gone, or too slow (connections.py): nobody to answer
        await refund()
        return Response(status_code=400)
    try:
        data = parse_json(body)
        if not isinstance(data, dict):
            raise TableError("malformed", "the body is a JSON object")
        return await answer(data)
    except TableError as exc:
        # Only what was given counts against the client (a table the database could not
        # store is given back too).
        await refund()
        log.info(f"{what} refused", extra={"code": exc.code, "reason": str(exc)})
        status = {UNAVAILABLE: 503, "no_table": 404, "seat_taken": 409}.get(exc.code, 400)
        return error(status, exc.code, str(exc))


def api_routes(hub: Callable[[], Hub], limits: Limits) -> APIRouter:
    """The routes of the JSON API, on the server's hub, within ``limits`` (the tables each
    client opens are counted in the database: :meth:`Hub.creation_wait`)."""
    router = APIRouter()

    @router.api_route("/api/tutorials", methods=PAGE_METHODS)
    async def tutorials() -> list[dict[str, Any]]:
        return [tutorial_of(name).describe() for name in cardtable.games()]

    @router.api_route("/api/tutorials/{game}", methods=PAGE_METHODS)
    async def describe_tutorial(game: str) -> Any:
        if game not in cardtable.GAMES:
            return error(404, "unknown_game", f"there is no tutorial {game!r}")
        return tutorial_of(game).describe()

    @router.post("/api/tutorials/{game}", status_code=201)
    async def open_tutorial(game: str, request: Request) -> Any:
        # Not counted against the client's allowance of tables: a tutorial table is in
        # memory only, and the hub keeps a bounded number of them (hub.py).
        try:
            body = await request.body()  # BodyLimit refuses one over the limit as it arrives
        except ClientDisconnect:  # gone, or too slow (connections.py): nobody to answer
            return Response(status_code=400)
        if body.strip() and not json_labelled(request):
            return unlabelled()
        try:
            data = parse_json(body) if body.strip() else {}
            if not isinstance(data, dict):
                raise TableError("malformed", "the body is a JSON object")
            return await hub().open_tutorial(game, data.get("step", 0))
        except TableError as exc:
            log.info("tutorial refused", extra={"code": exc.code, "reason": str(exc)})
            status = {"unknown_game": 404, UNAVAILABLE: 503}.get(exc.code, 400)
            return error(status, exc.code, str(exc))

    @router.api_route("/api/games", methods=PAGE_METHODS)
    async def games() -> list[dict[str, Any]]:
        return describe_games()

    @router.post("/api/tables", status_code=201)
    async def open_table(request: Request) -> Any:
        return await counted(
            hub,
            limits,
            request,
            "table",
            lambda data: hub().open(data.get("game"), data.get("options", {}), data.get("seats")),
        )

    @router.api_route("/api/open-tables", methods=PAGE_METHODS)
    async def open_tables(game: str | None = None) -> Any:
        if game is not None and game not in cardtable.GAMES:
            return error(404, "unknown_game", f"unknown game {game!r}")
        try:
            return await hub().open_tables(game)
        except SQLAlchemyError as exc:
            refusal = unavailable(hub().metrics, exc)
            if refusal is None:
                raise
            return error(503, refusal.code, str(refusal))

    @router.post("/api/quick-match", status_code=201)
    async def quick_match(request: Request) -> Any:
        return await counted(
            hub,
            limits,
            request,
            "quick match",
            lambda data: hub().quick_match(
                data.get("game"),
                data.get("players"),
                data.get("wait", QUICK_WAIT),
                data.get("level", QUICK_LEVEL),
                data.get("name"),
            ),
        )

    @router.post("/api/tables/{table_id}/seats/{seat}", status_code=201)
    async def take_seat(table_id: str, seat: str, request: Request) -> Any:
        number = int(seat) if seat.isascii() and seat.isdecimal() and len(seat) < 4 else seat
        return await counted(
            hub,
            limits,
            request,
            "seat",
            lambda data: hub().take_seat(table_id, number, data.get("name")),
        )

    @router.api_route("/api/tables/{table_id}", methods=PAGE_METHODS)
    async def describe_table(table_id: str) -> Any:
        try:
            table = await hub().find(table_id)
        except TableError as exc:
            return error(503, exc.code, str(exc))
        if table is None:
            return error(404, "no_table", f"there is no table {table_id!r}")
        return table.describe()

    @router.api_route("/api/tables/{table_id}/replay/{number}", methods=PAGE_METHODS)
    async def replay(table_id: str, number: str) -> Any:
        try:
            if not (number.isascii() and number.isdecimal() and len(number) < 10):
                if not await hub().known(table_id):
                    return error(404, "no_table", f"there is no table {table_id!r}")
                raise TableError("no_game", f"a game is numbered from 1, not {number!r}")
            replayed = await hub().replay(table_id, int(number))
        except TableError as exc:
            status = {"not_over": 409, QUARANTINED: 503, DAMAGED: 503}.get(exc.code, 404)
            return error(status, exc.code, str(exc))
        if replayed is None:
            return error(404, "no_table", f"there is no table {table_id!r}")
        return replayed

    return router
