"""How long bots take a decision, side by side: each spec chooses at the same decisions
(two or more legal actions) of seeded games played by random moves, the specs taking turns
at each, so that whatever else the machine does weighs on them alike.

    .venv/bin/python benchmarks/decision_time.py neuf hard \\
        "ismcts:iterations=50000,seconds=0.9,rollout=learned" --decisions 100

Prints each spec's mean, median and largest time a decision, in seconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import cardtable
from cardtable.bots import make_bot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("specs", nargs="+", help="bot specs, as --bots takes them")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = cardtable.make(args.game, players=args.players)
    bots = [make_bot(spec, game.name) for spec in args.specs]
    rng = random.Random(args.seed)
    times: list[list[float]] = [[] for _ in bots]
    seed = args.seed
    while len(times[0]) < args.decisions:
        state = game.new_state(seed=seed)
        seed += 1
        while not state.is_over and len(times[0]) < args.decisions:
            legal = state.legal_actions()
            seat = state.to_move
            if len(legal) > 1 and seat is not None and rng.random() < 0.25:
                view = state.view(seat)
                for bot, taken in zip(bots, times, strict=True):
                    began = time.perf_counter()
                    bot.choose(view, legal, random.Random(seed))
                    taken.append(time.perf_counter() - began)
            state.apply(rng.choice(legal))
    for spec, taken in zip(args.specs, times, strict=True):
        print(
            f"{spec}: mean {statistics.mean(taken):.3f} s, median {statistics.median(taken):.3f} s,"
            f" max {max(taken):.3f} s over {len(taken)} decisions"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
