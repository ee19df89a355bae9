"""The JSON API of players (docs/server.md, "Players"): making one, speaking as one, their
seats, passkeys, pages and the leaderboards.

A request speaks as a player with ``Authorization: Bearer <key>`` (``players.py``); one that
must and does not is refused ``401 not_signed_in``. Making a player counts against the
client's allowance of new tables, as opening a table does.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import ClientDisconnect

import cardtable
from cardtable.server.api import counted
from cardtable.server.commits import unavailable
from cardtable.server.hub import Hub
from cardtable.server.ladder import (
    history,
    leaderboard,
    levels,
    nearest_level,
    ratings_of,
    unfinished,
)
from cardtable.server.limits import Limits
from cardtable.server.pages import PAGE_METHODS
from cardtable.server.passkeys import (
    PasskeyError,
    register,
    registration_options,
    sign_in,
    sign_in_options,
    site_of,
)
from cardtable.server.players import (
    Player,
    bearer_key,
    claim_seat,
    new_player,
    player,
    player_of_key,
    rename,
)
from cardtable.server.table import Table, TableError, token_hash
from cardtable.server.wire import error, json_labelled, parse_json, unlabelled

__all__ = ["player_routes"]

log = logging.getLogger("cardtable.server")

T = TypeVar("T")

STATUS = {
    "not_signed_in": 401,
    "no_player": 404,
    "no_seat": 404,
    "seat_claimed": 409,
    "unknown_passkey": 404,
    "unknown_game": 404,
    "unavailable": 503,
}


def player_routes(hub: Callable[[], Hub], limits: Limits) -> APIRouter:
    """The players' routes, on the server's hub, within ``limits``."""
    router = APIRouter()

    async def read(work: Callable[[], T]) -> T:
        """A read of the database off the event loop; an unreachable one is refused."""
        try:
            return await asyncio.to_thread(work)
        except SQLAlchemyError as exc:
            refusal = unavailable(hub().metrics, exc)
            if refusal is None:
                raise
            raise refusal from None

    async def write(work: Callable[..., T]) -> T:
        return await hub().writer.patiently(work, hub().writer.aside)

    async def me(request: Request) -> Player:
        key = bearer_key(request.headers.get("authorization"))
        if key is None:
            raise TableError("not_signed_in", "this asks who you are: sign in as a player")
        found = await read(partial(player_of_key, hub().store, key))
        if found is None:
            raise TableError("not_signed_in", "no player holds this device's key")
        return found

    async def answered(request: Request, answer: Callable[[Any], Awaitable[Any]]) -> Any:
        """``answer`` the request's JSON body (None if empty); refusals as the API's."""
        if request.method not in PAGE_METHODS and not json_labelled(request):
            return unlabelled()
        try:
            body = await request.body()
        except ClientDisconnect:
            return Response(status_code=400)
        try:
            data = parse_json(body) if body.strip() else None
            return await answer(data)
        except (TableError, PasskeyError) as exc:
            log.info("player request refused", extra={"code": exc.code, "reason": str(exc)})
            return error(STATUS.get(exc.code, 400), exc.code, str(exc))

    def name_in(data: Any) -> str:
        if not isinstance(data, dict):
            raise TableError("malformed", "the body is a JSON object")
        name = Table.check_name(data.get("name"), "", "malformed")
        if name is None or not name.strip():
            raise TableError("malformed", "a player has a name")
        return name.strip()

    @router.post("/api/players", status_code=201)
    async def make_player(request: Request) -> Any:
        async def made(data: dict[str, Any]) -> Any:
            name = name_in(data)
            found, key = await write(partial(new_player, hub().store, name))
            log.info("player made")  # by no id: a log line names no player
            return {"player": found.id, "name": found.name, "key": key}

        return await counted(hub, limits, request, "player", made)

    @router.api_route("/api/players/me", methods=PAGE_METHODS)
    async def who_am_i(request: Request) -> Any:
        async def answer(_data: Any) -> Any:
            found = await me(request)
            return {"player": found.id, "name": found.name}

        return await answered(request, answer)

    @router.post("/api/players/me/name")
    async def rename_me(request: Request) -> Any:
        async def answer(data: Any) -> Any:
            found = await me(request)
            name = name_in(data)
            await write(partial(rename, hub().store, found.id, name))
            return {"player": found.id, "name": name}

        return await answered(request, answer)

    @router.api_route("/api/players/me/tables", methods=PAGE_METHODS)
    async def my_tables(request: Request) -> Any:
        async def answer(_data: Any) -> Any:
            found = await me(request)
            return await read(partial(unfinished, hub().store, found.id))

        return await answered(request, answer)

    @router.post("/api/players/me/tables/{table_id}/seats/{seat}")
    async def rejoin(table_id: str, seat: str, request: Request) -> Any:
        async def answer(_data: Any) -> Any:
            found = await me(request)
            if not (seat.isascii() and seat.isdecimal() and len(seat) < 4):
                raise TableError("no_seat", f"there is no seat {seat!r}")
            invite = await hub().move_seat(table_id, int(seat), found.id)
            return {"table": table_id, "seat": int(seat), "invite": invite}

        return await answered(request, answer)

    @router.api_route("/api/players/{player_id}", methods=PAGE_METHODS)
    async def player_page(player_id: str, request: Request) -> Any:
        async def answer(_data: Any) -> Any:
            store = hub().store
            found = await read(partial(player, store, player_id))
            if found is None:
                raise TableError("no_player", "there is no such player")
            ratings = await read(partial(ratings_of, store, player_id))
            games = await read(partial(history, store, player_id))
            return {
                "player": found.id,
                "name": found.name,
                "since": found.created,
                "ratings": [
                    {**r.describe(), "near": nearest_level(r, levels(r.game))} for r in ratings
                ],
                "games": games,
            }

        return await answered(request, answer)

    @router.api_route("/api/leaderboard/{game}", methods=PAGE_METHODS)
    async def leaders(game: str, request: Request) -> Any:
        async def answer(_data: Any) -> Any:
            if game not in cardtable.GAMES:
                raise TableError("unknown_game", f"unknown game {game!r}")
            entries = await read(partial(leaderboard, hub().store, game))
            return {"game": game, "entries": entries}

        return await answered(request, answer)

    @router.post("/api/tables/{table_id}/seats/{seat}/player")
    async def claim(table_id: str, seat: str, request: Request) -> Any:
        async def answer(data: Any) -> Any:
            found = await me(request)
            token = data.get("token") if isinstance(data, dict) else None
            if not isinstance(token, str) or not (seat.isascii() and seat.isdecimal()):
                raise TableError("malformed", 'the body is the seat\'s token: {"token": ...}')
            holder = await write(
                partial(claim_seat, hub().store, table_id, int(seat), token_hash(token), found.id)
            )
            if holder is None:
                raise TableError("no_seat", f"table {table_id} has no seat {seat} with that token")
            if holder != found.id:
                raise TableError("seat_claimed", f"seat {seat} is another player's")
            return {"table": table_id, "seat": int(seat), "player": found.id}

        return await answered(request, answer)

    @router.post("/api/passkeys/options")
    async def passkey_options(request: Request) -> Any:
        async def answer(_data: Any) -> Any:
            found = await me(request)
            site = site_of(request.headers.get("origin"))
            text = await write(partial(registration_options, hub().store, site, found))
            return Response(text, media_type="application/json")

        return await answered(request, answer)

    @router.post("/api/passkeys", status_code=201)
    async def add_passkey(request: Request) -> Any:
        async def answer(data: Any) -> Any:
            found = await me(request)
            site = site_of(request.headers.get("origin"))
            made = await write(partial(register, hub().store, site, found, data))
            log.info("passkey added")
            return {"passkey": made}

        return await answered(request, answer)

    @router.post("/api/sign-in/options")
    async def signing_in(request: Request) -> Any:
        async def answer(_data: Any) -> Any:
            site = site_of(request.headers.get("origin"))
            return Response(
                await write(partial(sign_in_options, hub().store, site)),
                media_type="application/json",
            )

        return await answered(request, answer)

    @router.post("/api/sign-in")
    async def signed_in(request: Request) -> Any:
        async def answer(data: Any) -> Any:
            site = site_of(request.headers.get("origin"))
            found, key = await write(partial(sign_in, hub().store, site, data))
            log.info("player signed in")
            return {"player": found.id, "name": found.name, "key": key}

        return await answered(request, answer)

    return router
