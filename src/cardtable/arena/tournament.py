"""Running a tournament: schedule the games, play the missing ones on a backend, write
each result as it arrives, then compute the statistics and ratings and write the reports.

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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from cardtable.arena.backends import check_backend, outcomes
from cardtable.arena.config import ArenaConfig, InvalidTournamentError
from cardtable.arena.match import GameOutcome
from cardtable.arena.metrics import Metric, metric_for
from cardtable.arena.ratings import Rating, rate
from cardtable.arena.schedule import entry_names, schedule
from cardtable.arena.stats import Interval, estimate
from cardtable.arena.store import ResultStore

__all__ = ["ON_ERROR", "Progress", "Standing", "TournamentResult", "run_tournament"]

ON_ERROR = ("continue", "stop")


class Progress(Protocol):
    """Told how many games there are, then of each one as it is written."""

    def start(self, total: int, done: int) -> None: ...

    def advance(self, outcome: GameOutcome) -> None: ...


@dataclass(frozen=True, slots=True)
class Standing:
    """One entry's results: its metric with a 95% interval (None before its first finished
    game), and its rating."""

    entry: str
    spec: str
    games: int
    metric: Interval | None
    rating: Rating


@dataclass(frozen=True)
class TournamentResult:
    config: ArenaConfig
    folder: Path
    players: int
    metric: Metric
    scheduled: int
    outcomes: tuple[GameOutcome, ...]
    """Every game on disk, by index (a failed game played again counts by its last try)."""
    standings: tuple[Standing, ...]
    """Best first, by rating ordinal."""
    stopped: bool
    """Whether a failure stopped the tournament (``on_error="stop"``)."""
    files: dict[str, Path] = field(default_factory=dict)

    @property
    def finished(self) -> int:
        return sum(o.ok for o in self.outcomes)

    @property
    def failures(self) -> list[GameOutcome]:
        return [o for o in self.outcomes if not o.ok]

    @property
    def complete(self) -> bool:
        """Whether every scheduled game finished."""
        return self.finished == self.scheduled


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
) -> TournamentResult:
    """Play ``config``'s tournament (or, with ``resume``, the games ``out`` lacks) and
    return its results; with ``reports``, also write ``summary.json``, ``standings.csv``,
    ``games.csv`` and ``ratings.png`` to ``out``.

    Everything is checked before the first game: the game and its options, every bot
    spec (:class:`~cardtable.bots.UnknownBotError`), the counts, the backend, the folder
    (:class:`~cardtable.arena.ArenaError`). A Ctrl-C propagates as ``KeyboardInterrupt``
    with every finished game already written. Without ``play``, no game is played: the
    results are those of the whole deals ``out`` holds (with ``resume``: an unfinished
    tournament's standings so far)."""
    game = config.validate()
    if on_error not in ON_ERROR:
        raise InvalidTournamentError(f"on_error must be one of {', '.join(ON_ERROR)}")
    check_backend(backend, workers)
    config = config.resolved()
    folder = default_folder(config.game) if out is None else Path(out)
    store = ResultStore.reopen(folder, config) if resume else ResultStore.create(folder, config)
    tasks = schedule(config, game.num_players)
    on_disk = store.load()
    missing = [t for t in tasks if t.index not in on_disk or not on_disk[t.index].ok]
    todo = missing if play else []
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
    finally:
        store.close()
    finished: Iterable[GameOutcome] = on_disk.values()
    if not play and config.duplicate:
        finished = whole_deals(finished, config.rotations)
    result = summarize(config, folder, game.num_players, len(tasks), finished, stopped)
    if reports:
        from cardtable.arena.report import write_reports

        files = write_reports(result)
        result = replace(result, files=files)
    return result


def whole_deals(outcomes: Iterable[GameOutcome], rotations: int) -> list[GameOutcome]:
    """The outcomes of the deals whose every rotation finished: a duplicate comparison is
    fair only over whole deals, where each bot has sat in each seat."""
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
) -> TournamentResult:
    """Statistics and ratings from the games played so far."""
    played = tuple(sorted(games, key=lambda o: o.index))
    metric = metric_for(config.game)
    entries = entry_names(config.bots)
    ratings = rate(played, entries)
    by_deal: dict[str, dict[int, list[float]]] = {e: {} for e in entries}
    counts = dict.fromkeys(entries, 0)
    for outcome in played:
        if not outcome.ok:
            continue
        for entry, value in outcome.metrics().items():
            by_deal[entry].setdefault(outcome.deal, []).append(value)
            counts[entry] += 1
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
    return TournamentResult(
        config=config,
        folder=folder,
        players=players,
        metric=metric,
        scheduled=scheduled,
        outcomes=played,
        standings=tuple(standings),
        stopped=stopped,
    )


def default_folder(game: str) -> Path:
    """``arena-<game>-<date>-<time>`` in the working folder, numbered if it exists."""
    stem = f"arena-{game}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder, n = Path(stem), 1
    while folder.exists():
        n += 1
        folder = Path(f"{stem}-{n}")
    return folder
