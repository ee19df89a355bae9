"""The ``cardtable`` command: play a game in the terminal against bots, or replay a record.

    cardtable play knockout-whist --players 4 --seed 7 --record game.json
    cardtable play neuf --trump-sequence SHDC-NT --tie-avoidance
    cardtable play kryt-navalivat --players 3 --trump-mode permanent --record session.json
    cardtable replay game.json --step
    cardtable verify replay.json
    cardtable arena knockout-whist --players 3 --bots hard,easy,random --games 2000 --workers 2
    cardtable arena neuf --bots hard,easy --games 2000 --per-deal --stop-when-separated 0.5
    cardtable review game.json --seat 0 --json review.json --chart review.png

Kryt'-navalivat' is played as a session of hands (the fool deals the next); its record
is the session file, which ``replay`` shows hand by hand.

Bad input (an unknown game, an option out of range, a truncated record) ends with a
one-line explanation on stderr and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import json
import shlex
import signal
import socket
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as ProgressBar
from rich.text import Text
from typer.core import TyperCommand, TyperGroup

import cardtable
from cardtable.bots import BOT_NAMES, Bot, make_bot
from cardtable.bots.base import UnknownBotError
from cardtable.core import Game, State
from cardtable.errors import CardtableError, InvalidBudgetError
from cardtable.rules.kryt_navalivat.game import TRUMP_MODES
from cardtable.rules.kryt_navalivat.session import SESSION_FORMAT, Session
from cardtable.rules.neuf.ledger import TRUMP_SEQUENCES
from cardtable.terminal import screen_for
from cardtable.terminal.session import (
    HandsPlay,
    PlaySession,
    replay_record,
    replay_session,
    save_record,
    save_session,
)

if TYPE_CHECKING:  # the arena loads only for the arena command
    from typer._click.core import Context, Parameter

    from cardtable.arena import ArenaConfig, GameOutcome, TournamentResult
    from cardtable.server.limits import Limits

__all__ = ["app"]

USAGE_ERROR = 2  # the exit status Click gives to bad usage; bad options and names use it too
DATA_ERROR = 1
INTERRUPTED = 130  # the shell's status for a program stopped by Ctrl-C

# Options that belong to one game, with that game's name (its descriptor's ``variants``):
# refused for any other game.
VARIANT_GAMES = {option: d.name for d in cardtable.GAMES.values() for option in d.variants}
# The games played as a session of hands (SPEC §0.1, KRYT-2.1), which take ``--hands``.
SESSION_GAMES = ", ".join(d.name for d in cardtable.GAMES.values() if d.sessions)
DEFAULT_BOT = "heuristic"

GAME_HELP = "The game: " + ", ".join(sorted(cardtable.GAMES)) + "."


def _untyped_flags(params: list[Parameter]) -> list[Parameter]:
    """Flags take no value, so the help shows no type for them (Typer's rich help would
    write ``<bool>`` beside ``--help`` and every flag)."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class _Command(TyperCommand):
    def get_params(self, ctx: Context) -> list[Parameter]:
        return _untyped_flags(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx: Context) -> list[Parameter]:
        return _untyped_flags(super().get_params(ctx))


app = typer.Typer(
    cls=_Group,
    help="Play Neuf, Kryt'-navalivat' and Knockout Whist: against bots in the terminal "
    "(play), or with friends and bots at the web table (serve); replay a saved game "
    "(replay), judge a seat's decisions in a finished game (review), or rank bots against "
    "each other (arena).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _console() -> Console:
    # Piped output (tests, logs) gets plain text: no colour or cursor codes.
    plain = not sys.stdout.isatty()
    return Console(highlight=False, emoji=False, no_color=plain)


def _fail(message: str, status: int) -> NoReturn:
    Console(stderr=True, highlight=False, emoji=False, soft_wrap=True).print(
        f"cardtable: {message}", markup=False
    )
    raise typer.Exit(status)


def _make_game(
    name: str, players: int | None, dealer: int | None, variants: dict[str, tuple[str, Any]]
) -> Game:
    """The game to play; ``variants`` maps each game-specific option given to its flag."""
    options: dict[str, Any] = {}
    if players is not None:
        options["players"] = players
    if dealer is not None:
        options["dealer"] = dealer
    for option, (flag, value) in variants.items():
        owner = VARIANT_GAMES[option]
        if name in cardtable.GAMES and option not in cardtable.GAMES[name].variants:
            _fail(f"{flag} is an option of {owner}; {name} has no such option", USAGE_ERROR)
        options[option] = value
    try:
        game = cardtable.make(name, **options)
        screen_for(game.name)
    except CardtableError as exc:
        _fail(str(exc), USAGE_ERROR)
    return game


def _save(state: State | Session, path: Path | None, console: Console) -> None:
    if path is None:
        return
    try:
        if isinstance(state, Session):
            save_session(state, path)
        else:
            save_record(state, path)
    except OSError as exc:
        _fail(f"cannot write the record to {path}: {exc.strerror or exc}", DATA_ERROR)
    console.print(f"Record saved to {path}.", markup=False)


@app.command(cls=_Command)
def play(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Number of players, you included.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed for the deals and the bots; replays the same game.")
    ] = None,
    dealer: Annotated[
        int | None, typer.Option(help="Seat of the first dealer (random from the seed if unset).")
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Save the game's record (JSON; for Kryt'-navalivat' the session of hands) "
            "here at the end, or when you quit."
        ),
    ] = None,
    bot: Annotated[
        str | None,
        typer.Option(
            help="The bots you play against: "
            + ", ".join(BOT_NAMES)
            + f" (default {DEFAULT_BOT}, or random for a game with no heuristic bot yet)."
        ),
    ] = None,
    trump_sequence: Annotated[
        str | None,
        typer.Option(
            "--trump-sequence",
            help="Neuf: the trump cycle, one of " + ", ".join(TRUMP_SEQUENCES) + ".",
        ),
    ] = None,
    dealer_exchanges_first: Annotated[
        bool,
        typer.Option("--dealer-exchanges-first", help="Neuf, 3 players: the dealer decides first."),
    ] = False,
    tie_avoidance: Annotated[
        bool,
        typer.Option(
            "--tie-avoidance", help="Neuf, 3 players: the first to cross zero wins at once."
        ),
    ] = False,
    trump_mode: Annotated[
        str | None,
        typer.Option(
            "--trump-mode",
            help="Kryt'-navalivat': " + " or ".join(TRUMP_MODES) + " trumps (KRYT-8).",
        ),
    ] = None,
    hands: Annotated[
        int | None,
        typer.Option(
            "--hands",
            help="Kryt'-navalivat': play this many hands, then stop (asks after each if unset).",
        ),
    ] = None,
) -> None:
    """Play a game at seat 0 against bots."""
    variants: dict[str, tuple[str, Any]] = {}
    if trump_sequence is not None:
        variants["trump_sequence"] = ("--trump-sequence", trump_sequence)
    if dealer_exchanges_first:
        variants["dealer_exchanges_first"] = ("--dealer-exchanges-first", True)
    if tie_avoidance:
        variants["tie_avoidance"] = ("--tie-avoidance", True)
    if trump_mode is not None:
        variants["trump_mode"] = ("--trump-mode", trump_mode)
    table = _make_game(game, players, dealer, variants)
    if hands is not None:
        if not cardtable.GAMES[table.name].sessions:
            _fail(
                f"--hands is an option of {SESSION_GAMES}; {table.name} has no such option",
                USAGE_ERROR,
            )
        if hands < 1:
            _fail(f"--hands must be 1 or more, not {hands}", USAGE_ERROR)
    bot, bots = _make_bots(bot, table)
    console = _console()
    if seed is None:
        seed = Game.fresh_seed()
    if cardtable.GAMES[table.name].sessions:
        _play_session(table, seed, bot, bots, console, record, hands)
        return
    state = table.new_state(seed=seed)
    console.print(
        f"{table.name}, {table.num_players} players, seed {seed}; you are seat 0 "
        f"against {bot} bots.",
        markup=False,
    )
    session = PlaySession(
        console=console, state=state, bots=bots, seed=seed, echo_input=not sys.stdin.isatty()
    )
    interrupted = False
    try:
        finished = session.run()
    except KeyboardInterrupt:
        finished, interrupted = False, True
    if not finished:
        console.print(f"Game stopped unfinished after {len(state.record().actions)} actions.")
    _save(state, record, console)
    if interrupted:
        raise typer.Exit(INTERRUPTED)


def split_bot_specs(text: str) -> tuple[str, ...]:
    """``--bots`` as specs. Commas separate the bots and also a spec's parameters
    (``ismcts:iterations=500,rollout=random,easy``): a piece with ``=`` and no ``:`` is a
    parameter of the spec before it, since no bot spec is a bare ``key=value``."""
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if specs and "=" in piece and ":" not in piece:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return tuple(specs)


def _make_bots(name: str | None, table: Game) -> tuple[str, dict[int, Bot]]:
    """The bots for seats 1 and up; unset, the game's heuristic bot, or the random bot for
    a game that has none yet."""
    chosen = DEFAULT_BOT if name is None else name
    try:
        bot = make_bot(chosen, table.name)
    except CardtableError as exc:
        if name is not None:
            _fail(str(exc), USAGE_ERROR)
        chosen = "random"
    else:
        if getattr(bot, "sees_everything", False):
            _fail(f"{chosen!r} sees every card: it plays only in the arena", USAGE_ERROR)
    return chosen, {s: make_bot(chosen, table.name) for s in range(1, table.num_players)}


def _play_session(
    table: Game,
    seed: int,
    bot: str,
    bots: dict[int, Bot],
    console: Console,
    record: Path | None,
    hands: int | None,
) -> None:
    """Kryt'-navalivat' hands in a row; the record is the session's file."""
    options = table.options
    session = Session(
        players=table.num_players,
        trump_mode=options["trump_mode"],
        dealer=options["dealer"],
        seed=seed,
    )
    console.print(
        f"{table.name}, {table.num_players} players, {options['trump_mode']} trumps, "
        f"seed {seed}; you are seat 0 against {bot} bots.",
        markup=False,
    )
    play = HandsPlay(
        console=console,
        session=session,
        bots=bots,
        echo_input=not sys.stdin.isatty(),
        hands=hands,
    )
    interrupted = False
    try:
        finished = play.run()
    except KeyboardInterrupt:
        finished, interrupted = False, True
    if not finished:
        actions = len(session.state.record().actions)
        console.print(
            f"Session stopped: hand {len(session.hands)} unfinished after {actions} actions."
        )
    _save(session, record, console)
    if interrupted:
        raise typer.Exit(INTERRUPTED)


@app.command(cls=_Command)
def replay(
    file: Annotated[
        Path,
        typer.Argument(help="A record or a session saved by 'cardtable play --record'."),
    ],
    step: Annotated[
        bool | None,
        typer.Option(
            "--step/--no-step",
            help="Wait for Enter between actions (the default when stdin is a terminal).",
        ),
    ] = None,
) -> None:
    """Step through a saved game, showing each action and the table."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}", DATA_ERROR)
    console = _console()
    read_step = sys.stdin.isatty() if step is None else step
    if _is_session(text):
        try:
            session = Session.from_json(text)
        except ValueError as exc:
            _fail(f"{file} is not a playable session: {exc}", DATA_ERROR)
        replay_session(console, session, step=read_step, read_line=console.input)
        return
    try:
        record = cardtable.load_record(text)
        screen_for(record.game)
        replay_record(
            console,
            record,
            step=read_step,
            read_line=console.input,
        )
    except ValueError as exc:
        _fail(f"{file} is not a playable record: {exc}", DATA_ERROR)


@app.command(cls=_Command)
def verify(
    file: Annotated[
        Path,
        typer.Argument(
            help="A finished game's record from a web table (its replay, or the record in it)."
        ),
    ],
) -> None:
    """Check a finished web-table game's deals against its commitment and players' seeds."""
    from cardtable.fairness import verify_record

    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}", DATA_ERROR)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        _fail(f"{file} is not JSON (truncated?): {exc}", DATA_ERROR)
    # The table's replay document holds the record under "record".
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        data = data["record"]
    try:
        verified = verify_record(data)
    except ValueError as exc:
        _fail(f"{file} does not verify: {exc}", DATA_ERROR)
    reshuffles = f" and {verified.reshuffles} reshuffles" if verified.reshuffles else ""
    _console().print(
        f"verified: {verified.game}, {verified.decks} decks{reshuffles} derived from the "
        f"server seed (commitment {verified.commitment[:16]}…) and the players' seeds",
        highlight=False,
    )


def _is_session(text: str) -> bool:
    """Whether ``text`` is a saved session (several hands) rather than one game's record."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("format") == SESSION_FORMAT


# The web table -----------------------------------------------------------------------------


class LogFormat(StrEnum):
    """``serve --log-format`` (cardtable.server.logs): a choice, so that Click names the
    values when one is misspelt."""

    AUTO = "auto"
    TEXT = "text"
    JSON = "json"


@app.command(cls=_Command)
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
    configure(log_format.value)
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
    raise typer.Exit(supervise(workers, run))


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


# The arena ---------------------------------------------------------------------------------


# The help as one string with no line breaks inside a paragraph: Typer's rich help keeps a
# docstring's line breaks, which cut the sentences wherever the source wraps them.
ARENA_HELP = (
    "Play bots against each other and rank them.\n\n"
    "It reports win rates (Neuf: the mean final score, or with --per-deal the mean score "
    "gained per deal; Kryt'-navalivat': the loss rate) with 95% intervals, OpenSkill "
    "ratings, and JSON, CSV and PNG reports."
)


@app.command(cls=_Command, help=ARENA_HELP)
def arena(
    game: Annotated[str, typer.Argument(help=GAME_HELP)],
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help="Comma-separated bot specs, one entry each: random, heuristic, easy, medium, "
            "hard, ismcts:iterations=N,..., or package.module:Class. Fewer than the seats "
            "are cycled over them.",
        ),
    ],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players per game (the game's default).")
    ] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", help="Games to play (rounded up to whole deals when duplicated)."
        ),
    ] = 100,
    seed: Annotated[
        int | None, typer.Option(help="Seed for every deal and bot; the same seed, the same games.")
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", help="Games played at once (1: in this process).")
    ] = 1,
    backend: Annotated[
        str, typer.Option(help="Where games run: local (processes) or ray (needs the ray extra).")
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option(help="Ray: an existing cluster's address (else a local Ray is started)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Folder for the results (default: a new arena-GAME-DATE-TIME folder)."),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Finish the interrupted tournament in this folder (same options)."),
    ] = None,
    report_only: Annotated[
        bool,
        typer.Option(
            "--report-only",
            help="With --resume: play nothing; report the games the folder holds so far.",
        ),
    ] = False,
    on_error: Annotated[
        str,
        typer.Option(
            "--on-error",
            help="When a bot raises or plays an illegal action: continue (the default) or stop.",
        ),
    ] = "continue",
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate/--no-duplicate",
            help="Replay each deal under every rotation of the bots (the default), or play "
            "each deal once.",
        ),
    ] = True,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="A game option as KEY=VALUE, e.g. -o trump_mode=permanent (repeatable).",
        ),
    ] = None,
    per_deal: Annotated[
        bool,
        typer.Option(
            "--per-deal",
            help="Neuf only: play each game's first deal alone and measure the score each "
            "side gains in it (NEUF-5.2; lower is better).",
        ),
    ] = False,
    stop_when_separated: Annotated[
        float | None,
        typer.Option(
            "--stop-when-separated",
            metavar="MARGIN",
            help="Stop once the first bot's 95% interval lies at least MARGIN (in the "
            "metric's units) from every other bot's, checked after each whole deal.",
        ),
    ] = None,
    min_deals: Annotated[
        int | None,
        typer.Option(
            "--min-deals",
            metavar="N",
            help="With --stop-when-separated: check only once N whole deals are done "
            "(default 100).",
        ),
    ] = None,
    play_on: Annotated[
        bool,
        typer.Option(
            "--play-on",
            help="With --resume: play the games left after the stopping rule stopped the "
            "tournament (the rule then stops it no more).",
        ),
    ] = False,
    max_actions: Annotated[
        int | None,
        typer.Option(
            "--max-actions",
            metavar="N",
            help="Stop a game that has not ended after N actions and score it a draw "
            "(KRYT-7.7: Kryt'-navalivat' has no move limit; default 10,000).",
        ),
    ] = None,
) -> None:
    from cardtable.arena import ArenaConfig, run_tournament
    from cardtable.arena.config import DEFAULT_MIN_DEALS, MAX_ACTIONS, StoppingRule
    from cardtable.arena.store import CONFIG_FILE
    from cardtable.arena.tournament import default_folder

    if out is not None and resume is not None:
        _fail("give --out for a new tournament or --resume for an old one, not both", USAGE_ERROR)
    if report_only and resume is None:
        _fail("--report-only reports a tournament's folder: give it with --resume", USAGE_ERROR)
    if min_deals is not None and stop_when_separated is None:
        _fail("--min-deals goes with --stop-when-separated MARGIN", USAGE_ERROR)
    if play_on and resume is None:
        _fail("--play-on plays on a stopped tournament: give its folder with --resume", USAGE_ERROR)
    stop = None
    if stop_when_separated is not None:
        deals = DEFAULT_MIN_DEALS if min_deals is None else min_deals
        stop = StoppingRule(margin=stop_when_separated, min_deals=deals)
    options = _arena_options(option or [])
    if players is not None:
        options["players"] = players
    specs = split_bot_specs(bots)
    if seed is None and resume is not None:
        seed = _saved_seed(resume / CONFIG_FILE)
    if seed is None:
        seed = Game.fresh_seed()
    config = ArenaConfig(
        game=game,
        bots=specs,
        games=games,
        seed=seed,
        options=options,
        duplicate=duplicate,
        per_deal=per_deal,
        stop=stop,
        max_actions=MAX_ACTIONS if max_actions is None else max_actions,
    )
    folder = resume if resume is not None else out if out is not None else default_folder(game)
    again = _resume_command(config, folder)
    console = _console()
    bar = _ArenaProgress(console)
    try:
        with bar.progress:
            result = run_tournament(
                config,
                folder,
                backend=backend,
                workers=workers,
                address=address,
                on_error=on_error,
                resume=resume is not None,
                progress=bar,
                play=not report_only,
                play_on=play_on,
            )
    except KeyboardInterrupt:
        console.print(
            f"Interrupted: {bar.finished} of {bar.total} games are saved in {folder}.\n"
            f"Resume with: {again}",
            markup=False,
            soft_wrap=True,
        )
        raise typer.Exit(INTERRUPTED) from None
    except CardtableError as exc:
        _fail(str(exc), USAGE_ERROR)
    except OSError as exc:
        _fail(f"cannot write the results to {folder}: {exc}", DATA_ERROR)
    _print_arena(console, result, again)
    if result.stopped:
        raise typer.Exit(DATA_ERROR)


class _ArenaProgress:
    """A progress bar with the time left (shown only on a terminal) and a line per failure."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.progress = ProgressBar(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[failed]} failed"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=console,
            disable=not console.is_terminal,
        )
        self.total = self.finished = 0
        self.failed = 0

    def start(self, total: int, done: int) -> None:
        self.total, self.finished = total, done
        self.task = self.progress.add_task("games", total=total, completed=done, failed=0)
        if done:
            self.console.print(
                f"Resuming: {done} of {total} games already played.", markup=False, soft_wrap=True
            )

    def advance(self, outcome: GameOutcome) -> None:
        if outcome.ok:
            self.finished += 1
            if outcome.capped:
                self.console.print(
                    f"game {outcome.index} (deal {outcome.deal}, rotation {outcome.rotation}): "
                    f"{outcome.summary}",
                    markup=False,
                    soft_wrap=True,
                )
        else:
            self.failed += 1
            record = outcome.failure and outcome.failure.record_file
            self.console.print(
                f"game {outcome.index} (deal {outcome.deal}, rotation {outcome.rotation}) "
                f"failed: {outcome.summary}; record: {record}",
                markup=False,
                soft_wrap=True,
            )
        self.progress.update(self.task, advance=1, failed=self.failed)


def _arena_options(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` game options; numbers and true/false are read as such."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            _fail(f"--option takes KEY=VALUE, not {item!r}", USAGE_ERROR)
        value: Any = text.strip()
        if value.lower() in ("true", "false"):
            value = value.lower() == "true"
        else:
            for kind in (int, float):
                try:
                    value = kind(value)
                    break
                except ValueError:
                    pass
        options[key.strip()] = value
    return options


def _saved_seed(path: Path) -> int | None:
    try:
        seed = json.loads(path.read_text(encoding="utf-8")).get("seed")
    except (OSError, ValueError, AttributeError):
        return None
    return seed if isinstance(seed, int) else None


def _resume_command(config: ArenaConfig, folder: Path) -> str:
    """The command that finishes this tournament after an interruption."""
    from cardtable.arena.config import MAX_ACTIONS

    words = ["cardtable", "arena", config.game, "--bots", ",".join(config.bots)]
    words += ["--games", str(config.games), "--seed", str(config.seed)]
    for key, value in config.options.items():
        if key == "players":
            words += ["--players", str(value)]
        else:
            words += ["--option", f"{key}={value}"]
    if not config.duplicate:
        words.append("--no-duplicate")
    if config.per_deal:
        words.append("--per-deal")
    if config.stop is not None:
        words += ["--stop-when-separated", repr(float(config.stop.margin))]
        words += ["--min-deals", str(config.stop.min_deals)]
    if config.max_actions != MAX_ACTIONS:
        words += ["--max-actions", str(config.max_actions)]
    return shlex.join([*words, "--resume", str(folder)])


def _print_arena(console: Console, result: TournamentResult, again: str) -> None:
    from cardtable.arena.report import (
        CHART_MISSING,
        difference_note,
        method_note,
        rule_note,
        standings_table,
    )

    config = result.config
    deals = config.deals
    shape = f"{deals} deals x {config.rotations} rotations" if config.duplicate else "one per deal"
    if config.per_deal:
        shape += "; each game is the first deal of a game alone"
    console.print(
        f"{config.game}, {result.players} players, seed {config.seed}: "
        f"{result.finished} of {result.scheduled} games finished ({shape}).",
        markup=False,
        soft_wrap=True,
    )
    console.print(standings_table(result))
    console.print(f"Intervals: {method_note(result)}.", markup=False, soft_wrap=True)
    paired = difference_note(result)
    if paired is not None:
        console.print(f"{paired}.", markup=False, soft_wrap=True)
    note = rule_note(result)
    if note is not None:
        console.print(note, markup=False, soft_wrap=True)
    capped = result.capped
    if capped:
        console.print(
            f"{len(capped)} games had no result after {config.max_actions:,} actions and were "
            f"scored draws (KRYT-7.7): games {', '.join(str(o.index) for o in capped)}.",
            markup=False,
            soft_wrap=True,
        )
    failures = result.failures
    if failures:
        console.print(
            f"{len(failures)} games failed; their records are in {result.folder / 'failures'}.",
            markup=False,
            soft_wrap=True,
        )
    if result.stopped:
        console.print(
            f"Stopped at the first failure. Resume with: {again}", markup=False, soft_wrap=True
        )
    elif result.stopped_by_rule:
        console.print(
            "Checking after every deal is optional stopping: the 95% is nominal "
            "(docs/arena.md, 'Stopping early').",
            markup=False,
            soft_wrap=True,
        )
        if not result.complete:
            console.print(
                f"To play the games left all the same: {again} --play-on",
                markup=False,
                soft_wrap=True,
            )
    elif not result.complete:
        console.print(f"Unfinished. Resume with: {again}", markup=False, soft_wrap=True)
    names = ", ".join(path.name for path in result.files.values())
    console.print(f"Results in {result.folder}: {names}.", markup=False, soft_wrap=True)
    if "chart" not in result.files:
        console.print(CHART_MISSING, markup=False, soft_wrap=True)


# Game review ------------------------------------------------------------------------------


@app.command(cls=_Command, name="review")
def review_command(
    file: Annotated[
        Path, typer.Argument(help="The record of a finished game ('cardtable play --record').")
    ],
    seat: Annotated[int, typer.Option("--seat", "-s", help="The seat whose decisions to judge.")],
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the whole review to this JSON file.")
    ] = None,
    chart: Annotated[
        Path | None,
        typer.Option("--chart", help="Draw the expected return over the game to this PNG."),
    ] = None,
    level: Annotated[
        str,
        typer.Option(
            "--level",
            help="The search that judges: expert, hard, medium, or a spec (pimc:deals=50).",
        ),
    ] = "expert",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the search's sampling.")] = 0,
    top: Annotated[
        int | None, typer.Option("--top", "-n", help="List only this many decisions.", min=1)
    ] = None,
) -> None:
    """Judge every decision of one seat in a finished game, the costliest first."""
    from cardtable.review import INACCURACY, MISTAKE, ReviewError, review, write_chart

    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}", DATA_ERROR)
    if _is_session(text):
        _fail(f"{file} is a session of hands; review one hand's record", DATA_ERROR)
    try:
        record = cardtable.load_record(text)
    except ValueError as exc:
        _fail(f"{file} is not a record: {exc}", DATA_ERROR)
    console = _console()
    bar = ProgressBar(
        TextColumn("decisions"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
        transient=True,
    )
    task = bar.add_task("decisions", total=None)
    try:
        with bar:
            done = review(
                record,
                seat,
                level=level,
                rng_seed=seed,
                progress=lambda n, total: bar.update(task, completed=n, total=total),
            )
    except (ReviewError, InvalidBudgetError, UnknownBotError) as exc:
        _fail(str(exc), USAGE_ERROR)
    except ValueError as exc:
        _fail(f"{file} does not replay: {exc}", DATA_ERROR)
    except KeyboardInterrupt:
        raise typer.Exit(INTERRUPTED) from None
    counts = done.counts()
    said = ", ".join(f"{counts[v]} {v}" for v in ("fine", "inaccuracy", "mistake") if counts[v])
    console.print(
        f"{record.game}, seat {seat} of {len(done.returns)}, judged by {level}: "
        f"{len(done.decisions)} decisions ({said or 'none with a choice'}); "
        f"return {done.returns[seat]:+.3f}.",
        markup=False,
        soft_wrap=True,
    )
    console.print(_review_table(done.worst(top)))
    console.print(
        f"Loss: the best action's expected return less the chosen one's; "
        f"inaccuracy from {INACCURACY}, mistake from {MISTAKE}.",
        markup=False,
        soft_wrap=True,
    )
    if json_out is not None:
        try:
            json_out.write_text(done.to_json(indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            _fail(f"cannot write {json_out}: {exc.strerror or exc}", DATA_ERROR)
        console.print(f"Review saved to {json_out}.", markup=False, soft_wrap=True)
    if chart is not None:
        try:
            drawn = write_chart(done, chart)
        except OSError as exc:
            _fail(f"cannot write {chart}: {exc.strerror or exc}", DATA_ERROR)
        if drawn:
            console.print(f"Chart saved to {chart}.", markup=False, soft_wrap=True)
        else:
            console.print(REVIEW_CHART_MISSING, markup=False, soft_wrap=True)


REVIEW_CHART_MISSING = "the chart needs matplotlib: pip install 'cardtable[arena]'"


def _review_table(decisions: list[Any]) -> Any:
    """The decisions as a Rich table, in the order given."""
    from rich.table import Table

    table = Table(title="Decisions, the costliest first")
    for name, justify in (
        ("move", "right"),
        ("hand", "right"),
        ("trick", "right"),
        ("played", "left"),
        ("better", "left"),
        ("loss", "right"),
        ("verdict", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for d in decisions:
        table.add_row(
            str(d.index),
            "" if d.hand is None else str(d.hand),
            "" if d.trick is None else str(d.trick),
            d.chosen,
            "" if d.best == d.chosen else d.best,
            "" if d.loss is None else f"{d.loss:.3f}",
            d.verdict,
        )
    return table


if __name__ == "__main__":
    app(prog_name="cardtable")
