"""A throwaway PostgreSQL server for the tests: a fresh cluster in a temporary folder,
listening only on a Unix socket there, stopped and removed afterwards.

``initdb`` runs once a test process: each server starts from a copy of that fresh cluster,
which is the same as running it again and takes a fraction of its time.

Debian's ``postgresql`` package provides the programs (``scripts/install-test-deps``).
PostgreSQL refuses to run as root, so as root the cluster belongs to the ``postgres`` user.
"""

from __future__ import annotations

import atexit
import functools
import glob
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from served import free_port

__all__ = ["pg_ctl", "postgres_programs", "postgres_url"]


def postgres_programs() -> Path:
    """The folder of the newest PostgreSQL server's programs (initdb, pg_ctl, pg_dump…)."""
    return _programs()


def _programs() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version)
    if not found:
        raise RuntimeError("no PostgreSQL server programs; run scripts/install-test-deps")
    return Path(found[-1]).parent


def _version(path: str) -> int:
    return int(Path(path).parent.parent.name)


@functools.cache
def _fresh_cluster() -> Path:
    """A cluster just made by ``initdb``, never started: what each server is copied from."""
    folder = _folder("cardtable-pg-template-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    # --no-sync: a test's cluster need not survive a power cut.
    _run(
        str(_programs() / "initdb"),
        *("--no-sync", "-D", str(folder / "data"), "-A", "trust", "-U", "cardtable"),
    )
    return folder / "data"


def _folder(prefix: str) -> Path:
    """A new temporary folder the server's user owns (``postgres`` when running as root)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    return folder


def _run(*command: str) -> None:
    """A PostgreSQL program, as the ``postgres`` user when the tests run as root (the server
    refuses to run as root). No pipes: the server pg_ctl starts would hold them open, and
    the wait would never end."""
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run(
        [*prefix, *command],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=60,
    )


@contextmanager
def postgres_url() -> Iterator[str]:
    """A SQLAlchemy URL of an empty database on a private PostgreSQL server."""
    bin_dir = _programs()
    fresh = _fresh_cluster()
    folder = _folder("cardtable-pg-")
    data, port = folder / "data", free_port()
    try:
        _run("cp", "-a", str(fresh), str(data))  # as its owner: the copy keeps owner and modes
        _run(*_pg_ctl_command(bin_dir, folder, port, "start"))
        try:
            _run(
                str(bin_dir / "createdb"),
                *("-h", str(folder), "-p", str(port), "-U", "cardtable", "cardtable"),
            )
            yield f"postgresql+psycopg://cardtable@/cardtable?host={folder}&port={port}"
        finally:
            _run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _pg_ctl_command(bin_dir: Path, folder: Path, port: int, action: str) -> list[str]:
    data = str(folder / "data")
    if action in ("stop", "stop-immediate"):
        mode = "fast" if action == "stop" else "immediate"
        return [str(bin_dir / "pg_ctl"), "-D", data, "-m", mode, "-w", "stop"]
    options = f"-k {folder} -p {port} -c listen_addresses='' -c fsync=off"
    return [
        *(str(bin_dir / "pg_ctl"), "-D", data, "-o", options),
        *("-l", str(folder / "log"), "-w", action),
    ]


def pg_ctl(url: str, action: str) -> None:
    """Stop (``stop``: the fast way, as an operator would; ``stop-immediate``: at once, as
    a crash would, leaving a recovery to the next start) or start again (``start``) the
    server of a :func:`postgres_url`; the database's files stay."""
    query = parse_qs(urlsplit(url).query)
    folder, port = Path(query["host"][0]), int(query["port"][0])
    _run(*_pg_ctl_command(_programs(), folder, port, action))


def stored_events(url: str, table: str) -> list[dict[str, Any]]:
    """A table's events as the database holds them, in order."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT seq, data FROM events WHERE table_id = :t ORDER BY seq"),
                {"t": table},
            ).all()
    finally:
        engine.dispose()
    return [json.loads(data) for _seq, data in rows]
