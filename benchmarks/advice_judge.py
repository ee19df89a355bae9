"""The hint and the review measured against a stronger judge: the same analysis
(:mod:`cardtable.analysis`) at ``--factor`` times a review look's budget (at ``expert``,
the hint's own).

    .venv/bin/python benchmarks/advice_judge.py run knockout-whist --positions 300 --out J.jsonl
    .venv/bin/python benchmarks/advice_judge.py report J.jsonl [K.jsonl …]
    .venv/bin/python benchmarks/advice_judge.py again J.jsonl --out K.jsonl [--only hint|review]
    .venv/bin/python benchmarks/advice_judge.py second J.jsonl --factor 10 --out K.jsonl [--seat 0]

``run`` plays games in which seat 0 is ``random`` (even games) or ``easy`` (odd games) and
the others ``hard``, and at every decision of seat 0 and of seat 1 (a ``hard`` seat) with
a choice, from the seat's own view, records: the hint's best (hint budget), the review's
verdict on the action played (the review's ``expert`` budget), and the judge's values.
Each position is one line of ``--out``, written as it is done: a run stopped is resumed by
running it again (the games are dealt from their seeds; positions already written are
skipped). The size (``--positions``) is fixed before the run; it ends there.

``again`` asks the hint and the review again on the positions of a run, its judge carried
over as it is (for a change to the hint or the review alone: the positions are dealt again
from their seeds, each drawing from the seeds its row had), or with ``--only hint`` (or
``review``) that alone, the other carried over too; resumed likewise.

``second`` asks a second judge (the same ``--factor``, from a seed of its own) at the
positions of a run, written into each row beside the first (``judge2``); with ``--seat``
only at that seat's positions (the weak seat's, for the review's recall), the other rows
carried over as they are.
Wherever a row has both, ``report`` reads the two judges pooled (:func:`judge_of`): the
same analysis at twice the judge's budget. One judge at ten times a look's budget is not
sure enough of itself to judge by: asked again from another seed, at the weak seat's
Kryt'-navalivat' decisions of games 1 and 2, it found 5 of the 19 mistakes the first had
found, and 17 others.

``report`` prints, per game: the positions; where the judge's best stands above some other
action by more than the tie margin, how often the hint's best is one the judge ties with
its best (agreement), and the mean value the judge says following the hint loses; the
review's recall of the judge's mistakes among the weak seat's decisions (the judge's loss
at least the mistake threshold and beyond its noise: flagged means an inaccuracy or a
mistake), and its false alarms among ``hard``'s decisions (a mistake where the judge finds
no fault); the median seconds of a hint.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import cardtable
from cardtable.analysis import MARGINS, NOISE, Analysis, analyse
from cardtable.bots import make_bot
from cardtable.review import LEVELS, THRESHOLDS
from cardtable.review import judge as judge_decision
from cardtable.rules.catalog import descriptor
from cardtable.server.thinking import HINT_BUDGET

PLAYERS = {"knockout-whist": 3, "neuf": 3, "kryt-navalivat": 2}


HARD = "ismcts:iterations=50000"
"""``hard``'s search at its own iteration budget without its clock: the games, and so a
resumed run's positions, depend on the seeds alone."""


def positions(
    game_name: str, first_game: int, per_game: int | None = None
) -> Iterator[tuple[int, int, int, str, Any, str]]:
    """(game number, action index, seat, seat's bot, state before, action played) at each
    decision of seats 0 and 1 with a choice, game after game from ``first_game``; with
    ``per_game``, at most that many of each game's, drawn at random from the game's number
    (the same on a resumed run), in the order played."""
    number = first_game
    while True:
        found = list(_decisions(game_name, number))
        if per_game is not None and len(found) > per_game:
            drawn = random.Random(f"positions of game {number}").sample(range(len(found)), per_game)
            found = [found[at] for at in sorted(drawn)]
        yield from found
        number += 1


def _decisions(game_name: str, number: int) -> Iterator[tuple[int, int, int, str, Any, str]]:
    """Every decision :func:`positions` may take from game ``number``, in the order played."""
    game = cardtable.make(game_name, players=PLAYERS[game_name])
    state = game.new_state(seed=number)
    weak = "random" if number % 2 == 0 else "easy"
    names = [weak] + ["hard"] * (game.num_players - 1)
    bots = [make_bot(weak, game_name)] + [
        make_bot(HARD, game_name) for _ in range(game.num_players - 1)
    ]
    rng = random.Random(number)
    index = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        action = str(bots[seat].choose(view, state.legal_actions(), rng))
        if seat in (0, 1) and len(view["legal_actions"]) > 1:
            yield number, index, seat, names[seat], state.copy(), action
        state.apply(action)
        index += 1


def judged(
    game: Any, state: Any, seat: int, played: str, seed: int, factor: float
) -> dict[str, Any]:
    view = state.view(seat)
    return {**advised(game, view, played, seed), "judge": _judge(game, view, factor, seed + 2)}


def _judge(game: Any, view: Any, factor: float, seed: int) -> dict[str, Any]:
    """The judge's summary of ``view``'s position: the analysis at ``factor`` times a
    review look's budget, from ``seed``."""
    budget = LEVELS["expert"].scaled(factor)
    return _summary(analyse(game, view, budget=budget, rng=random.Random(seed)))


def advised(
    game: Any, view: Any, played: str, seed: int, hint: bool = True, review: bool = True
) -> dict[str, Any]:
    """The hint's best (with ``hint``) and the review's verdict on ``played`` (with
    ``review``) at a position whose row has ``seed``."""
    row: dict[str, Any] = {"played": played}
    if hint:
        began = time.perf_counter()
        best = analyse(game, view, budget=HINT_BUDGET, rng=random.Random(seed)).best
        row |= {"hint_best": best, "hint_seconds": round(time.perf_counter() - began, 3)}
    if review:
        decided = judge_decision(game, view, played, 0, LEVELS["expert"], random.Random(seed + 1))
        row |= {"review_verdict": decided.verdict, "review_loss": decided.loss}
    return row


def _summary(analysis: Analysis) -> dict[str, Any]:
    return {
        "best": analysis.best,
        "ties": list(analysis.ties),
        "values": {a.action: a.value for a in analysis.actions},
        "errors": {a.action: a.error for a in analysis.actions},
        "samples": analysis.samples,
        "seconds": round(analysis.seconds, 3),
    }


def run(args: argparse.Namespace) -> None:
    out = Path(args.out)
    done: set[tuple[int, int]] = set()
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            done.add((row["game_number"], row["index"]))
    game = cardtable.make(args.game, players=PLAYERS[args.game])
    count = len(done)
    with out.open("a") as sink:
        chosen = positions(args.game, args.first_game, args.per_game)
        for number, index, seat, bot, state, played in chosen:
            if count >= args.positions:
                break
            if (number, index) in done:
                continue
            row = {
                "game": args.game,
                "game_number": number,
                "index": index,
                "seat": seat,
                "bot": bot,
                **judged(game, state, seat, played, number * 1000 + index, args.factor),
            }
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            count += 1
            print(f"{args.game} {count}/{args.positions}", file=sys.stderr, flush=True)


def again(args: argparse.Namespace) -> None:
    asked = {"hint": args.only != "review", "review": args.only != "hint"}

    def ask(game: Any, view: Any, played: str, seed: int) -> dict[str, Any]:
        return advised(game, view, played, seed, **asked)

    _rework(args.source, Path(args.out), ask)


def second(args: argparse.Namespace) -> None:
    def judge_again(game: Any, view: Any, played: str, seed: int) -> dict[str, Any]:
        return {"judge2": _judge(game, view, args.factor, seed + 3)}

    def kept(row: dict[str, Any]) -> bool:
        return args.seat is not None and row["seat"] != args.seat

    _rework(args.source, Path(args.out), judge_again, kept)


def _rework(
    source: str,
    out: Path,
    work: Callable[[Any, Any, str, int], dict[str, Any]],
    kept: Callable[[dict[str, Any]], bool] = lambda row: False,
) -> None:
    """Each row of the run ``source`` written to ``out`` with what ``work`` gives (from
    the game, the seat's view, the action played and the row's seed) merged in, its
    position dealt again from the game's seed; the rows ``kept`` says are carried over as
    they are, first (no game need be dealt again for them). Rows already in ``out`` are
    skipped: a run stopped resumes."""
    rows = [json.loads(line) for line in Path(source).read_text().splitlines()]
    wanted = {(row["game_number"], row["index"]): row for row in rows}
    done = set()
    if out.exists():
        done = {(r["game_number"], r["index"]) for r in map(json.loads, out.open())}
    game_name = rows[0]["game"]
    game = cardtable.make(game_name, players=PLAYERS[game_name])
    with out.open("a") as sink:
        for row in rows:
            key = (row["game_number"], row["index"])
            if key not in done and kept(row):
                sink.write(json.dumps(row) + "\n")
                done.add(key)
        sink.flush()
        last = max(number for number, _ in wanted)
        first = min(number for number, _ in wanted)
        for number, index, seat, _, state, played in positions(game_name, first):
            if number > last or len(done) == len(wanted):
                break
            row = wanted.get((number, index))
            if row is None or (number, index) in done:
                continue
            assert row["played"] == played and row["seat"] == seat, (number, index)
            row |= work(game, state.view(seat), played, number * 1000 + index)
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            done.add((number, index))
            print(f"{game_name} {len(done)}/{len(wanted)}", file=sys.stderr, flush=True)


def judge_of(row: dict[str, Any]) -> dict[str, Any]:
    """The row's judge: its first, or where it has a second (``judge2``) the two pooled as
    :func:`cardtable.analysis.pool` pools looks (both at one budget: each action's value
    their mean, its error theirs combined), the ties again within the unit's margin or
    the noise."""
    first, other = row["judge"], row.get("judge2")
    if other is None:
        return dict(first)
    values: dict[str, float | None] = {}
    errors: dict[str, float] = {}
    for action in first["values"]:
        parts = [
            (v, judge["errors"].get(action, 0.0))
            for judge in (first, other)
            if (v := judge["values"].get(action)) is not None
        ]
        values[action] = sum(v for v, _ in parts) / len(parts) if parts else None
        errors[action] = math.sqrt(sum(e * e for _, e in parts)) / len(parts) if parts else 0.0
    rated = {a: v for a, v in values.items() if v is not None}
    margin = MARGINS[descriptor(row["game"]).hint_unit]
    ties = []
    if rated:
        top = max(rated.values())
        ties = [a for a, v in rated.items() if top - v <= max(margin, NOISE * errors[a])]
    return {"values": values, "errors": errors, "ties": ties}


def report(files: Sequence[str]) -> None:
    rows = [json.loads(line) for f in files for line in Path(f).read_text().splitlines()]
    for game_name in sorted({r["game"] for r in rows}):
        mine = [r for r in rows if r["game"] == game_name]
        unit = descriptor(game_name).hint_unit
        margin = MARGINS[unit]
        inaccuracy, mistake = THRESHOLDS[unit]
        telling, agree, lost = 0, 0, []
        recall_of, recalled, alarms_of, alarms = 0, 0, 0, 0
        faults_of, faulted = 0, 0
        # The hint is measured by the second judge too only where every position has one:
        # a second judge asked where the first found a fault would tell on the hint only
        # where they disagree.
        everywhere = all("judge2" in r for r in mine)
        for r in mine:
            judge = judge_of(r)
            values = {a: v for a, v in judge["values"].items() if v is not None}
            if not values:
                continue
            hinting = judge if everywhere else r["judge"]
            hinted = {a: v for a, v in hinting["values"].items() if v is not None}
            top = max(hinted.values())
            hint_value = hinted.get(r["hint_best"])
            if hint_value is not None:
                lost.append(top - hint_value)
            if top - min(hinted.values()) > margin:
                telling += 1
                agree += r["hint_best"] in hinting["ties"]
            top = max(values.values())
            played = values.get(r["played"])
            if played is None:
                continue
            loss = 0.0 if r["played"] in judge["ties"] else top - played
            real = loss >= mistake and loss > NOISE * judge["errors"].get(r["played"], 0.0)
            flagged = r["review_verdict"] in ("inaccuracy", "mistake")
            if r["seat"] == 0 and real:
                recall_of += 1
                recalled += flagged
            fault = loss >= inaccuracy and loss > NOISE * judge["errors"].get(r["played"], 0.0)
            if r["seat"] == 0 and fault:
                faults_of += 1
                faulted += flagged
            if r["bot"] == "hard" and loss < inaccuracy:
                alarms_of += 1
                alarms += r["review_verdict"] == "mistake"
        seconds = [r["hint_seconds"] for r in mine]
        twice = sum("judge2" in r for r in mine)
        print(f"{game_name}: {len(mine)} positions ({unit}; margin {margin})")
        if twice:
            print(f"  judged twice, the judges pooled: {twice}")
        if telling:
            print(f"  hint agrees with the judge: {agree}/{telling} = {agree / telling:.1%}")
        if lost:
            print(f"  mean loss following the hint, by the judge: {statistics.fmean(lost):.3f}")
        if recall_of:
            print(
                f"  review recall of the weak seat's mistakes: {recalled}/{recall_of}"
                f" = {recalled / recall_of:.1%}"
            )
        if faults_of:
            print(
                f"  review recall of the weak seat's inaccuracies or worse: {faulted}/{faults_of}"
                f" = {faulted / faults_of:.1%}"
            )
        if alarms_of:
            print(
                f"  review false alarms on hard's sound moves: {alarms}/{alarms_of}"
                f" = {alarms / alarms_of:.1%}"
            )
        print(f"  hint seconds: median {statistics.median(seconds):.2f}, max {max(seconds):.2f}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run")
    go.add_argument("game", choices=sorted(PLAYERS))
    go.add_argument("--positions", type=int, default=300)
    go.add_argument("--out", required=True)
    go.add_argument("--factor", type=float, default=20.0)
    go.add_argument("--first-game", type=int, default=1)
    go.add_argument("--per-game", type=int, default=None)
    asked = sub.add_parser("again")
    asked.add_argument("source")
    asked.add_argument("--out", required=True)
    asked.add_argument("--only", choices=["hint", "review"], default=None)
    twice = sub.add_parser("second")
    twice.add_argument("source")
    twice.add_argument("--out", required=True)
    twice.add_argument("--factor", type=float, required=True)
    twice.add_argument("--seat", type=int, default=None)
    told = sub.add_parser("report")
    told.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "run":
        run(args)
    elif args.command == "again":
        again(args)
    elif args.command == "second":
        second(args)
    else:
        report(args.files)


if __name__ == "__main__":
    main()
