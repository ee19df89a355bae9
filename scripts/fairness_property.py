#!/usr/bin/env python3
"""The page's fairness check against ``cardtable verify`` over many random games (the long run
of tests/web/test_web_fairness_property.py): every variant of all three games in turn, swaps and
reshuffles forced in a share of them, each page's messages through ``web/fairwatch.js`` in
headless Chromium, and every kind of forged field in every ``--forge-every``-th game.

    .venv/bin/python scripts/fairness_property.py --games 2000 --out fairness-property.jsonl

Resumable: each game's line is appended to ``--out`` as it ends, and a run given the same
file plays only the games not yet in it. The summary (games, pages, swaps, reshuffles, wrong
alarms, forgeries refused) is printed at the end, from the whole file.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser_pieces import launched, served  # noqa: E402
from fair_games import (  # noqa: E402
    TAMPERS,
    judged,
    judged_forged,
    page_verdicts,
    play_scheduled,
    tampered,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--forge-every", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path("fairness-property.jsonl"))
    parser.add_argument(
        "--shard",
        default="0/1",
        help="K/N: play only the games whose number is K modulo N (N runs side by side, "
        "each appending its lines to the same --out)",
    )
    args = parser.parse_args()
    shard, shards = (int(x) for x in args.shard.split("/"))
    done = set()
    if args.out.exists():
        done = {json.loads(line)["number"] for line in args.out.read_text().splitlines() if line}
    started = time.monotonic()
    with served(Path(tempfile.mkdtemp())) as base, launched() as chromium:
        page = chromium.new_page()
        page.goto(f"{base}/")
        with args.out.open("a") as out:
            for number in range(args.games):
                if number in done or number % shards != shard:
                    continue
                game = play_scheduled(number, args.seed)
                line: dict[str, object] = {"number": number}
                if game is None:
                    line["capped"] = True
                else:
                    verdicts = page_verdicts(page, [game])[0]
                    line.update(
                        game=game.name,
                        options=game.options,
                        actions=game.actions,
                        pages=len(game.pages),
                        checked=sum(v["seen"] > 0 for v in verdicts),
                        swapped=game.swapped,
                        reshuffles=game.reshuffles,
                        wrong=judged(game, verdicts),
                        forged={},
                    )
                    if number % args.forge_every == 0:
                        for kind in TAMPERS:
                            copy = tampered(game, kind)
                            if copy is not None:
                                found = page_verdicts(page, [copy])[0]
                                line["forged"][kind] = judged_forged(game, copy, kind, found)  # type: ignore[index]
                out.write(json.dumps(line) + "\n")
                out.flush()
                if number % 50 == 0:
                    print(f"game {number}: {time.monotonic() - started:.0f} s", flush=True)
    lines = [json.loads(line) for line in args.out.read_text().splitlines() if line]
    played = [x for x in lines if not x.get("capped")]
    wrong = [x for x in played if x["wrong"]]
    forged = [(k, v) for x in played for k, v in x["forged"].items()]
    missed = [(k, v) for k, v in forged if v]
    print(
        json.dumps(
            {
                "games": len(played),
                "capped": len(lines) - len(played),
                "pages": sum(x["pages"] for x in played),
                "pages_that_checked_cards": sum(x["checked"] for x in played),
                "swapped": sum(x["swapped"] for x in played),
                "reshuffled": sum(x["reshuffles"] > 0 for x in played),
                "honest_games_wrong": len(wrong),
                "forgeries": len(forged),
                "forgeries_by_kind": {k: sum(1 for f, _ in forged if f == k) for k in TAMPERS},
                "forgeries_not_refused": len(missed),
            },
            indent=2,
        )
    )
    for x in wrong[:5]:
        print(x["number"], x["wrong"][:2])
    for kind, v in missed[:5]:
        print(kind, v[:2])
    return 1 if wrong or missed else 0


if __name__ == "__main__":
    sys.exit(main())
