"""The compiled core's speed: random games, dealing included, against OpenSpiel's C++.

Run it from the repository root::

    .venv/bin/python benchmarks/core.py                 # the full measurement
    .venv/bin/python benchmarks/core.py --quick         # a fast look, noisier
    .venv/bin/python benchmarks/core.py --json benchmarks/results/core.json

Each pairing sets one of our games beside OpenSpiel's nearest, as ``benchmarks/engine.py``
pairs them: ``oh_hell`` with 7 tricks beside Knockout Whist at 3 and 5 players,
``oh_hell`` with 13 tricks beside 3-player Neuf, ``hearts`` beside 4-player Neuf and
``crazy_eights`` beside Kryt'-navalivat' at 2, 3 and 4 players. Every path plays whole
random games, the deal and every chance event included, and is timed per player decision:

- ``openspiel C++``: ``pyspiel.evaluate_bots`` with uniform random C++ bots, the whole
  game inside C++ (the baseline; its decisions are counted afterwards from each finished
  state's history, outside the timing);
- ``core batch``: ``game.random_games(seeds)``, one call into the core for all games;
- ``state playout``: the public protocol, ``game.new_state(seed=…)`` then
  ``state.playout(rng)`` on a game from ``cardtable.make`` (the run-time engine: each
  playout one call into the core, the state keeping its history and record);
- ``core per call``: a Python loop over the core's own state (``legal_action_ids`` then
  ``apply`` each decision), the price of crossing the boundary every move;
- ``python playout``: the Python engine (the reference), ``state.playout_python(rng)``.

Paths are interleaved run by run, and each ratio is the median over runs of ratios taken
moments apart, so a slow spell on this shared machine falls on both sides alike. The
targets: the core batch at or below 0.12x OpenSpiel C++'s cost per decision, and
``State.playout`` at or below 0.5x, in every pairing.
``--json`` also records each game's state size in the core, in bytes.
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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable import _core, compiled

TARGET = 0.12
PLAYOUT_TARGET = 0.5
FULL = {"games": 2000, "runs": 7}
QUICK = {"games": 200, "runs": 3}

# (our game, players, OpenSpiel game, its parameters, label)
PAIRINGS: tuple[tuple[str, int, str, dict[str, int], str], ...] = (
    ("knockout-whist", 3, "oh_hell", {"players": 3, "num_tricks_fixed": 7}, "oh_hell(7)"),
    ("knockout-whist", 5, "oh_hell", {"players": 5, "num_tricks_fixed": 7}, "oh_hell(7)"),
    ("neuf", 3, "oh_hell", {"players": 3, "num_tricks_fixed": 13}, "oh_hell(13)"),
    ("neuf", 4, "hearts", {}, "hearts"),
    ("kryt-navalivat", 2, "crazy_eights", {"players": 2}, "crazy_eights"),
    ("kryt-navalivat", 3, "crazy_eights", {"players": 3}, "crazy_eights"),
    ("kryt-navalivat", 4, "crazy_eights", {"players": 4}, "crazy_eights"),
)
PATHS = ("openspiel C++", "core batch", "state playout", "core per call", "python playout")


@dataclass
class Timing:
    """One path of one pairing: seconds per run over the same seeded games."""

    path: str
    decisions: int = 0
    seconds: list[float] = field(default_factory=list)

    def us_per_decision(self, run: int) -> float:
        return self.seconds[run] / self.decisions * 1e6

    @property
    def median_us(self) -> float:
        return statistics.median(self.us_per_decision(r) for r in range(len(self.seconds)))


Work = Callable[[], tuple[float, int]]
"""Plays one round of a path's games: the seconds its games took, and their decisions."""


def _clock(play: Callable[[], int]) -> tuple[float, int]:
    gc.collect()
    start = time.perf_counter()
    decisions = play()
    return time.perf_counter() - start, decisions


def openspiel_games(name: str, params: dict[str, int], seeds: range) -> Work:
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    game = pyspiel.load_game(name, params)
    players = game.num_players()

    def work() -> tuple[float, int]:
        finished = []
        # One set of bots a round, made off the clock: each round draws the same games.
        bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(players)]

        def play() -> int:
            for seed in seeds:
                state = game.new_initial_state()
                pyspiel.evaluate_bots(state, bots, seed)
                finished.append(state)
            return 0

        seconds, _ = _clock(play)
        # Counting the decisions is not the baseline's work: it is done off the clock.
        decisions = sum(1 for s in finished for h in s.full_history() if h.player >= 0)
        return seconds, decisions

    return work


def _twin(name: str, players: int) -> compiled.CoreGame:
    """The core's game, with the same dealer as every other path's."""
    twin = compiled.core_game(cardtable.make(name, players=players, dealer=0), always=True)
    assert twin is not None
    return twin


def core_batch(name: str, players: int, seeds: range) -> Work:
    game = cardtable.make(name, engine="core", players=players, dealer=0)
    listed = list(seeds)

    def play() -> int:
        _, decisions = game.random_games(listed)
        return decisions

    return lambda: _clock(play)


def core_per_call(name: str, players: int, seeds: range) -> Work:
    twin = _twin(name, players)

    def play() -> int:
        decisions = 0
        for seed in seeds:
            rng = random.Random(seed)
            state = twin.new_state(seed)
            while not state.is_over:
                legal = state.legal_action_ids()
                state.apply(legal[int(rng.random() * len(legal))])
                decisions += 1
        return decisions

    return lambda: _clock(play)


def state_playout(name: str, players: int, seeds: range) -> Work:
    game = cardtable.make(name, players=players, dealer=0)

    def play() -> int:
        decisions = 0
        for seed in seeds:
            state = game.new_state(seed=seed)
            state.playout(random.Random(seed))
            decisions += len(state.history)
        return decisions

    return lambda: _clock(play)


def python_playout(name: str, players: int, seeds: range) -> Work:
    game = cardtable.make(name, engine="python", players=players, dealer=0)

    def play() -> int:
        decisions = 0
        for seed in seeds:
            state = game.new_state(seed=seed)
            state.playout_python(random.Random(seed))
            decisions += len(state.history)
        return decisions

    return lambda: _clock(play)


def measure(
    games: int, runs: int, python_games: int, only: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    """Every pairing (of the games ``only`` names, when it names any) on every path,
    ``runs`` interleaved rounds; the report's rows."""
    # The collection before each timed round (_clock) scans what the games made, not what
    # the process held before (a whole test run's heap, in the tests): that is set aside.
    gc.collect()
    gc.freeze()
    try:
        return _measure(games, runs, python_games, only)
    finally:
        gc.unfreeze()


def _measure(
    games: int, runs: int, python_games: int, only: tuple[str, ...]
) -> list[dict[str, Any]]:
    rows = []
    for name, players, spiel, params, label in PAIRINGS:
        if only and name not in only:
            continue
        seeds = range(games)
        works = {
            "openspiel C++": openspiel_games(spiel, params, seeds),
            "core batch": core_batch(name, players, seeds),
            "state playout": state_playout(name, players, seeds),
            "core per call": core_per_call(name, players, range(python_games)),
            "python playout": python_playout(name, players, range(python_games)),
        }
        timings = {path: Timing(path) for path in PATHS}
        for run in range(runs + 1):  # round 0 warms up and is not kept
            order = PATHS if run % 2 else PATHS[::-1]
            for path in order:
                seconds, decisions = works[path]()
                if run == 0:
                    timings[path].decisions = decisions
                    continue
                if decisions != timings[path].decisions:
                    raise RuntimeError(f"{path} {name}: the same seeds played other games")
                timings[path].seconds.append(seconds)
        base = timings["openspiel C++"]
        batch = timings["core batch"]
        ratio = statistics.median(
            batch.us_per_decision(r) / base.us_per_decision(r) for r in range(runs)
        )
        playout = statistics.median(
            timings["state playout"].us_per_decision(r) / base.us_per_decision(r)
            for r in range(runs)
        )
        speedup = statistics.median(
            timings["python playout"].us_per_decision(r) / batch.us_per_decision(r)
            for r in range(runs)
        )
        rows.append(
            {
                "game": name,
                "players": players,
                "baseline": label,
                "us_per_decision": {p: timings[p].median_us for p in PATHS},
                "decisions_per_game": {
                    "ours": batch.decisions / games,
                    "openspiel": base.decisions / games,
                },
                "core_batch_over_openspiel_cpp": ratio,
                "core_per_call_over_openspiel_cpp": timings["core per call"].median_us
                / base.median_us,
                "python_playout_over_core_batch": speedup,
                "target": TARGET,
                "met": ratio <= TARGET,
                "state_playout_over_openspiel_cpp": playout,
                "playout_target": PLAYOUT_TARGET,
                "playout_met": playout <= PLAYOUT_TARGET,
            }
        )
        print(render_row(rows[-1]), flush=True)
    return rows


def render_row(row: dict[str, Any]) -> str:
    us = row["us_per_decision"]
    return (
        f"{row['game']:<15} {row['players']} vs {row['baseline']:<13} "
        + " ".join(f"{p} {us[p]:.3f}" for p in PATHS)
        + f" us/decision | core batch / OpenSpiel C++ {row['core_batch_over_openspiel_cpp']:.3f}"
        + f" ({'met' if row['met'] else 'NOT met'}, target <= {TARGET})"
        + f" | state playout / C++ {row['state_playout_over_openspiel_cpp']:.3f}"
        + f" ({'met' if row['playout_met'] else 'NOT met'}, target <= {PLAYOUT_TARGET})"
        + f" | per call / C++ {row['core_per_call_over_openspiel_cpp']:.2f}"
        + f" | python playout / core batch {row['python_playout_over_core_batch']:.0f}x"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and runs")
    parser.add_argument("--games", type=int, help="games per run on the fast paths")
    parser.add_argument("--runs", type=int, help="timed rounds")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument(
        "--only", action="append", default=[], help="measure this game only (repeatable)"
    )
    args = parser.parse_args(argv)
    size = QUICK if args.quick else FULL
    games = args.games or size["games"]
    runs = args.runs or size["runs"]
    # The per-call and Python paths are 10-100x slower: a tenth of the games keeps a run short.
    python_games = max(1, games // 10)
    print(
        f"cardtable core benchmark: {games} games a run on the batch paths, {python_games} on "
        f"the per-call and Python paths, median of {runs} runs; Python "
        f"{platform.python_version()} on {platform.machine()}",
        flush=True,
    )
    rows = measure(games, runs, python_games, tuple(args.only))
    sizes = dict(_core.state_sizes())
    print("state size in the core (bytes): " + ", ".join(f"{k} {v}" for k, v in sizes.items()))
    if args.json:
        report = {
            "games": games,
            "python_games": python_games,
            "runs": runs,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "pairings": rows,
            "state_bytes": sizes,
        }
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
    return 0 if all(row["met"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
