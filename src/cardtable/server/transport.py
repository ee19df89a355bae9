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
"""

from __future__ import annotations

import json
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode
from websockets.protocol import State
from websockets.server import ServerProtocol

from cardtable.server.app import MAX_MESSAGE

__all__ = ["MAX_FRAME", "WebSocketProtocol"]

MAX_FRAME = 65536  # bytes of one message the server reads at all (uvicorn's ws_max_size)

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
        self._answer(code)  # websockets fails the connection on a payload too big
        super().fail(code, reason)

    def send_close(self, code: CloseCode | int | None = None, reason: str = "") -> None:
        self._answer(code)  # uvicorn closes so on text that is not UTF-8
        super().send_close(code, reason)


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol with :class:`_AnsweringServerProtocol` inside."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn builds its websockets protocol in __init__; the subclass adds behaviour
        # only, no state, so the built one takes its class.
        self.conn.__class__ = _AnsweringServerProtocol
