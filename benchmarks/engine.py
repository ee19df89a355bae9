"""Engine benchmark: random full games of our three games, side by side with OpenSpiel.

Run it from the repository root::

    .venv/bin/python benchmarks/engine.py            # the full measurement
    .venv/bin/python benchmarks/engine.py --quick    # a fast look, noisier
    .venv/bin/python benchmarks/engine.py --json bench.json

Every game is played to the end by uniformly random choices from ``random.Random(seed)``.
Knockout Whist, Neuf and Kryt'-navalivat' are each driven four ways: the checked public path
(``legal_actions()`` then ``apply(action)``, full validation) on a game from
``cardtable.make`` (the run-time engine: the compiled core), the unchecked step path
(``legal_action_ids()`` then ``apply_id(number)``, driven by the same Python loop as
OpenSpiel), the playout path that search uses for its rollouts (``state.playout(rng)``: the
game draws uniformly random legal actions itself, in the core, to the end), and the
reference path: the checked public path on the Python engine (``engine="python"``).
When ``pyspiel`` imports, OpenSpiel's
nearest games are driven by a Python loop over the same kind of calls: ``oh_hell``
(``num_tricks_fixed=7``) beside Knockout Whist at 3 and 5 players, ``oh_hell``
(``num_tricks_fixed=13``, a whole pack's tricks) beside 3-player Neuf, and ``hearts``
(4 players only, with its card-passing phase) beside 4-player Neuf, and ``crazy_eights``
(default parameters), OpenSpiel's shedding game, beside Kryt'-navalivat' at the same
player count.

"Per action" means per player decision, for both engines: a game's whole wall time, new
state and every chance event included, divided by the decisions players made in it. Our
dealing, turned trump and cuts happen inside ``new_state`` and ``apply``; OpenSpiel's deal
is a run of chance nodes that the loop samples, counted separately. The ratio printed is
ours / OpenSpiel per action against that game's baseline at the same player count, so below
1 means we are faster.
Ratios travel between machines; absolute times do not (these machines are shared).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import cardtable
from cardtable.core import Game, State

OUR_PLAYERS = (3, 5, 7)
OPENSPIEL_PLAYERS = (3, 5)
OPENSPIEL_GAME = "oh_hell"
OPENSPIEL_TRICKS = 7  # the largest Knockout Whist hand, so both games play 7-card tricks
NEUF_PLAYERS = (3, 4)
# A Neuf deal is 13 tricks from a full pack; oh_hell allows up to (52 - 1) // 3 = 17 tricks
# with 3 players, so it can play the same 13. OpenSpiel's hearts is its only 4-player
# whole-pack trick game (13 tricks, after a pass of 3 cards each in most deals).
NEUF_OPENSPIEL_TRICKS = 13
# Kryt'-navalivat' (2-6 players) is a shedding game; OpenSpiel's nearest is crazy_eights
# (2-15 players), also won by emptying one's hand, played here with its default parameters.
KRYT_NAVALIVAT_PLAYERS = (2, 3, 4)
KRYT_NAVALIVAT_OPENSPIEL_GAME = "crazy_eights"
KNOCKOUT_WHIST = "knockout-whist"
NEUF = "neuf"
KRYT_NAVALIVAT = "kryt-navalivat"
# The public loop on the run-time engine (the compiled core) at most 0.3x the same loop over
# pyspiel, in every pairing. State.playout's target is against OpenSpiel's C++ (core.py).
CHECKED_TARGET = 0.3
TARGETS = {"checked": CHECKED_TARGET}

FULL = {"games": 300, "runs": 9}
QUICK = {"games": 30, "runs": 3}
WARMUP_GAMES = 5


@dataclass(frozen=True, slots=True)
class Played:
    """One finished game: its final state and what was applied to reach it."""

    state: Any
    decisions: int
    chance: int = 0


Player = Callable[[Any, int], Played]


def play_checked(game: Game, seed: int) -> Played:
    """A random game through the public path: Action objects, every move validated."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    decisions = 0
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        decisions += 1
    return Played(state, decisions)


def play_unchecked(game: Game, seed: int) -> Played:
    """A random game through the search path: action numbers, nothing validated."""
    rng = random.Random(seed)
    state: State = game.new_state(seed=seed)
    decisions = 0
    while state.to_move is not None:
        state.apply_id(rng.choice(state.legal_action_ids()))
        decisions += 1
    return Played(state, decisions)


def play_playout(game: Game, seed: int) -> Played:
    """A random game as a search rollout plays it: ``playout`` draws every action itself
    (in the compiled core, on the run-time engine)."""
    state: State = game.new_state(seed=seed)
    state.playout(random.Random(seed))
    return Played(state, len(state.history))


def play_open_spiel(game: Any, seed: int) -> Played:
    """A random game of an OpenSpiel game through its Python bindings.

    Every chance node of ``oh_hell`` (a card dealt, the trump card turned), of ``hearts``
    and of ``crazy_eights`` (a card dealt) is uniform over its outcomes, so the loop draws
    one with ``rng.choice``: the cheapest fair sampler, which keeps the baseline as fast as
    Python can drive it. Chance events are counted apart from player decisions.
    ``tests/benchmarks/test_benchmarks.py`` checks that the outcomes are uniform.
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            chance += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return Played(state, decisions, chance)


def knockout_whist(players: int, engine: str | None = None) -> Game:
    # A fixed dealer keeps the seat order identical on every path and every run.
    return cardtable.make("knockout-whist", engine=engine, players=players, dealer=0)


def neuf(players: int, engine: str | None = None) -> Game:
    return cardtable.make(NEUF, engine=engine, players=players, dealer=0)


def kryt_navalivat(players: int, engine: str | None = None) -> Game:
    """Kryt'-navalivat' with trumps turned (the default mode); one hand is one game."""
    return cardtable.make(KRYT_NAVALIVAT, engine=engine, players=players, dealer=0)


def load_open_spiel(players: int) -> Any | None:
    """OpenSpiel's ``oh_hell`` for ``players``, or ``None`` when pyspiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    return pyspiel.load_game(
        OPENSPIEL_GAME, {"players": players, "num_tricks_fixed": OPENSPIEL_TRICKS}
    )


def load_open_spiel_for_neuf(players: int) -> Any | None:
    """The OpenSpiel game set beside Neuf: ``oh_hell`` with 13 tricks for 3 players,
    ``hearts`` for 4; ``None`` when pyspiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    if players == 4:
        return pyspiel.load_game("hearts")
    return pyspiel.load_game(
        OPENSPIEL_GAME, {"players": players, "num_tricks_fixed": NEUF_OPENSPIEL_TRICKS}
    )


def load_open_spiel_for_kryt_navalivat(players: int) -> Any | None:
    """OpenSpiel's ``crazy_eights`` for ``players``, or ``None`` without pyspiel."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    return pyspiel.load_game(KRYT_NAVALIVAT_OPENSPIEL_GAME, {"players": players})


def baseline_name(our_game: str, players: int) -> str:
    """The label of the OpenSpiel game that ``our_game`` is compared with."""
    if our_game == KRYT_NAVALIVAT:
        return KRYT_NAVALIVAT_OPENSPIEL_GAME
    if our_game == NEUF:
        if players == 4:
            return "hearts"
        return f"{OPENSPIEL_GAME}({NEUF_OPENSPIEL_TRICKS})"
    return f"{OPENSPIEL_GAME}({OPENSPIEL_TRICKS})"


@dataclass(slots=True)
class Measurement:
    """Repeated timings of the same seeded games on one path."""

    engine: str
    path: str
    players: int
    games: int
    decisions: int  # per run; every run plays the same seeds, so the same games
    chance: int
    seconds: list[float] = field(default_factory=list)
    # Our game's name, or the OpenSpiel baseline's label (``baseline_name``).
    game: str = KNOCKOUT_WHIST

    @property
    def median_seconds(self) -> float:
        return statistics.median(self.seconds)

    @property
    def games_per_second(self) -> float:
        return self.games / self.median_seconds

    @property
    def us_per_action(self) -> float:
        return self.median_seconds / self.decisions * 1e6

    @property
    def actions_per_game(self) -> float:
        return self.decisions / self.games

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data |= {
            "median_seconds": self.median_seconds,
            "games_per_second": self.games_per_second,
            "us_per_action": self.us_per_action,
        }
        return data


@dataclass(frozen=True, slots=True)
class Case:
    engine: str
    path: str
    players: int
    game: Any
    play: Player
    name: str = KNOCKOUT_WHIST


def play_all(case: Case, seeds: Sequence[int]) -> tuple[float, int, int]:
    """Play one game per seed; the wall time and the decisions and chance events applied."""
    play = case.play
    game = case.game
    decisions = 0
    chance = 0
    gc.collect()
    start = time.perf_counter()
    for seed in seeds:
        played = play(game, seed)
        decisions += played.decisions
        chance += played.chance
    return time.perf_counter() - start, decisions, chance


def _our_cases(name: str, n: int, game: Game, reference: Game) -> list[Case]:
    return [
        Case("cardtable", "checked", n, game, play_checked, name),
        Case("cardtable", "unchecked", n, game, play_unchecked, name),
        Case("cardtable", "playout", n, game, play_playout, name),
        # The Python engine (the rules' reference) on the public loop, for comparison.
        Case("cardtable", "reference", n, reference, play_checked, name),
    ]


def cases(
    players: Sequence[int],
    open_spiel_players: Sequence[int],
    neuf_players: Sequence[int] = (),
    kryt_navalivat_players: Sequence[int] = (),
) -> list[Case]:
    out: list[Case] = []
    for n in players:
        out += _our_cases(KNOCKOUT_WHIST, n, knockout_whist(n), knockout_whist(n, "python"))
    for n in open_spiel_players:
        spiel = load_open_spiel(n)
        if spiel is not None:
            label = baseline_name(KNOCKOUT_WHIST, n)
            out.append(Case("open_spiel", "python loop", n, spiel, play_open_spiel, label))
    for n in neuf_players:
        out += _our_cases(NEUF, n, neuf(n), neuf(n, "python"))
        spiel = load_open_spiel_for_neuf(n)
        if spiel is not None:
            label = baseline_name(NEUF, n)
            out.append(Case("open_spiel", "python loop", n, spiel, play_open_spiel, label))
    for n in kryt_navalivat_players:
        out += _our_cases(KRYT_NAVALIVAT, n, kryt_navalivat(n), kryt_navalivat(n, "python"))
        spiel = load_open_spiel_for_kryt_navalivat(n)
        if spiel is not None:
            label = baseline_name(KRYT_NAVALIVAT, n)
            out.append(Case("open_spiel", "python loop", n, spiel, play_open_spiel, label))
    return out


def measure(
    *,
    games: int,
    runs: int,
    seed: int = 0,
    players: Sequence[int] = OUR_PLAYERS,
    open_spiel_players: Sequence[int] = OPENSPIEL_PLAYERS,
    neuf_players: Sequence[int] = NEUF_PLAYERS,
    kryt_navalivat_players: Sequence[int] = KRYT_NAVALIVAT_PLAYERS,
) -> list[Measurement]:
    """Time ``games`` seeded games, ``runs`` times, on every path.

    Runs are interleaved across paths so that a slow spell on a shared machine falls on
    all of them alike rather than on one; each path's median run is what counts.
    """
    if games < 1 or runs < 1:
        raise ValueError(f"games and runs must be at least 1, not {games} and {runs}")
    seeds = range(seed, seed + games)
    chosen = cases(players, open_spiel_players, neuf_players, kryt_navalivat_players)
    # The collection before each timed run (play_all) scans what the games made, not what
    # the process held before (a whole test run's heap, in the tests): that is set aside.
    gc.collect()
    gc.freeze()
    try:
        return _measure(chosen, seeds, seed, games, runs)
    finally:
        gc.unfreeze()


def _measure(
    chosen: list[Case], seeds: range, seed: int, games: int, runs: int
) -> list[Measurement]:
    results: list[Measurement] = []
    for case in chosen:
        play_all(case, range(seed, seed + min(WARMUP_GAMES, games)))
        _, decisions, chance = play_all(case, seeds)
        results.append(
            Measurement(
                case.engine, case.path, case.players, games, decisions, chance, [], case.name
            )
        )
    pairs = list(zip(chosen, results, strict=True))
    for run in range(runs):
        # Alternate the order so that no path always runs first (or last) in a round.
        for case, result in pairs if run % 2 == 0 else pairs[::-1]:
            seconds, decisions, chance = play_all(case, seeds)
            # Seeded games are the same games every run; a change means nondeterminism.
            if (decisions, chance) != (result.decisions, result.chance):
                raise RuntimeError(
                    f"{case.engine} {case.name} {case.path} with {case.players} players played "
                    f"{decisions} decisions, not {result.decisions}, from the same seeds"
                )
            result.seconds.append(seconds)
    return results


@dataclass(frozen=True, slots=True)
class Ratio:
    """Ours / OpenSpiel cost per action for one game, path and player count.

    Each run's ratio pairs timings taken moments apart (runs are interleaved), so a slow
    spell on a shared machine cancels out; ``median`` is the figure to quote.
    """

    path: str
    players: int
    per_run: tuple[float, ...]
    game: str = KNOCKOUT_WHIST
    baseline: str = f"{OPENSPIEL_GAME}({OPENSPIEL_TRICKS})"

    @property
    def median(self) -> float:
        return statistics.median(self.per_run)

    @property
    def target(self) -> float | None:
        return TARGETS.get(self.path)

    @property
    def met(self) -> bool | None:
        return None if self.target is None else self.median <= self.target


def ratios(results: Sequence[Measurement]) -> dict[tuple[str, str, int], Ratio]:
    """Ours / OpenSpiel per action, keyed by (our game, our path, players), where both our
    game and its baseline (``baseline_name``) were measured at that player count."""
    theirs = {(m.game, m.players): m for m in results if m.engine == "open_spiel"}
    found = {}
    for m in results:
        if m.engine != "cardtable":
            continue
        baseline = baseline_name(m.game, m.players)
        other = theirs.get((baseline, m.players))
        if other is None:
            continue
        per_run = tuple(
            (ours / m.decisions) / (them / other.decisions)
            for ours, them in zip(m.seconds, other.seconds, strict=True)
        )
        found[m.game, m.path, m.players] = Ratio(m.path, m.players, per_run, m.game, baseline)
    return found


def verdicts(found: dict[tuple[str, str, int], Ratio]) -> list[str]:
    lines = []
    for key in sorted(found):
        r = found[key]
        verdict = (
            "no target"
            if r.target is None
            else f"target <= {r.target:.2f}x {'met' if r.met else 'NOT met'}"
        )
        lines.append(
            f"{r.game} {r.path} path, {r.players} players: {r.median:.2f}x {r.baseline} "
            f"(runs {min(r.per_run):.2f}-{max(r.per_run):.2f}x); {verdict}"
        )
    return lines


def render(results: Sequence[Measurement], *, runs: int) -> str:
    """The report as plain text: a table, the ratios and the targets."""
    found = ratios(results)
    header = (
        f"{'engine':<10} {'game':<14} {'path':<12} {'players':>7} {'games/s':>9} "
        f"{'us/action':>10} {'actions/game':>12} {'chance/game':>11} {'ours/OpenSpiel':>14}"
    )
    lines = [
        f"Knockout Whist, Neuf and Kryt'-navalivat' engine benchmark: "
        f"{results[0].games if results else 0} "
        f"random games per run, median of {runs} runs",
        f"Python {platform.python_version()} on {platform.machine()}",
        "",
        header,
        "-" * len(header),
    ]
    for m in results:
        ratio = found.get((m.game, m.path, m.players))
        # Our deals and cuts happen inside apply, so there are no chance actions to count.
        chance = f"{m.chance / m.games:.1f}" if m.engine == "open_spiel" else "-"
        lines.append(
            f"{m.engine:<10} {m.game:<14} {m.path:<12} {m.players:>7} "
            f"{m.games_per_second:>9.0f} "
            f"{m.us_per_action:>10.2f} {m.actions_per_game:>12.1f} "
            f"{chance:>11} {'' if ratio is None else f'{ratio.median:.2f}x':>14}"
        )
    lines.append("")
    lines.append(
        "us/action: a game's whole time (new state and chance included) per player decision."
    )
    if any(m.engine == "open_spiel" for m in results):
        lines.append(
            f"OpenSpiel through pyspiel and a Python loop: {OPENSPIEL_GAME}(N) is oh_hell with "
            f"num_tricks_fixed=N ({OPENSPIEL_TRICKS} beside Knockout Whist, "
            f"{NEUF_OPENSPIEL_TRICKS} beside 3-player Neuf); hearts (4 players only, with its "
            f"pass phase) beside 4-player Neuf; {KRYT_NAVALIVAT_OPENSPIEL_GAME} "
            "(default parameters) beside Kryt'-navalivat'."
        )
        lines.append("Ratio = ours / OpenSpiel per action, below 1 is faster.")
        lines.append(
            f"Target: the checked path (the public loop on the run-time engine) <= "
            f"{CHECKED_TARGET:.2f}x OpenSpiel per action in every pairing; the reference path "
            "is the same loop on the Python engine, for comparison."
        )
        lines.extend(verdicts(found))
    else:
        lines.append(
            "OpenSpiel was not measured: pyspiel is not installed (pip install open-spiel)."
        )
        lines.append(
            f"Target (unchecked here): checked path <= {CHECKED_TARGET:.2f}x OpenSpiel per "
            "action in every pairing."
        )
    return "\n".join(lines)


def report(results: Sequence[Measurement], *, runs: int, seed: int) -> dict[str, Any]:
    """The report as JSON-ready data."""
    return {
        "benchmark": "engine",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "runs": runs,
        "seed": seed,
        "per_action": "whole game time per player decision",
        "open_spiel_measured": any(m.engine == "open_spiel" for m in results),
        "measurements": [m.to_dict() for m in results],
        "ratios": [
            {
                "game": r.game,
                "baseline": r.baseline,
                "path": r.path,
                "players": r.players,
                "ours_over_open_spiel": r.median,
                "per_run": list(r.per_run),
                "target": r.target,
                "met": r.met,
            }
            for _, r in sorted(ratios(results).items())
        ],
        "targets": dict(TARGETS),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="few games and runs: a fast look")
    parser.add_argument("--games", type=int, help="games per run and path")
    parser.add_argument("--runs", type=int, help="timed runs per path; the median counts")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    parser.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    games = args.games if args.games is not None else sizes["games"]
    runs = args.runs if args.runs is not None else sizes["runs"]
    if games < 1 or runs < 1:
        parser.error("--games and --runs must be at least 1")
    results = measure(games=games, runs=runs, seed=args.seed)
    print(render(results, runs=runs))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report(results, runs=runs, seed=args.seed), out, indent=2)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
