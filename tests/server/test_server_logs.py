"""The server's logs, in the form ``--log-format`` chooses: piped to a file or a service's
journal every line `cardtable serve` writes is one JSON object, and a refused message is
logged with its table and error code; at a terminal (a pseudo-terminal here, as a person's)
it writes the address and a short line per event, without uvicorn's chatter."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from cardtable.server.logs import TextFormatter
from postgres_server import postgres_url
from served import ServerProcess

TIME = r"\d\d:\d\d:\d\d"  # a text line's time
COLOURS = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # the banner's bold address, at a terminal
# What uvicorn says at a terminal if let: its start-up and a line per request.
CHATTER = ("Started server process", "Application startup complete", "Uvicorn running", "HTTP/1.1")
NO_LIMIT = ("--tables-per-minute", "0")


class TerminalServer(ServerProcess):
    """``cardtable serve`` as a person runs it: stdout and stderr on a pseudo-terminal.
    What it writes there is copied to ``log``; :meth:`printed` is that text once it is
    stopped, without line ends' carriage returns or colours."""

    reader: threading.Thread | None = None

    def start(self) -> None:
        master, terminal = os.openpty()
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.DEVNULL,
                stdout=terminal,
                stderr=terminal,
                start_new_session=True,
            )
        finally:
            os.close(terminal)  # the server's processes hold it now
        self.reader = threading.Thread(target=self._copy, args=(master,), daemon=True)
        self.reader.start()
        self.wait_until_it_answers()

    def _copy(self, master: int) -> None:
        """Read the terminal as it is written (a full terminal would stop the server) until
        every process that held it is gone (EIO)."""
        with self.log.open("ab") as log:
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                log.write(chunk)
                log.flush()
        os.close(master)

    def printed(self) -> list[str]:
        self.stop()
        if self.reader is not None:
            self.reader.join(timeout=20)
        text = self.log.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n")
        return [line for line in COLOURS.sub("", text).splitlines() if line.strip()]


def is_banner(line: str, server: ServerProcess) -> bool:
    """Whether ``line`` is the address line (its database as the server shows it)."""
    start = f"cardtable is serving at http://127.0.0.1:{server.port}/ (database "
    return line.startswith(start) and line.endswith("); Ctrl+C stops it.")


def open_neuf(server: ServerProcess) -> str:
    """A Neuf table for three (a person and two bots), opened over HTTP: its id."""
    seats = [{"kind": "human", "name": "Ana"}, *2 * [{"kind": "bot", "level": "easy"}]]
    opened = httpx.post(f"{server.http}/api/tables", json={"game": "neuf", "seats": seats})
    assert opened.status_code == 201, opened.text
    table: str = opened.json()["table"]
    return table


def join_with_a_bad_token(server: ServerProcess, table: str) -> None:
    """A join with a token no seat holds: refused, and logged as a warning."""
    with connect(server.ws(table)) as socket:
        socket.send(json.dumps({"type": "join", "token": "not-a-token", "since": None}))
        refusal = json.loads(socket.recv(timeout=10))
        assert refusal["type"] == "error" and refusal["code"] == "bad_token"


def assert_readable(lines: list[str], server: ServerProcess, table: str) -> None:
    """Text lines: the banner once, then a line per event, each with its time; the table's
    opening and the bad token said in words; nothing of uvicorn's chatter, no JSON."""
    assert sum(is_banner(line, server) for line in lines) == 1, lines
    events = [line for line in lines if not is_banner(line, server)]
    assert events and all(re.match(f"{TIME}  ", line) for line in events), lines
    assert not any(line.lstrip().startswith("{") for line in lines), lines
    assert not any(words in line for line in lines for words in CHATTER), lines
    assert any(
        re.fullmatch(f"{TIME}  table {table} opened \\(neuf, 3 seats\\)", line) for line in events
    )
    assert any(re.fullmatch(f"{TIME}  warning: bad token  table={table}", line) for line in events)
    assert any(
        re.fullmatch(f"{TIME}  table {table}: a message refused \\(bad_token\\)", line)
        for line in events
    )


def test_every_log_line_is_json_and_refusals_are_logged(tmp_path: Path) -> None:
    """Piped (stderr a file, as under a service manager), ``auto`` is JSON, every line of it
    and uvicorn's too, a line per request included."""
    server = ServerProcess(tmp_path / "tables.db", tmp_path / "server.log")
    server.start()
    try:
        seats = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "easy"}]
        opened = httpx.post(f"{server.http}/api/tables", json={"game": "neuf", "seats": seats})
        assert opened.status_code == 400  # Neuf is for 3 or 4: refused, and logged
        opened = httpx.post(
            f"{server.http}/api/tables", json={"game": "knockout-whist", "seats": seats}
        )
        table = opened.json()["table"]
        with connect(server.ws(table)) as socket:
            socket.send("{not json")
            refusal = json.loads(socket.recv(timeout=10))
            assert refusal["type"] == "error" and refusal["code"] == "malformed"
    finally:
        server.stop()
    lines = [json.loads(line) for line in server.log.read_text().splitlines() if line.strip()]
    assert lines, "the server wrote no log"
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert not any("color_message" in line for line in lines)
    refused = [line for line in lines if line["message"] == "message refused"]
    assert [(r["table"], r["code"]) for r in refused] == [(table, "malformed")]
    assert any(
        line["message"] == "table refused" and line["code"] == "bad_options" for line in lines
    )
    assert any(
        line["message"] == "table opened" and line["table"] == table and line["seats"] == 2
        for line in lines
    )
    assert any(line["logger"] == "uvicorn.access" for line in lines)
    assert any(line["message"] == "Application startup complete." for line in lines)


def test_at_a_terminal_the_log_is_a_readable_line_per_event(tmp_path: Path) -> None:
    server = TerminalServer(tmp_path / "tables.db", tmp_path / "terminal.log", options=NO_LIMIT)
    server.start()
    try:
        table = open_neuf(server)
        join_with_a_bad_token(server, table)
    finally:
        lines = server.printed()
    assert_readable(lines, server, table)


def test_log_format_json_at_a_terminal_is_json(tmp_path: Path) -> None:
    server = TerminalServer(
        tmp_path / "tables.db",
        tmp_path / "terminal.log",
        options=(*NO_LIMIT, "--log-format", "json"),
    )
    server.start()
    try:
        table = open_neuf(server)
    finally:
        lines = server.printed()
    assert sum(is_banner(line, server) for line in lines) == 1, lines
    logged = [json.loads(line) for line in lines if not is_banner(line, server)]
    assert any(line["message"] == "table opened" and line["table"] == table for line in logged)
    assert any(line["logger"] == "uvicorn.access" for line in logged)


def test_log_format_text_piped_is_text(tmp_path: Path) -> None:
    """``--log-format text`` with stderr a file: the lines a terminal gets, without colours."""
    server = ServerProcess(
        tmp_path / "tables.db", tmp_path / "server.log", options=(*NO_LIMIT, "--log-format", "text")
    )
    server.start()
    try:
        table = open_neuf(server)
        join_with_a_bad_token(server, table)
    finally:
        server.stop()
    logged = server.log.read_text(encoding="utf-8")
    assert "\x1b" not in logged
    printed = server.log.with_suffix(".out").read_text(encoding="utf-8").splitlines()
    assert_readable([*printed, *logged.splitlines()], server, table)


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_url() as url:
        yield url


def test_several_processes_at_a_terminal_write_text_too(database: str, tmp_path: Path) -> None:
    """``--workers 2``: the processes inherit the form the parent chose for the terminal,
    and the banner is still printed once."""
    server = TerminalServer(
        database, tmp_path / "terminal.log", options=(*NO_LIMIT, "--workers", "2")
    )
    server.start()
    try:
        table = open_neuf(server)
        join_with_a_bad_token(server, table)
        # The process that prints the banner need not be the one that answered first: on a
        # busy machine it may still be starting. Wait for it (it prints once it answers).
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "cardtable is serving at" not in (
            server.log.read_text(encoding="utf-8", errors="replace")
        ):
            time.sleep(0.1)
    finally:
        lines = server.printed()
    assert_readable(lines, server, table)


def test_a_traceback_reads_as_python_prints_it() -> None:
    """An error's line has its fields; its traceback follows on the lines below, not
    escaped into one line as in JSON."""
    try:
        raise KeyError("seat")
    except KeyError:
        record = logging.LogRecord(
            "cardtable.server", logging.ERROR, __file__, 1, "message failed", None, sys.exc_info()
        )
    record.table, record.seat = "abc123", 2
    lines = TextFormatter().format(record).splitlines()
    assert re.fullmatch(f"{TIME}  error: message failed  table=abc123 seat=2", lines[0])
    assert lines[1] == "Traceback (most recent call last):"
    assert lines[-1] == "KeyError: 'seat'"


def test_text_fields_are_quoted_only_where_they_would_run_on() -> None:
    record = logging.LogRecord(
        "cardtable.server", logging.WARNING, __file__, 1, "database busy; trying again", None, None
    )
    record.reason, record.attempts, record.seat = "database is locked", 3, None
    line = TextFormatter().format(record)
    assert re.fullmatch(
        f'{TIME}  warning: database busy; trying again  reason="database is locked" attempts=3',
        line,
    )
