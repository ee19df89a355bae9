"""The core's guided rollouts equal the Python ones, so that search in the core plays as the
Python search does.

Each game's rollout policy (``cardtable.bots.<game>_rollout``) draws its randomness one
uniform number at a time. Given the same numbers, the core's policy must choose the same
action and its rollout must end with the same returns (the game's, or the estimate at the
end of a Knockout Whist hand or a Neuf deal), taking exactly as many numbers: the core
replays a list of draws, the Python policy reads the same list through a
``random.Random`` whose ``random()`` is scripted. States come from seeded random games of
every table size, so every phase of play is met.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import cardtable
from cardtable import compiled
from cardtable.bots import knockout_whist_rollout, kryt_navalivat_rollout, neuf_rollout
from cardtable.core import Game, State
from cardtable.differential import VARIANTS

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the core is not built")


class Scripted(random.Random):
    """A generator whose ``random()`` reads a list; counts what it gave."""

    def __init__(self, draws: list[float]) -> None:
        super().__init__(0)
        self.draws = draws
        self.used = 0

    def random(self) -> float:
        value = self.draws[self.used]
        self.used += 1
        return value


def _kow_action(state: Any, rng: random.Random) -> int:
    return knockout_whist_rollout.choose(state, rng.random)


# Per game: the policy's action and the rollout.
POLICIES: dict[str, tuple[Callable[..., int], Callable[..., Any]]] = {
    "knockout-whist": (_kow_action, knockout_whist_rollout.rollout),
    "neuf": (neuf_rollout.choose, neuf_rollout.rollout),
    "kryt-navalivat": (kryt_navalivat_rollout.guided_action, kryt_navalivat_rollout.rollout),
}


def variants(name: str) -> list[dict[str, Any]]:
    """Every option set of the differential tests for the game."""
    return [options for game, options in VARIANTS if game == name]


def states(game: Game, seed: int, count: int) -> Iterator[State]:
    """``count`` states met along seeded random games (none over)."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    met = 0
    while met < count:
        if state.is_over:
            state = game.new_state(seed=rng.randrange(1 << 30))
        if rng.random() < 0.2:
            met += 1
            yield state.copy()
        state.apply_id(rng.choice(state.legal_action_ids()))


@pytest.mark.parametrize("name", list(POLICIES))
def test_the_core_policy_chooses_as_the_python_policy_from_the_same_draws(name: str) -> None:
    action_of, _ = POLICIES[name]
    for k, options in enumerate(variants(name)):
        game = cardtable.make(name, engine="python", **options)
        rng = random.Random(k)
        for state in states(game, k, 80):
            twin = compiled.core_state(state)
            assert twin is not None
            draws = [rng.random() for _ in range(8)]
            scripted = Scripted(draws)
            expected = action_of(state, scripted)
            assert twin.guided_action(draws) == (expected, scripted.used), state.position()
            assert state.is_legal(expected)


@pytest.mark.parametrize("name", list(POLICIES))
def test_the_core_rollout_ends_as_the_python_rollout_from_the_same_draws(name: str) -> None:
    _, rollout = POLICIES[name]
    for k, options in enumerate(variants(name)):
        game = cardtable.make(name, engine="python", **options)
        rng = random.Random(100 + k)
        for state in states(game, 100 + k, 15):
            twin = compiled.core_state(state)
            assert twin is not None
            draws = [rng.random() for _ in range(20_000)]
            scripted = Scripted(draws)
            expected = rollout(state.copy(), scripted)
            returns, used = twin.guided_rollout(draws)
            assert used == scripted.used, state.position()
            assert returns == pytest.approx(list(expected), abs=1e-12), state.position()
            assert sum(returns) == pytest.approx(0.0, abs=1e-9)  # zero-sum, as results are


def test_a_policy_refuses_too_few_draws_and_a_finished_game() -> None:
    game = cardtable.make("kryt-navalivat", engine="python", players=2)
    state = next(states(game, 5, 1))
    twin = compiled.core_state(state)
    assert twin is not None
    with pytest.raises(ValueError, match="draws ran out"):
        twin.guided_rollout([])
    state.playout(random.Random(1))
    over = compiled.core_state(state)
    assert over is not None
    with pytest.raises(cardtable.errors.IllegalActionError, match="game is over"):
        over.guided_action([0.5])
