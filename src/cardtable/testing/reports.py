"""What the conformance suite reports: a game's and a run's summaries, the error of a
game that never ended, and the bound and the watch the runs take."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardtable.core import Game, Result, State

DEFAULT_MAX_ACTIONS = 10_000
"""The default bound on a random game's length; every game here ends far sooner."""

Watch = Callable[[State, int, State], None]
"""``watch(before, number, after)``: told of each action once its checks have passed."""


@dataclass(frozen=True, slots=True)
class GameReport:
    """What :func:`check_random_game` played and checked in one game."""

    seed: int
    actions: int
    deep_steps: int
    redeals: int
    result: Result
    full: bool = True
    """Every check ran (:func:`check_random_game`), not the fast ones only."""


@dataclass(frozen=True, slots=True)
class ConformanceReport:
    """What :func:`run_conformance` played and checked over many games."""

    game: str
    games: int
    actions: int
    longest: int
    deep_steps: int
    redeals: int
    wins: tuple[int, ...]
    full_games: int = 0
    """How many of the games got every check; the others got the fast ones."""
    max_actions: int = DEFAULT_MAX_ACTIONS
    capped: tuple[int, ...] = ()
    """The seeds of the games stopped at ``max_actions`` without ending."""

    def __str__(self) -> str:
        text = (
            f"{self.game}: {self.games} games ({self.full_games} with every check), "
            f"{self.actions} actions (longest {self.longest}), {self.deep_steps} deep steps, "
            f"{self.redeals} re-deals; wins by seat {list(self.wins)}"
        )
        if self.capped:
            seeds = ", ".join(map(str, self.capped))
            text += (
                f"; {len(self.capped)} games reached the cap of {self.max_actions} actions "
                f"without ending: seeds {seeds}"
            )
        return text


class CappedGameError(AssertionError):
    """A random game reached ``max_actions`` actions without ending (SPEC §5; KRYT-7.7 and
    K-14 for a game with no move limit). An ``AssertionError``, so a single game that does
    not end fails; :func:`run_conformance` catches it, lists the seed and plays on."""

    def __init__(self, game: Game, seed: int, actions: int, state: State) -> None:
        super().__init__(
            f"{game!r}, seed {seed}: the game did not end within {actions} actions "
            f"(SPEC §5), at position {_position_of(state)}"
        )
        self.seed = seed
        self.actions = actions


def _position_of(state: State | None) -> str:
    if state is None:
        return "(no state yet)"
    try:
        return repr(state.position())
    except Exception as exc:  # the message must survive a state too broken to print
        return f"(position() raised {type(exc).__name__}: {exc})"
