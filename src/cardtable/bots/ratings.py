"""How strong each level is, on one scale: the OpenSkill ratings (Plackett-Luce) of a round
robin of ``random``, ``easy``, ``medium``, ``hard`` and ``expert`` in each game, played and
rated by ``benchmarks/ratings.py`` and shipped as ``ratings.json`` beside this module. The
lobby shows each level's beside its name; docs/bots.md gives the table.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TypedDict

__all__ = ["LevelRating", "level_ratings", "rated_players"]


class LevelRating(TypedDict):
    mu: float
    """The rating (OpenSkill's mean; a new player starts at 25)."""
    sigma: float
    low: float
    """``mu - 1.96·sigma``: the 95% interval's ends."""
    high: float
    games: int
    """Games the level played in the round robin."""


class GameRatings(TypedDict):
    players: int
    """The player count of the round robin's games."""
    levels: dict[str, LevelRating]


@cache
def _shipped() -> dict[str, GameRatings]:
    text = resources.files("cardtable.bots").joinpath("ratings.json").read_text("utf-8")
    ratings: dict[str, GameRatings] = json.loads(text)
    return ratings


def level_ratings(game: str) -> dict[str, LevelRating]:
    """Each rated level of ``game`` (``random`` among them) with its rating; empty for a
    game not rated yet."""
    shipped = _shipped().get(game)
    return dict(shipped["levels"]) if shipped else {}


def rated_players(game: str) -> int | None:
    """The player count ``game``'s ratings were measured at; ``None`` if not rated yet."""
    shipped = _shipped().get(game)
    return shipped["players"] if shipped else None
