"""SO-ISMCTS in the core (issue: search at compiled speed): one call across the boundary
searches from a seat's view (as JSON) with the core's determinizer, releasing the GIL.

These tests hold the contract that ``cardtable.bots.ismcts.search`` keeps: a legal
choice, the most visited action, every iteration counted, the same result from the same
seed, stopping early only when no iteration left could change the choice, and budgets
refused as the Python search refuses them.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardtable
from cardtable import compiled
from cardtable.core import Game, State

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("knockout-whist", {"players": 3}),
    ("neuf", {"players": 3}),
    ("kryt-navalivat", {"players": 2}),
]


def decision(game: Game, seed: int) -> State:
    """A state of a seeded random game where the seat to move has a choice."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    while True:
        legal = state.legal_action_ids()
        if len(legal) > 2 and rng.random() < 0.3:
            return state
        state.apply_id(rng.choice(legal))
        if state.is_over:
            state = game.new_state(seed=rng.randrange(1 << 30))


def core_search(game: Game, state: State, **budget: Any) -> tuple[Any, ...]:
    twin = compiled.core_game(game, always=True)
    assert twin is not None and state.to_move is not None
    return twin.search(json.dumps(state.view(state.to_move)), **budget)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[n for n, _ in GAMES])
def test_a_search_chooses_its_most_visited_legal_action_and_counts_every_iteration(
    name: str, options: dict[str, Any]
) -> None:
    game = cardtable.make(name, **options)
    for seed in range(4):
        state = decision(game, seed)
        action, visits, values, iterations, seconds = core_search(
            game, state, iterations=400, seed=seed, stop_early=False
        )
        legal = state.legal_action_ids()
        assert action in legal and set(visits) <= set(legal) and set(values) == set(visits)
        assert iterations == 400 and sum(visits.values()) == 400 and seconds > 0
        assert visits[action] == max(visits.values())
        assert all(-1.0 <= v <= 1.0 for v in values.values())


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[n for n, _ in GAMES])
def test_the_same_seed_gives_the_same_search_and_stopping_early_the_same_choice(
    name: str, options: dict[str, Any]
) -> None:
    game = cardtable.make(name, **options)
    state = decision(game, 7)
    full = core_search(game, state, iterations=600, seed=3, stop_early=False)
    assert core_search(game, state, iterations=600, seed=3, stop_early=False)[:4] == full[:4]
    early = core_search(game, state, iterations=600, seed=3)
    assert early[0] == full[0] and early[3] <= 600
    other = core_search(game, state, iterations=600, seed=4, stop_early=False)
    assert other[1] != full[1]  # another seed, other deals: other counts


def test_budgets_and_turns_are_checked() -> None:
    game = cardtable.make("knockout-whist", players=3)
    state = decision(game, 1)
    with pytest.raises(cardtable.CardtableError, match="give a search budget"):
        core_search(game, state)
    with pytest.raises(cardtable.CardtableError, match="positive"):
        core_search(game, state, iterations=0)
    with pytest.raises(cardtable.CardtableError, match="positive"):
        core_search(game, state, seconds=-1.0)
    twin = compiled.core_game(game, always=True)
    assert twin is not None and state.to_move is not None
    other = (state.to_move + 1) % 3
    with pytest.raises(cardtable.CardtableError, match="its own turn"):
        twin.search(json.dumps(state.view(other)), iterations=10)
    # A time budget alone ends the search too.
    assert core_search(game, state, seconds=0.05)[0] in state.legal_action_ids()


@pytest.mark.parametrize("core", ["rust", "python"])
@pytest.mark.parametrize(("name", "options"), GAMES, ids=[n for n, _ in GAMES])
def test_an_ismcts_bot_with_random_rollouts_searches_in_the_engine_chosen(
    name: str, options: dict[str, Any], core: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ismcts:…,rollout=random`` searches in the core when it is in use, in Python
    otherwise; either way a legal choice, every iteration counted, the same choice from
    the same generator."""
    from cardtable.bots import make_bot

    monkeypatch.setenv("CARDTABLE_CORE", core)
    game = cardtable.make(name, **options)
    state = decision(game, 5)
    seat = state.to_move
    assert seat is not None
    bot = make_bot("ismcts:iterations=300,rollout=random", name)
    chosen = bot.choose(state.view(seat), state.legal_actions(), random.Random(2))
    assert chosen in state.legal_actions()
    last = bot.last  # type: ignore[attr-defined]
    assert last is not None and sum(last.visits.values()) == last.iterations <= 300
    again = bot.choose(state.view(seat), state.legal_actions(), random.Random(2))
    assert again == chosen
