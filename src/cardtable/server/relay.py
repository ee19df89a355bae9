"""A seat's socket relayed to the server process that owns its table.

Several processes may serve one database (docs/hosting.md, "Many processes"); a page may
reach any of them, but a table lives in one process's memory, its owner's. A process that
does not own the table opens a socket of its own to the owner's ``/ws/`` and copies the
messages both ways, unread: the owner answers everything (its limits, its refusals). When
the owner's socket ends, the page's socket ends with the same close code and reason; when
the owner died, with 1012 ("service restart"): the page reconnects and resumes from its last event
(``web/table.js``), and the process it reaches then takes the table over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from cardtable.server.draining import RESTART_CODE, RESTARTING

__all__ = ["CONNECT_WITHIN", "RELAYED", "relay"]

log = logging.getLogger("cardtable.server")

RELAYED = "relayed"
# Seconds the owner has to accept a relayed socket; one on the same network answers in
# milliseconds, so a process that takes longer is taken for dead.
CONNECT_WITHIN = 2.0
MAX_FRAME = 65536  # as transport.MAX_FRAME: the owner refuses anything larger itself
UNSENDABLE = frozenset({1005, 1006, 1015})  # close codes that only say a socket broke


async def relay(socket: WebSocket, address: str, table_id: str, headers: dict[str, str]) -> bool:
    """Serve ``socket`` (accepted) through the owner at ``address`` (host:port) until either
    side ends; False, the socket untouched, if the owner could not be reached."""
    try:
        upstream = await connect(
            f"ws://{address}/ws/{table_id}",
            additional_headers=headers,
            open_timeout=CONNECT_WITHIN,
            max_size=MAX_FRAME,
            ping_interval=None,  # the owner's lease says whether it lives, not pings
            compression=None,
        )
    except (OSError, TimeoutError, InvalidHandshake) as exc:
        log.warning("owner unreachable", extra={"table": table_id, "reason": str(exc)})
        return False
    up = asyncio.create_task(_upward(socket, upstream))
    down = asyncio.create_task(_downward(socket, upstream))
    try:
        await asyncio.wait({up, down}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (up, down):
            task.cancel()
        await asyncio.gather(up, down, return_exceptions=True)
        await upstream.close()
    code = upstream.close_code if down.done() and not down.cancelled() else None
    reason = upstream.close_reason or ""
    if code is None or code in UNSENDABLE:  # the owner's socket broke: it died
        code, reason = RESTART_CODE, RESTARTING
    with contextlib.suppress(Exception):  # the page may have gone already
        await socket.close(code, reason)
    return True


async def _upward(socket: WebSocket, upstream: ClientConnection) -> None:
    """The page's messages, to the owner."""
    with contextlib.suppress(WebSocketDisconnect, ConnectionClosed):
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            await upstream.send(text if text is not None else message.get("bytes") or b"")


async def _downward(socket: WebSocket, upstream: ClientConnection) -> None:
    """The owner's messages, to the page."""
    with contextlib.suppress(ConnectionClosed):
        async for message in upstream:
            if isinstance(message, str):
                await socket.send_text(message)
            else:
                await socket.send_bytes(message)
