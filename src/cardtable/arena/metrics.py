"""The number each game gives each seat, by game: what the arena averages per bot.

- Knockout Whist: 1 for the winner, 0 otherwise (the win rate).
- Neuf: the seat's side's final score (lower is better; a team's two seats share it).
- Kryt'-navalivat': 1 for the fool, 0 otherwise, a draw counting 0 (the loss rate).

A game with no entry here is measured by its result's winners, like Knockout Whist.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.core import State

__all__ = ["Metric", "metric_for", "seat_values"]


@dataclass(frozen=True, slots=True)
class Metric:
    """A per-game number: ``name`` for tables, ``key`` for files, whether more is better,
    and whether it is a proportion (every value 0 or 1)."""

    name: str
    key: str
    higher_is_better: bool
    binary: bool


WIN_RATE = Metric("win rate", "win", higher_is_better=True, binary=True)
METRICS = {
    "knockout-whist": WIN_RATE,
    "neuf": Metric("mean final score", "score", higher_is_better=False, binary=False),
    "kryt-navalivat": Metric("loss rate", "fool", higher_is_better=False, binary=True),
}


def metric_for(game: str) -> Metric:
    return METRICS.get(game, WIN_RATE)


def seat_values(state: State) -> list[float]:
    """The metric of each seat in a finished game."""
    result = state.result
    if result is None:
        raise ValueError("the game is not over")
    players = state.game.num_players
    key = metric_for(state.game.name).key
    if key == "score":
        scores = state.view(None)["scores"]  # per side: three players, or two teams
        sides = len(scores)
        return [float(scores[seat % sides]) for seat in range(players)]
    if key == "fool":
        losers = {seat for seat in range(players) if seat not in result.winners}
        # A draw has no winners and no loser: nobody is the fool.
        fools = losers if result.winners else set()
        return [1.0 if seat in fools else 0.0 for seat in range(players)]
    return [1.0 if seat in result.winners else 0.0 for seat in range(players)]
