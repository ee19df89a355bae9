"""``cardtable serve``: the web table under uvicorn, with every option checked, the
database opened and the port bound before it starts."""

from __future__ import annotations

import contextlib
import errno
import re
import signal
import socket
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from cardtable.cli.common import DATA_ERROR, USAGE_ERROR, _console, _fail

if TYPE_CHECKING:
    from cardtable.server.limits import Limits


class LogFormat(StrEnum):
    """``serve --log-format`` (cardtable.server.logs): a choice, so that Click names the
    values when one is misspelt."""

    AUTO = "auto"
    TEXT = "text"
    JSON = "json"


def serve(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            help="A SQLAlchemy URL (sqlite:///file.db, postgresql+psycopg://…); default: "
            "CARDTABLE_DATABASE_URL, else a SQLite file in your data directory."
        ),
    ] = None,
    grace: Annotated[
        float, typer.Option(help="Seconds a disconnected player's turn waits for a stand-in.")
    ] = 60.0,
    bot_delay: Annotated[float, typer.Option(help="Seconds before each bot move.")] = 0.6,
    workers: Annotated[
        int,
        typer.Option(help="Server processes behind the one port (more than 1 needs PostgreSQL)."),
    ] = 1,
    bot_workers: Annotated[
        int | None, typer.Option(help="Bot processes of each server (default: one per core).")
    ] = None,
    peer_host: Annotated[
        str,
        typer.Option(
            help="On PostgreSQL: the address at which the other server processes reach this "
            "one (each listens there on a port of its own); this machine's address when "
            "processes run on several machines."
        ),
    ] = "127.0.0.1",
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="Open the lobby in a browser.")
    ] = False,
    tables_per_minute: Annotated[
        float, typer.Option(help="Tables one client may open a minute (0: no limit).")
    ] = 20.0,
    client_header: Annotated[
        str | None,
        typer.Option(
            help="The header a trusted reverse proxy puts the client's address in "
            "(X-Forwarded-For); the proxy's X-Forwarded-Proto is then believed too, on "
            "connections from a --trusted-proxy. Without it, the connection's address counts "
            "and forwarded headers are ignored."
        ),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="With --client-header: an address or network (10.0.0.0/8, fd00::/8) of the "
            "proxy whose forwarded headers are believed, * for every connection; repeat for "
            "several. Default: loopback (127.0.0.1, ::1). Any other connection is its own client."
        ),
    ] = None,
    max_body: Annotated[int, typer.Option(help="Bytes of a request's body.")] = 16384,
    read_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a request's headers and body may take to arrive; a slower client's "
            "connection is closed."
        ),
    ] = 10.0,
    connections_per_client: Annotated[
        int,
        typer.Option(
            help="Connections one client may hold open at once, websockets included (0: no limit)."
        ),
    ] = 64,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="Another site whose pages may open tables and sockets here "
            "(https://host[:port]); repeat for several. The server's own pages always may."
        ),
    ] = None,
    server_name: Annotated[
        list[str] | None,
        typer.Option(
            help="A name this server's pages are served under (cards.example.org); repeat "
            "for several. IP addresses and localhost always are; a page of any other name is "
            "taken for another site's that points its name here, and may change nothing.",
        ),
    ] = None,
    evict_after: Annotated[
        float,
        typer.Option(help="Seconds an idle table (nobody connected) stays in memory."),
    ] = 600.0,
    log_format: Annotated[
        LogFormat,
        typer.Option(
            help="The log on stderr: text (a line per event, for a person), json (a JSON "
            "object per line, for a service) or auto (text when stderr is a terminal)."
        ),
    ] = LogFormat.AUTO,
) -> None:
    """Serve the web table: a lobby to open tables, invite links, bots, replays."""
    try:
        from cardtable.server import create_app
        from cardtable.server.app import default_database_url
        from cardtable.server.limits import LOOPBACK, Limits, proxy_networks
        from cardtable.server.logs import configure
        from cardtable.server.origins import parse_origin
    except ImportError as exc:  # pragma: no cover - the server's dependencies are core ones
        _fail(f"the web table needs its dependencies: {exc}", DATA_ERROR)
    if not 0 < port < 65536:
        _fail(f"--port must be 1-65535, not {port}", USAGE_ERROR)
    if grace < 0 or bot_delay < 0 or workers < 1 or (bot_workers is not None and bot_workers < 1):
        _fail(
            "--grace and --bot-delay are 0 or more, --workers and --bot-workers 1 or more",
            USAGE_ERROR,
        )
    if tables_per_minute < 0 or evict_after < 0 or max_body < 1:
        _fail(
            "--tables-per-minute and --evict-after are 0 or more, --max-body 1 or more",
            USAGE_ERROR,
        )
    if not read_timeout > 0 or connections_per_client < 0:
        _fail("--read-timeout is over 0, --connections-per-client 0 or more", USAGE_ERROR)
    origins = tuple(allow_origin or ())
    for origin in origins:
        if parse_origin(origin) is None:
            _fail(
                f"--allow-origin {origin!r} is not an origin: write https://host or "
                "http://host:port",
                USAGE_ERROR,
            )
    names = tuple(name.lower() for name in server_name or ())
    for name in names:
        if not re.fullmatch(r"[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?", name):
            _fail(
                f"--server-name {name!r} is not a host name: write cards.example.org", USAGE_ERROR
            )
    proxies = tuple(trusted_proxy or ())
    if proxies and not client_header:
        _fail(
            "--trusted-proxy names the proxies whose --client-header is believed: "
            "give --client-header too",
            USAGE_ERROR,
        )
    for proxy in proxies:
        try:
            proxy_networks([proxy])
        except ValueError as exc:
            _fail(f"--trusted-proxy {exc}", USAGE_ERROR)
    limits = Limits(
        tables_per_minute=tables_per_minute,
        client_header=client_header or None,
        trusted_proxies=proxies or LOOPBACK,
        max_body=max_body,
        read_timeout=read_timeout,
        connections_per_client=connections_per_client,
        evict_after=evict_after,
    )
    # Everything that would stop the server is checked before it starts, and said in a line.
    url = database or default_database_url()
    shown = _check_database(url)
    from sqlalchemy.engine import make_url

    shared = make_url(url).get_backend_name() != "sqlite"  # several processes may share it
    if workers > 1 and not shared:
        _fail(
            f"--workers {workers} needs PostgreSQL (--database postgresql+psycopg://…): "
            "a SQLite database is one process's",
            USAGE_ERROR,
        )
    sockets = _listen(host, port)
    chosen_format = configure(log_format.value)
    address = f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"
    console = _console()

    def run(index: int, first: bool) -> None:
        peer = _listen(peer_host, 0)[:1] if shared else []
        peer_address = None
        if peer:
            bound = peer[0].getsockname()
            peer_address = (
                f"[{bound[0]}]:{bound[1]}" if ":" in bound[0] else f"{bound[0]}:{bound[1]}"
            )
        try:
            application = create_app(
                url,
                grace=grace,
                bot_delay=bot_delay,
                workers=bot_workers,
                full_collection_every=600,
                limits=limits,
                peer_address=peer_address,
                allowed_origins=origins,
                server_names=names,
            )
        except ValueError as exc:
            _fail(f"--database {shown}: {exc}", USAGE_ERROR)
        _run_server(
            application,
            limits,
            sockets + peer,
            peer,
            index == 0 and first,
            host,
            port,
            address,
            shown,
            open_browser,
            console,
        )

    if workers == 1:
        run(0, True)
        return
    from cardtable.server.store import Store
    from cardtable.server.workers import supervise

    # The schema is brought up to date once, here, before the workers open the database:
    # they would otherwise all upgrade it at once.
    Store(url).close()
    raise typer.Exit(supervise(workers, run, json_log=chosen_format == "json"))


def _run_server(
    application: Any,
    limits: Limits,
    sockets: list[socket.socket],
    peer: list[socket.socket],
    announce: bool,
    host: str,
    port: int,
    address: str,
    shown: str,
    open_browser: bool,
    console: Console,
) -> None:
    """Serve ``application`` under uvicorn on ``sockets`` (``peer`` among them: where the
    other server processes relay sockets); ``announce``: print the banner (one process of
    several does)."""
    import uvicorn

    from cardtable.server.commits import COMMIT_PATIENCE
    from cardtable.server.connections import protocols
    from cardtable.server.transport import MAX_FRAME

    # The connections of the other processes are theirs to count, not a client's.
    http, websocket = protocols(limits, {sock.getsockname()[1] for sock in peer})

    class Server(uvicorn.Server):
        """Says where the lobby is once it answers: after the database is open and the
        tables restored (the application's start-up), with the sockets listening."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if not self.started or not announce:
                return
            banner = Text("cardtable is serving at ")
            banner.append(address, style="bold")
            banner.append(f" (database {shown}); Ctrl+C stops it.")
            console.print(banner, soft_wrap=True)
            if open_browser:
                import webbrowser

                webbrowser.open(address)

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            """The graceful stop (docs/hosting.md): stop listening, so that a proxy sends
            new connections to another server; finish the changes under way and tell the
            sockets to connect again (``Hub.drain``); then uvicorn's own stop."""
            for server in self.servers:
                server.close()
            for sock in sockets or []:
                sock.close()
            hub = getattr(application.state, "hub", None)  # None: it never started
            if hub is not None:
                await hub.drain(COMMIT_PATIENCE + 1.0)
            await super().shutdown(sockets=sockets)

    config = uvicorn.Config(
        application,
        host=host,
        port=port,
        log_config=None,
        http=http,
        ws=websocket,
        ws_max_size=MAX_FRAME,
        # The client is the connection's address, or, on a connection from a proxy the
        # operator trusts, the one it writes (--client-header, --trusted-proxy:
        # limits.client_of); uvicorn's own reading of X-Forwarded-For would believe it from
        # loopback whether the operator names a proxy or not.
        proxy_headers=False,
        # Requests still being answered once the sockets are told to go: a bounded wait.
        timeout_graceful_shutdown=STOP_SECONDS,
    )
    # After a graceful stop uvicorn raises the signal it caught again, to end as that signal
    # would: Ctrl+C's is suppressed here, and a SIGTERM (a supervisor's, a container's stop)
    # ends the process with status 0, a stop that went as it should.
    signal.signal(signal.SIGTERM, _stopped)
    with contextlib.suppress(KeyboardInterrupt):
        Server(config).run(sockets=sockets)


# Seconds the requests still being answered at a stop may take, after the changes under way
# were finished (their own wait: the writer's patience and a second).
STOP_SECONDS = 5


def _stopped(_signal: int, _frame: object) -> None:
    raise SystemExit(0)


def _check_database(url: str) -> str:
    """``--database`` as it may be shown (no password), once it is known to open: a
    one-line :func:`_fail` when it is no database URL, names a database or driver that is
    not installed, a SQLite file in a folder that does not exist, or does not connect."""
    from sqlalchemy import create_engine, inspect
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    forms = "sqlite:///FILE or postgresql+psycopg://USER:PASSWORD@HOST/NAME"
    try:
        parsed = make_url(url)
    except ArgumentError:
        _fail(f"--database {url!r} is not a database URL: write {forms}", USAGE_ERROR)
    shown = parsed.render_as_string(hide_password=True)
    try:
        dialect = parsed.get_dialect()
    except NoSuchModuleError:
        _fail(
            f"--database {shown}: {parsed.drivername!r} is not a kind of database "
            f"(SQLAlchemy knows no such dialect): write {forms}",
            USAGE_ERROR,
        )
    backend, driver = parsed.get_backend_name(), parsed.get_driver_name()
    try:
        dialect.import_dbapi()
    except ImportError as exc:
        if backend == "postgresql" and driver == "psycopg":
            why = "PostgreSQL needs the psycopg driver: pip install 'cardtable[postgres]'"
        elif backend == "postgresql":
            why = (
                f"the {driver} driver is not installed: write postgresql+psycopg://… "
                "and pip install 'cardtable[postgres]'"
            )
        else:
            why = f"the {backend} driver {driver} is not installed ({exc})"
        _fail(f"--database {shown}: {why}", DATA_ERROR)
    if backend == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(parsed.database or "").expanduser().parent
        if not parsed.database.startswith("file:") and not folder.is_dir():
            _fail(
                f"--database {shown}: the folder {folder} does not exist; create it, "
                "or give a file in a folder that does",
                DATA_ERROR,
            )
    # Open it, and read its tables' names: a file that is no database fails here too.
    options: dict[str, Any] = {"connect_timeout": 10} if backend == "postgresql" else {}
    try:
        engine = create_engine(parsed, connect_args=options)
        try:
            with engine.connect() as connection:
                inspect(connection).get_table_names()
        finally:
            engine.dispose()
    except (SQLAlchemyError, OSError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines() or [type(exc).__name__]
        _fail(f"cannot open the database {shown}: {reason[0]}", DATA_ERROR)
    return shown


def _listen(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to ``host``'s addresses at ``port``, for the server to listen on; a
    one-line :func:`_fail` when the port is taken or the address is not this machine's."""
    try:
        found = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as exc:
        _fail(f"--host {host!r}: no such address ({exc.strerror})", USAGE_ERROR)
    sockets: list[socket.socket] = []
    try:
        for family, kind, protocol, _, address in dict.fromkeys(
            (f, k, p, "", a) for f, k, p, _, a in found
        ):
            sock = socket.socket(family, kind, protocol)
            sockets.append(sock)
            # As asyncio binds a server's sockets: a restart does not wait for TIME_WAIT.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
    except OSError as exc:
        for sock in sockets:
            sock.close()
        if exc.errno == errno.EADDRINUSE:
            why = f"port {port} is in use by another program: stop it, or choose another --port"
        elif exc.errno == errno.EACCES:
            why = f"no permission to use port {port}: choose one above 1023 with --port"
        elif exc.errno == errno.EADDRNOTAVAIL:
            why = f"{host} is not an address of this machine: choose another --host"
        else:
            why = exc.strerror or str(exc)
        _fail(f"cannot listen on {host}:{port}: {why}", DATA_ERROR)
    return sockets
