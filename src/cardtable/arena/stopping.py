"""The stopping rules: a sequential probability ratio test (``--sprt H0,H1``), for tables of
record, and the separation rule (``--stop-when-separated MARGIN --min-deals N``), which stops
a tournament once its first bot is told apart from every other, for exploration.

**The SPRT** (Wald's, in the generalized form engine testers use for paired games) weighs
the whole deals' paired differences, the first bot's metric minus the second's, each deal's
games averaged: under a normal model of a deal's difference with the spread estimated from
the deals so far, the log-likelihood ratio of H1 (the mean difference is ``h1``) to H0 (it
is ``h0``) is ``n (h1 - h0) (2 mean - h0 - h1) / (2 variance)``. It is checked after each
whole deal from the ``min_deals``-th on, and takes H1 once the ratio reaches
``log((1 - beta) / alpha)``, H0 once it falls to ``log(beta / (1 - alpha))``: its chances
of taking the wrong one are ``alpha`` and ``beta`` however many times it looked. Should the
games asked for run out first, it took neither.

The rule is checked after each whole deal, every one of its games finished, from the
``min_deals``-th whole deal on. It is met when the first entry's 95% interval and every
other entry's interval lie at least ``margin`` apart, in the metric's units: ``first.low
- other.high >= margin`` (the first is above) or ``other.low - first.high >= margin``
(below). The direction does not matter, so a lower-is-better metric is treated alike.
The intervals are the report's own (:func:`cardtable.arena.stats.estimate` over the
values grouped by deal), over the whole deals so far.

Deals are taken in order: deal ``d`` counts once deals ``0 … d`` are all settled (every
game finished or failed), whatever order the games finished in. With several workers
the rule is therefore checked on the same deals, and stops after the same deal, as with
one; the games that other workers finished past that deal stay on disk but are not
counted. A deal with a failed game is settled but not whole: it counts for nothing.

Checking after every deal is optional stopping: the chance that some check shows a
separation that is not there is more than a single check's 5%. The margin (intervals
apart by more than touching) and the minimum number of deals (no checks on a handful of
deals, when intervals are widest and least reliable) keep that excess small; they do not
remove it (``docs/arena.md``, "Stopping early").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardtable.arena.config import ArenaConfig, Sprt, StoppingRule
from cardtable.arena.match import GameOutcome
from cardtable.arena.metrics import metric_for
from cardtable.arena.schedule import entry_names
from cardtable.arena.stats import Interval, estimate

__all__ = [
    "RuleWatch",
    "StopPoint",
    "gap",
    "rule_met",
    "separated",
    "sprt_bounds",
    "sprt_decision",
    "sprt_llr",
    "values_by_deal",
]

# The least variance of a deal's difference the SPRT reckons with: deals all alike (two
# bots that tie every deal) would otherwise divide by zero.
SPREAD_FLOOR = 1e-6


def values_by_deal(
    outcomes: Iterable[GameOutcome], entries: Iterable[str]
) -> dict[str, dict[int, list[float]]]:
    """Each entry's metric in each finished game, grouped by deal (deals in the order
    first met): what :func:`~cardtable.arena.stats.estimate` takes."""
    by_deal: dict[str, dict[int, list[float]]] = {e: {} for e in entries}
    for outcome in outcomes:
        if not outcome.ok:
            continue
        for entry, value in outcome.metrics().items():
            by_deal[entry].setdefault(outcome.deal, []).append(value)
    return by_deal


def gap(a: Interval, b: Interval) -> float | None:
    """How far apart two intervals lie: the distance between them when they do not
    overlap, negative by the overlap when they do; None when one has no interval."""
    if a.low is None or a.high is None or b.low is None or b.high is None:
        return None
    return max(a.low - b.high, b.low - a.high)


def separated(first: Interval | None, others: Iterable[Interval | None], margin: float) -> bool:
    """Whether ``first`` lies at least ``margin`` from every one of ``others``."""
    if first is None:
        return False
    for other in others:
        apart = None if other is None else gap(first, other)
        if apart is None or apart < margin:
            return False
    return True


def sprt_llr(differences: Sequence[float], test: Sprt) -> float:
    """The log-likelihood ratio of ``test``'s H1 to its H0 over the deals' paired
    differences (0 over fewer than two: no spread to read)."""
    n = len(differences)
    if n < 2:
        return 0.0
    mean = math.fsum(differences) / n
    variance = math.fsum((d - mean) ** 2 for d in differences) / (n - 1)
    spread = max(variance, SPREAD_FLOOR)
    return n * (test.h1 - test.h0) * (2 * mean - test.h0 - test.h1) / (2 * spread)


def sprt_bounds(test: Sprt) -> tuple[float, float]:
    """The ratios at which the test takes H0 (the lower) and H1 (the upper)."""
    return math.log(test.beta / (1 - test.alpha)), math.log((1 - test.beta) / test.alpha)


def sprt_decision(differences: Sequence[float], test: Sprt) -> tuple[str | None, float]:
    """``"h1"``, ``"h0"`` or None (look again after another deal), and the ratio now."""
    llr = sprt_llr(differences, test)
    low, high = sprt_bounds(test)
    return ("h1" if llr >= high else "h0" if llr <= low else None), llr


@dataclass(frozen=True, slots=True)
class StopPoint:
    """Where the rule was met: after ``deals`` deals (deals ``0 … deals-1``), of which
    ``whole`` had every game finished; an SPRT's ``decision`` (``"h0"`` or ``"h1"``) and
    its log-likelihood ratio then."""

    deals: int
    whole: int
    decision: str | None = None
    llr: float | None = None


class RuleWatch:
    """Follows a tournament's games as they finish and says when the stopping rule is met.

    Give it every game with :meth:`add` (in any order); it returns the :class:`StopPoint`
    the first time the rule is met, after which the watch is done."""

    def __init__(self, config: ArenaConfig) -> None:
        if config.stop is None:
            raise ValueError("the tournament has no stopping rule")
        self.rule: StoppingRule = config.stop
        self.binary = metric_for(config.game, config.per_deal).binary
        self.entries = entry_names(config.bots)
        self.games_per_deal = config.games_per_deal
        self.settled = 0
        """Deals 0 … settled-1 have every game on hand."""
        self.whole = 0
        self.met: StopPoint | None = None
        self._waiting: dict[int, dict[int, GameOutcome]] = {}
        self._values: dict[str, list[list[float]]] = {e: [] for e in self.entries}
        self._differences: list[float] = []

    def add(self, outcome: GameOutcome) -> StopPoint | None:
        """Take one game; the stop point if the rule is met now (only the first time)."""
        if self.met is not None or outcome.deal < self.settled:
            return None
        self._waiting.setdefault(outcome.deal, {})[outcome.index] = outcome
        while len(self._waiting.get(self.settled, ())) == self.games_per_deal:
            games = list(self._waiting.pop(self.settled).values())
            self.settled += 1
            if not all(game.ok for game in games):
                continue
            self.whole += 1
            deal = values_by_deal(games, self.entries)
            for entry, values in deal.items():
                if values:
                    self._values[entry].append(values[games[0].deal])
            if len(self.entries) >= 2:  # the paired difference, kept as the deals come
                first, second = (deal[e].get(games[0].deal) for e in self.entries[:2])
                if first and second:
                    self._differences.append(sum(first) / len(first) - sum(second) / len(second))
            if self.whole >= self.rule.min_deals:
                self.met = self._check()
                if self.met is not None:
                    return self.met
        return None

    def feed(self, outcomes: Iterable[GameOutcome]) -> StopPoint | None:
        """:meth:`add` every one of ``outcomes``; the stop point if the rule is met."""
        for outcome in outcomes:
            met = self.add(outcome)
            if met is not None:
                return met
        return None

    def intervals(self) -> dict[str, Interval | None]:
        """Each entry's interval over the whole deals so far."""
        return {
            entry: estimate(groups, self.binary) if groups else None
            for entry, groups in self._values.items()
        }

    def differences(self) -> list[float]:
        """The first entry's metric minus the second's, each whole deal's games averaged."""
        return list(self._differences)

    def _check(self) -> StopPoint | None:
        if self.rule.sprt is not None:
            decision, llr = sprt_decision(self.differences(), self.rule.sprt)
            return None if decision is None else StopPoint(self.settled, self.whole, decision, llr)
        intervals = self.intervals()
        first, *others = self.entries
        if separated(intervals[first], (intervals[e] for e in others), self.rule.margin):
            return StopPoint(self.settled, self.whole)
        return None


def rule_met(config: ArenaConfig, outcomes: Iterable[GameOutcome]) -> StopPoint | None:
    """Where the stopping rule is first met over ``outcomes`` (the games in a folder), or
    None. The same games give the same point in whatever order they are listed."""
    return RuleWatch(config).feed(sorted(outcomes, key=lambda o: o.index))
