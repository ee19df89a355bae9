"""The Neuf score sheet (NEUF-5, NEUF-6, NEUF-8.3, NEUF-8.4): scores, rows and the winners.

Kept apart from the play so that it can be checked on its own, deal by deal, from trick
counts alone (EXAMPLES.md's ledger-level scenarios NEUF-EX-1, 2, 3 and 7)::

    >>> sheet = Ledger(players=3, first_dealer=2)
    >>> row = sheet.record([5, 4, 4])
    >>> row.trump, row.dealer, row.scores, row.total
    ('H', 2, (8, 9, 9), 26)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cardtable.errors import InvalidOptionError, InvalidScoreError

__all__ = [
    "NO_TRUMP",
    "START_SCORE",
    "TRICKS",
    "TRUMP_SEQUENCES",
    "Ledger",
    "Row",
    "trump_of",
    "winners_of",
]

START_SCORE = 9
TRICKS = 13
NO_TRUMP = "NT"
# NEUF-8.1 and decision N-1: the presets, each named after its cycle.
TRUMP_SEQUENCES: dict[str, tuple[str, ...]] = {
    "HDCS-NT": ("H", "D", "C", "S", NO_TRUMP),
    "SHDC-NT": ("S", "H", "D", "C", NO_TRUMP),
    "HDSC-NT": ("H", "D", "S", "C", NO_TRUMP),
    "HCDS-NT": ("H", "C", "D", "S", NO_TRUMP),
    "HDCS": ("H", "D", "C", "S"),
}


def sequence(name: str) -> tuple[str, ...]:
    """The trump cycle of a preset; an unknown name is an :class:`InvalidOptionError`."""
    found = TRUMP_SEQUENCES.get(name) if isinstance(name, str) else None
    if found is None:
        raise InvalidOptionError(
            f"unknown trump_sequence {name!r}; choose one of {', '.join(TRUMP_SEQUENCES)}"
        )
    return found


def trump_of(name: str, deal: int) -> str:
    """NEUF-2.1: the trump of deal ``deal`` (from 1): a suit letter or ``NT``."""
    cycle = sequence(name)
    return cycle[(deal - 1) % len(cycle)]


def quota(players: int) -> int:
    """Tricks a side must take to keep its score: 4 each of three, 6 a team of two."""
    return 4 if players == 3 else 6


def winners_of(scores: Sequence[int]) -> tuple[int, ...]:
    """NEUF-6.2/6.3 (and N-6): of the sides at or below zero, the lowest; equal lowest share."""
    crossed = [s for s in scores if s <= 0]
    if not crossed:
        return ()
    best = min(crossed)
    return tuple(side for side, score in enumerate(scores) if score == best)


@dataclass(frozen=True, slots=True)
class Row:
    """One completed deal on the score sheet: its trump, its dealer, the scores after it."""

    deal: int
    trump: str
    dealer: int
    tricks: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.scores)


@dataclass(slots=True)
class Ledger:
    """The score sheet of one game. Sides are the three players, or the two teams
    (seats 0 and 2, seats 1 and 3) of the four-player game."""

    players: int = 3
    first_dealer: int = 0
    trump_sequence: str = "HDCS-NT"
    rows: list[Row] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise InvalidOptionError(
                f"Neuf is for 3 players, or 4 in partnership, not {self.players!r}"
            )
        sequence(self.trump_sequence)

    @property
    def sides(self) -> int:
        return 3 if self.players == 3 else 2

    @property
    def scores(self) -> tuple[int, ...]:
        return self.rows[-1].scores if self.rows else (START_SCORE,) * self.sides

    @property
    def deal(self) -> int:
        """The number of the deal being played (or about to be)."""
        return len(self.rows) + 1

    @property
    def dealer(self) -> int:
        return (self.first_dealer + len(self.rows)) % self.players

    @property
    def trump(self) -> str:
        return trump_of(self.trump_sequence, self.deal)

    @property
    def winners(self) -> tuple[int, ...]:
        return winners_of(self.scores)

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    def side_tricks(self, tricks: Sequence[int]) -> tuple[int, ...]:
        """Tricks per side from tricks per seat (a team adds its partners' tricks)."""
        if len(tricks) == self.sides:
            return tuple(tricks)
        return (tricks[0] + tricks[2], tricks[1] + tricks[3])

    def record(self, tricks: Sequence[int]) -> Row:
        """Score a completed deal from each side's (or seat's) tricks (NEUF-5.2, 8.4)."""
        if self.is_over:
            raise InvalidScoreError("the game is over: no further deal can be scored")
        if len(tricks) not in (self.sides, self.players) or any(t < 0 for t in tricks):
            raise InvalidScoreError(f"expected {self.sides} trick counts, not {list(tricks)}")
        if sum(tricks) != TRICKS:
            raise InvalidScoreError(f"a deal has 13 tricks; {list(tricks)} add up to {sum(tricks)}")
        side = self.side_tricks(tricks)
        need = quota(self.players)
        scores = tuple(s - (t - need) for s, t in zip(self.scores, side, strict=True))
        row = Row(self.deal, self.trump, self.dealer, side, scores)
        self.rows.append(row)
        return row

    def copy(self) -> Ledger:
        return Ledger(self.players, self.first_dealer, self.trump_sequence, self.rows[:])
