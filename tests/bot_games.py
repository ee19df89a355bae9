"""Whole games between bots, for the bot tests of every game."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from cardtable.bots import Bot
from cardtable.core import Game, State


def play_bots(
    game: Game, seed: int, bots: Sequence[Bot], *, json_views: bool = False, cap: int = 100_000
) -> State:
    """A game from ``seed`` with ``bots[seat]`` at each seat, each seat drawing from its own
    generator, every choice checked against the legal actions before it is applied. Stops
    after ``cap`` actions (the caller checks that the game ended). ``json_views`` hands the
    bots their views after a round trip through JSON, as a client would receive them."""
    state = game.new_state(seed=seed)
    rngs = [random.Random(f"{seed}:{s}") for s in range(len(bots))]
    for _ in range(cap):
        if state.is_over:
            break
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        if json_views:
            view = json.loads(json.dumps(view))  # bots read views, never the state
        legal = state.legal_actions()
        action = bots[seat].choose(view, legal, rngs[seat])
        assert action in legal, f"{bots[seat].name} chose illegal {action} from {legal}"
        state.apply(action, seat=seat)
    return state
