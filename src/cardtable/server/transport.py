"""The websocket protocol ``cardtable serve`` runs under uvicorn: uvicorn's own (on websockets'
sans-I/O protocol), except that a message the server will not read is answered with the
protocol's ``error`` before the connection closes.

Two kinds of message end a connection, because RFC 6455 or the server's memory requires it:
one over :data:`MAX_FRAME` bytes (the server reads only a frame's header, never its payload,
and closes with 1009, "message too big") and a text frame that is not UTF-8 (RFC 6455 §8.1:
the endpoint must fail the connection; 1007, "invalid frame payload data"). Without this
protocol the client would see only the close code; with it, it first receives
``{"type": "error", "code": "too_large" | "malformed", ...}`` (docs/server.md). Everything
smaller that is wrong is answered by the application, and the connection stays open.

Every connection the server ends, it ends with a close frame that arrives. uvicorn closes
the socket at once, and a socket closed with the client's bytes still unread makes the
kernel answer with a reset, which throws away the close frame (and the error before it)
before the client reads them: the client saw a connection broken without a close (1006),
as the fuzzed clients that kept sending after an oversized or non-UTF-8 message did. So
the server closes as RFC 6455 §7.1.1 and websockets' own server do: it sends its close
frame, ends its half of the TCP connection, and reads and drops whatever the client still
sends until the client closes too, for :data:`LINGER` seconds at most.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode
from websockets.protocol import State
from websockets.server import ServerProtocol

from cardtable.server.play import MAX_MESSAGE

__all__ = ["LINGER", "MAX_FRAME", "WebSocketProtocol"]

MAX_FRAME = 65536  # bytes of one message the server reads at all (uvicorn's ws_max_size)
# Seconds a connection the server closed waits for the client to close its side, reading
# and dropping what it still sends; a client on a working network closes in milliseconds.
LINGER = 3.0

_REFUSALS: dict[int, tuple[str, str]] = {
    CloseCode.MESSAGE_TOO_BIG: (
        "too_large",
        f"a message is at most {MAX_MESSAGE} bytes; one over {MAX_FRAME} closes the connection",
    ),
    CloseCode.INVALID_DATA: (
        "malformed",
        "a text message is UTF-8; RFC 6455 closes the connection on one that is not",
    ),
}


class _AnsweringServerProtocol(ServerProtocol):
    """websockets' server protocol, sending the protocol's error before it closes the
    connection on a message too big to read or on text that is not UTF-8."""

    def _answer(self, code: int | None) -> None:
        refusal = None if code is None else _REFUSALS.get(int(code))
        if refusal is None or self.state is not State.OPEN:
            return
        error, message = refusal
        text = json.dumps({"type": "error", "code": error, "message": message})
        self.send_text(text.encode())

    def fail(self, code: CloseCode | int, reason: str = "") -> None:
        self._answer(code)  # a payload too big, text that is not UTF-8
        super().fail(code, reason)


class _LingeringTransport(asyncio.Transport):
    """A connection's transport whose :meth:`close` lets the client finish first: it ends
    the server's half of the connection (after what is already written, the close frame
    among it) and closes for good once the client closes its half (asyncio does, on the
    end of the stream) or :data:`LINGER` seconds later."""

    def __init__(self, inner: asyncio.Transport) -> None:
        super().__init__()
        self.inner = inner
        self.lingering: asyncio.TimerHandle | None = None

    def close(self) -> None:
        if self.lingering is not None or self.inner.is_closing():
            return
        if not self.inner.can_write_eof():
            self.inner.close()
            return
        self.inner.write_eof()
        self.inner.resume_reading()  # uvicorn may have paused it: the client must be heard
        self.lingering = asyncio.get_running_loop().call_later(LINGER, self.inner.abort)

    def closed(self) -> None:
        """The connection is gone: nothing more to wait for."""
        if self.lingering is not None:
            self.lingering.cancel()

    def is_closing(self) -> bool:
        return self.lingering is not None or self.inner.is_closing()

    def abort(self) -> None:
        self.closed()
        self.inner.abort()

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self.lingering is None:
            self.inner.write(data)

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.inner.get_extra_info(name, default)

    def pause_reading(self) -> None:
        if self.lingering is None:
            self.inner.pause_reading()

    def resume_reading(self) -> None:
        self.inner.resume_reading()

    def is_reading(self) -> bool:
        return self.inner.is_reading()

    def get_write_buffer_size(self) -> int:
        return self.inner.get_write_buffer_size()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self.inner.set_write_buffer_limits(high, low)

    def can_write_eof(self) -> bool:
        return self.inner.can_write_eof()

    def write_eof(self) -> None:
        self.inner.write_eof()


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol with :class:`_AnsweringServerProtocol` inside, closing
    through a :class:`_LingeringTransport`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn builds its websockets protocol in __init__; the subclass adds behaviour
        # only, no state, so the built one takes its class.
        self.conn.__class__ = _AnsweringServerProtocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio's classes, but have their methods.
        super().connection_made(_LingeringTransport(cast(asyncio.Transport, transport)))

    def connection_lost(self, exc: Exception | None) -> None:
        assert isinstance(self.transport, _LingeringTransport)
        self.transport.closed()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return  # closed by the server: what the client still sends is dropped unread
        super().data_received(data)

    def send_receive_event_to_app(self) -> None:
        # A text message that is not UTF-8 fails the connection (RFC 6455 §8.1) as a payload
        # too big does: answered, closed with 1007, and nothing after it read. (uvicorn logs
        # it as the server's error, with a traceback, and goes on parsing what follows.)
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                self.conn.fail(CloseCode.INVALID_DATA, "a text message is UTF-8")
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()
