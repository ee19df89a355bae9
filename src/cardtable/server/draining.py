"""A server that stops as one being restarted should: it takes no new table nor change (both
are refused ``unavailable``, and ``/ready`` answers 503), waits for the changes under way
to be committed and announced, and tells every socket to connect again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager

from cardtable.server.commits import UnavailableError
from cardtable.server.sockets import Connection

__all__ = ["MOVED_AWAY", "RESTARTING", "RESTART_CODE", "Draining", "restart"]

log = logging.getLogger("cardtable.server")

# The close code that tells a client to connect again (RFC 6455's "Service Restart"): the
# server is stopping (behind a proxy, the next connection reaches a server that is up), or
# the table moved to another server process (the next connection is served by its owner).
# The page reconnects on any close, and asks for the events it missed.
RESTART_CODE = 1012
RESTARTING = "the server is restarting; connect again"
MOVED_AWAY = "this table moved to another server process; connect again"


class Draining:
    """Whether the server is stopping, and the changes (and new tables) being computed or
    committed meanwhile, which a stop waits for."""

    def __init__(self) -> None:
        # Set by :meth:`settle`: the server is stopping, and takes no new table nor change.
        self.draining = False
        self.changing = 0  # changes and new tables being computed or committed

    def refuse(self) -> None:
        """:class:`UnavailableError` if the server is stopping."""
        if self.draining:
            raise UnavailableError(RESTARTING)

    @contextmanager
    def change(self) -> Iterator[None]:
        """A change under way, which a stop waits for; refused if the server is stopping."""
        self.refuse()
        self.changing += 1
        try:
            yield
        finally:
            self.changing -= 1

    async def settle(self, patience: float) -> bool:
        """Take no new change from now on, and wait up to ``patience`` seconds for those
        under way; whether every one was finished."""
        loop = asyncio.get_running_loop()
        if not self.draining:
            self.draining = True
            log.info("server stopping", extra={"changes": self.changing})
        deadline = loop.time() + patience
        while self.changing and loop.time() < deadline:
            await asyncio.sleep(0.01)
        finished = not self.changing
        if not finished:
            log.error("changes left unfinished at the stop", extra={"changes": self.changing})
        return finished


async def restart(connections: dict[str, set[Connection]]) -> int:
    """Tell every socket to connect again (close code :data:`RESTART_CODE`) once the messages
    queued for it are sent; the number of sockets told."""
    loop = asyncio.get_running_loop()
    told = [c for group in connections.values() for c in group]
    for connection in told:
        connection.close(RESTART_CODE, RESTARTING)
    # The pumps send what is queued, then close: a moment, unless a client stopped
    # reading (the server's stop closes those anyway).
    closing = loop.time() + 1.0
    while any(connections.values()) and loop.time() < closing:
        await asyncio.sleep(0.01)
    return len(told)
