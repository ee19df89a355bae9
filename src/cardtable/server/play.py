"""The websocket at a table (docs/server.md): a seat's or a spectator's socket, served here
if this process owns the table, else relayed to the process that does, and each of its
messages answered."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketDisconnect

from cardtable.server.chat import Chat as ChatRoom
from cardtable.server.commits import MovedError, unavailable
from cardtable.server.draining import MOVED_AWAY, RESTART_CODE, RESTARTING
from cardtable.server.hub import Hub
from cardtable.server.messages import (
    Act,
    Chat,
    Hint,
    Join,
    Next,
    Ping,
    Review,
    StandIn,
    parse_message,
)
from cardtable.server.relay import RELAYED, relay
from cardtable.server.reviews import Reviewer
from cardtable.server.sockets import Connection
from cardtable.server.store import Owner
from cardtable.server.table import Table, TableError

__all__ = ["FAILED_CLOSES", "MAX_MESSAGE", "RELAY_HEADER", "play_routes"]

log = logging.getLogger("cardtable.server")

MAX_MESSAGE = 4096  # bytes of one websocket message; every client message is far smaller
# The close codes with which the websocket protocol fails a connection (transport.py), for
# the websocket errors' metric.
FAILED_CLOSES = {1007: "malformed", 1009: "too_large"}
# The closes that say all went well: normal, going away (a page left), no code given.
CLEAN_CLOSES = (1000, 1001, 1005)
# The header of a socket one server process relays to another (the table's owner).
RELAY_HEADER = "x-cardtable-relay"


def play_routes(hub: Callable[[], Hub]) -> APIRouter:
    """The route of the websocket, on the server's hub."""
    router = APIRouter()

    @router.websocket("/ws/{table_id}")
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
        pump = connection.pump_task = _spawn(connection.pump())
        try:
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    code = message.get("code", 1000)
                    failed = FAILED_CLOSES.get(code)
                    if failed is not None:
                        hub().metrics.websocket_errors.labels(code=failed).inc()
                    if code not in CLEAN_CLOSES:
                        # Said whoever chose it: the client, or the protocol (1011: a ping
                        # the client never answered; 1006: the connection broke).
                        reason = str(message.get("reason") or "")[:200]
                        log.info(
                            "socket closed",
                            extra={
                                "table": table.id,
                                "seat": connection.seat,
                                "close_code": code,
                                "reason": reason,
                            },
                        )
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
            if connection.pump_task is not pump and connection.pump_task is not None:
                connection.pump_task.cancel()  # a close of a socket behind, still waiting

    return router


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
    if connection.closing is not None:
        return  # closing (behind, or told to connect again): nothing more is served
    try:
        size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "replace"))
        if size > MAX_MESSAGE:
            raise TableError("too_large", f"a message is at most {MAX_MESSAGE} bytes")
        if not connection.admit():
            raise TableError("flood", "too many messages; at most 20 a second")
        match parse_message(data):
            case Join(token, since, seed):
                await hub.join(connection, token, since, seed)
            case Act(action, seq):
                await hub.act(connection, action, seq)
            case Hint():
                connection.send(await hub.hint(connection))
            case Next():
                await hub.next_game(connection)
            case StandIn(seat):
                await hub.stand_in(connection, seat)
            case Review(game):
                await Reviewer.of(hub).ask(connection, game)
            case Chat(preset):
                ChatRoom.of(hub).say(connection, preset)
            case Ping():
                connection.send({"type": "pong"})
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
        refusal = unavailable(hub.metrics, exc) if isinstance(exc, SQLAlchemyError) else None
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


_background: set[Any] = set()


def _spawn(coroutine: Any) -> Any:
    task = asyncio.get_running_loop().create_task(coroutine)
    _background.add(task)
    task.add_done_callback(_background.discard)
    return task
