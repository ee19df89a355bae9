"""The strength tables' summary: one Markdown row per tournament folder of
``benchmarks/strength.sh``, and each folder's ``summary.json`` copied to
``benchmarks/results/strength/<folder name>.json``.

    .venv/bin/python benchmarks/strength_summary.py strength-runs            # print the rows
    .venv/bin/python benchmarks/strength_summary.py strength-runs --copy     # and copy
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results" / "strength"


def interval(standing: dict[str, Any], digits: int) -> str:
    mean, low, high = standing["mean"], standing["low"], standing["high"]
    if low is None or high is None:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def core_minutes(folder: Path) -> float:
    """The minutes of one core the folder's games took (their ``duration``s summed)."""
    games = folder / "games.jsonl"
    if not games.is_file():
        return 0.0
    lines = games.read_text(encoding="utf-8").splitlines()
    return sum(float(json.loads(line)["duration"]) for line in lines if line.strip()) / 60


def row(name: str, summary: dict[str, Any], minutes: float) -> str:
    """``| file | bots | games played | how it ended | core-minutes | result |``."""
    metric = summary["metric"]
    digits = 3 if metric["key"] in ("win", "fool") else 2  # rates, else points
    order = {entry: i for i, entry in enumerate(summary["config"]["bots"])}
    standings = sorted(summary["standings"], key=lambda s: (order.get(s["spec"], 99), s["entry"]))
    result = ", ".join(f"{s['entry']} {interval(s, digits)}" for s in standings)
    # Paired by deal (written by the arena since it reports them): the first bot's lead.
    for d in summary.get("differences", []):
        result += f"; {d['entry']} − {d['other']} {interval(d, digits)} paired"
    stopping = summary.get("stopping") or {}
    if stopping.get("stopped") and stopping.get("decision"):
        taken = stopping["decision"].upper()
        ended = f"the SPRT took {taken} after {stopping['met_after_deals']} deals"
    elif stopping.get("stopped"):
        ended = f"stopped by the rule after {stopping['met_after_deals']} deals"
    elif summary["finished"] < summary["scheduled"]:
        # A report made with --report-only of a table stopped before its end.
        ended = f"unfinished: {summary['finished']} of {summary['scheduled']} games"
    else:
        ended = f"all {summary['scheduled']} games"
    bots = ", ".join(f"`{b}`" for b in summary["config"]["bots"])
    return (
        f"| `{name}.json` | {bots} | {summary['finished']} | {ended} | {minutes:.0f} | "
        f"{metric['name']}: {result} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("runs", type=Path, help="the folder of strength.sh's tournaments")
    parser.add_argument("--copy", action="store_true", help="copy each summary.json to results")
    args = parser.parse_args(argv)
    for folder in sorted(p for p in args.runs.iterdir() if (p / "summary.json").is_file()):
        summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        print(row(folder.name, summary, core_minutes(folder)))
        if args.copy:
            RESULTS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(folder / "summary.json", RESULTS / f"{folder.name}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
