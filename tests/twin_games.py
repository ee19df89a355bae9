"""Seeded random games played on the Python engine and in the core side by side, for the
tests that hold what the core writes (views, observations) equal to the Python engine's."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import cardtable
from cardtable import compiled
from cardtable.core import Game, State


def twin_steps(
    name: str, options: dict[str, Any], games: int, from_position_every: int
) -> Iterator[tuple[str, Game, State, Any]]:
    """At every step of ``games`` random games of ``name`` (seeds 0, 1, …): where it is, the
    Python game and state, and the core state stepped beside it; every
    ``from_position_every`` steps also the core state read from the Python state's position
    (``where`` then says so)."""
    game = cardtable.make(name, engine="python", **options)
    twin_game = compiled.core_game(game, always=True)
    assert twin_game is not None
    for seed in range(games):
        state = game.new_state(seed=seed)
        twin = twin_game.new_state(seed)
        rng = random.Random(seed)
        step = 0
        while True:
            where = f"{name} {options} seed {seed} step {step}"
            yield where, game, state, twin
            if step % from_position_every == 0:
                from_position = compiled.core_state(state)
                assert from_position is not None
                yield where + " (from its position)", game, state, from_position
            if state.is_over:
                break
            action = rng.choice(state.legal_action_ids())
            state.apply_id(action)
            twin.apply(action)
            step += 1
