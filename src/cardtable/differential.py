"""The compiled core against the Python engine, step by step (``docs/core.md``).

:func:`compare_game` plays one random game in both engines at once: the Python engine's
``game.new_state(seed=…)`` and the core's ``new_state(seed)`` (so the seeded deals and the
first dealer must agree too), the same random legal action applied to both at each step.
At every step the two must agree on the seat to move, the legal action numbers and the
position text, byte for byte; every ``round_trip_every`` steps the core also reads the
Python engine's position and must write it back unchanged; at the end the returns must be
equal. The first difference raises :class:`DivergenceError`, naming the game, its options, the
seed, the step and the actions that led there, so that it can be replayed by hand.

``VARIANTS`` lists the option sets the tests and ``scripts/core_differential.py`` cover:
every player count of every game, every Neuf trump sequence and rule flag, both
Kryt'-navalivat' trump modes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import cardtable
from cardtable import compiled
from cardtable.core import Game
from cardtable.engines import engine_of

__all__ = ["VARIANTS", "DivergenceError", "Tally", "compare_game", "compare_games"]

_NEUF_SEQUENCES = ("HDCS-NT", "SHDC-NT", "HDSC-NT", "HCDS-NT", "HDCS")

VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    *(("knockout-whist", {"players": n}) for n in range(2, 8)),
    *(("neuf", {"players": 3, "trump_sequence": s}) for s in _NEUF_SEQUENCES),
    ("neuf", {"players": 3, "dealer_exchanges_first": True}),
    ("neuf", {"players": 3, "tie_avoidance": True}),
    ("neuf", {"players": 3, "dealer_exchanges_first": True, "tie_avoidance": True}),
    *(("neuf", {"players": 4, "trump_sequence": s}) for s in _NEUF_SEQUENCES),
    *(
        ("kryt-navalivat", {"players": n, "trump_mode": mode})
        for n in range(2, 7)
        for mode in ("turned", "permanent")
    ),
)


class DivergenceError(AssertionError):
    """The core and the Python engine disagreed."""


@dataclass
class Tally:
    """What a run of compared games covered."""

    games: int = 0
    steps: int = 0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.steps += other.steps


def _describe(game: Game, seed: int, step: int, actions: list[int]) -> str:
    played = ", ".join(str(game.actions[a]) for a in actions[-12:])
    earlier = f"… {len(actions) - 12} earlier, " if len(actions) > 12 else ""
    return (
        f"{game.name} {game.rules} seed {seed}, step {step} "
        f"(after {earlier}{played or 'no action'})"
    )


def compare_game(game: Game, seed: int, *, round_trip_every: int = 7) -> int:
    """Plays game ``seed`` in both engines, comparing every step; returns the steps taken.

    :class:`DivergenceError` names the first difference."""
    if engine_of(game) != "python":
        game = cardtable.make(game.name, engine="python", **game.options)
    twin_game = compiled.core_game(game, always=True)
    assert twin_game is not None  # every game of the package has its twin in the core
    state = game.new_state(seed=seed)
    twin = twin_game.new_state(seed)
    rng = random.Random(seed)
    actions: list[int] = []
    step = 0

    def diverged(what: str) -> DivergenceError:
        # Written only on a difference: naming the step costs more than comparing it.
        return DivergenceError(f"{_describe(game, seed, step, actions)}: {what}")

    while True:
        want = state.position()
        got = twin.position()
        if got != want:
            raise diverged(f"positions differ\n python: {want}\n core:   {got}")
        if twin.to_move != state.to_move:
            raise diverged(f"python's seat to move {state.to_move}, core's {twin.to_move}")
        legal = state.legal_action_ids()
        core_legal = twin.legal_action_ids()
        if core_legal != legal:
            raise diverged(
                f"legal actions differ\n python: {legal}\n core:   {core_legal}\n position: {want}"
            )
        if step % round_trip_every == 0:
            again = twin_game.state_from_position(want).position()
            if again != want:
                raise diverged(f"the core reads the position back as\n {again}\n not\n {want}")
        if not legal:
            break
        action = legal[rng.randrange(len(legal))]
        state.apply_id(action)
        twin.apply(action)
        actions.append(action)
        step += 1
    result = state.result
    assert result is not None
    returns = twin.returns()
    if returns is None or tuple(returns) != result.returns:
        raise diverged(f"returns differ\n python: {result.returns}\n core:   {returns}")
    return step


def compare_games(name: str, options: dict[str, Any], seeds: range) -> Tally:
    """:func:`compare_game` over ``seeds`` of one variant."""
    game = cardtable.make(name, engine="python", **options)
    tally = Tally()
    for seed in seeds:
        tally.steps += compare_game(game, seed)
        tally.games += 1
    return tally
