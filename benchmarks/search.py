"""Search benchmark: ISMCTS iterations per second per game in the compiled core and in
Python, beside OpenSpiel's C++ and Python ISMCTS on `oh_hell` measured in the same run,
with 1 and 2 threads, and the `hard` level's time per decision.

Run it from the repository root::

    .venv/bin/python benchmarks/search.py                 # the full measurement
    .venv/bin/python benchmarks/search.py --quick         # a fast look, noisier
    .venv/bin/python benchmarks/search.py --json search.json

The positions are the decisions (two or more legal actions) of seeded 3-player games
played by random bots, taken in order from each game's start. At each, one search of
``--iterations`` iterations runs from the mover's view (the whole budget: no stopping
early), its rate being iterations over the wall time of the call (the view's JSON and the
knowledge built from it included):

- ``core``: the compiled core's search as the levels run it (``_core.<Game>.search``:
  SO-ISMCTS with the game's guided rollouts to the end of the hand, one thread);
- ``core random``: the same with uniformly random rollouts to the end of the game;
- ``core 1 thread`` and ``core 2 threads`` at ``--thread-iterations`` (50,000, the
  ``hard`` level's budget): guided, one tree, then two side by side (root parallel) on
  this machine's two cores. Threads pay for themselves on searches of that size; a
  1,000-iteration search takes half a millisecond, about what starting a thread costs;
- ``python``: ``cardtable.bots.ismcts.search`` with the guided rollouts (the search the
  levels ran before the core's).

The baselines are OpenSpiel's C++ ``ISMCTSBot`` (``RandomRolloutEvaluator``) and its
Python ``ISMCTSBot`` on ``oh_hell`` (3 players, 7 tricks: Knockout Whist's first hand)
over the decisions of seeded games, the same iterations a decision. The `hard` level is
then timed on every position, as a player would wait for it.

Targets: the core's rate at least 5x OpenSpiel C++'s on Knockout Whist at 3 players and at
least 2x on Neuf and Kryt'-navalivat', and `hard` answering within 1 second per decision in
every game, on one core. Machines differ: the ratios, measured in the same run, are what
travels.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.ismcts import IsmctsBot, guided_rollout, search
from cardtable.core import State

GAMES = ("knockout-whist", "neuf", "kryt-navalivat")
PLAYERS = 3
# The core's rate over OpenSpiel C++'s on oh_hell, per game.
TARGET_RATIOS = {"knockout-whist": 5.0, "neuf": 2.0, "kryt-navalivat": 2.0}
TARGET_SECONDS = 1.0  # the hard level's time per decision


def positions(name: str, count: int, seed: int) -> list[State]:
    """The first ``count`` decisions of seeded random games of ``name``."""
    game = cardtable.make(name, players=PLAYERS)
    found: list[State] = []
    game_seed = seed
    while len(found) < count:
        state = game.new_state(seed=game_seed)
        rng = random.Random(game_seed)
        while not state.is_over and len(found) < count:
            legal = state.legal_action_ids()
            if len(legal) > 1:
                found.append(state.copy())
            state.apply_id(rng.choice(legal))
        game_seed += 1
    return found


def search_rates(name: str, states: Sequence[State], iterations: int) -> list[float]:
    rollout = guided_rollout(name)
    rates = []
    for number, state in enumerate(states):
        seat = state.to_move
        assert seat is not None
        began = time.perf_counter()
        knowledge = state.game.knowledge(state.view(seat))
        # The whole budget, so that the rate counts iterations of full-length searches.
        result = search(knowledge, random.Random(number), iterations=iterations,
                        rollout=rollout, stop_early=False)  # fmt: skip
        rates.append(result.iterations / (time.perf_counter() - began))
    return rates


def core_rates(
    name: str, states: Sequence[State], iterations: int, rollout: str = "guided", threads: int = 1
) -> list[float]:
    """The core's search at each position: iterations over the wall time of the call, the
    view's JSON included."""
    from cardtable import compiled

    twin = compiled.core_game(states[0].game, always=True)
    assert twin is not None
    rates = []
    for number, state in enumerate(states):
        seat = state.to_move
        assert seat is not None
        began = time.perf_counter()
        found = twin.search(
            json.dumps(state.view(seat)),
            iterations=iterations,
            seed=number,
            stop_early=False,
            rollout=rollout,
            threads=threads,
        )
        rates.append(found[3] / (time.perf_counter() - began))
    return rates


def open_spiel_cpp_rates(count: int, iterations: int, seed: int) -> list[float] | None:
    """OpenSpiel's C++ ISMCTS (random rollouts) on oh_hell, or None without open-spiel."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)

    def bot(game: Any, game_seed: int) -> Any:
        return pyspiel.ISMCTSBot(
            game_seed, evaluator, 0.7, iterations, -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False,
        )  # fmt: skip

    return _oh_hell_rates(bot, count, iterations, seed)


def hard_decisions(name: str, states: Sequence[State]) -> tuple[list[float], list[int]]:
    """The `hard` level's seconds and iterations at each position (it stops searching once
    no iteration left could change its choice)."""
    bot = make_bot("hard", name)
    assert isinstance(bot, IsmctsBot)
    times, spent = [], []
    for number, state in enumerate(states):
        seat = state.to_move
        assert seat is not None
        began = time.perf_counter()
        bot.choose(state.view(seat), state.legal_actions(), random.Random(number))
        times.append(time.perf_counter() - began)
        assert bot.last is not None
        spent.append(bot.last.iterations)
    return times, spent


def open_spiel_rates(count: int, iterations: int, seed: int) -> list[float] | None:
    """OpenSpiel's Python ISMCTS on oh_hell, or None when open-spiel is not installed."""
    try:
        import numpy as np
        from open_spiel.python.algorithms import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
            ismcts,
            mcts,
        )
    except ImportError:
        return None

    def bot(game: Any, game_seed: int) -> Any:
        return ismcts.ISMCTSBot(
            game=game,
            evaluator=mcts.RandomRolloutEvaluator(random_state=np.random.RandomState(game_seed)),
            uct_c=0.7,
            max_simulations=iterations,
            random_state=np.random.RandomState(game_seed + 1),
        )

    return _oh_hell_rates(bot, count, iterations, seed)


def _oh_hell_rates(
    make_bot_for: Callable[[Any, int], Any], count: int, iterations: int, seed: int
) -> list[float] | None:
    """Iterations a second of an OpenSpiel bot (``make_bot_for(game, game_seed)``, one a
    game) over the decisions of seeded oh_hell games; None without open-spiel."""
    try:
        import numpy as np
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": 7})
    rates: list[float] = []
    game_seed = seed
    while len(rates) < count:
        chance = np.random.RandomState(game_seed)
        bot = make_bot_for(game, game_seed)
        state = game.new_initial_state()
        while not state.is_terminal() and len(rates) < count:
            if state.is_chance_node():
                outcomes = [o for o, _ in state.chance_outcomes()]
                state.apply_action(int(chance.choice(outcomes)))
                continue
            legal = state.legal_actions()
            if len(legal) > 1:
                began = time.perf_counter()
                action = bot.step(state)
                rates.append(iterations / (time.perf_counter() - began))
            else:
                action = legal[0]
            state.apply_action(action)
        game_seed += 1
    return rates


def summary(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": statistics.median(ordered),
        "mean": statistics.fmean(ordered),
        "low": ordered[0],
        "high": ordered[-1],
        "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
    }


def measure(
    count: int, iterations: int, seed: int, *, hard: bool = True, thread_iterations: int = 50_000
) -> dict[str, Any]:
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "positions": count,
        "iterations": iterations,
        "thread_iterations": thread_iterations,
        "seed": seed,
        "games": {},
    }
    baseline = open_spiel_rates(count, iterations, seed)
    report["open_spiel_oh_hell"] = None if baseline is None else summary(baseline)
    compiled_baseline = open_spiel_cpp_rates(count, iterations, seed)
    cpp = None if compiled_baseline is None else summary(compiled_baseline)
    report["open_spiel_cpp_oh_hell"] = cpp
    for name in GAMES:
        states = positions(name, count, seed)
        entry: dict[str, Any] = {
            "rate": summary(search_rates(name, states, iterations)),
            "core_rate": summary(core_rates(name, states, iterations)),
            "core_random_rate": summary(core_rates(name, states, iterations, rollout="random")),
            "core_1_thread_rate": summary(core_rates(name, states, thread_iterations)),
            "core_2_threads_rate": summary(core_rates(name, states, thread_iterations, threads=2)),
        }
        core = entry["core_rate"]["median"]
        entry["core_speedup_over_python"] = core / entry["rate"]["median"]
        entry["core_2_threads_speedup"] = (
            entry["core_2_threads_rate"]["median"] / entry["core_1_thread_rate"]["median"]
        )
        if baseline is not None:
            entry["rate_ratio_to_open_spiel"] = (
                entry["rate"]["median"] / report["open_spiel_oh_hell"]["median"]
            )
        if cpp is not None:
            entry["core_ratio_to_open_spiel_cpp"] = core / cpp["median"]
            entry["core_random_ratio_to_open_spiel_cpp"] = (
                entry["core_random_rate"]["median"] / cpp["median"]
            )
        if hard:
            times, spent = hard_decisions(name, states)
            entry["hard_seconds"] = summary(times)
            entry["hard_iterations"] = summary(spent)
        report["games"][name] = entry
    verdicts: dict[str, bool] = {}
    for name, entry in report["games"].items():
        if "core_ratio_to_open_spiel_cpp" in entry:
            verdicts[f"{name} core >= {TARGET_RATIOS[name]:g}x OpenSpiel C++"] = (
                entry["core_ratio_to_open_spiel_cpp"] >= TARGET_RATIOS[name]
            )
        if "hard_seconds" in entry:
            verdicts[f"{name} hard < 1 s"] = entry["hard_seconds"]["high"] < TARGET_SECONDS
    report["verdicts"] = verdicts
    return report


def render(report: dict[str, Any]) -> str:
    lines = [
        f"ISMCTS, {PLAYERS} players, {report['iterations']} iterations a decision, "
        f"{report['positions']} decisions a game (Python {report['python']}, "
        f"{report['cores']} cores); iterations/s, median (low-high)",
        f"{'search':<32}{'median':>12}{'(low-high)':>22}{'vs OpenSpiel C++':>18}",
    ]

    def row(label: str, rate: dict[str, float], ratio: float | None) -> None:
        spread = f"({rate['low']:,.0f}-{rate['high']:,.0f})"
        shown = "" if ratio is None else f"{ratio:.2f}x"
        lines.append(f"{label:<32}{rate['median']:>12,.0f}{spread:>22}{shown:>18}")

    for name, entry in report["games"].items():
        row(f"{name} core", entry["core_rate"], entry.get("core_ratio_to_open_spiel_cpp"))
        row(
            f"{name} core random",
            entry["core_random_rate"],
            entry.get("core_random_ratio_to_open_spiel_cpp"),
        )
        row(f"{name} core 1 thread *", entry["core_1_thread_rate"], None)
        row(f"{name} core 2 threads *", entry["core_2_threads_rate"], None)
        row(f"{name} python", entry["rate"], None)
    if report["open_spiel_cpp_oh_hell"] is not None:
        row("OpenSpiel C++ oh_hell", report["open_spiel_cpp_oh_hell"], 1.0)
    if report["open_spiel_oh_hell"] is not None:
        row("OpenSpiel Python oh_hell", report["open_spiel_oh_hell"], None)
    lines.append(f"* at {report['thread_iterations']:,} iterations a decision")
    lines.append(
        f"{'game':<16}{'core/python':>13}{'2 threads/1':>13}{'hard s max':>12}"
        f"{'hard iterations mean':>22}"
    )
    for name, entry in report["games"].items():
        hard = entry.get("hard_seconds")
        spent = entry.get("hard_iterations")
        lines.append(
            f"{name:<16}{entry['core_speedup_over_python']:>12.1f}x"
            f"{entry['core_2_threads_speedup']:>12.2f}x"
            f"{'' if hard is None else format(hard['high'], '.3f'):>12}"
            f"{'' if spent is None else format(spent['mean'], ',.0f'):>22}"
        )
    for verdict, met in report["verdicts"].items():
        lines.append(f"{'met' if met else 'NOT met'}: {verdict}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="few positions: a fast look")
    parser.add_argument("--positions", type=int, help="decisions searched per game")
    parser.add_argument("--iterations", type=int, default=1000, help="iterations a search")
    parser.add_argument(
        "--thread-iterations", type=int, default=50_000, help="iterations a search, threads"
    )
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    parser.add_argument("--no-hard", action="store_true", help="skip timing the hard level")
    parser.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    args = parser.parse_args(argv)
    count = args.positions or (5 if args.quick else 30)
    report = measure(
        count,
        args.iterations,
        args.seed,
        hard=not args.no_hard,
        thread_iterations=args.thread_iterations,
    )
    print(render(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
