"""A tournament's reports: ``summary.json``, ``standings.csv``, ``games.csv``, the
``ratings.png`` chart, and the table the command prints.

The chart needs matplotlib (``pip install 'cardtable[arena]'``); without it every other
file is still written.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from rich.table import Table

from cardtable.arena.result import RuleReport, Standing, TournamentResult
from cardtable.arena.schedule import entry_names
from cardtable.arena.stats import CONFIDENCE, Interval
from cardtable.arena.stopping import sprt_bounds

__all__ = [
    "CHART_MISSING",
    "difference_note",
    "method_note",
    "rule_note",
    "standings_table",
    "summary",
    "write_reports",
]

SUMMARY_FORMAT = "cardtable-arena-summary"
CHART_MISSING = "ratings.png needs matplotlib: pip install 'cardtable[arena]'"
OPTIONAL_STOPPING = (
    "checking after every deal is optional stopping: the 95% is nominal, the chance of a "
    "separation by chance somewhat higher; the margin and the minimum deals keep it small"
)


def write_reports(result: TournamentResult) -> dict[str, Path]:
    """Write every report into the tournament's folder; returns them by kind."""
    folder = result.folder
    files = {
        "results": folder / "games.jsonl",
        "summary": folder / "summary.json",
        "standings": folder / "standings.csv",
        "games": folder / "games.csv",
    }
    files["summary"].write_text(json.dumps(summary(result), indent=2) + "\n", encoding="utf-8")
    _write_standings(result, files["standings"])
    _write_games(result, files["games"])
    chart = folder / "ratings.png"
    if write_chart(result, chart):
        files["chart"] = chart
    return files


def summary(result: TournamentResult) -> dict[str, Any]:
    metric = result.metric
    return {
        "format": SUMMARY_FORMAT,
        "version": 1,
        "config": result.config.to_dict(),
        "players": result.players,
        "metric": {
            "name": metric.name,
            "key": metric.key,
            "higher_is_better": metric.higher_is_better,
        },
        "scheduled": result.scheduled,
        "finished": result.finished,
        "failed": len(result.failures),
        "capped": [o.index for o in result.capped],
        "stopped": result.stopped,
        "stopping": _stopping(result),
        "confidence": CONFIDENCE,
        "method": method_note(result),
        "standings": [_standing_row(s) for s in result.standings],
        "differences": [
            {
                "entry": d.entry,
                "other": d.other,
                "mean": d.interval.mean,
                "low": d.interval.low,
                "high": d.interval.high,
                "deals": d.interval.n,
            }
            for d in result.differences
        ],
        "failures": [
            {"game": o.index, "deal": o.deal, "rotation": o.rotation, **o.failure.to_dict()}
            for o in result.failures
            if o.failure is not None
        ],
    }


def method_note(result: TournamentResult) -> str:
    """How the intervals were computed, in one sentence."""
    methods = {s.metric.method for s in result.standings if s.metric is not None}
    if methods == {"wilson"}:
        return "95% Wilson score intervals over independent games"
    deals = len({o.deal for o in result.outcomes if o.ok})
    note = (
        f"95% Student-t intervals over {deals} deals "
        "(each bot's metric averaged over the games of a deal first)"
    )
    wilson = [s.entry for s in result.standings if s.metric and s.metric.method == "wilson"]
    if wilson:
        note += (
            f"; Wilson score intervals over games for {', '.join(wilson)} "
            "(the same rate in every deal)"
        )
    return note


def _stopping(result: TournamentResult) -> dict[str, Any] | None:
    """The stopping rule and what it did; None without one."""
    rule = result.rule
    if rule is None:
        return None
    met = rule.met
    shared = {
        "min_deals": rule.rule.min_deals,
        "first": rule.first,
        "stopped": rule.stopped,
        "met_after_deals": None if met is None else met.deals,
        "whole_deals": None if met is None else met.whole,
        "played_on": rule.played_on,
        "games_left_out": rule.left_out,
        "text": rule_note(result),
    }
    test = rule.rule.sprt
    if test is None:
        return {
            "rule": "stop when the first bot's 95% interval is at least margin from every other's",
            "margin": rule.rule.margin,
            **shared,
            "note": OPTIONAL_STOPPING,
        }
    return {
        "rule": "sequential probability ratio test of the first bot's paired difference",
        "h0": test.h0,
        "h1": test.h1,
        "alpha": test.alpha,
        "beta": test.beta,
        "bounds": list(sprt_bounds(test)),
        "decision": None if met is None else met.decision,
        "llr": rule.llr,
        **shared,
    }


def difference_note(result: TournamentResult) -> str | None:
    """The first bot against each other, paired by deal, in a sentence (None with one
    bot)."""
    if not result.differences:
        return None
    parts = [f"{d.entry} − {d.other} {_signed(d.interval)}" for d in result.differences]
    deals = max(d.interval.n for d in result.differences)
    return (
        f"Paired by deal ({result.metric.name}, the first bot's minus each other's, 95% "
        f"interval over {deals} deals): {'; '.join(parts)}"
    )


def _signed(interval: Interval) -> str:
    if interval.low is None or interval.high is None:
        return f"{interval.mean:+.3f}"
    return f"{interval.mean:+.3f} [{interval.low:+.3f}, {interval.high:+.3f}]"


def rule_note(result: TournamentResult) -> str | None:
    """What the stopping rule did, in a sentence or two (None without a rule)."""
    report = result.rule
    if report is None:
        return None
    rule, met = report.rule, report.met
    if rule.sprt is not None:
        return _sprt_note(result, report)
    words = (
        f"the stopping rule (first bot {report.first}'s 95% interval at least {rule.margin:g} "
        f"from every other's, checked after each whole deal once {rule.min_deals} are done)"
    )
    if report.stopped and met is not None:
        text = (
            f"Stopped early by {words} after {met.deals} deals: the results are over their "
            f"{met.whole} whole deals ({result.finished} games), of the {result.scheduled} "
            "games asked for"
        )
        if report.left_out:
            text += f"; {report.left_out} games finished past it are on disk, not counted"
        return text + "."
    if report.played_on:
        when = "was not met" if met is None else f"was met after {met.deals} deals"
        return f"{words[0].upper()}{words[1:]} {when}; played on past it (--play-on)."
    return f"{words[0].upper()}{words[1:]} was not met."


def _sprt_note(result: TournamentResult, report: RuleReport) -> str:
    test, met = report.rule.sprt, report.met
    assert test is not None
    low, high = sprt_bounds(test)
    second = entry_names(result.config.bots)[1]
    words = (
        f"the SPRT of the paired difference {report.first} minus {second} (H0 "
        f"{test.h0:+g}, H1 {test.h1:+g}; alpha {test.alpha:g}, beta {test.beta:g}: it takes "
        f"H1 at a log-likelihood ratio of {high:.2f}, H0 at {low:.2f})"
    )
    ratio = "" if report.llr is None else f" (ratio {report.llr:.2f})"
    if met is not None and met.decision is not None:
        taken = "H1" if met.decision == "h1" else "H0"
        text = f"{words[0].upper()}{words[1:]} took {taken} after {met.deals} deals{ratio}"
        if report.stopped:
            text += f": the results are over their {met.whole} whole deals"
            text += f" ({result.finished} games), of the {result.scheduled} games asked for"
        if report.left_out:
            text += f"; {report.left_out} games finished past it are on disk, not counted"
        if report.played_on:
            text += "; played on past it (--play-on)"
        return text + "."
    return f"{words[0].upper()}{words[1:]} took neither hypothesis{ratio}."


def _standing_row(standing: Standing) -> dict[str, Any]:
    interval = standing.metric
    return {
        "entry": standing.entry,
        "spec": standing.spec,
        "games": standing.games,
        "mean": None if interval is None else interval.mean,
        "low": None if interval is None else interval.low,
        "high": None if interval is None else interval.high,
        "n": 0 if interval is None else interval.n,
        "method": None if interval is None else interval.method,
        "mu": standing.rating.mu,
        "sigma": standing.rating.sigma,
        "ordinal": standing.rating.ordinal,
    }


def _write_standings(result: TournamentResult, path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as file:
        rows = [_standing_row(s) for s in result.standings]
        writer = csv.DictWriter(file, fieldnames=list(_standing_row(result.standings[0])))
        writer.writeheader()
        writer.writerows(rows)


def _write_games(result: TournamentResult, path: Path) -> None:
    entries = entry_names(result.config.bots)
    key = result.metric.key
    seats = [f"seat_{s}" for s in range(result.players)]
    header = [
        "game",
        "deal",
        "rotation",
        "deal_seed",
        "status",
        *seats,
        "winners",
        *(f"{key}:{e}" for e in entries),
        "actions",
        "duration",
        "summary",
    ]
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(header)
        for o in result.outcomes:
            metrics = o.metrics() if o.ok else {}
            writer.writerow(
                [
                    o.index,
                    o.deal,
                    o.rotation,
                    o.deal_seed,
                    o.status,
                    *o.seats,
                    " ".join(map(str, o.winners)),
                    *(metrics.get(e, "") for e in entries),
                    o.actions,
                    o.duration,
                    o.summary,
                ]
            )


def write_chart(result: TournamentResult, path: Path) -> bool:
    """Each bot's rating (mu ± 2 sigma) and metric (with its interval), as a PNG; False
    when matplotlib is not installed."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return False
    standings = list(reversed(result.standings))  # best at the top
    names = [s.entry for s in standings]
    rows = range(len(standings))
    figure = Figure(figsize=(10, 1.2 + 0.5 * len(standings)), layout="constrained")
    FigureCanvasAgg(figure)  # draw off-screen, whatever backend pyplot would pick
    left, right = figure.subplots(1, 2, sharey=True)
    left.errorbar(
        [s.rating.mu for s in standings],
        rows,
        xerr=[2 * s.rating.sigma for s in standings],
        fmt="o",
        capsize=4,
    )
    left.set_yticks(list(rows), names)
    left.set_xlabel("OpenSkill rating: mu ± 2 sigma")
    measured = [(i, s.metric) for i, s in enumerate(standings) if s.metric is not None]
    means = [m.mean for _, m in measured]
    errors = [
        [max(0.0, m.mean - (m.low if m.low is not None else m.mean)) for _, m in measured],
        [max(0.0, (m.high if m.high is not None else m.mean) - m.mean) for _, m in measured],
    ]
    right.errorbar(means, [i for i, _ in measured], xerr=errors, fmt="s", capsize=4)
    better = "higher" if result.metric.higher_is_better else "lower"
    right.set_xlabel(f"{result.metric.name} with 95% interval ({better} is better)")
    config = result.config
    figure.suptitle(
        f"{config.game}, {result.players} players, {result.finished} games, seed {config.seed}"
    )
    figure.savefig(path, format="png", dpi=100)
    return True


def standings_table(result: TournamentResult) -> Table:
    """The standings as a Rich table, best rating first."""
    metric = result.metric
    table = Table(title=f"{result.config.game}: {metric.name} and OpenSkill ratings")
    table.add_column("bot")
    table.add_column("games", justify="right")
    table.add_column(f"{metric.name} [95% CI]", justify="right")
    table.add_column("mu", justify="right")
    table.add_column("sigma", justify="right")
    table.add_column("ordinal", justify="right")
    for s in result.standings:
        shown = "-" if s.metric is None else str(s.metric)
        table.add_row(
            s.entry,
            str(s.games),
            shown,
            f"{s.rating.mu:.2f}",
            f"{s.rating.sigma:.2f}",
            f"{s.rating.ordinal:.2f}",
        )
    return table
