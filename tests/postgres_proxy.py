"""A loopback TCP proxy in front of a test's PostgreSQL server (``postgres_server.py``) that can
lose what the network loses: the answer to a COMMIT the server carried out, every
connection for a while, or everything while keeping the connections open.

It reads the frontend's messages as PostgreSQL's protocol frames them (the startup packet,
then a type byte and a length) and copies both ways, unchanged, until told otherwise:

- :meth:`PostgresProxy.lose_next_commit`: the next ``COMMIT`` of a transaction that wrote
  ``events`` is passed to the server, which commits it; its answer is read and dropped, and
  the connection is cut. The client cannot know whether its transaction was stored: it was.
- :meth:`PostgresProxy.refuse`: every open connection is cut and new ones are closed as
  soon as they are accepted, until :meth:`PostgresProxy.admit`.
- :meth:`PostgresProxy.hang`: nothing is forwarded either way, and nothing is closed: the
  connections open and the new ones accepted stay silent, as a frozen machine's or those
  across a network partition, until :meth:`PostgresProxy.heal` cuts them all (their ends
  have long given up) and forwards again.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
import threading
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from served import free_port

__all__ = ["PostgresProxy"]

SSL_REQUEST = 80877103
GSS_REQUEST = 80877104
COMMIT = b"COMMIT\x00"
WRITES_EVENTS = b"INSERT INTO events"


class PostgresProxy:
    """A proxy on ``127.0.0.1`` to the server of a :func:`postgres_server.postgres_url`
    ``url``; :attr:`url` reaches the same database through it. A context manager: it runs
    in a thread of its own (its own event loop) while the block runs."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        self.socket_path = Path(query["host"][0]) / f".s.PGSQL.{query['port'][0]}"
        self.port = free_port()
        user = parts.username or "cardtable"
        self.url = f"postgresql+psycopg://{user}@127.0.0.1:{self.port}{parts.path}"
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.refusing = False
        self.losing = False
        self.refuse_after_loss = False
        self.lost = threading.Event()  # a COMMIT's answer was dropped
        self.links: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None
        self.flowing = asyncio.Event()  # cleared while the proxy hangs
        self.flowing.set()

    def __enter__(self) -> PostgresProxy:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self.loop).result(10)
        return self

    def __exit__(self, *_exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    def lose_next_commit(self, then_refuse: bool = False) -> None:
        """Drop the answer to the next COMMIT of events; ``then_refuse``: and from that
        moment refuse every connection (:meth:`refuse`) until :meth:`admit`."""
        self.lost.clear()
        self.refuse_after_loss = then_refuse
        self.losing = True

    def refuse(self) -> None:
        """Cut every connection, and refuse new ones."""
        self.refusing = True
        asyncio.run_coroutine_threadsafe(self._cut(), self.loop).result(10)

    def admit(self) -> None:
        self.refusing = False

    def hang(self) -> None:
        """Forward nothing from now on, either way, and close nothing."""

        async def hang() -> None:
            self.flowing.clear()

        asyncio.run_coroutine_threadsafe(hang(), self.loop).result(10)

    def heal(self) -> None:
        """Cut every connection open (those that hung), and forward again."""

        async def heal() -> None:
            await self._cut()
            self.flowing.set()

        asyncio.run_coroutine_threadsafe(heal(), self.loop).result(10)

    async def _listen(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def _close(self) -> None:
        if self.server is not None:
            self.server.close()
        await self._cut()

    async def _cut(self) -> None:
        for writer in list(self.links):
            writer.transport.abort()
        self.links.clear()

    async def _serve(self, client_in: asyncio.StreamReader, client: asyncio.StreamWriter) -> None:
        if self.refusing:
            client.transport.abort()
            return
        self.links.add(client)
        await self.flowing.wait()
        if client.transport.is_closing():  # accepted while hanging, cut by the heal
            return
        try:
            server_in, server = await asyncio.open_unix_connection(str(self.socket_path))
        except OSError:
            client.transport.abort()
            return
        self.links |= {client, server}
        answers = asyncio.create_task(self._answers(server_in, client))
        try:
            await self._requests(client_in, server, server_in, answers)
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            answers.cancel()
            for writer in (client, server):
                writer.transport.abort()
                self.links.discard(writer)

    async def _requests(
        self,
        client_in: asyncio.StreamReader,
        server: asyncio.StreamWriter,
        server_in: asyncio.StreamReader,
        answers: asyncio.Task[None],
    ) -> None:
        """Copy the client's messages to the server, whole, and drop a COMMIT's answer
        when told to."""
        while True:  # the startup packets: a length, then a code, and no type byte
            head = await client_in.readexactly(8)
            length, code = struct.unpack("!ii", head)
            rest = await client_in.readexactly(length - 8)
            await self.flowing.wait()
            server.write(head + rest)
            await server.drain()
            if code not in (SSL_REQUEST, GSS_REQUEST):
                break
        wrote_events = False
        named: set[bytes] = set()  # the prepared statements that write events
        while True:
            head = await client_in.readexactly(5)
            kind, length = head[:1], struct.unpack("!i", head[1:])[0]
            body = await client_in.readexactly(length - 4)
            if WRITES_EVENTS in body:  # a query, or a statement being prepared ("P")
                wrote_events = True
                if kind == b"P":
                    named.add(body.split(b"\x00", 1)[0])
            elif kind == b"B":  # a prepared statement run again: portal, statement, …
                wrote_events = wrote_events or body.split(b"\x00", 2)[1] in named
            if kind == b"Q" and body == COMMIT and wrote_events and self.losing:
                # The client has read every answer before it sends COMMIT: the answers'
                # copy stops here, and the COMMIT's answer is read for nobody.
                self.losing = False
                answers.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await answers
                server.write(head + body)
                await server.drain()
                await self._swallow(server_in)
                if self.refuse_after_loss:
                    self.refusing = True
                    await self._cut()
                self.lost.set()
                return  # the connection is cut
            if kind == b"Q" and body in (COMMIT, b"ROLLBACK\x00"):
                wrote_events = False
            await self.flowing.wait()
            server.write(head + body)
            await server.drain()

    @staticmethod
    async def _swallow(server_in: asyncio.StreamReader) -> None:
        """Read the server's answer up to its ReadyForQuery, for nobody."""
        while True:
            head = await server_in.readexactly(5)
            await server_in.readexactly(struct.unpack("!i", head[1:])[0] - 4)
            if head[:1] == b"Z":
                return

    async def _answers(self, server_in: asyncio.StreamReader, client: asyncio.StreamWriter) -> None:
        """Copy the server's bytes to the client, as they come; once the server has closed
        the connection or reset it (a backend ended or crashed), close the client's too, as
        the network would have, rather than leave it waiting for an answer that cannot
        come."""
        try:
            while data := await server_in.read(65536):
                await self.flowing.wait()
                client.write(data)
                await client.drain()
        except OSError:
            pass  # reset: a backend killed with input unread
        client.close()
