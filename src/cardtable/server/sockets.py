"""One websocket at a table: its queue of messages out, sent in order by a pump of its own,
and its allowance of messages in.

The queue is bounded by what it holds (:data:`OUTBOX_BYTES`): a client that asks and does
not read (its socket's buffers full, the pump waiting on it) would otherwise have the server
keep every answer for it. One that falls that far behind is closed (``4008 behind``: its
page connects again and asks for what it missed), what was queued for it is dropped, and
its messages after that are not served."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

from cardtable.server.table import Table, compact

__all__ = ["BEHIND", "BEHIND_CODE", "OUTBOX_BYTES", "Connection"]

log = logging.getLogger("cardtable.server")

OUTBOX_BYTES = 1 << 20  # characters queued for one socket before it is closed as behind
BEHIND_CODE, BEHIND = 4008, "behind"  # the close: too far behind; connect again
CLOSE_SECONDS = 5.0  # the longest a close of a socket that reads nothing is waited for


@dataclass(eq=False)
class Connection:
    """One websocket at a table: a seat's, or a spectator's (``seat`` None)."""

    socket: WebSocket
    table: Table
    seat: int | None = None
    joined: bool = False
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    # A token bucket against floods: 20 messages a second, bursts of 40.
    allowance: float = 40.0
    checked: float = field(default_factory=time.monotonic)
    # The close code and reason the pump closes with (RESTART_CODE: connect again).
    closing: tuple[int, str] | None = None
    queued: int = 0  # characters in the outbox
    pump_task: asyncio.Task[None] | None = None  # the pump, once started

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(compact(message))

    def send_text(self, text: str) -> None:
        if self.closing is not None:
            return  # closing: nothing more is sent
        if self.queued + len(text) > OUTBOX_BYTES:
            self.fall_behind()
            return
        self.queued += len(text)
        self.outbox.put_nowait(text)

    def fall_behind(self) -> None:
        """Close a socket that reads too slowly for what it is sent: drop its queue, stop
        its pump (which may be waiting on the socket for good) and close it."""
        self.closing = (BEHIND_CODE, BEHIND)
        log.warning(
            "socket behind",
            extra={"table": self.table.id, "seat": self.seat, "queued": self.queued},
        )
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.queued = 0
        if self.pump_task is not None:
            self.pump_task.cancel()
        self.pump_task = asyncio.get_running_loop().create_task(self._hang_up())

    async def _hang_up(self) -> None:
        # The close frame may wait on the same full buffer: bounded, then given up (the
        # server's websocket protocol drops the connection when its own close times out).
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.socket.close(BEHIND_CODE, BEHIND), CLOSE_SECONDS)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the socket once the messages queued before are sent (with the code of the
        first close asked for)."""
        if self.closing is None:
            self.closing = (code, reason)
        self.outbox.put_nowait(None)

    def admit(self) -> bool:
        """Whether one more message fits in the flood limit."""
        now = time.monotonic()
        self.allowance = min(40.0, self.allowance + (now - self.checked) * 20.0)
        self.checked = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True

    async def pump(self) -> None:
        """Send queued messages in order, so a slow client never holds up a broadcast."""
        while True:
            text = await self.outbox.get()
            if text is None:
                await self.socket.close(*(self.closing or (1000, "")))
                return
            self.queued -= len(text)
            await self.socket.send_text(text)
