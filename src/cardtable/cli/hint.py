"""``cardtable hint``: the table's hint for a position of a saved game, with the analysis
behind it (:func:`cardtable.advice.advise`)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

import cardtable
from cardtable.advice import advise
from cardtable.cli.common import DATA_ERROR, USAGE_ERROR, _console, _fail, _one_record

UNITS = {
    "tricks": "expected tricks this hand",
    "points": "expected tricks over the quota this deal",
    "not_fool": "chance of not being the fool",
}


def hint_command(
    file: Annotated[
        Path, typer.Argument(help="A game's record ('cardtable play --record'), finished or not.")
    ],
    at: Annotated[
        int | None,
        typer.Option(
            "--at",
            help="The position after this many of the record's actions (default: all of them).",
            min=0,
        ),
    ] = None,
    seconds: Annotated[
        float, typer.Option("--seconds", help="What the analysis may spend.", min=0.01)
    ] = 0.9,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the analysis's sampling.")] = 0,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the hint and its analysis as JSON.")
    ] = False,
) -> None:
    """The table's hint for the seat to move at a position of a saved game."""
    record = _one_record(file, "give one hand's record")
    actions = len(record.actions)
    if at is not None and at > actions:
        _fail(f"--at {at}: the record has {actions} actions", USAGE_ERROR)
    cut = actions if at is None else at
    try:
        state = cardtable.replay(replace(record, actions=record.actions[:cut]))
    except ValueError as exc:
        _fail(f"{file} does not replay: {exc}", DATA_ERROR)
    if state.is_over or state.to_move is None:
        _fail(f"the game is over after {cut} actions: nobody is to move", USAGE_ERROR)
    advice = advise(state, seconds=seconds, seed=seed)
    console = _console()
    if json_out:
        console.print_json(json.dumps(advice.to_dict(), ensure_ascii=False))
        return
    analysis = advice.analysis
    console.print(
        f"{record.game}, after {cut} actions: seat {state.to_move} to move. "
        f"Best: {advice.best}. {advice.said()}",
        markup=False,
        soft_wrap=True,
    )
    console.print(_actions_table(advice.hint["actions"], analysis.unit, advice.best))
    console.print(
        f"Values: {UNITS[analysis.unit]}, by {analysis.method} ({analysis.samples} "
        f"{'deals' if analysis.method == 'pimc' else 'iterations'}, "
        f"{analysis.seconds:.2f} s); ±: two standard errors of the gap to the highest. "
        f"'as good' is within that noise or {analysis.margin} of it.",
        markup=False,
        soft_wrap=True,
    )


def _actions_table(actions: list[dict[str, Any]], unit: str, best: str) -> Any:
    from rich.table import Table

    table = Table()
    for name, justify in (
        ("action", "left"),
        ("value", "right"),
        ("±", "right"),
        ("gap", "right"),
        ("", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    percent = unit == "not_fool"

    def shown(x: float) -> str:
        return f"{x:.1%}" if percent else f"{x:.2f}"

    for a in actions:
        value, gap = a["value"], a["gap"]
        if value is None:
            table.add_row(a["action"], "not rated", "", "", "")
            continue
        mark = "best" if a["action"] == best else "as good" if a["tie"] else ""
        table.add_row(
            a["action"],
            shown(value),
            shown(2 * a["error"]),
            "" if a["tie"] else ("+" if gap > 0 else "") + shown(gap),
            mark,
        )
    return table
