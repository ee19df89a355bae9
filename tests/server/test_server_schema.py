"""Schema upgrades on start, one process at a time (``cardtable/server/schema.py``): two
processes that start at the same moment on one fresh database both come up, the schema is
created once, and neither fails.

Each round starts two Python processes that import the server first, then wait at a
barrier (a line on their standard input) and upgrade the database at once when released,
so that their upgrades really race.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text

from live_pieces import DATABASES
from served import ServerProcess

ROUNDS = 5
HEAD = "0008"  # the newest revision (migrations/versions)

# Imports, then the barrier, then the upgrade; prints the revisions before and after.
RACER = """
import json, sys
from sqlalchemy import create_engine
from cardtable.server.schema import migrate
from cardtable.server.store import Store
engine = create_engine(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()
before, after = migrate(engine)
Store(sys.argv[1]).close()  # a server's own start on the upgraded database
print(json.dumps([before, after]), flush=True)
"""


@contextmanager
def fresh_databases(kind: str, folder: Path) -> Iterator[list[str]]:
    """:data:`ROUNDS` empty databases: SQLite files, or databases of one PostgreSQL server."""
    if kind == "sqlite":
        yield [f"sqlite:///{folder / f'race-{n}.db'}" for n in range(ROUNDS)]
        return
    from postgres_server import postgres_url

    with postgres_url() as url:
        engine = create_engine(url, isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            for n in range(ROUNDS):
                connection.execute(text(f"CREATE DATABASE race_{n}"))
        engine.dispose()
        yield [url.replace("/cardtable?", f"/race_{n}?") for n in range(ROUNDS)]


def race(url: str) -> list[list[str | None]]:
    """Two processes upgrading ``url`` at once; what each reported."""
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for racer in racers:
            assert racer.stdout is not None
            assert racer.stdout.readline().strip() == "ready", racer.communicate()[1]
        for racer in racers:  # released together
            assert racer.stdin is not None
            racer.stdin.write("\n")
            racer.stdin.flush()
        results = []
        for racer in racers:
            out, err = racer.communicate(timeout=120)
            assert racer.returncode == 0, err
            results.append(json.loads(out.strip().splitlines()[-1]))
        return results
    finally:
        for racer in racers:
            if racer.poll() is None:
                racer.kill()
                racer.wait()


@pytest.mark.parametrize("kind", DATABASES)
def test_two_processes_upgrading_one_fresh_database_at_once(kind: str, tmp_path: Path) -> None:
    with fresh_databases(kind, tmp_path) as urls:
        for url in urls:
            results = race(url)
            # One created the schema; the other waited for it and found it up to date.
            assert sorted(results, key=str) == [[HEAD, HEAD], [None, HEAD]], results
            engine = create_engine(url)
            with engine.connect() as connection:
                versions = connection.execute(text("SELECT version_num FROM alembic_version"))
                assert versions.all() == [(HEAD,)]
            engine.dispose()


@pytest.mark.parametrize("kind", DATABASES)
def test_two_servers_started_at_once_on_a_fresh_database_both_serve(
    kind: str, tmp_path: Path
) -> None:
    with fresh_databases(kind, tmp_path) as urls:
        servers = [ServerProcess(urls[0], tmp_path / f"server-{n}.log") for n in range(2)]
        errors: list[BaseException] = []

        def start(server: ServerProcess) -> None:
            try:
                server.start()
            except BaseException as exc:  # reported below, in the test's thread
                errors.append(exc)

        starting = [threading.Thread(target=start, args=(s,)) for s in servers]
        try:
            for thread in starting:
                thread.start()
            for thread in starting:
                thread.join()
            assert not errors, errors
            for server in servers:
                assert httpx.get(f"{server.http}/ready", timeout=10).status_code == 200
        finally:
            for server in servers:
                server.stop()
        logs = [(tmp_path / f"server-{n}.log").read_text() for n in range(2)]
        upgraded = [log.count('"message": "schema upgraded"') for log in logs]
        assert sorted(upgraded) == [0, 1], logs
        assert not any('"level": "error"' in log for log in logs), logs
