"""Solver benchmark: how long the core's exact solver takes on whole hands, and how long
the ``expert`` level takes a decision.

Run it from the repository root::

    .venv/bin/python benchmarks/solver.py                 # 500 hands a row
    .venv/bin/python benchmarks/solver.py --quick         # 20 hands a row: a fast look
    .venv/bin/python benchmarks/solver.py --json benchmarks/results/solver.json
    .venv/bin/python benchmarks/solver.py --only kryt-navalivat   # one game's rows alone

Each row solves full first hands of Knockout Whist (7 cards each, every card known, from
the hand's first lead) dealt from seeds 0, 1, 2, …: every legal action of the leader valued
to the end of the hand (``_core.KnockoutWhistState.solve``), under each model: ``max-n``
(every seat for itself, no pruning) and ``paranoid`` (the others against the leader:
alpha-beta). Times are wall times of the call, the position's parsing outside them; the
nodes are the solver's. The baseline measured in the same run is the ``hard`` level's
search (50,000 ISMCTS iterations with guided rollouts) from the same leader's view: the
solve times read as a fraction of one ``hard`` decision. Then the ``expert`` level (Knockout
Whist's: PIMC, up to 100 deals, 0.9 s at most) is timed on the decisions of seeded games.

Neuf's rows solve whole first deals (13 tricks, every card known, each seat keeping its
hand, from the first lead; ``_core.NeufState.solve``) under ``paranoid`` (the others, or
the other partnership, against the leader: MTD(f) over alpha-beta), at 3 players and in
the 4-player partnership game (where max-n is the same search, so one row; a tenth as many
deals, each taking seconds). Max-n cannot prune, and a
whole 3-player deal is far beyond it: its row solves the last ``NEUF_MAX_N_TRICKS`` tricks
of those deals (the first tricks played by each seat's lowest legal card).

Kryt'-navalivat' is solved in its endgame alone (the stock empty, every card known to both
of 2 players): ``endgame_row`` times ``_core.KrytNavalivatState.solve`` at its default
horizon on endgames of 6, 10 and 14 cards left in both hands together, reached by the
heuristic bots from seeded deals, and counts the actions whose value is proven (a forced
loss or win within the horizon) rather than 0.
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
from collections.abc import Sequence
from typing import Any

import cardtable
from cardtable import compiled
from cardtable._core import KnockoutWhist as CoreKnockoutWhist
from cardtable._core import KrytNavalivat as CoreKrytNavalivat
from cardtable._core import Neuf as CoreNeuf
from cardtable.bots import make_bot
from cardtable.bots.base import LEVELS, level_spec
from cardtable.core import State

MODELS = ("max-n", "paranoid")
NEUF_KEEP = 53
PLAYERS = (2, 3, 4)
NEUF_PLAYERS = (3, 4)
NEUF_MAX_N_TRICKS = 7
"""The tricks left when Neuf's max-n row starts solving."""
ENDGAME_CARDS = (6, 10, 14)
GAMES = ("knockout-whist", "neuf", "kryt-navalivat")


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def solve_row(players: int, hands: int) -> dict[str, Any]:
    """Solve times and nodes of ``hands`` first hands at ``players`` players."""
    game = cardtable.make("knockout-whist", players=players)
    twin = compiled.core_game(game, always=True)
    assert isinstance(twin, CoreKnockoutWhist)
    hard = make_bot("hard", "knockout-whist")
    row: dict[str, Any] = {"players": players, "hands": hands}
    times: dict[str, list[float]] = {model: [] for model in MODELS}
    nodes: dict[str, list[int]] = {model: [] for model in MODELS}
    baseline: list[float] = []
    for seed in range(hands):
        state = game.new_state(seed=seed)
        position = twin.state_from_position(state.position())
        for model in MODELS:
            start = time.perf_counter()
            _, searched = position.solve(model)
            times[model].append(time.perf_counter() - start)
            nodes[model].append(searched)
        if seed < max(3, hands // 20):  # the baseline on a sample: it is the slow one
            seat = state.to_move
            assert seat is not None
            start = time.perf_counter()
            hard.choose(state.view(seat), state.legal_actions(), random.Random(seed))
            baseline.append(time.perf_counter() - start)
    hard_median = statistics.median(baseline)
    row["hard_seconds_median"] = hard_median
    for model in MODELS:
        row[model] = {
            "median_seconds": statistics.median(times[model]),
            "p99_seconds": percentile(times[model], 0.99),
            "max_seconds": max(times[model]),
            "median_nodes": statistics.median(nodes[model]),
            "median_over_hard": statistics.median(times[model]) / hard_median,
        }
    return row


def neuf_first_lead(players: int, seed: int) -> State:
    """A Neuf game's first deal at its first lead, each seat keeping its hand."""
    state = cardtable.make("neuf", players=players).new_state(seed=seed)
    while state.view(None)["phase"] == "exchange":
        state.apply_id(NEUF_KEEP)
    return state


def neuf_row(players: int, hands: int, model: str) -> dict[str, Any]:
    """Solve times and nodes of ``hands`` Neuf deals at ``players`` players under ``model``:
    whole deals from the first lead, or for max-n with 3 players their last
    :data:`NEUF_MAX_N_TRICKS` tricks."""
    game = cardtable.make("neuf", players=players)
    twin = compiled.core_game(game, always=True)
    assert isinstance(twin, CoreNeuf)
    tricks = NEUF_MAX_N_TRICKS if model == "max-n" and players == 3 else 13
    times: list[float] = []
    nodes: list[int] = []
    for seed in range(hands):
        state = neuf_first_lead(players, seed)
        while 13 - sum(state.view(None)["tricks_won"]) > tricks or state.view(None)["trick"]:
            state.apply_id(min(state.legal_action_ids()))
        position = twin.state_from_position(state.position())
        start = time.perf_counter()
        _, searched = position.solve(model)
        times.append(time.perf_counter() - start)
        nodes.append(searched)
    return {
        "players": players,
        "model": model,
        "tricks": tricks,
        "hands": hands,
        "median_seconds": statistics.median(times),
        "p99_seconds": percentile(times, 0.99),
        "max_seconds": max(times),
        "median_nodes": statistics.median(nodes),
    }


def kryt_navalivat_endgame(rng: random.Random, cards: int) -> State | None:
    """A 2-player Kryt'-navalivat' hand played by the heuristic bots until the stock is
    empty and the hands hold ``cards`` cards together; ``None`` when the hand skips past
    that count, ends or runs long first."""
    game = cardtable.make("kryt-navalivat", players=2)
    bot = make_bot("heuristic", "kryt-navalivat")
    state = game.new_state(seed=rng.randrange(1 << 30))
    for _ in range(2000):  # the bots may pass cards to and fro for ever (K-14)
        if state.is_over:
            return None
        view = state.view(0)  # counts and the mode are public (KRYT-9)
        held = sum(view["hand_sizes"])
        if view["stock"] == 0 and held <= cards:
            return state if held == cards and view["phase"] != "cover" else None
        seat = state.to_move
        assert seat is not None
        state.apply(bot.choose(state.view(seat), state.legal_actions(), rng))
    return None


def endgame_row(cards: int, endgames: int) -> dict[str, Any]:
    """Solve times and nodes of ``endgames`` 2-player Kryt'-navalivat' endgames of
    ``cards`` cards, and the share of actions whose value is proven."""
    game = cardtable.make("kryt-navalivat", players=2)
    twin = compiled.core_game(game, always=True)
    assert isinstance(twin, CoreKrytNavalivat)
    rng = random.Random(cards)
    times: list[float] = []
    nodes: list[int] = []
    proven = actions = 0
    while len(times) < endgames:
        state = kryt_navalivat_endgame(rng, cards)
        if state is None:
            continue
        position = twin.state_from_position(state.position())
        start = time.perf_counter()
        values, searched = position.solve()
        times.append(time.perf_counter() - start)
        nodes.append(searched)
        proven += sum(value != 0.0 for _, value in values)
        actions += len(values)
    return {
        "cards": cards,
        "endgames": endgames,
        "median_seconds": statistics.median(times),
        "p99_seconds": percentile(times, 0.99),
        "max_seconds": max(times),
        "median_nodes": statistics.median(nodes),
        "proven_share": proven / actions,
    }


def expert_row(games: int, spec: str = "expert") -> dict[str, Any]:
    """The ``expert`` level's (or ``spec``'s) time per decision over seeded 3-player games
    (two or more legal actions), the other seats played by ``easy``."""
    game = cardtable.make("knockout-whist", players=3)
    expert = make_bot(spec, "knockout-whist")
    easy = make_bot("easy", "knockout-whist")
    spent: list[float] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_actions()
            if seat == 0 and len(legal) > 1:
                start = time.perf_counter()
                action = expert.choose(state.view(seat), legal, rng)
                spent.append(time.perf_counter() - start)
            else:
                action = easy.choose(state.view(seat), legal, rng)
            state.apply(action)
    return {
        "spec": level_spec(spec, "knockout-whist") if spec in LEVELS else spec,
        "decisions": len(spent),
        "median_seconds": statistics.median(spent),
        "p99_seconds": percentile(spent, 0.99),
        "max_seconds": max(spent),
    }


def measure(
    hands: int,
    games: int,
    expert: str = "expert",
    neuf_hands: int | None = None,
    neuf_players: Sequence[int] = NEUF_PLAYERS,
    only: Sequence[str] = GAMES,
) -> dict[str, Any]:
    """The report: ``hands`` Knockout Whist hands a row and the expert level over ``games``
    games, ``neuf_hands`` Neuf deals a row at 3 players (a tenth as many at 4, whose deals
    take seconds each), ``hands`` Kryt'-navalivat' endgames a row; the games in ``only``."""
    neuf_hands = hands if neuf_hands is None else neuf_hands
    load_at_start = os.getloadavg()[0]
    report: dict[str, Any] = {
        "benchmark": "solver",
        "baseline": "the hard level's decision from the same leader's view",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
    }
    if "knockout-whist" in only:
        report["knockout_whist"] = [solve_row(players, hands) for players in PLAYERS]
    if "neuf" in only:
        report["neuf"] = [
            neuf_row(players, neuf_hands if players == 3 else max(1, neuf_hands // 10), model)
            for players in neuf_players
            # With four, max-n is paranoid's search (two partnerships): one row.
            for model in (MODELS if players == 3 else ("paranoid",))
        ]
    if "kryt-navalivat" in only:
        report["kryt_navalivat_endgames"] = [endgame_row(cards, hands) for cards in ENDGAME_CARDS]
    if "knockout-whist" in only:
        report["expert"] = expert_row(games, expert)
    # Other work on the machine inflates the times (not the nodes): the report says how much.
    report["load_average_1min"] = {"start": load_at_start, "end": os.getloadavg()[0]}
    return report


def render(report: dict[str, Any]) -> str:
    """The report as text tables, a table for each game measured."""
    lines: list[str] = []
    if "knockout_whist" in report:
        lines.append(
            "Knockout Whist: a full first hand solved, every card known (ms); "
            "hard = one hard decision from the same view"
        )
        lines.append(
            f"{'players':>8} {'model':>9} {'median':>9} {'p99':>9} {'max':>9} "
            f"{'nodes':>10} {'x hard':>8}"
        )
        for row in report["knockout_whist"]:
            for model in MODELS:
                cell = row[model]
                lines.append(
                    f"{row['players']:>8} {model:>9} {1000 * cell['median_seconds']:>9.2f} "
                    f"{1000 * cell['p99_seconds']:>9.2f} {1000 * cell['max_seconds']:>9.2f} "
                    f"{cell['median_nodes']:>10.0f} {cell['median_over_hard']:>8.3f}"
                )
    if "neuf" in report:
        lines.append(
            "Neuf: a first deal solved from its first lead, every card known (ms); "
            f"max-n at 3 players: the last {NEUF_MAX_N_TRICKS} tricks"
        )
        lines.append(
            f"{'players':>8} {'model':>9} {'tricks':>7} {'median':>9} {'p99':>9} {'max':>9} "
            f"{'nodes':>10}"
        )
        for cell in report["neuf"]:
            lines.append(
                f"{cell['players']:>8} {cell['model']:>9} {cell['tricks']:>7} "
                f"{1000 * cell['median_seconds']:>9.2f} {1000 * cell['p99_seconds']:>9.2f} "
                f"{1000 * cell['max_seconds']:>9.2f} {cell['median_nodes']:>10.0f}"
            )
    if "kryt_navalivat_endgames" in report:
        lines.append(
            "Kryt'-navalivat': a 2-player endgame solved, stock empty (ms); "
            "proven = actions valued -1 or 1, not 0"
        )
        lines.append(
            f"{'cards':>8} {'median':>9} {'p99':>9} {'max':>9} {'nodes':>10} {'proven':>8}"
        )
        for row in report["kryt_navalivat_endgames"]:
            lines.append(
                f"{row['cards']:>8} {1000 * row['median_seconds']:>9.2f} "
                f"{1000 * row['p99_seconds']:>9.2f} {1000 * row['max_seconds']:>9.2f} "
                f"{row['median_nodes']:>10.0f} {row['proven_share']:>8.2f}"
            )
    if "expert" in report:
        expert = report["expert"]
        lines.append(
            f"expert ({expert['spec']}), {expert['decisions']} decisions: median "
            f"{expert['median_seconds']:.3f} s, p99 {expert['p99_seconds']:.3f} s, "
            f"max {expert['max_seconds']:.3f} s"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="20 hands a row: a fast look")
    parser.add_argument("--hands", type=int, default=500, help="hands solved a row")
    parser.add_argument(
        "--neuf-hands", type=int, default=None, help="Neuf deals a row (default: --hands)"
    )
    parser.add_argument("--games", type=int, default=5, help="games timing the expert level")
    parser.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    parser.add_argument(
        "--only",
        action="append",
        choices=GAMES,
        help="measure this game alone (repeat for more; default: every game)",
    )
    args = parser.parse_args(argv)
    hands, games = (20, 1) if args.quick else (args.hands, args.games)
    neuf_hands = args.neuf_hands if args.neuf_hands is not None else hands
    report = measure(hands, games, neuf_hands=neuf_hands, only=args.only or GAMES)
    print(render(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
