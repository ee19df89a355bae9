"""``cardtable play``: a game at seat 0 against bots in the terminal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

import cardtable
from cardtable.bots import BOT_NAMES, Bot, make_bot
from cardtable.cli.common import (
    DATA_ERROR,
    GAME_HELP,
    INTERRUPTED,
    USAGE_ERROR,
    _console,
    _fail,
)
from cardtable.core import Game, State
from cardtable.errors import CardtableError
from cardtable.rules.kryt_navalivat.game import TRUMP_MODES
from cardtable.rules.neuf.ledger import TRUMP_SEQUENCES
from cardtable.session import Session
from cardtable.terminal import screen_for
from cardtable.terminal.session import HandsPlay, PlaySession, save_record, save_session

# Options that belong to one game, with that game's name (its descriptor's ``variants``):
# refused for any other game.
VARIANT_GAMES = {option: d.name for d in cardtable.GAMES.values() for option in d.variants}
# The games played as a session of hands (SPEC §0.1, KRYT-2.1), which take ``--hands``.
SESSION_GAMES = ", ".join(d.name for d in cardtable.GAMES.values() if d.sessions)
DEFAULT_BOT = "heuristic"


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
    """Games in a row (Kryt'-navalivat''s hands), on the engine ``table`` plays on; the
    record is the session's file."""
    session = Session(table, seed=seed)
    variants = "".join(f", {k}={v}" for k, v in session.options.items() if k != "players")
    console.print(
        f"{table.name}, {table.num_players} players{variants}, "
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
