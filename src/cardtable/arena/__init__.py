"""Tournaments between bots: duplicate deals, rotated seats, confidence intervals and
OpenSkill ratings, run in this process, in local worker processes or on Ray
(``docs/arena.md``; the command is ``cardtable arena``).

    config = ArenaConfig("kryt-navalivat", ("heuristic", "random", "random"), games=30,
                         seed=1, options={"players": 3})
    result = run_tournament(config, out=Path("results"), workers=2)
    for standing in result.standings:
        print(standing.entry, standing.metric, standing.rating.ordinal)

Modules: ``config`` (what a tournament is), ``schedule`` (deals, rotations, seeds),
``match`` (one game), ``metrics`` (what each game gives a seat), ``stats`` (intervals),
``stopping`` (the stopping rule),
``ratings`` (OpenSkill), ``store`` (the results folder), ``backends`` (where games run),
``result`` (what a tournament gives), ``tournament`` (all of it together), ``report`` (files
and the table).
"""

from __future__ import annotations

from cardtable.arena.config import (
    ArenaConfig,
    ArenaError,
    BackendUnavailableError,
    InvalidTournamentError,
    ResumeMismatchError,
    StoppingRule,
)
from cardtable.arena.match import Failure, GameOutcome, play_game
from cardtable.arena.result import RuleReport, Standing, TournamentResult
from cardtable.arena.schedule import GameTask, schedule
from cardtable.arena.tournament import Progress, run_tournament

__all__ = [
    "ArenaConfig",
    "ArenaError",
    "BackendUnavailableError",
    "Failure",
    "GameOutcome",
    "GameTask",
    "InvalidTournamentError",
    "Progress",
    "ResumeMismatchError",
    "RuleReport",
    "Standing",
    "StoppingRule",
    "TournamentResult",
    "play_game",
    "run_tournament",
    "schedule",
]
