"""``cardtable arena``: bots played against each other and ranked, with a progress bar and
the command that resumes an interrupted tournament."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

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

from cardtable.cli.common import (
    DATA_ERROR,
    GAME_HELP,
    INTERRUPTED,
    USAGE_ERROR,
    _console,
    _fail,
)
from cardtable.core import Game
from cardtable.errors import CardtableError

if TYPE_CHECKING:  # the arena loads only for the arena command
    from cardtable.arena import ArenaConfig, GameOutcome, TournamentResult

# The help as one string with no line breaks inside a paragraph: Typer's rich help keeps a
# docstring's line breaks, which cut the sentences wherever the source wraps them.
ARENA_HELP = (
    "Play bots against each other and rank them.\n\n"
    "It reports win rates (Neuf: the mean final score, or with --per-deal the mean score "
    "gained per deal; Kryt'-navalivat': the loss rate) with 95% intervals, OpenSkill "
    "ratings, and JSON, CSV and PNG reports."
)


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
    sprt: Annotated[
        str | None,
        typer.Option(
            "--sprt",
            metavar="H0,H1",
            help="Stop once a sequential probability ratio test takes H0 or H1, two values "
            "of the first bot's paired difference to the second (first minus second, in the "
            "metric's units), its error rates --alpha and --beta; for tables of record.",
        ),
    ] = None,
    alpha: Annotated[
        float,
        typer.Option("--alpha", help="With --sprt: the chance of taking H1 when H0 holds."),
    ] = 0.05,
    beta: Annotated[
        float,
        typer.Option("--beta", help="With --sprt: the chance of taking H0 when H1 holds."),
    ] = 0.05,
    min_deals: Annotated[
        int | None,
        typer.Option(
            "--min-deals",
            metavar="N",
            help="With --stop-when-separated or --sprt: check only once N whole deals are "
            "done (default 100 with the one, 20 with the other).",
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
    from cardtable.arena.config import (
        DEFAULT_MIN_DEALS,
        DEFAULT_SPRT_MIN_DEALS,
        MAX_ACTIONS,
        Sprt,
        StoppingRule,
    )
    from cardtable.arena.store import CONFIG_FILE
    from cardtable.arena.tournament import default_folder

    if out is not None and resume is not None:
        _fail("give --out for a new tournament or --resume for an old one, not both", USAGE_ERROR)
    if report_only and resume is None:
        _fail("--report-only reports a tournament's folder: give it with --resume", USAGE_ERROR)
    if min_deals is not None and stop_when_separated is None and sprt is None:
        _fail("--min-deals goes with --stop-when-separated MARGIN or --sprt H0,H1", USAGE_ERROR)
    if sprt is not None and stop_when_separated is not None:
        _fail("give one stopping rule: --sprt H0,H1 or --stop-when-separated MARGIN", USAGE_ERROR)
    if play_on and resume is None:
        _fail("--play-on plays on a stopped tournament: give its folder with --resume", USAGE_ERROR)
    stop = None
    if stop_when_separated is not None:
        deals = DEFAULT_MIN_DEALS if min_deals is None else min_deals
        stop = StoppingRule(margin=stop_when_separated, min_deals=deals)
    if sprt is not None:
        bounds = sprt.split(",")
        try:
            h0, h1 = (float(bound) for bound in bounds)
        except ValueError:
            _fail(f"--sprt takes two numbers, H0,H1 (e.g. 0,0.05), not {sprt!r}", USAGE_ERROR)
        deals = DEFAULT_SPRT_MIN_DEALS if min_deals is None else min_deals
        stop = StoppingRule(min_deals=deals, sprt=Sprt(h0, h1, alpha, beta))
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
    test = None if config.stop is None else config.stop.sprt
    if test is not None:
        words += ["--sprt", f"{test.h0!r},{test.h1!r}"]
        words += ["--alpha", repr(test.alpha), "--beta", repr(test.beta)]
    elif config.stop is not None:
        words += ["--stop-when-separated", repr(float(config.stop.margin))]
    if config.stop is not None:
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
        rule = result.rule
        if rule is not None and rule.rule.sprt is not None:
            console.print(
                "The SPRT's error rates hold however often it looked "
                "(docs/arena.md, 'Stopping early').",
                markup=False,
                soft_wrap=True,
            )
        else:
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
