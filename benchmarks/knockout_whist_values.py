"""Knockout Whist's learned values between hands: how often a seat goes on to win the game
from the start of a hand, by what the search's rollout knows when it stops there.

The search bots roll a Knockout Whist hand out to its end and estimate each seat's return
there (the later hands are dealt from cards nobody knows yet). The built-in estimate shares
the chance of winning among the players still in, a dog at a fixed 0.3 of an active
player's (``rollout.rs``, ``share``): it does not see that a seat who names the next trumps
(KOW-3.2) is better placed, nor that fewer cards a hand favour some seats. This script
learns the estimate instead, from games of self-play by ``--policy`` (``easy``: the rules
of thumb the rollouts themselves play by): at the start of every hand after the first, for
each seat still in, it counts the games it went on to win, by

    players at the table, cards dealt this hand, the seat's status (active or a dog),
    whether it named this hand's trumps, the other active seats, the other dogs, and
    whether the dog's life is spent (KOW-6.7)

and writes each cell's rate (``wins + prior·k) / (games + k)``, the prior being the built-in
estimate's share, so that a rarely seen cell stays near it) to
``crates/core/src/knockout_whist/values.json``, which the core compiles in
(``rollout=learned`` in an ``ismcts`` spec). Resumable: the counts are saved every
``--save-every`` games in ``--counts`` and a run adds to them.

    .venv/bin/python benchmarks/knockout_whist_values.py --games 30000
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.knockout_whist_rollout import DOG_CHANCE
from cardtable.rules.knockout_whist.state import DOG, OUT

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "crates" / "core" / "src" / "knockout_whist" / "values.json"
COUNTS = ROOT / "benchmarks" / "results" / "knockout_whist_values_counts.json"
PRIOR_GAMES = 20.0
"""How many games the built-in estimate counts for in a cell."""
COLUMNS = ["players", "cards", "status", "named", "active", "dogs", "dog_used", "rate", "games"]
"""What each row of the shipped table holds: a cell, its rate and the games it was seen in."""
Cell = tuple[int, int, int, int, int, int, int]
"""(players, cards, status, named the trumps, other active seats, other dogs, dog's life spent)."""


def cells_at_hand_start(state: cardtable.State) -> dict[int, Cell]:
    """Each seat still in, and its cell, at the start of a hand whose trumps a seat named."""
    status = list(state.status)  # type: ignore[attr-defined]
    n = len(status)
    cards = 8 - state.hand_no  # type: ignore[attr-defined]  # KOW-2.1: 7 cards, one fewer a hand
    dog_used = int(state.dog_used)  # type: ignore[attr-defined]
    chooser = state.chooser  # type: ignore[attr-defined]
    found = {}
    for seat in range(n):
        if status[seat] == OUT:
            continue
        others = [status[s] for s in range(n) if s != seat]
        active = sum(1 for s in others if s not in (DOG, OUT))
        dogs = sum(1 for s in others if s == DOG)
        found[seat] = (n, cards, status[seat], int(seat == chooser), active, dogs, dog_used)
    return found


def play(games: int, players: int, policy: str, seed: int, counts: dict[Cell, list[int]]) -> None:
    """Adds ``games`` games' cells, each with whether its seat won, to ``counts``."""
    game = cardtable.make("knockout-whist", players=players)
    bot = make_bot(policy, game.name)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_state(seed=rng.getrandbits(63))
        seen: list[dict[int, Cell]] = []
        hand = 1
        while not state.is_over:
            if state.hand_no != hand and state.chooser is not None:  # type: ignore[attr-defined]
                hand = state.hand_no  # type: ignore[attr-defined]
                seen.append(cells_at_hand_start(state))
            seat = state.to_move
            assert seat is not None
            state.apply(bot.choose(state.view(seat), state.legal_actions(), rng))
        result = state.result
        assert result is not None
        for cells in seen:
            for seat, cell in cells.items():
                tally = counts.setdefault(cell, [0, 0])
                tally[0] += int(seat in result.winners)
                tally[1] += 1


def share(cell: Cell) -> float:
    """The built-in estimate's chance for the cell's seat."""
    _, _, status, _, active, dogs, _ = cell
    weight = DOG_CHANCE if status == DOG else 1.0
    return weight / (weight + active + DOG_CHANCE * dogs)


def values(counts: dict[Cell, list[int]]) -> list[list[float]]:
    """Each cell, its smoothed rate and its games, sorted."""
    rows = []
    for cell in sorted(counts):
        wins, played = counts[cell]
        rate = (wins + PRIOR_GAMES * share(cell)) / (played + PRIOR_GAMES)
        rows.append([*cell, round(rate, 4), played])
    return rows


def load(path: Path) -> tuple[dict[Cell, list[int]], dict[str, int]]:
    if not path.exists():
        return {}, {}
    saved = json.loads(path.read_text(encoding="utf-8"))
    counts = {tuple(row[:7]): [row[7], row[8]] for row in saved["cells"]}
    return counts, saved["runs"]


def save(path: Path, counts: dict[Cell, list[int]], runs: dict[str, int]) -> None:
    cells = [[*cell, *counts[cell]] for cell in sorted(counts)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"runs": runs, "cells": cells}) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=30000, help="games a player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6, 7])
    parser.add_argument("--policy", default="easy")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--save-every", type=int, default=2000)
    parser.add_argument("--counts", type=Path, default=COUNTS)
    parser.add_argument("--out", type=Path, default=SHIPPED)
    args = parser.parse_args(argv)
    counts, runs = load(args.counts)
    for players in args.players:
        key = f"{players}:{args.policy}:{args.seed}"
        while runs.get(key, 0) < args.games:
            done = runs.get(key, 0)
            batch = min(args.save_every, args.games - done)
            # Each batch its own seed: a resumed run plays the games it had not yet.
            play(batch, players, args.policy, hash((args.seed, players, done)), counts)
            runs[key] = done + batch
            save(args.counts, counts, runs)
            print(f"{players} players: {runs[key]} games", flush=True)
    shipped = {
        "format": "cardtable-knockout-whist-values",
        "version": 1,
        "policy": args.policy,
        "games": {k: v for k, v in sorted(runs.items())},
        "prior_games": PRIOR_GAMES,
        "columns": COLUMNS,
        "cells": values(counts),
    }
    args.out.write_text(json.dumps(shipped, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"written: {args.out} ({len(shipped['cells'])} cells)")


if __name__ == "__main__":
    main()
