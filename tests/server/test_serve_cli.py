"""``cardtable serve`` from the command line: what stops it is said before it starts.

A taken port, a SQLite file in a folder that does not exist, a missing PostgreSQL driver,
a URL that is no database's, a file that is no database: each ends the real command with
one line on stderr (``cardtable: …``) and a non-zero status, before any banner, log line
or traceback. When it does start, the banner is one line, printed once the lobby answers.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from served import ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[2]
DATA_ERROR = 1  # cardtable.cli: what the machine refuses (a port, a folder, a driver)
USAGE_ERROR = 2  # cardtable.cli: what the command line gets wrong (a URL that is none)


def serve(*args: str, before: str = "") -> subprocess.CompletedProcess[str]:
    """The real ``cardtable serve ARGS``; ``before`` runs first in the same interpreter
    (to hide an installed module as a machine without it would)."""
    env = {k: v for k, v in os.environ.items() if k != "CARDTABLE_DATABASE_URL"}
    env |= {"PYTHONIOENCODING": "utf-8", "COLUMNS": "80"}
    start = f"import sys\n{before}\nfrom cardtable.cli import app\napp(prog_name='cardtable')"
    return subprocess.run(
        [sys.executable, "-c", start, "serve", "--bot-workers", "1", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def refused(done: subprocess.CompletedProcess[str], status: int) -> str:
    """The one line the command ended with, after checking it is all it printed."""
    assert done.returncode == status, done.stderr
    assert done.stdout == ""  # no banner: nothing is served
    assert "Traceback" not in done.stderr and '{"time"' not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardtable: "), done.stderr
    return lines[0]


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port another program listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield int(other.getsockname()[1])


def test_a_taken_port_is_said_in_one_line(taken_port: int, tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'tables.db'}"
    done = serve("--port", str(taken_port), "--database", database)
    line = refused(done, DATA_ERROR)
    assert line == (
        f"cardtable: cannot listen on 127.0.0.1:{taken_port}: port {taken_port} is in use "
        "by another program: stop it, or choose another --port"
    )


def test_a_sqlite_file_in_a_missing_folder_is_said_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "no such folder"
    url = f"sqlite:///{missing / 'tables.db'}"
    done = serve("--port", str(free_port()), "--database", url)
    line = refused(done, DATA_ERROR)
    assert line.startswith(f"cardtable: --database {url}: the folder {missing} does not exist")
    assert not missing.exists()


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("tables.db", "'tables.db' is not a database URL: write sqlite:///FILE or postgresql"),
        ("http://example.com/tables", "'http' is not a kind of database"),
    ],
)
def test_a_url_that_is_no_database_url_is_said_in_one_line(url: str, words: str) -> None:
    done = serve("--port", str(free_port()), "--database", url)
    assert words in refused(done, USAGE_ERROR)


def test_a_missing_postgresql_driver_names_the_extra_to_install() -> None:
    """The driver comes with the ``postgres`` extra of pyproject.toml; hidden here as on a
    machine without it, and the password stays out of the message."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert any(d.startswith("psycopg") for d in extras["postgres"])
    url = "postgresql+psycopg://ana:secret@localhost/cardtable"
    done = serve(
        "--port", str(free_port()), "--database", url, before="sys.modules['psycopg'] = None"
    )
    line = refused(done, DATA_ERROR)
    assert "pip install 'cardtable[postgres]'" in line
    assert "secret" not in line and "ana:***@localhost" in line


def test_more_than_one_worker_on_sqlite_is_refused_in_one_line(tmp_path: Path) -> None:
    """A SQLite database is one process's: ``--workers`` above 1 needs PostgreSQL, and
    nothing listens or is created meanwhile."""
    port = free_port()
    database = tmp_path / "tables.db"
    done = serve("--port", str(port), "--database", f"sqlite:///{database}", "--workers", "2")
    assert refused(done, USAGE_ERROR) == (
        "cardtable: --workers 2 needs PostgreSQL (--database postgresql+psycopg://…): "
        "a SQLite database is one process's"
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))  # still free


def test_a_file_that_is_no_database_is_said_in_one_line(tmp_path: Path) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("not a database\n" * 100, encoding="utf-8")
    done = serve("--port", str(free_port()), "--database", f"sqlite:///{notes}")
    assert refused(done, DATA_ERROR) == (
        f"cardtable: cannot open the database sqlite:///{notes}: file is not a database"
    )


def test_the_banner_is_one_line_once_the_lobby_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However long the database's path, the banner is not broken across lines (stdout is
    a file here, 80 columns wide), and it is there once the lobby answers ``/health``."""
    monkeypatch.setenv("COLUMNS", "80")
    folder = tmp_path / ("a-folder-with-a-long-name-" * 3)
    folder.mkdir()
    server = ServerProcess(folder / "tables.db", tmp_path / "server.log")
    server.start()
    try:
        printed = (tmp_path / "server.out").read_text(encoding="utf-8")
    finally:
        server.stop()
    assert printed == (
        f"cardtable is serving at http://127.0.0.1:{server.port}/ "
        f"(database sqlite:///{folder / 'tables.db'}); Ctrl+C stops it.\n"
    )


def test_an_unknown_log_format_is_refused_with_the_choices(tmp_path: Path) -> None:
    """``--log-format`` is a choice: a value that is none of them is refused as bad usage,
    naming the value and the choices, before anything starts."""
    port = free_port()
    done = serve(
        "--port", str(port), "--database", f"sqlite:///{tmp_path / 't.db'}", "--log-format", "xml"
    )
    assert done.returncode == USAGE_ERROR, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert "'--log-format'" in done.stderr and "'xml'" in done.stderr
    assert all(f"'{choice}'" in done.stderr for choice in ("auto", "text", "json"))
    assert not (tmp_path / "t.db").exists()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (("--allow-origin", "club.example"), "--allow-origin 'club.example' is not an origin"),
        (("--server-name", "https://cards.example"), "is not a host name"),
        (("--server-name", "cards..example/"), "is not a host name"),
        (("--allow-origin", "https://club.example/lobby"), "is not an origin"),
        (("--read-timeout", "0"), "--read-timeout is over 0"),
        (("--connections-per-client", "-1"), "--connections-per-client 0 or more"),
        (
            ("--client-header", "X-Forwarded-For", "--trusted-proxy", "10.0.0.300"),
            "--trusted-proxy '10.0.0.300' is not an IP address, a network",
        ),
        (
            ("--client-header", "X-Forwarded-For", "--trusted-proxy", "10.1.2.3/8"),
            "--trusted-proxy '10.1.2.3/8' is not a network: bits are set past its /8; "
            "write 10.0.0.0/8",
        ),
        (("--trusted-proxy", "10.0.0.0/8"), "give --client-header too"),
    ],
    ids=[
        "no scheme",
        "a server name with a scheme",
        "a server name with a path",
        "a path",
        "no read time",
        "negative connections",
        "a proxy that is no address",
        "a network with host bits",
        "a proxy without a header",
    ],
)
def test_a_bad_bound_or_origin_is_said_in_one_line(
    tmp_path: Path, options: tuple[str, ...], words: str
) -> None:
    done = serve(
        "--port", str(free_port()), "--database", f"sqlite:///{tmp_path / 't.db'}", *options
    )
    assert words in refused(done, USAGE_ERROR)
    assert not (tmp_path / "t.db").exists()
