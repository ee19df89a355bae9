"""Instructions per decision, counted by valgrind's callgrind: the engine benchmark without noise.

    .venv/bin/python benchmarks/instructions.py            # 5 players, 20 games a path
    .venv/bin/python benchmarks/instructions.py --players 3 --games 40

Wall-clock ratios on a shared machine swing by tens of percent from run to run.
Instruction counts do not: the same program, inputs and interpreter execute the same
instructions whatever else the machine is doing. Each path of ``engine.py`` (and
OpenSpiel's ``oh_hell`` when pyspiel imports) is run twice under callgrind, once with no
games and once with ``--games`` games, so that interpreter start-up and imports cancel
out; the difference divided by the decisions made is the cost of one decision. It needs
``valgrind`` (Debian's package) and takes a minute or two. Instructions are not time (a
C++ engine may retire more of them per cycle than the Python interpreter), so read this
beside ``engine.py``'s timings, not instead of them.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PATHS = ("checked", "unchecked", "playout", "open_spiel")


def workload(path: str, players: int, games: int) -> int:
    """Play ``games`` seeded games on ``path`` in this process; the decisions made."""
    sys.path.insert(0, str(HERE))
    import engine

    if path == "open_spiel":
        spiel = engine.load_open_spiel(players)
        if spiel is None:
            raise SystemExit("pyspiel is not installed")
        play = engine.play_open_spiel
        target = spiel
    else:
        play = {
            "checked": engine.play_checked,
            "unchecked": engine.play_unchecked,
            "playout": engine.play_playout,
        }[path]
        target = engine.knockout_whist(players)
    return sum(play(target, seed).decisions for seed in range(games))


def count(path: str, players: int, games: int) -> tuple[int, int]:
    """(instructions, decisions) of one workload run under callgrind."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--run",
        path,
        "--players",
        str(players),
        "--games",
        str(games),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no total:\n{done.stderr[-2000:]}")
    return int(found.group(1)), int(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--run", choices=PATHS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        print(workload(args.run, args.players, args.games))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 1
    paths = [p for p in PATHS if p != "open_spiel" or _has_pyspiel()]
    per_decision = {}
    for path in paths:
        empty, _ = count(path, args.players, 0)
        full, decisions = count(path, args.players, args.games)
        per_decision[path] = (full - empty) / decisions
    print(f"Instructions per decision, {args.players} players, {args.games} games a path")
    base = per_decision.get("open_spiel")
    for path, value in per_decision.items():
        ratio = "" if base is None or path == "open_spiel" else f"  {value / base:.2f}x OpenSpiel"
        print(f"{path:<11} {value:>9.0f}{ratio}")
    return 0


def _has_pyspiel() -> bool:
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
