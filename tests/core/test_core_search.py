"""SO-ISMCTS in the core: one call across the boundary searches from a seat's view (as
JSON) with the core's determinizer, releasing the GIL.

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
from cardtable.errors import InvalidBudgetError

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
    game = cardtable.make(name, engine="python", **options)
    for seed in range(4):
        state = decision(game, seed)
        action, visits, values, iterations, seconds, spreads = core_search(
            game, state, iterations=400, seed=seed, stop_early=False
        )
        legal = state.legal_action_ids()
        assert action in legal and set(visits) <= set(legal) and set(values) == set(visits)
        assert iterations == 400 and sum(visits.values()) == 400 and seconds > 0
        assert visits[action] == max(visits.values())
        assert all(-1.0 <= v <= 1.0 for v in values.values())
        # Returns between -1 and 1 spread at most 1 about their mean; one visit, not at all.
        assert set(spreads) == set(visits) and all(0.0 <= d <= 1.0 for d in spreads.values())
        assert all(spreads[a] == 0.0 for a, count in visits.items() if count == 1)
        assert any(d > 0.0 for d in spreads.values())


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[n for n, _ in GAMES])
def test_the_same_seed_gives_the_same_search_and_stopping_early_the_same_choice(
    name: str, options: dict[str, Any]
) -> None:
    game = cardtable.make(name, engine="python", **options)
    state = decision(game, 7)
    full = core_search(game, state, iterations=600, seed=3, stop_early=False)
    assert core_search(game, state, iterations=600, seed=3, stop_early=False)[:4] == full[:4]
    early = core_search(game, state, iterations=600, seed=3)
    assert early[0] == full[0] and early[3] <= 600
    other = core_search(game, state, iterations=600, seed=4, stop_early=False)
    assert other[1] != full[1]  # another seed, other deals: other counts


def test_budgets_and_turns_are_checked() -> None:
    game = cardtable.make("knockout-whist", engine="python", players=3)
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


def test_rollouts_and_threads_are_checked() -> None:
    game = cardtable.make("neuf", engine="python", players=3)
    state = decision(game, 2)
    with pytest.raises(
        InvalidBudgetError, match="rollout must be 'guided', 'learned', 'deal' or 'random'"
    ):
        core_search(game, state, iterations=10, rollout="smart")
    with pytest.raises(InvalidBudgetError, match="threads must be at least 1"):
        core_search(game, state, iterations=10, threads=0)
    with pytest.raises(InvalidBudgetError, match="exploration"):
        core_search(game, state, iterations=10, exploration=-1.0)


@pytest.mark.parametrize("rollout", ["guided", "random"])
@pytest.mark.parametrize(("name", "options"), GAMES, ids=[n for n, _ in GAMES])
def test_threads_share_the_budget_and_repeat_from_the_same_seed(
    name: str, options: dict[str, Any], rollout: str
) -> None:
    """Root parallel search: two trees grown from generators seeded from ``seed`` split
    the iterations between them, and their roots are summed; the same seed and thread
    count give the same search, another thread count other deals."""
    game = cardtable.make(name, engine="python", **options)
    state = decision(game, 11)
    budget: dict[str, Any] = {"iterations": 501, "seed": 9, "stop_early": False}
    two = core_search(game, state, threads=2, rollout=rollout, **budget)
    action, visits, _, iterations, _, _ = two
    assert iterations == 501 and sum(visits.values()) == 501
    assert action in state.legal_action_ids() and visits[action] == max(visits.values())
    assert core_search(game, state, threads=2, rollout=rollout, **budget)[:4] == two[:4]
    assert core_search(game, state, threads=1, rollout=rollout, **budget)[1] != visits


def test_a_search_releases_the_gil_while_it_runs() -> None:
    """Python threads go on while the core searches: a counter in this thread advances
    throughout a search of a fixed time in another."""
    import threading

    game = cardtable.make("knockout-whist", engine="python", players=3)
    state = decision(game, 3)
    finished = threading.Event()

    def run() -> None:
        core_search(game, state, seconds=0.3, seed=1, stop_early=False)
        finished.set()

    counted = 0
    thread = threading.Thread(target=run)
    thread.start()
    while not finished.is_set():
        counted += 1
    thread.join()
    assert counted > 1000, counted  # a held GIL would leave this thread ~0.3 s frozen


def test_guided_search_finds_the_winning_beat_and_cover() -> None:
    """KRYT-EX-9 in the core: beating JH with QH and covering with AD takes A out, and B,
    who can beat neither and holds three cards, is the fool (KRYT-7.3)."""
    from cardtable.bots import make_bot
    from cardtable.rules.kryt_navalivat.position import FILL, compose_position

    text = compose_position(["QH AD", "7C 8C 9S"], pile=f"{FILL} JH", trumps="D")
    state = cardtable.make("kryt-navalivat", engine="python", players=2).state_from_position(text)
    bot = make_bot("ismcts:iterations=300", "kryt-navalivat")
    rng = random.Random(5)
    while state.to_move == 0:
        state.apply(bot.choose(state.view(0), state.legal_actions(), rng))
        assert bot.last is not None and bot.last.iterations > 0  # type: ignore[attr-defined]
    assert state.result is not None and state.result.places[-1] == (1,)


@pytest.mark.parametrize("rollout", ["guided", "random"])
@pytest.mark.parametrize("core", ["rust", "python"])
@pytest.mark.parametrize(("name", "options"), GAMES, ids=[n for n, _ in GAMES])
def test_an_ismcts_bot_searches_in_the_engine_chosen(
    name: str, options: dict[str, Any], core: str, rollout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ``ismcts`` bot searches in the core when it is in use, in Python otherwise (and
    always in Python with ``engine=python``); either way a legal choice, every iteration
    counted, the same choice from the same generator."""
    from cardtable.bots import make_bot

    monkeypatch.setenv("CARDTABLE_CORE", core)
    game = cardtable.make(name, engine="python", **options)
    state = decision(game, 5)
    seat = state.to_move
    assert seat is not None
    for engine in ("core", "python"):
        bot = make_bot(f"ismcts:iterations=300,rollout={rollout},engine={engine}", name)
        chosen = bot.choose(state.view(seat), state.legal_actions(), random.Random(2))
        assert chosen in state.legal_actions()
        last = bot.last  # type: ignore[attr-defined]
        assert last is not None and sum(last.visits.values()) == last.iterations <= 300
        again = bot.choose(state.view(seat), state.legal_actions(), random.Random(2))
        assert again == chosen


def test_the_engine_is_told_by_the_visit_counts() -> None:
    """``engine=core`` and ``engine=python`` are different searches (the core's generator
    is not Python's), so from the same generator their counts differ: the bot did go to
    the engine named."""
    from cardtable.bots import make_bot

    game = cardtable.make("neuf", engine="python", players=3)
    state = decision(game, 6)
    seat = state.to_move
    assert seat is not None
    counts = []
    for engine in ("core", "python"):
        bot = make_bot(f"ismcts:iterations=200,engine={engine}", "neuf")
        bot.choose(state.view(seat), state.legal_actions(), random.Random(3))
        counts.append(bot.last.visits)  # type: ignore[attr-defined]
    assert counts[0] != counts[1]


@pytest.mark.parametrize("players", [3, 4])
def test_a_neuf_search_by_the_deal_values_each_action_in_points_of_that_deal(
    players: int,
) -> None:
    """``rollout="deal"`` (Neuf, whose deals are scored on their own: NEUF-5.2) values an
    action by the seat's side's tricks over the quota in the deal being played: a whole
    number of tricks each rollout, so each mean lies between minus the quota and the tricks
    left to take above it, and the spreads are those of trick counts."""
    game = cardtable.make("neuf", engine="python", players=players)
    quota = 4 if players == 3 else 6
    for seed in range(6):
        state = decision(game, seed)
        _, visits, values, _, _, spreads = core_search(
            game, state, iterations=300, seed=seed, stop_early=False, rollout="deal"
        )
        assert set(values) == set(visits)
        assert all(-quota <= v <= 13 - quota for v in values.values()), values
        assert all(0.0 <= d <= 13 / 2 for d in spreads.values())
    # The same positions by the game's win chance stay within -1 and 1: another unit.
    guided = core_search(game, decision(game, 0), iterations=300, seed=0, stop_early=False)
    assert all(-1.0 <= v <= 1.0 for v in guided[2].values())


@pytest.mark.parametrize(("name", "options"), GAMES[::2], ids=[n for n, _ in GAMES[::2]])
def test_a_search_by_the_deal_is_refused_where_deals_are_not_scored_alone(
    name: str, options: dict[str, Any]
) -> None:
    game = cardtable.make(name, engine="python", **options)
    with pytest.raises(InvalidBudgetError, match="rollout 'deal' is for a game whose deals"):
        core_search(game, decision(game, 1), iterations=10, rollout="deal")
