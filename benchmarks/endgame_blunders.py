"""Kryt'-navalivat' endgames of a strength table judged by the exact solver: how often each
bot, with the stock empty and two players (every card then known to both), played an
action the solver proves worse than another within its horizon.

    .venv/bin/python benchmarks/endgame_blunders.py strength-runs/kryt-navalivat-2-expert-hard-10000
    .venv/bin/python benchmarks/endgame_blunders.py FOLDER --games 40 --json out.json

It replays each game's record (``games.jsonl``) and solves every decision of either seat
with the stock empty as the expert solves it (``pimc.solve_endgame``: max-n, deepening the
horizon while the expert's node budget lasts): a *missed win* is a decision with a proven
win on offer where the action played is not one; a *proven loss* one where the action
played is proven lost while another action is not. Beside them, how many games each bot
lost (was the fool), and how many of its games with a blunder.
``expert`` plays neither by construction (``pimc.endgame_choice``) wherever its solve ends
within the budget; how often ``hard`` does is what ``expert`` can gain over it, and so
explains its strength table. A value the solver proves is exact only against a player
who plays perfectly from there: a missed win may be won later all the same.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cardtable
from cardtable import compiled
from cardtable._core import KrytNavalivat
from cardtable.bots.pimc import solve_endgame
from cardtable.core import Record
from cardtable.review import moments


def judge_game(line: dict[str, Any]) -> dict[str, Counter[str]]:
    """Each bot's endgame decisions of one game, counted by kind."""
    record = Record.from_dict(line["record"])
    game = cardtable.make(record.game, **record.options)
    if game.num_players != 2:
        raise SystemExit("only two players' endgames are of perfect information")
    twin = compiled.core_game(game, always=True)
    assert isinstance(twin, KrytNavalivat)
    counts: dict[str, Counter[str]] = {}
    for seat, bot in enumerate(line["seats"]):
        tally = counts.setdefault(bot, Counter())
        tally["games"] += 1
        _end, turns = moments(record, seat)
        blundered = False
        for _index, state, played in turns:
            if state.view(None)["stock"] != 0:
                continue
            tally["decisions"] += 1
            values = solve_endgame(twin.state_from_position(state.position()), "max-n")
            if values is None:
                tally["unsolved"] += 1
                continue
            value = dict(values)[game.action_to_int(game.parse_action(played))]
            best = max(v for _, v in values)
            if best > 0 and value < best:
                tally["missed_win"] += 1
                blundered = True
            elif value < 0 and any(v >= 0 for _, v in values):
                tally["proven_loss"] += 1
                blundered = True
        lost = line["returns"][seat] < 0  # the fool
        tally["lost"] += lost
        tally["games_with_one"] += blundered
        tally["lost_with_one"] += blundered and lost
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", type=Path, help="an arena folder of 2-player Kryt'-navalivat'")
    parser.add_argument("--games", type=int, help="judge the first N games only")
    parser.add_argument("--json", type=Path, help="write the counts here")
    args = parser.parse_args(argv)
    lines = [
        json.loads(text)
        for text in (args.folder / "games.jsonl").read_text(encoding="utf-8").splitlines()
        if text.strip()
    ]
    lines = [line for line in lines if line["status"] == "ok"][: args.games]
    totals: dict[str, Counter[str]] = {}
    for line in lines:
        for bot, tally in judge_game(line).items():
            totals.setdefault(bot, Counter()).update(tally)
    print(f"{len(lines)} games of {args.folder}")
    print(
        "| bot | games | endgame decisions | unsolved | missed wins | proven losses chosen "
        "| games with one | of those lost | games lost |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for bot, tally in totals.items():
        print(
            f"| `{bot}` | {tally['games']} | {tally['decisions']} | {tally['unsolved']} | "
            f"{tally['missed_win']} | {tally['proven_loss']} | {tally['games_with_one']} | "
            f"{tally['lost_with_one']} | {tally['lost']} |"
        )
    if args.json:
        report = {"folder": str(args.folder), "games": len(lines), "bots": totals}
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
