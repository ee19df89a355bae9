"""The big differential run: the compiled core against the Python engine, every variant.

``tests/core/test_core_equality.py`` plays 200 games of each variant in CI; this script plays
``--games`` (10,000 by default) of each, seeds ``0 … games-1``, in worker processes (one
per core by default), comparing every step as :func:`cardtable.differential.compare_game`
does. It is resumable: each finished block of seeds is appended to ``--out`` (JSON lines)
and skipped on the next run, so a run cut short goes on where it stopped. It prints the
totals per variant, and exits 1 at the first divergence, which it prints.

    .venv/bin/python scripts/core_differential.py --out benchmarks/results/core_differential.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from cardtable.differential import VARIANTS, DivergenceError, compare_games

BLOCK = 250


def label(name: str, options: dict[str, Any]) -> str:
    return name + " " + " ".join(f"{k}={v}" for k, v in sorted(options.items()))


def run_block(name: str, options: dict[str, Any], start: int, stop: int) -> dict[str, Any]:
    try:
        tally = compare_games(name, options, range(start, stop))
    except DivergenceError as exc:
        return {"variant": label(name, options), "start": start, "stop": stop, "error": str(exc)}
    return {
        "variant": label(name, options),
        "start": start,
        "stop": stop,
        "games": tally.games,
        "steps": tally.steps,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per variant")
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, one per block")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    done: set[tuple[str, int]] = set()
    if args.out.exists():
        for line in args.out.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if "error" not in row:
                done.add((row["variant"], row["start"]))
    blocks = [
        (name, options, start, min(start + BLOCK, args.games))
        for name, options in VARIANTS
        for start in range(0, args.games, BLOCK)
        if (label(name, options), start) not in done
    ]
    print(f"{len(blocks)} blocks of up to {BLOCK} games to play", flush=True)
    failed = False
    with ProcessPoolExecutor(args.workers) as pool, args.out.open("a", encoding="utf-8") as out:
        futures = [pool.submit(run_block, *block) for block in blocks]
        for future in as_completed(futures):
            row = future.result()
            out.write(json.dumps(row) + "\n")
            out.flush()
            if "error" in row:
                print("DIVERGENCE", row["error"], flush=True)
                failed = True
                for other in futures:
                    other.cancel()
                break
    totals: dict[str, list[int]] = {}
    for line in args.out.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if "error" in row or row["stop"] > args.games:
            continue
        games_steps = totals.setdefault(row["variant"], [0, 0])
        games_steps[0] += row["games"]
        games_steps[1] += row["steps"]
    for variant, (games, steps) in sorted(totals.items()):
        print(f"{variant:<60} {games:>7} games {steps:>10} steps, no difference")
    all_games = sum(g for g, _ in totals.values())
    all_steps = sum(s for _, s in totals.values())
    print(f"total: {all_games} games, {all_steps} steps compared; divergences: {int(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
