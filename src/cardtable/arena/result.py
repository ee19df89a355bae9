"""What a tournament gives: each entry's standing, the paired differences, what the
stopping rule did, and the result that holds them all (written out by
:mod:`cardtable.arena.report`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardtable.arena.config import ArenaConfig, StoppingRule
from cardtable.arena.match import GameOutcome
from cardtable.arena.metrics import Metric
from cardtable.arena.ratings import Rating
from cardtable.arena.stats import Interval
from cardtable.arena.stopping import StopPoint

__all__ = ["Difference", "RuleReport", "Standing", "TournamentResult"]


@dataclass(frozen=True, slots=True)
class Standing:
    """One entry's results: its metric with a 95% interval (None before its first finished
    game), and its rating."""

    entry: str
    spec: str
    games: int
    metric: Interval | None
    rating: Rating


@dataclass(frozen=True, slots=True)
class Difference:
    """``entry``'s metric minus ``other``'s, deal by deal, with its 95% interval over the
    deals both played (:func:`~cardtable.arena.stats.paired_difference`)."""

    entry: str
    other: str
    interval: Interval


@dataclass(frozen=True, slots=True)
class RuleReport:
    """What a tournament's stopping rule did (:mod:`cardtable.arena.stopping`)."""

    rule: StoppingRule
    first: str
    """The entry compared with every other: the first of the bots."""
    met: StopPoint | None
    """Where the rule is first met over the games on disk; None if it is not."""
    stopped: bool
    """Whether the rule stopped the tournament: the results are then those of the deals
    before :attr:`met` (whole deals only), and the games not played are not owed."""
    played_on: bool
    """Whether ``play_on`` (``--play-on``) told the tournament to play past the rule."""
    left_out: int
    """Games on disk past the stop (finished by other workers meanwhile), not counted."""
    llr: float | None = None
    """An SPRT's log-likelihood ratio, where it decided or at the last whole deal."""


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
    rule: RuleReport | None = None
    """The stopping rule's report; None when the tournament has no rule."""
    differences: tuple[Difference, ...] = ()
    """The first bot's metric minus each other bot's, paired by deal."""
    files: dict[str, Path] = field(default_factory=dict)

    @property
    def finished(self) -> int:
        return sum(o.ok for o in self.outcomes)

    @property
    def failures(self) -> list[GameOutcome]:
        return [o for o in self.outcomes if not o.ok]

    @property
    def capped(self) -> list[GameOutcome]:
        """The games stopped at the cap on actions and scored draws (KRYT-7.7)."""
        return [o for o in self.outcomes if o.capped]

    @property
    def complete(self) -> bool:
        """Whether every scheduled game finished."""
        return self.finished == self.scheduled

    @property
    def stopped_by_rule(self) -> bool:
        """Whether the stopping rule ended the tournament (nothing more is owed)."""
        return self.rule is not None and self.rule.stopped
