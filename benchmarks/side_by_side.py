"""Side by side with OpenSpiel: cardtable's ISMCTS against OpenSpiel's, same time a decision.

Both searches play the same games through cardtable's OpenSpiel adapter
(:mod:`cardtable.rl.openspiel`):

- ``cardtable``: ``make_bot("ismcts:seconds=S", game)``, which reads the seat's view and
  searches with the game's own determinizer and guided rollouts for ``S`` seconds;
- ``openspiel``: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with a random rollout
  evaluator, searching the pyspiel state (``resample_from_infostate`` for its worlds).
  It has no time budget, only ``max_simulations``: a calibration run measures its time
  per simulation on this machine and sets the simulations so that a decision takes ``S``
  seconds too. The times both bots actually took are measured and reported.

A deal is a seed: the k-th deck (or reshuffle) of every game of a deal is the same
shuffle, whoever sits where, so the games of a deal share their cards as far as play lets
them. Each deal is played six times with three players: each bot alone in each seat
against two copies of the other. The figure is the lone bot's win rate (a shared win
counts), which is 1/3 between equals; its 95% interval is Student's t over the per-deal
means (``cardtable.arena.stats.estimate``).

    .venv/bin/python benchmarks/side_by_side.py --deals 4 --seconds 0.1
    .venv/bin/python benchmarks/side_by_side.py --games knockout-whist --deals 10

writes ``benchmarks/results/side_by_side.json`` (``--out`` to change).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python.algorithms import (  # type: ignore[import-not-found, import-untyped, unused-ignore]
    ismcts,
    mcts,
)

from cardtable.arena.stats import estimate
from cardtable.bots import make_bot
from cardtable.rl.openspiel import CardtableState

GAMES: dict[str, str] = {
    "knockout-whist": "python_cardtable_knockout_whist(players=3)",
    "neuf": "python_cardtable_neuf(players=3)",
}
BOTS = ("cardtable", "openspiel")
UCT_C = 2.0
RESULTS = Path(__file__).parent / "results" / "side_by_side.json"


@dataclass
class Clock:
    """Seconds each bot spent on decisions that had a choice."""

    times: dict[str, list[float]] = field(default_factory=lambda: {b: [] for b in BOTS})

    def mean(self, bot: str) -> float | None:
        return statistics.fmean(self.times[bot]) if self.times[bot] else None


def _openspiel_bot(game: Any, simulations: int, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    return ismcts.ISMCTSBot(
        game,
        evaluator,
        UCT_C,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed + 1),
    )


def _chance(state: CardtableState, seed: int, draws: dict[str, Any]) -> int:
    """The next card of the deal's ``k``-th shuffle: every game of a deal draws the same."""
    outcomes = [outcome for outcome, _ in state.chance_outcomes()]
    queue: list[int] = draws.setdefault("queue", [])
    if set(queue) != set(outcomes):
        # A new deck or reshuffle: shuffle its outcomes by the deal's seed and its number.
        draws["k"] = draws.get("k", 0) + 1
        queue[:] = outcomes
        random.Random(f"{seed}/{draws['k']}").shuffle(queue)
    return queue.pop(0)


def play_game(
    game_name: str, seed: int, lineup: Sequence[str], seconds: float, simulations: int, clock: Clock
) -> list[float]:
    """One game of ``lineup`` (a bot name per seat) on deal ``seed``; the returns."""
    game = pyspiel.load_game(GAMES[game_name])
    state: CardtableState = game.new_initial_state()
    ours = make_bot(f"ismcts:seconds={seconds}", game_name)
    theirs = [_openspiel_bot(game, simulations, seed * 10 + seat) for seat in range(len(lineup))]
    rng = random.Random(seed)
    draws: dict[str, Any] = {}
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, seed, draws))
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        began = time.perf_counter()
        if lineup[seat] == "cardtable":
            engine = state.engine
            assert engine is not None
            action = ours.choose(engine.view(seat), engine.legal_actions(), rng)
            number = engine.game.action_to_int(action)
        else:
            number = int(theirs[seat].step(state))
        if len(legal) > 1:
            clock.times[lineup[seat]].append(time.perf_counter() - began)
        state.apply_action(number)
    return list(state.returns())


def calibrate(game_name: str, seconds: float, probe: int = 8, decisions: int = 12) -> int:
    """Simulations that make OpenSpiel's ISMCTS take ``seconds`` a decision here: its time
    per simulation measured over ``decisions`` decisions of a random game."""
    game = pyspiel.load_game(GAMES[game_name])
    bot = _openspiel_bot(game, probe, 12345)
    state = game.new_initial_state()
    rng = random.Random(7)
    spent, simulations = 0.0, 0
    while not state.is_terminal() and simulations < probe * decisions:
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            began = time.perf_counter()
            bot.step(state)
            spent += time.perf_counter() - began
            simulations += probe
        state.apply_action(rng.choice(legal))
    return max(2, round(seconds / (spent / simulations))) if simulations else 2


def match(
    game_name: str, deals: int, seconds: float, seed: int = 1, simulations: int | None = None
) -> dict[str, Any]:
    """``deals`` deals of six games each; the lone bots' win rates and the clocks."""
    sims = simulations if simulations is not None else calibrate(game_name, seconds)
    clock = Clock()
    # wins[bot][deal] -> 0/1 per game in which ``bot`` sat alone
    wins: dict[str, list[list[float]]] = {b: [] for b in BOTS}
    returns: dict[str, list[list[float]]] = {b: [] for b in BOTS}
    began = time.perf_counter()
    for deal in range(deals):
        deal_seed = seed * 1_000 + deal
        for b in BOTS:
            wins[b].append([])
            returns[b].append([])
        for lone in BOTS:
            other = BOTS[1 - BOTS.index(lone)]
            for seat in range(3):
                lineup = [lone if s == seat else other for s in range(3)]
                result = play_game(game_name, deal_seed, lineup, seconds, sims, clock)
                wins[lone][-1].append(1.0 if result[seat] == max(result) else 0.0)
                returns[lone][-1].append(result[seat])
    report: dict[str, Any] = {
        "game": game_name,
        "openspiel_game": GAMES[game_name],
        "players": 3,
        "deals": deals,
        "games": deals * 6,
        "seconds_per_decision": seconds,
        "openspiel_simulations": sims,
        "wall_seconds": round(time.perf_counter() - began, 1),
    }
    for b in BOTS:
        rate = estimate(wins[b], binary=True)
        ret = estimate(returns[b], binary=False)
        mean_time = clock.mean(b)
        report[b] = {
            "lone_win_rate": rate.mean,
            "lone_win_rate_95": [rate.low, rate.high],
            "lone_mean_return": ret.mean,
            "lone_mean_return_95": [ret.low, ret.high],
            "lone_games": sum(len(g) for g in wins[b]),
            "decisions_timed": len(clock.times[b]),
            "mean_seconds_per_decision": None if mean_time is None else round(mean_time, 4),
        }
    return report


def _deals(text: str, names: Sequence[str]) -> dict[str, int] | None:
    """``"4"`` or ``"knockout-whist=10,neuf=3"`` as deals per game; None if malformed."""
    try:
        if "=" not in text:
            return {name: int(text) for name in names} if int(text) >= 1 else None
        given = {k.strip(): int(v) for k, _, v in (p.partition("=") for p in text.split(","))}
    except ValueError:
        return None
    if set(given) != set(names) or min(given.values()) < 1:
        return None
    return given


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game names")
    parser.add_argument(
        "--deals",
        default="2",
        help="deals per game (6 games each): N, or per game as knockout-whist=10,neuf=3",
    )
    parser.add_argument("--seconds", type=float, default=0.1, help="seconds per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    names = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in names if g not in GAMES]
    if unknown:
        parser.error(f"games are {', '.join(GAMES)}, not {', '.join(unknown)}")
    deals = _deals(args.deals, names)
    if deals is None or args.seconds <= 0:
        parser.error("--deals is N or game=N,... with N at least 1; --seconds is above 0")
    reports = []
    for name in names:
        report = match(name, deals[name], args.seconds, args.seed)
        reports.append(report)
        for b in BOTS:
            r = report[b]
            low, high = r["lone_win_rate_95"]
            interval = "n/a" if low is None else f"[{low:.3f}, {high:.3f}]"
            print(
                f"{name}: {b} alone {r['lone_win_rate']:.3f} {interval} "
                f"over {r['lone_games']} games, {r['mean_seconds_per_decision']} s/decision"
            )
    out = {
        "benchmark": "side_by_side",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "openspiel": getattr(pyspiel, "__version__", "unknown"),
        "matches": reports,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
