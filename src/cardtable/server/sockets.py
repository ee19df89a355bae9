"""One websocket at a table: its queue of messages out, sent in order by a pump of its own,
and its allowance of messages in."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

from cardtable.server.table import Table, compact

__all__ = ["Connection"]


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

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(compact(message))

    def send_text(self, text: str) -> None:
        self.outbox.put_nowait(text)

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
            await self.socket.send_text(text)
