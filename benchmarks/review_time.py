"""How long a whole game's review takes at ``expert`` (the target: 15 s at most on a
2-core machine): games where seat 0 is ``easy`` (odd seeds) or ``random`` (even) and the
others ``medium``, each reviewed for seat 0 by :func:`cardtable.review.review`.

    python benchmarks/review_time.py neuf --games 10
    python benchmarks/review_time.py kryt-navalivat --players 2 --games 10

Prints one line a game (decisions, how many found at fault, seconds) and the median and
the longest. The review's searches are bounded by the clock, so a busy machine reviews in
the same time but searches less: run it on a quiet one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import cardtable
from cardtable.bots import make_bot
from cardtable.core import Record
from cardtable.review import FLAGGED, review


def played(game_name: str, players: int, seed: int) -> Record:
    """A finished game: seat 0 ``easy`` or ``random``, the others ``medium``."""
    game = cardtable.make(game_name, players=players)
    state = game.new_state(seed=seed)
    weak = "easy" if seed % 2 else "random"
    bots = [make_bot(weak, game_name)] + [make_bot("medium", game_name)] * (players - 1)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions(), rng))
    return state.record()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args(argv)
    seconds = []
    for seed in range(args.first_seed, args.first_seed + args.games):
        record = played(args.game, args.players, seed)
        began = time.perf_counter()
        done = review(record, 0, level="expert")
        seconds.append(time.perf_counter() - began)
        faults = sum(d.verdict in FLAGGED for d in done.decisions)
        print(
            f"{args.game} seed {seed}: {len(done.decisions)} decisions, "
            f"{faults} at fault, {seconds[-1]:.1f} s",
            flush=True,
        )
    print(
        f"{args.game}, {args.players} players, {len(seconds)} games: median "
        f"{statistics.median(seconds):.1f} s, longest {max(seconds):.1f} s"
    )


if __name__ == "__main__":
    main()
