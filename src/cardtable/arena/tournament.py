"""Running a tournament: schedule the games, play the missing ones on a backend, write
each result as it arrives (stopping early when a stopping rule is met), then compute the
statistics and ratings and write the reports.

>>> from cardtable.arena import ArenaConfig, run_tournament
>>> config = ArenaConfig("knockout-whist", ("heuristic", "random"), games=4, seed=1,
...                      options={"players": 2})
>>> result = run_tournament(config, out=getfixture("tmp_path"), reports=False)
>>> result.finished, [s.entry for s in result.standings]
(4, ['heuristic', 'random'])
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from cardtable.arena.backends import check_backend, outcomes
from cardtable.arena.config import ArenaConfig, InvalidTournamentError
from cardtable.arena.match import GameOutcome
from cardtable.arena.metrics import metric_for
from cardtable.arena.ratings import rate
from cardtable.arena.report import write_reports
from cardtable.arena.result import Difference, RuleReport, Standing, TournamentResult
from cardtable.arena.schedule import entry_names, schedule
from cardtable.arena.stats import estimate, paired_difference
from cardtable.arena.stopping import RuleWatch, StopPoint, rule_met, sprt_llr, values_by_deal
from cardtable.arena.store import ResultStore

__all__ = ["ON_ERROR", "Progress", "run_tournament"]

ON_ERROR = ("continue", "stop")


class Progress(Protocol):
    """Told how many games there are, then of each one as it is written."""

    def start(self, total: int, done: int) -> None: ...

    def advance(self, outcome: GameOutcome) -> None: ...


def run_tournament(
    config: ArenaConfig,
    out: Path | None = None,
    *,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    on_error: str = "continue",
    resume: bool = False,
    progress: Progress | None = None,
    reports: bool = True,
    play: bool = True,
    play_on: bool = False,
) -> TournamentResult:
    """Play ``config``'s tournament (or, with ``resume``, the games ``out`` lacks) and
    return its results; with ``reports``, also write ``summary.json``, ``standings.csv``,
    ``games.csv`` and ``ratings.png`` to ``out``.

    Everything is checked before the first game: the game and its options, every bot
    spec (:class:`~cardtable.bots.UnknownBotError`), the counts, the backend, the folder
    (:class:`~cardtable.arena.ArenaError`). A Ctrl-C propagates as ``KeyboardInterrupt``
    with every finished game already written. Without ``play``, no game is played: the
    results are those of the whole deals ``out`` holds (with ``resume``: an unfinished
    tournament's standings so far).

    With a stopping rule (``config.stop``) the tournament stops after the deal at which the
    rule is met, the games still running cancelled; its results are those of the whole
    deals up to that one (:mod:`cardtable.arena.stopping`). Resuming a tournament so
    stopped plays nothing more, unless ``play_on`` (with ``resume``) says to play every
    game left: the folder then remembers it, and the rule stops it no more."""
    game = config.validate()
    if on_error not in ON_ERROR:
        raise InvalidTournamentError(f"on_error must be one of {', '.join(ON_ERROR)}")
    if play_on and config.stop is None:
        raise InvalidTournamentError(
            "--play-on plays past a stopping rule, and this tournament has none"
        )
    if play_on and not resume:
        raise InvalidTournamentError(
            "--play-on resumes a tournament that its stopping rule stopped: give its folder "
            "with --resume"
        )
    check_backend(backend, workers)
    config = config.resolved()
    folder = default_folder(config.game) if out is None else Path(out)
    store = ResultStore.reopen(folder, config) if resume else ResultStore.create(folder, config)
    tasks = schedule(config, game.num_players)
    on_disk = store.load()
    missing = [t for t in tasks if t.index not in on_disk or not on_disk[t.index].ok]
    todo = missing if play else []
    watch: RuleWatch | None = None
    played_on = False
    met: StopPoint | None = None
    if config.stop is not None:
        played_on = store.played_on
        met = rule_met(config, on_disk.values())
        if play_on and play and not played_on:
            store.mark_played_on(None if met is None else met.deals)
            played_on = True
        if not played_on and met is not None:
            todo = []  # stopped by the rule already: nothing more is owed
        elif not played_on:
            watch = RuleWatch(config)
            again = {t.index for t in todo}
            watch.feed(sorted((o for o in on_disk.values() if o.index not in again), key=_index))
    if progress is not None:
        progress.start(len(tasks), len(tasks) - len(missing))
    stopped = False
    try:
        with closing(outcomes(todo, backend, workers, address)) as stream:
            for outcome in stream:
                written = store.append(outcome)
                on_disk[written.index] = written
                if progress is not None:
                    progress.advance(written)
                if not written.ok and on_error == "stop":
                    stopped = True
                    break
                if watch is not None and watch.add(written) is not None:
                    break  # closing the stream cancels the games not finished
    finally:
        store.close()
    finished: Iterable[GameOutcome] = on_disk.values()
    rule: RuleReport | None = None
    if config.stop is not None:
        if watch is not None and not stopped:
            met = watch.met  # it saw every game now on disk
        elif todo:
            met = rule_met(config, on_disk.values())
        rule = rule_report(config, on_disk.values(), played_on, met)
        if rule.stopped:
            assert rule.met is not None
            finished = stopped_games(finished, rule.met.deals, config.games_per_deal)
    if not play and config.duplicate and not (rule and rule.stopped):
        finished = whole_deals(finished, config.rotations)
    result = summarize(config, folder, game.num_players, len(tasks), finished, stopped, rule)
    if reports:
        files = write_reports(result)
        result = replace(result, files=files)
    return result


def _index(outcome: GameOutcome) -> int:
    return outcome.index


def rule_report(
    config: ArenaConfig, outcomes: Iterable[GameOutcome], played_on: bool, met: StopPoint | None
) -> RuleReport:
    """What the stopping rule did over the games on disk (``config.stop`` must be set),
    ``met`` where the rule is met over them (:func:`~cardtable.arena.stopping.rule_met`)."""
    assert config.stop is not None
    kept = list(outcomes)
    stopped = met is not None and not played_on
    llr = None
    if config.stop.sprt is not None:
        if met is not None:
            llr = met.llr
        else:  # undecided: the ratio over every whole deal there is
            watch = RuleWatch(config)
            watch.feed(sorted(kept, key=_index))
            llr = sprt_llr(watch.differences(), config.stop.sprt)
    return RuleReport(
        rule=config.stop,
        first=entry_names(config.bots)[0],
        met=met,
        stopped=stopped,
        played_on=played_on,
        left_out=sum(o.deal >= met.deals for o in kept) if stopped and met else 0,
        llr=llr,
    )


def stopped_games(
    outcomes: Iterable[GameOutcome], deals: int, games_per_deal: int
) -> list[GameOutcome]:
    """The games a tournament stopped by its rule after ``deals`` deals reports: those of
    the whole deals before it, the ones the rule saw, and the failed ones among them."""
    before = [o for o in outcomes if o.deal < deals]
    return whole_deals(before, games_per_deal) + [o for o in before if not o.ok]


def whole_deals(outcomes: Iterable[GameOutcome], rotations: int) -> list[GameOutcome]:
    """The outcomes of the deals whose every rotation finished: a duplicate comparison is
    fair only over whole deals, where each bot has sat in each seat. (``rotations``: the
    games of a deal, one without duplicate deals.)"""
    kept = list(outcomes)
    done: dict[int, int] = {}
    for outcome in kept:
        if outcome.ok:
            done[outcome.deal] = done.get(outcome.deal, 0) + 1
    return [o for o in kept if done.get(o.deal, 0) == rotations]


def summarize(
    config: ArenaConfig,
    folder: Path,
    players: int,
    scheduled: int,
    games: Iterable[GameOutcome],
    stopped: bool = False,
    rule: RuleReport | None = None,
) -> TournamentResult:
    """Statistics and ratings from the games played so far."""
    played = tuple(sorted(games, key=_index))
    metric = metric_for(config.game, config.per_deal)
    entries = entry_names(config.bots)
    ratings = rate(played, entries)
    by_deal = values_by_deal(played, entries)
    counts = {entry: sum(map(len, deals.values())) for entry, deals in by_deal.items()}
    standings = [
        Standing(
            entry=entry,
            spec=spec,
            games=counts[entry],
            metric=estimate(by_deal[entry].values(), metric.binary) if counts[entry] else None,
            rating=ratings[entry],
        )
        for entry, spec in zip(entries, config.bots, strict=True)
    ]
    standings.sort(key=lambda s: -s.rating.ordinal)
    first = entries[0]
    differences = tuple(
        Difference(first, other, found)
        for other in entries[1:]
        if (found := paired_difference(by_deal[first], by_deal[other])) is not None
    )
    return TournamentResult(
        config=config,
        folder=folder,
        players=players,
        metric=metric,
        scheduled=scheduled,
        outcomes=played,
        standings=tuple(standings),
        stopped=stopped,
        rule=rule,
        differences=differences,
    )


def default_folder(game: str) -> Path:
    """``arena-<game>-<date>-<time>`` in the working folder, numbered if it exists."""
    stem = f"arena-{game}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder, n = Path(stem), 1
    while folder.exists():
        n += 1
        folder = Path(f"{stem}-{n}")
    return folder
