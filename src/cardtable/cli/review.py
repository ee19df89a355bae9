"""``cardtable review``: every decision of one seat in a finished game judged by the hints'
analysis, in the game's unit."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as ProgressBar

from cardtable.cli.common import (
    DATA_ERROR,
    INTERRUPTED,
    USAGE_ERROR,
    _console,
    _fail,
    _one_record,
)
from cardtable.errors import InvalidBudgetError


def review_command(
    file: Annotated[
        Path, typer.Argument(help="The record of a finished game ('cardtable play --record').")
    ],
    seat: Annotated[int, typer.Option("--seat", "-s", help="The seat whose decisions to judge.")],
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the whole review to this JSON file.")
    ] = None,
    chart: Annotated[
        Path | None,
        typer.Option("--chart", help="Draw each decision's value in the game's unit to this PNG."),
    ] = None,
    level: Annotated[
        str,
        typer.Option(
            "--level",
            help="The budget of a look: expert, quick, or analysis:deals=…,iterations=…,seconds=….",
        ),
    ] = "expert",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the analysis's sampling.")] = 0,
    top: Annotated[
        int | None, typer.Option("--top", "-n", help="List only this many decisions.", min=1)
    ] = None,
) -> None:
    """Judge every decision of one seat in a finished game, the costliest first."""
    from cardtable.review import CHART_UNITS, THRESHOLDS, ReviewError, review, write_chart

    record = _one_record(file, "review one hand's record")
    console = _console()
    bar = ProgressBar(
        TextColumn("decisions"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
        transient=True,
    )
    task = bar.add_task("decisions", total=None)
    try:
        with bar:
            done = review(
                record,
                seat,
                level=level,
                rng_seed=seed,
                progress=lambda n, total: bar.update(task, completed=n, total=total),
            )
    except (ReviewError, InvalidBudgetError) as exc:
        _fail(str(exc), USAGE_ERROR)
    except ValueError as exc:
        _fail(f"{file} does not replay: {exc}", DATA_ERROR)
    except KeyboardInterrupt:
        raise typer.Exit(INTERRUPTED) from None
    counts = done.counts()
    said = ", ".join(f"{counts[v]} {v}" for v in ("fine", "inaccuracy", "mistake") if counts[v])
    console.print(
        f"{record.game}, seat {seat} of {len(done.returns)}, judged by {level}: "
        f"{len(done.decisions)} decisions ({said or 'none with a choice'}); "
        f"return {done.returns[seat]:+.3f}.",
        markup=False,
        soft_wrap=True,
    )
    listed = done.worst(top)
    console.print(_review_table(listed))
    note = hint_note(listed)
    if note is not None:
        console.print(note, markup=False, soft_wrap=True)
    console.print(
        f"Loss: the best action's value less the chosen one's, in {CHART_UNITS[done.unit]}; "
        f"inaccuracy from {THRESHOLDS[done.unit][0]}, mistake from {THRESHOLDS[done.unit][1]}, "
        "unless within two standard errors of the best.",
        markup=False,
        soft_wrap=True,
    )
    if json_out is not None:
        try:
            json_out.write_text(done.to_json(indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            _fail(f"cannot write {json_out}: {exc.strerror or exc}", DATA_ERROR)
        console.print(f"Review saved to {json_out}.", markup=False, soft_wrap=True)
    if chart is not None:
        try:
            drawn = write_chart(done, chart)
        except OSError as exc:
            _fail(f"cannot write {chart}: {exc.strerror or exc}", DATA_ERROR)
        if drawn:
            console.print(f"Chart saved to {chart}.", markup=False, soft_wrap=True)
        else:
            console.print(REVIEW_CHART_MISSING, markup=False, soft_wrap=True)


REVIEW_CHART_MISSING = "the chart needs matplotlib: pip install 'cardtable[arena]'"


def _hint_cell(decision: Any) -> str:
    """What the table's hint said of a decision found at fault (nothing of the others):
    its move, marked where it is the move played."""
    if decision.hint is None:
        return ""
    return f"{decision.hint} (as played)" if decision.hint_agrees else decision.hint


def hint_note(decisions: list[Any]) -> str | None:
    """The line under the table when the hint had suggested a move the review finds at
    fault: the review's looks pooled (two or more) saw further than the hint's one."""
    agreed = sum(1 for d in decisions if d.hint_agrees)
    if not agreed:
        return None
    them = "it" if agreed == 1 else "them"
    return (
        f'The hint had suggested {agreed} of these moves (marked "as played"); the '
        f"review's longer look, two or more looks of the hint's size pooled, finds {them} worse "
        "than the best."
    )


def _review_table(decisions: list[Any]) -> Any:
    """The decisions as a Rich table, in the order given."""
    from rich.table import Table

    table = Table(title="Decisions, the costliest first")
    for name, justify in (
        ("move", "right"),
        ("hand", "right"),
        ("trick", "right"),
        ("played", "left"),
        ("better", "left"),
        ("hint", "left"),
        ("loss", "right"),
        ("verdict", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for d in decisions:
        table.add_row(
            str(d.index),
            "" if d.hand is None else str(d.hand),
            "" if d.trick is None else str(d.trick),
            d.chosen,
            "" if d.best == d.chosen else d.best,
            _hint_cell(d),
            "" if d.loss is None else f"{d.loss:.3f}",
            d.verdict,
        )
    return table
