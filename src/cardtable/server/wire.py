"""JSON as the server reads it (a request's body, a websocket message) and the error body
it answers with (docs/server.md)."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from cardtable.server.table import TableError

__all__ = ["JSON_TYPE", "MAX_DEPTH", "error", "json_labelled", "parse_json", "unlabelled"]

log = logging.getLogger("cardtable.server")

MAX_DEPTH = 16  # nesting of arrays and objects in a message or a body; the protocol needs 3
BYTE_ORDER_MARK = "\ufeff"
JSON_TYPE = "application/json"


def error(
    status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> Response:
    """The documented error body. Its JSON is ASCII: a message that quotes the request
    (a lone surrogate in a name) can always be sent."""
    body = json.dumps({"error": code, "message": message})
    return Response(body, status, headers, media_type="application/json")


def parse_json(data: str | bytes) -> Any:
    """A message or body read as JSON; :class:`TableError` ``malformed`` if it is not JSON
    (NaN and Infinity are not), not UTF-8, or nested more than :data:`MAX_DEPTH` deep. A
    leading byte-order mark is ignored (RFC 8259, 8.1 lets a parser do so), in a body and
    in a websocket's text frame alike."""
    try:
        # UTF-8 only (RFC 8259, 8.1), not the UTF-16 and -32 json.loads would guess at.
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(text.removeprefix(BYTE_ORDER_MARK), parse_constant=_not_json)
    except RecursionError:  # nested past the interpreter's own limit
        raise TableError("malformed", f"JSON nested more than {MAX_DEPTH} deep") from None
    except ValueError:  # includes bytes that are not UTF-8, and numbers of 4,300 digits
        raise TableError("malformed", "not JSON (RFC 8259, in UTF-8)") from None
    if _depth(value) > MAX_DEPTH:
        raise TableError("malformed", f"JSON nested more than {MAX_DEPTH} deep")
    return value


def json_labelled(request: Request) -> bool:
    """Whether a request says its body is JSON: ``Content-Type: application/json``, with
    or without parameters (a charset, which RFC 8259 says changes nothing)."""
    kind = request.headers.get("content-type", "")
    return kind.split(";", 1)[0].strip().lower() == JSON_TYPE


def unlabelled() -> Response:
    # A page of another site may send text/plain, or a form, without asking the server
    # first (no CORS preflight); only application/json needs the server's leave.
    log.info("request refused", extra={"code": "unsupported_media_type"})
    return error(
        415,
        "unsupported_media_type",
        f"a request's body is JSON, sent with Content-Type: {JSON_TYPE}",
    )


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _depth(value: object) -> int:
    """How deep arrays and objects nest in a JSON value (a scalar: 0), without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                children = item.values() if isinstance(item, dict) else item
                stack.extend((child, depth + 1) for child in children)
    return deepest
