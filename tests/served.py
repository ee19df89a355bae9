"""``cardtable serve`` as a real process for the tests: on a free port, a SQLite file of
the test's own, bots moving at once and one bot process, in its own process group so that
a kill takes the bot workers with it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

__all__ = ["ServerProcess", "free_port"]

START_SECONDS = 40.0  # imports, migrations and replaying the tables, on a busy machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """One server on ``database`` (a SQLite file, or a database URL): its log (stderr, JSON
    lines) goes to ``log``, what it prints for people (stdout) beside it, to ``log`` with
    ``.out`` for suffix; ``grace`` is its ``--grace``; ``options`` are more of its options
    (by default no limit on the tables a client opens: the tests open many)."""

    def __init__(
        self,
        database: Path | str,
        log: Path,
        *,
        grace: float = 60.0,
        options: tuple[str, ...] = ("--tables-per-minute", "0"),
    ) -> None:
        self.database = database
        self.log = log
        self.grace = grace
        self.options = options
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        if isinstance(self.database, str):
            return self.database
        return f"sqlite:///{self.database}"

    def ws(self, table: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{table}"

    @property
    def command(self) -> list[str]:
        return [
            *(sys.executable, "-m", "cardtable", "serve", "--port", str(self.port)),
            *("--database", self.url, "--bot-delay", "0"),
            *("--grace", str(self.grace), "--bot-workers", "1"),
            *self.options,
        ]

    def start(self) -> None:
        """Start the server and wait until it answers ``/health``."""
        with self.log.open("ab") as log, self.log.with_suffix(".out").open("ab") as out:
            self.process = subprocess.Popen(
                self.command, stdout=out, stderr=log, start_new_session=True
            )
        self.wait_until_it_answers()

    def wait_until_it_answers(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited: {self.log.read_text()[-3000:]}")
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{self.http}/health", timeout=1.0).status_code == 200:
                    return
            time.sleep(0.05)
        raise AssertionError(f"the server did not start: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL, as a crash or a pulled plug would stop it: nothing gets to clean up."""
        self._signal(signal.SIGKILL)

    def stop(self) -> None:
        """Stop it as an operator would (SIGTERM), killing it if it does not stop."""
        try:
            self._signal(signal.SIGTERM)
        except subprocess.TimeoutExpired:
            self.kill()

    def _signal(self, number: int) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, number)
        self.process.wait(timeout=10)
        self.process = None
