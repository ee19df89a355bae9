"""The server's logs, in one of two forms.

``json``, for services: one JSON object per line, with the fields a host filters on (table,
seat, code) next to the time, level and message. ``text``, for a person at a terminal: one
short line per event (``13:02:11  table abc123 opened (neuf, 3 seats)``), warnings and
errors marked as such with their fields, a traceback as Python prints it; uvicorn's
start-up chatter, its line per request and the server's housekeeping are left out, its
warnings and errors are not. ``auto`` is ``text`` when the log goes to a terminal.
"""

from __future__ import annotations

import json
import logging
import string
import sys
from typing import Any, TextIO

__all__ = ["LOG_FORMATS", "REASON_LIMIT", "JsonFormatter", "TextFormatter", "bounded", "configure"]

LOG_FORMATS = ("auto", "text", "json")  # cardtable serve --log-format

# Attributes every LogRecord has; anything else was passed in ``extra=`` and is a field.
# uvicorn's ``color_message`` repeats the message with terminal colours: not for a log file.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "color_message",
}

# The server's notable events in words, by their message; a field a template leaves out
# follows it as ``key=value``. An event without a template (or without the fields its
# template names) is its message and its fields.
EVENTS = {
    "server started": "server started ({database}): {tables} tables stored, "
    "{quarantined} quarantined",
    "table opened": "table {table} opened ({game}, {seats} seats)",
    "tutorial opened": "tutorial {table} opened ({game})",
    "table loaded": "table {table} loaded from the database",
    "table taken over": "table {table} taken over from another process",
    "table refused": "a new table refused ({code}): {reason}",
    "message refused": "table {table}: a message refused ({code})",
    "request refused": "a request refused ({code})",
    "connection refused": "a connection from {client} refused ({code})",
    "schema upgraded": "database schema upgraded to revision {to_revision}",
    "server stopping": "server stopping: {changes} changes under way",
    "worker died; starting it again": "worker {worker} (process {pid}) died with status "
    "{status}; starting it again",
}

# Info a person at a terminal does not need: periodic upkeep, said in the JSON log alone.
HOUSEKEEPING = frozenset({"full collection", "tables left memory"})

# uvicorn's loggers: ``uvicorn.error`` is its own news (start-up, shutdown, errors), not
# only errors; ``uvicorn.access`` has a line per request.
_UVICORN = ("uvicorn", "uvicorn.error", "uvicorn.access")


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(_fields(record))
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    """``HH:MM:SS  event``: the event in words (:data:`EVENTS`), ``warning:`` or
    ``error:`` before it when it is one, its other fields after it, and its traceback, if
    any, on the lines below."""

    def format(self, record: logging.LogRecord) -> str:
        # A field that is None (the seat of a socket that holds none) says nothing here.
        fields = {k: v for k, v in _fields(record).items() if v is not None}
        message = record.getMessage()
        text = message
        template = EVENTS.get(message)
        if template is not None:
            named = {name for _, name, _, _ in string.Formatter().parse(template) if name}
            if named <= fields.keys():
                text = template.format_map(fields)
                fields = {k: v for k, v in fields.items() if k not in named}
        if fields:
            text += "  " + " ".join(f"{k}={_value(v)}" for k, v in fields.items())
        if record.levelno >= logging.WARNING:
            text = f"{record.levelname.lower()}: {text}"
        line = f"{self.formatTime(record, '%H:%M:%S')}  {text}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        if record.stack_info:
            line += "\n" + self.formatStack(record.stack_info)
        return line


def _value(value: Any) -> str:
    """A field's value as it reads in a line: quoted only where it would run into the next
    field (a space, a quote, an ``=``, a line break) or be missed (empty)."""
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    if text == "" or any(c.isspace() or c in "\"'=" for c in text):
        return json.dumps(text)
    return text


def _no_housekeeping(record: logging.LogRecord) -> bool:
    return record.levelno >= logging.WARNING or record.getMessage() not in HOUSEKEEPING


REASON_LIMIT = 500  # characters of a reason written in a log line (or a stored mark)


def bounded(said: str, limit: int = REASON_LIMIT) -> str:
    """``said`` cut to ``limit`` characters, saying how long it was: a reason that quotes
    a stored value may be of any size, and it is one log line."""
    if len(said) <= limit:
        return said
    return f"{said[: limit - 40]}… ({len(said):,} characters in all)"


def configure(
    log_format: str = "auto", level: int = logging.INFO, stream: TextIO | None = None
) -> str:
    """Send the server's and uvicorn's logs to ``stream`` (stderr) in ``log_format``
    (``auto``: ``text`` when the stream is a terminal, else ``json``); the format chosen.

    Called once before ``--workers`` forks its processes, which inherit the handler: every
    process writes the same form to the same stream."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"no log format {log_format!r}: one of {', '.join(LOG_FORMATS)}")
    stream = sys.stderr if stream is None else stream
    chosen = log_format
    if chosen == "auto":
        isatty = getattr(stream, "isatty", None)
        chosen = "text" if isatty is not None and isatty() else "json"
    handler = logging.StreamHandler(stream)
    if chosen == "text":
        handler.setFormatter(TextFormatter())
        handler.addFilter(_no_housekeeping)
    else:
        handler.setFormatter(JsonFormatter())
    for name in ("cardtable", *_UVICORN):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        # At a terminal uvicorn says only what went wrong: the banner says where the lobby
        # is, and a line per request would bury the events.
        quiet = chosen == "text" and name in _UVICORN
        logger.setLevel(max(level, logging.WARNING) if quiet else level)
        logger.propagate = False
    return chosen
