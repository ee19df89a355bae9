"""The exact endgame solver of Kryt'-navalivat' as Python sees it.

The solver's values are held equal to brute force and, with a long horizon, to retrograde
analysis of whole small endgames in the core's own tests
(``crates/core/src/kryt_navalivat/solver.rs``); here: a value for every legal action, the
values of the actions that end the hand against the Python rules' own results (KRYT-7.2,
KRYT-7.3), a longer horizon keeping every result it proved, and the binding's refusals.
"""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable import compiled
from cardtable._core import KrytNavalivat as CoreKrytNavalivat
from cardtable._core import KrytNavalivatState as CoreKrytNavalivatState
from cardtable.bots import make_bot
from cardtable.core import State
from cardtable.errors import IllegalActionError, InvalidBudgetError, SolverBudgetError


def core_state(state: State) -> CoreKrytNavalivatState:
    twin = compiled.core_game(state.game, always=True)
    assert isinstance(twin, CoreKrytNavalivat)
    return twin.state_from_position(state.position())


def endgame(seed: int, players: int = 2, cards: int = 8) -> State:
    """A hand played by the heuristic bots until the stock is empty (KRYT-9: every card
    is then known to two players) and the hands hold ``cards`` cards or fewer; another
    hand when one ends or runs long first."""
    rng = random.Random(seed)
    bot = make_bot("heuristic", "kryt-navalivat")
    while True:
        game = cardtable.make("kryt-navalivat", players=players)
        state = game.new_state(seed=rng.randrange(1 << 30))
        for _ in range(2000):  # bots may pass cards to and fro for ever (K-14)
            if state.is_over:
                break
            view = state.view(0)  # counts and the mode are public (KRYT-9)
            held = sum(view["hand_sizes"])
            if view["stock"] == 0 and held <= cards and view["phase"] != "cover":
                return state
            seat = state.to_move
            assert seat is not None
            state.apply(bot.choose(state.view(seat), state.legal_actions(), rng))


def test_the_solver_values_every_legal_action_of_an_endgame() -> None:
    for seed in range(12):
        state = endgame(seed)
        values, nodes = core_state(state).solve()
        assert [action for action, _ in values] == sorted(state.legal_action_ids())
        assert nodes >= 1
        assert {value for _, value in values} <= {-1.0, 0.0, 1.0}
        # Two players: the others against the seat is the game itself.
        assert core_state(state).solve("paranoid")[0] == values


@pytest.mark.parametrize("players", [2, 3])
def test_an_action_that_ends_the_hand_is_worth_the_rules_result(players: int) -> None:
    # KRYT-7.2, KRYT-7.3: within a horizon of one action, each action is worth what the
    # Python rules give the seat once it is played: the fool's -1, the others' share, a
    # draw's 0, and 0 for a hand that goes on.
    ended = 0
    for seed in range(12):
        state = endgame(seed, players, cards=3 * players)
        rng = random.Random(seed)
        bot = make_bot("heuristic", "kryt-navalivat")
        for _ in range(300):  # every decision to the end of the hand (K-14: or a cap)
            if state.is_over:
                break
            seat = state.to_move
            assert seat is not None
            values, _ = core_state(state).solve("paranoid", horizon=1)
            for action, value in values:
                after = state.copy()
                after.apply_id(action)
                result = after.result
                assert value == (result.returns[seat] if result is not None else 0.0)
                ended += result is not None
            state.apply(bot.choose(state.view(seat), state.legal_actions(), rng))
    assert ended > 0


def test_a_longer_horizon_keeps_every_result_it_proved() -> None:
    # A seat that forces its result within some actions forces it within more.
    for seed in range(10):
        position = core_state(endgame(seed, cards=10))
        short = dict(position.solve(horizon=4)[0])
        long = dict(position.solve(horizon=8)[0])
        assert all(long[a] == v for a, v in short.items() if v != 0.0)


def test_the_solver_refuses_what_it_cannot_solve() -> None:
    game = cardtable.make("kryt-navalivat", players=2)
    with pytest.raises(IllegalActionError, match="stock is empty"):
        core_state(game.new_state(seed=3)).solve()
    state = endgame(1)
    position = core_state(state)
    with pytest.raises(InvalidBudgetError, match="max-n"):
        position.solve("optimistic")
    for horizon in (0, -1, 1 << 16):
        with pytest.raises(InvalidBudgetError, match="horizon"):
            position.solve(horizon=horizon)
    with pytest.raises(InvalidBudgetError, match="paranoid"):
        core_state(endgame(2, players=3)).solve("max-n")
    rng = random.Random(0)
    while not state.is_over:
        state.apply_id(rng.choice(state.legal_action_ids()))
    with pytest.raises(IllegalActionError, match="over"):
        core_state(state).solve()


def test_a_solve_past_its_node_budget_is_given_up() -> None:
    """A budget smaller than the solve needs gives ``SolverBudgetError``; a budget just
    large enough gives the unbounded solve's values."""
    for seed in range(6):
        state = core_state(endgame(seed, cards=10))
        values, nodes = state.solve()
        if nodes > 1:
            with pytest.raises(SolverBudgetError, match="budget of 1 nodes"):
                state.solve(nodes=1)
        assert state.solve(nodes=nodes) == (values, nodes)
