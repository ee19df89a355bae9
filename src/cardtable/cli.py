"""The ``cardtable`` command: play a game in the terminal against bots, or replay a record.

    cardtable play knockout-whist --players 4 --seed 7 --record game.json
    cardtable play neuf --trump-sequence SHDC-NT --tie-avoidance
    cardtable replay game.json --step

Bad input (an unknown game, an option out of range, a truncated record) ends with a
one-line explanation on stderr and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

import cardtable
from cardtable.bots import BOT_NAMES, make_bot
from cardtable.core import Game, State
from cardtable.errors import CardtableError
from cardtable.rules.neuf.ledger import TRUMP_SEQUENCES
from cardtable.terminal import screen_for
from cardtable.terminal.session import PlaySession, replay_record, save_record

__all__ = ["app"]

USAGE_ERROR = 2  # the exit status Click gives to bad usage; bad options and names use it too
DATA_ERROR = 1
INTERRUPTED = 130  # the shell's status for a program stopped by Ctrl-C

# Options that belong to one game, with that game's name: refused for any other game.
VARIANT_GAMES = {
    "trump_sequence": "neuf",
    "dealer_exchanges_first": "neuf",
    "tie_avoidance": "neuf",
}

GAME_HELP = "The game: " + ", ".join(sorted(cardtable.GAMES)) + "."

app = typer.Typer(
    help="Play Knockout Whist and other card games in the terminal, or replay a saved game.",
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
        if name in cardtable.GAMES and name != owner:
            _fail(f"{flag} is an option of {owner}; {name} has no such option", USAGE_ERROR)
        options[option] = value
    try:
        game = cardtable.make(name, **options)
        screen_for(game.name)
    except CardtableError as exc:
        _fail(str(exc), USAGE_ERROR)
    return game


def _save(state: State, path: Path | None, console: Console) -> None:
    if path is None:
        return
    try:
        save_record(state, path)
    except OSError as exc:
        _fail(f"cannot write the record to {path}: {exc.strerror or exc}", DATA_ERROR)
    console.print(f"Record saved to {path}.", markup=False)


@app.command()
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
        typer.Option(help="Save the game's record (JSON) here at the end, or when you quit."),
    ] = None,
    bot: Annotated[
        str, typer.Option(help="The bots you play against: " + ", ".join(BOT_NAMES) + ".")
    ] = "heuristic",
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
) -> None:
    """Play a game at seat 0 against bots."""
    variants: dict[str, tuple[str, Any]] = {}
    if trump_sequence is not None:
        variants["trump_sequence"] = ("--trump-sequence", trump_sequence)
    if dealer_exchanges_first:
        variants["dealer_exchanges_first"] = ("--dealer-exchanges-first", True)
    if tie_avoidance:
        variants["tie_avoidance"] = ("--tie-avoidance", True)
    table = _make_game(game, players, dealer, variants)
    try:
        bots = {s: make_bot(bot, table.name) for s in range(1, table.num_players)}
    except CardtableError as exc:
        _fail(str(exc), USAGE_ERROR)
    console = _console()
    if seed is None:
        seed = Game.fresh_seed()
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


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A record saved by 'cardtable play --record'.")],
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
    try:
        record = cardtable.load_record(text)
        screen_for(record.game)
        replay_record(
            console,
            record,
            step=sys.stdin.isatty() if step is None else step,
            read_line=console.input,
        )
    except ValueError as exc:
        _fail(f"{file} is not a playable record: {exc}", DATA_ERROR)


if __name__ == "__main__":
    app(prog_name="cardtable")
