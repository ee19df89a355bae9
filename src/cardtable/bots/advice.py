"""The hint-following player: a bot that plays every hint the table would give it (the
analysis's best at the hint's budget, :mod:`cardtable.analysis`), to measure the hints by
the games they win: ``cardtable arena GAME --bots cardtable.bots.advice:HintFollower,hard``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import cardtable
from cardtable.analysis import HINT_BUDGET, Budget, analyse
from cardtable.core import Action, Game, View

__all__ = ["HintFollower"]


class HintFollower:
    """Plays the hint's best action from its own view, at ``budget`` (the hint's)."""

    def __init__(self, budget: Budget | None = None) -> None:
        self.name = "hint-follower"
        self.budget = budget or HINT_BUDGET
        self._games: dict[str, Game] = {}

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        game = self._game(view)
        seed = random.Random(rng.getrandbits(64))
        best = analyse(game, view, budget=self.budget, rng=seed).best
        return game.parse_action(best)

    def _game(self, view: View) -> Game:
        key = json.dumps([view["game"], view["options"]], sort_keys=True)
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = cardtable.make(view["game"], **view["options"])
        return game
