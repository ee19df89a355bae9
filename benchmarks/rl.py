"""Research-interface benchmark: what the PettingZoo and Gymnasium adapters cost per decision.

Run it from the repository root::

    .venv/bin/python benchmarks/rl.py                 # 20 games per game, median of 5 runs
    .venv/bin/python benchmarks/rl.py --quick         # 4 games, 3 runs: a fast, noisier look
    .venv/bin/python benchmarks/rl.py --json benchmarks/results/rl.json
    .venv/bin/python benchmarks/rl.py --batch         # the batch environments (the core)

Every loop plays whole games with uniformly random legal actions (``random.Random``, one
seed per game) and is timed per decision: a game's wall time, dealing included, divided by
the actions played in it (every seat's). The loops:

``engine``
    the bare engine, nothing a learner needs: ``legal_action_ids()`` and ``apply_id``.
``baseline``
    the bare engine doing the work a learner needs at every decision, the comparison the
    ratios use: ``state.view(seat)`` for the seat to act (what it may know), its legal
    action numbers (the mask), the choice, and ``apply_id``.
``pettingzoo``
    ``cardtable.rl.pettingzoo.raw_env``: ``agent_iter``, ``last()`` (the seat's
    observation, a float32 vector the core writes, and an int8 mask), a choice among the
    mask's legal numbers (read with ``mask.nonzero()[0]``: ``np.flatnonzero``, a Python
    wrapper over the same, would add about 2 µs a decision, a seventh of a
    Kryt'-navalivat' baseline decision), ``step``.
``pettingzoo_wrapped``
    the same through ``cardtable.rl.pettingzoo.env``, with PettingZoo's own wrappers
    (illegal-move, bounds and call-order checks) around it, as its classic games are made.
``gymnasium``
    ``CardtableEnv`` with ``random`` bots at the other seats: ``step`` with a choice from
    ``info["action_mask"]``; the bots' decisions (a view and the legal actions each, the
    checked ``apply``) run inside ``step`` and count as decisions too.
``gymnasium_baseline``
    the baseline's work (a view, the legal actions, ``apply_id``) at every decision of the
    very games the ``gymnasium`` loop plays, replayed from their records: its bots draw
    from their own generator, so its games are not the baseline's, and a random game's
    cost per decision depends on the game (a long Kryt'-navalivat' hand builds a big pile).

``--batch`` measures the batch environments instead (``cardtable.rl.vector.BatchEnv``,
games held and stepped in the compiled core): agent steps per second, observations and
masks written, random opponents played inside the step, at batch sizes 1, 64, 1,024 and
4,096 and 1 and 2 threads, and with int8 observations (``observation_dtype=np.int8``) at
4,096 on 2. The loop's own choice is timed with the step: a uniformly
random legal action per game (``batch.sample_actions()``, drawn in the core), then
``step``. Beside each game, the PettingZoo ``raw_env`` decision rate of the ``pettingzoo``
loop, and the batch's time per agent step over it at the largest batch (target: 1/50 or
less; and at least 3,000,000 agent steps per second for Knockout Whist, 3 players, at
4,096 games on two threads).

The ratios are each loop's time per decision over the baseline's (the ``gymnasium``
loop's over ``gymnasium_baseline``'s): the price of the fixed-size encoding and the API
around it. The target is under 2 for ``pettingzoo`` and
``gymnasium``; PettingZoo's wrappers are reported apart because their cost is PettingZoo's.
Ratios travel between machines; absolute rates do not (these machines are shared).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import cardtable
from cardtable.rl.gymnasium import CardtableEnv
from cardtable.rl.pettingzoo import env as pettingzoo_env
from cardtable.rl.pettingzoo import raw_env

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("knockout-whist", {"players": 3}),
    ("neuf", {"players": 3}),
    ("kryt-navalivat", {"players": 2}),
]
TARGET = 2.0

Loop = Callable[[str, dict[str, Any], int], int]


def engine_loop(name: str, options: dict[str, Any], seed: int) -> int:
    state = cardtable.make(name, **options).new_state(seed=seed)
    choose = random.Random(seed).choice
    while state.to_move is not None:
        state.apply_id(choose(state.legal_action_ids()))
    return len(state.history)


def baseline_loop(name: str, options: dict[str, Any], seed: int) -> int:
    state = cardtable.make(name, **options).new_state(seed=seed)
    choose = random.Random(seed).choice
    while (seat := state.to_move) is not None:
        state.view(seat)
        state.apply_id(choose(state.legal_action_ids()))
    return len(state.history)


def pettingzoo_loop(name: str, options: dict[str, Any], seed: int) -> int:
    return aec_loop(raw_env(name, **options), seed)


def pettingzoo_wrapped_loop(name: str, options: dict[str, Any], seed: int) -> int:
    return aec_loop(pettingzoo_env(name, **options), seed)


def aec_loop(table: Any, seed: int) -> int:
    table.reset(seed=seed)
    choose = random.Random(seed).choice
    for _ in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
        else:
            table.step(choose(observation["action_mask"].nonzero()[0].tolist()))
    return len(table.unwrapped.game_state.history)


def gymnasium_loop(name: str, options: dict[str, Any], seed: int) -> int:
    return len(gymnasium_game(name, options, seed).history)


def gymnasium_game(name: str, options: dict[str, Any], seed: int) -> cardtable.State:
    """The game the Gymnasium env plays from ``seed`` with random choices, played."""
    env = CardtableEnv(name, opponents="random", **options)
    _, info = env.reset(seed=seed)
    choose = random.Random(seed).choice
    done = False
    while not done:
        action = choose(info["action_mask"].nonzero()[0].tolist())
        _, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return env.game_state


# (game, options, seed) -> the game the gymnasium loop plays from that seed: its deal's seed
# and its actions, for gymnasium_baseline_loop. Filled outside the timing by gymnasium_games.
GYMNASIUM_GAMES: dict[tuple[str, str, int], tuple[int, list[int]]] = {}


def gymnasium_games(name: str, options: dict[str, Any], seeds: range) -> None:
    for seed in seeds:
        state = gymnasium_game(name, options, seed)
        GYMNASIUM_GAMES[name, repr(options), seed] = (state.record().seed, list(state.history))


def gymnasium_baseline_loop(name: str, options: dict[str, Any], seed: int) -> int:
    if (name, repr(options), seed) not in GYMNASIUM_GAMES:
        gymnasium_games(name, options, range(seed, seed + 1))
    game_seed, numbers = GYMNASIUM_GAMES[name, repr(options), seed]
    state = cardtable.make(name, **options).new_state(seed=game_seed)
    for number in numbers:
        state.view(state.to_move)
        state.legal_action_ids()
        state.apply_id(number)
    return len(state.history)


LOOPS: dict[str, Loop] = {
    "engine": engine_loop,
    "baseline": baseline_loop,
    "pettingzoo": pettingzoo_loop,
    "pettingzoo_wrapped": pettingzoo_wrapped_loop,
    "gymnasium": gymnasium_loop,
    "gymnasium_baseline": gymnasium_baseline_loop,
}
BASELINES = {"gymnasium": "gymnasium_baseline"}
"""The loop each adapter's ratio is taken over, where it is not ``baseline``."""


def run(loop: Loop, name: str, options: dict[str, Any], seeds: range) -> tuple[int, float]:
    """Decisions played and seconds taken over the games of ``seeds``."""
    decisions = 0
    start = time.perf_counter()
    for seed in seeds:
        decisions += loop(name, options, seed)
    return decisions, time.perf_counter() - start


def measure(games: int = 20, runs: int = 5, seed: int = 0) -> dict[str, Any]:
    """Median decisions per second of each loop per game, and the adapters' ratios."""
    seeds = range(seed, seed + games)
    rows = []
    for name, options in VARIANTS:
        for loop in LOOPS.values():  # imports and first-use tables stay out of the timing
            loop(name, options, seed)
        gymnasium_games(name, options, seeds)
        samples: dict[str, list[float]] = {label: [] for label in LOOPS}
        counts: dict[str, int] = {}
        # The loops take turns within each run, so a busy spell on a shared machine falls on
        # all of them alike.
        for _ in range(runs):
            for label, loop in LOOPS.items():
                decisions, seconds = run(loop, name, options, seeds)
                samples[label].append(decisions / seconds)
                counts[label] = decisions
        rates = {label: statistics.median(values) for label, values in samples.items()}
        ratios = {
            label: rates[BASELINES.get(label, "baseline")] / rates[label]
            for label in LOOPS
            if "baseline" not in label
        }
        rows.append(
            {
                "game": name,
                "options": options,
                "games": games,
                "decisions": counts,
                "decisions_per_second": rates,
                "time_per_decision_over_baseline": ratios,
                "under_target": all(ratios[a] < TARGET for a in ("pettingzoo", "gymnasium")),
            }
        )
    return {
        "benchmark": "rl",
        "baseline": "per decision: state.view(seat), legal_action_ids(), a choice, apply_id",
        "target": f"adapter time per decision under {TARGET}x the baseline's",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "runs": runs,
        "results": rows,
    }


def report(data: dict[str, Any]) -> str:
    lines = [
        f"decisions per second (median of {data['runs']} runs); ratio = time per decision "
        "over the baseline's",
        f"{'game':<16}" + "".join(f"{label:>20}" for label in LOOPS),
    ]
    for row in data["results"]:
        rate, ratio = row["decisions_per_second"], row["time_per_decision_over_baseline"]
        cells = [
            f"{rate[label]:>9.0f}" + (f" ({ratio[label]:.2f}x)" if label in ratio else " " * 9)
            for label in LOOPS
        ]
        lines.append(f"{row['game']:<16}" + "".join(f"{cell:>20}" for cell in cells))
    return "\n".join(lines)


BATCH_SIZES = (1, 64, 1024, 4096)
BATCH_THREADS = (1, 2)
BATCH_TARGET_RATE = 3_000_000
BATCH_TARGET_RATIO = 50


def batch_rate(
    name: str,
    options: dict[str, Any],
    size: int,
    threads: int,
    seconds: float,
    seed: int,
    dtype: str = "float32",
) -> tuple[int, float]:
    """Agent steps and seconds spent choosing and stepping over about ``seconds`` of it,
    the observations written as ``dtype``."""
    from cardtable.rl.vector import BatchEnv

    batch = BatchEnv(
        name,
        num_games=size,
        threads=threads,
        opponents="random",
        observation_dtype=dtype,
        **options,
    )
    batch.reset(seed=seed)
    steps, spent = 0, 0.0
    while spent < seconds:
        start = time.perf_counter()
        batch.step(batch.sample_actions())
        spent += time.perf_counter() - start
        steps += size
    return steps, spent


def measure_batch(
    seconds: float = 0.5,
    runs: int = 3,
    seed: int = 0,
    sizes: tuple[int, ...] = BATCH_SIZES,
    threads: tuple[int, ...] = BATCH_THREADS,
) -> dict[str, Any]:
    """Median agent steps per second of the batch environments per game, size and thread
    count, and the time per agent step at the largest size over a PettingZoo decision's."""
    cells = [(size, count, "float32") for size in sizes for count in threads]
    # The compact observations beside, at the largest batch on the most threads.
    cells.append((sizes[-1], threads[-1], "int8"))

    def key(size: int, count: int, dtype: str) -> str:
        return f"{size}x{count}" if dtype == "float32" else f"{dtype} {size}x{count}"

    rows = []
    for name, options in VARIANTS:
        batch_rate(name, options, 1, 1, 0.0, seed)  # imports and first use out of the timing
        decisions, spent = run(pettingzoo_loop, name, options, range(seed, seed + 4))
        raw_env = decisions / spent
        samples: dict[str, list[float]] = {key(*cell): [] for cell in cells}
        for _ in range(runs):  # the cells take turns within each run
            for size, count, dtype in cells:
                steps, spent = batch_rate(name, options, size, count, seconds, seed, dtype)
                samples[key(size, count, dtype)].append(steps / spent)
        rates = {cell: statistics.median(values) for cell, values in samples.items()}
        best = max(rates[f"{sizes[-1]}x{count}"] for count in threads)
        rows.append(
            {
                "game": name,
                "options": options,
                "agent_steps_per_second": rates,
                "pettingzoo_decisions_per_second": raw_env,
                "pettingzoo_time_over_batch_time": best / raw_env,
            }
        )
    return {
        "benchmark": "rl-batch",
        "cells": "batch size x threads (float32 observations; int8 where named)",
        "target": f"{BATCH_TARGET_RATE} agent steps/s for knockout-whist 3 players; "
        f"batch time per agent step at most 1/{BATCH_TARGET_RATIO} of a raw_env decision",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "seconds_per_cell": seconds,
        "runs": runs,
        "results": rows,
    }


PGX_GAME = "leduc_holdem"


def pgx_rate(size: int, seconds: float, seed: int) -> float:
    """Steps per second of pgx's ``PGX_GAME`` batched with ``jax.vmap`` on JAX's CPU backend,
    auto-reset included, and a uniformly random legal action per game chosen within the
    timing, as ours (one compiled call draws the actions and steps); each step is waited
    for (``block_until_ready``)."""
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(PGX_GAME)
    init = jax.jit(jax.vmap(env.init))
    stepped = jax.vmap(auto_reset(env.step, env.init))

    def choose_then_step(state: Any, key: Any) -> Any:
        choose, steps = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(choose, logits, axis=1)
        return stepped(state, actions, jax.random.split(steps, size))

    # Not a decorator: where jax is not installed its jit is untyped, and mypy refuses
    # an untyped decorator on a typed function.
    choose_and_step = jax.jit(choose_then_step)

    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, size))
    key, sub = jax.random.split(key)
    state = choose_and_step(state, sub)
    state.current_player.block_until_ready()  # compiled out of the timing
    steps, spent = 0, 0.0
    while spent < seconds:
        key, sub = jax.random.split(key)
        sub.block_until_ready()
        start = time.perf_counter()
        state = choose_and_step(state, sub)
        state.current_player.block_until_ready()
        spent += time.perf_counter() - start
        steps += size
    return steps / spent


def measure_pgx(
    data: dict[str, Any], seconds: float, runs: int, seed: int, sizes: tuple[int, ...]
) -> None:
    """Adds pgx's rates at the batch sizes and each game's best rate over them to ``data``."""
    samples: dict[str, list[float]] = {str(size): [] for size in sizes}
    for _ in range(runs):
        for size in sizes:
            samples[str(size)].append(pgx_rate(size, seconds, seed))
    rates = {size: statistics.median(values) for size, values in samples.items()}
    data["pgx"] = {"game": PGX_GAME, "steps_per_second": rates}
    for row in data["results"]:
        ours = row["agent_steps_per_second"]
        row["over_pgx"] = {
            size: max(ours[cell] for cell in ours if cell.split("x")[0] == size) / rate
            for size, rate in rates.items()
        }


def report_batch(data: dict[str, Any]) -> str:
    cells = list(data["results"][0]["agent_steps_per_second"])
    lines = [
        f"agent steps per second in the core's batches (median of {data['runs']} runs), "
        "batch size x threads; raw_env = PettingZoo decisions per second",
        f"{'game':<16}" + "".join(f"{cell:>12}" for cell in cells) + f"{'raw_env':>10}  ratio",
    ]
    for row in data["results"]:
        rates = row["agent_steps_per_second"]
        lines.append(
            f"{row['game']:<16}"
            + "".join(f"{rates[cell]:>12.0f}" for cell in cells)
            + f"{row['pettingzoo_decisions_per_second']:>10.0f}"
            + f"  {row['pettingzoo_time_over_batch_time']:.0f}x"
        )
    if "pgx" in data:
        pgx = data["pgx"]
        sizes = list(pgx["steps_per_second"])
        lines.append(
            f"pgx {pgx['game']} steps per second (JAX CPU), then ours over it at the best "
            "thread count, by batch size"
        )
        lines.append(f"{'':<16}" + "".join(f"{size:>12}" for size in sizes))
        lines.append(
            f"{'pgx':<16}" + "".join(f"{pgx['steps_per_second'][s]:>12.0f}" for s in sizes)
        )
        for row in data["results"]:
            lines.append(
                f"{row['game']:<16}" + "".join(f"{row['over_pgx'][s]:>11.1f}x" for s in sizes)
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="games per game and run")
    parser.add_argument("--runs", type=int, default=5, help="runs; the median is reported")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--quick", action="store_true", help="4 games, 3 runs")
    parser.add_argument("--json", help="write the results to this file")
    parser.add_argument(
        "--batch", action="store_true", help="the batch environments of the core instead"
    )
    parser.add_argument(
        "--pgx",
        action="store_true",
        help=f"with --batch: pgx's {PGX_GAME} beside it (needs the pgx extra)",
    )
    args = parser.parse_args(argv)
    if args.pgx and not args.batch:
        parser.error("--pgx goes with --batch")
    if args.pgx and importlib.util.find_spec("pgx") is None:
        parser.error("--pgx needs pgx and jax: pip install -e '.[pgx]'")
    if args.batch:
        seconds, runs = (0.1, 1) if args.quick else (0.5, args.runs if args.runs != 5 else 3)
        data = measure_batch(seconds=seconds, runs=runs, seed=args.seed)
        if args.pgx:
            measure_pgx(data, seconds, runs, args.seed, BATCH_SIZES)
        print(report_batch(data))
        if args.json:
            with open(args.json, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=2)
                out.write("\n")
        return
    games, runs = (4, 3) if args.quick else (args.games, args.runs)
    data = measure(games=games, runs=runs, seed=args.seed)
    print(report(data))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=2)
            out.write("\n")


if __name__ == "__main__":
    main()
