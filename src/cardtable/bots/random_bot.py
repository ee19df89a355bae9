"""The random bot: the baseline every other bot must beat."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.core import Action, View

__all__ = ["RandomBot"]


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError(f"seat {view.get('seat')} has no legal action to choose from")
        return legal_actions[rng.randrange(len(legal_actions))]
