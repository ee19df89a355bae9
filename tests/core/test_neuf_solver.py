"""Neuf's exact solver and PIMC over it, as Python sees them.

The solver's values are held equal to brute force on thousands of small positions in the
core's own tests (``crates/core/src/neuf/solver.rs``); here: a value for every legal action
in the deal's own stakes (NEUF-5.2), the models' order, the exchange (NEUF-3), the
binding's errors, PIMC reading nothing but the seat's view (NEUF-9), and the bots' wiring.
"""

from __future__ import annotations

import json
import random

import pytest

import cardtable
from cardtable import compiled
from cardtable._core import Neuf as CoreNeuf
from cardtable.bots import make_bot
from cardtable.bots.pimc import CheaterBot, PimcBot
from cardtable.core import Game, State
from cardtable.errors import IllegalActionError, InvalidBudgetError

THREE = cardtable.make("neuf", players=3)
FOUR = cardtable.make("neuf", players=4)


def core_twin(game: Game) -> CoreNeuf:
    twin = compiled.core_game(game, always=True)
    assert isinstance(twin, CoreNeuf)
    return twin


def late_decision(game: Game, seed: int, tricks_left: int) -> State:
    """A state of a seeded random game of ``game`` in the play phase with at most
    ``tricks_left`` tricks to go (the one in progress counted), where the seat to move has
    a choice."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    while True:
        legal = state.legal_action_ids()
        view = state.view(None)
        left = 13 - sum(view["tricks_won"])
        if view["phase"] == "play" and left <= tricks_left and len(legal) > 1:
            return state
        state.apply_id(rng.choice(legal))
        if state.is_over:
            state = game.new_state(seed=rng.randrange(1 << 30))


@pytest.mark.parametrize("model", ["max-n", "paranoid"])
@pytest.mark.parametrize("game", [THREE, FOUR], ids=["3 players", "4 players"])
def test_the_solver_values_every_legal_card_in_tricks_over_the_quota(
    model: str, game: Game
) -> None:
    # NEUF-5.2, NEUF-8.4: a value is the side's tricks this deal less its quota (4, or 6 a
    # team), so it lies between -quota and 13 - quota, and at least the tricks taken.
    twin = core_twin(game)
    quota = 4 if game.num_players == 3 else 6
    for seed in range(12):
        state = late_decision(game, seed, tricks_left=5)
        view = state.view(None)
        seat = state.to_move
        assert seat is not None
        taken = view["tricks_won"][seat]
        if game.num_players == 4:
            taken += view["tricks_won"][(seat + 2) % 4]
        values, nodes = twin.state_from_position(state.position()).solve(model)
        assert [action for action, _ in values] == sorted(state.legal_action_ids())
        assert nodes >= 1
        assert all(taken - quota <= value <= 13 - quota for _, value in values)
        assert all(value == int(value) for _, value in values)


def test_paranoid_never_values_above_max_n_and_partners_make_them_one() -> None:
    # Paranoid takes both others to play against the seat, so with three players it never
    # values a card above what max-n's self-interested others leave it; with four the
    # partnerships make a two-sided game and the models agree (NEUF-8.4).
    for game in (THREE, FOUR):
        twin = core_twin(game)
        below = 0
        for seed in range(15):
            position = twin.state_from_position(late_decision(game, seed, 5).position())
            paranoid = dict(position.solve("paranoid")[0])
            max_n = dict(position.solve("max-n")[0])
            if game.num_players == 4:
                assert paranoid == max_n
            else:
                assert all(paranoid[a] <= max_n[a] for a in paranoid)
                below += any(paranoid[a] < max_n[a] for a in paranoid)
        if game.num_players == 3:
            assert below > 0, "the models never differed: paranoid is max-n"


def test_the_exchange_is_valued_by_solving_the_deal_that_follows() -> None:
    # NEUF-3.2: EXCHANGE and KEEP each get the deal's value after them, whole tricks over
    # the quota, which differ for some hands.
    twin = core_twin(THREE)
    differ = 0
    for seed in range(4):
        state = THREE.new_state(seed=seed)
        values, nodes = twin.state_from_position(state.position()).solve("paranoid")
        assert [action for action, _ in values] == [52, 53]
        assert nodes > 1
        assert all(-4 <= value <= 9 and value == int(value) for _, value in values)
        differ += values[0][1] != values[1][1]
    assert differ > 0


def test_the_solver_refuses_a_finished_game_and_an_unknown_model() -> None:
    twin = core_twin(THREE)
    state = late_decision(THREE, 1, 5)
    with pytest.raises(InvalidBudgetError, match="max-n"):
        twin.state_from_position(state.position()).solve("optimistic")
    rng = random.Random(0)
    while not state.is_over:
        state.apply_id(rng.choice(state.legal_action_ids()))
    with pytest.raises(IllegalActionError, match="over"):
        twin.state_from_position(state.position()).solve()


def test_pimc_reads_only_what_the_seat_may_see() -> None:
    # NEUF-9: another deal of the cards the seat cannot see (sampled from its own view)
    # gives the same view, and so the same judgement from the same seed.
    twin = core_twin(THREE)
    for seed in range(4):
        state = late_decision(THREE, seed, 6)
        seat = state.to_move
        assert seat is not None
        view = json.dumps(state.view(seat))
        [other] = twin.sample_positions(view, 1, seed + 100)
        redealt = THREE.state_from_position(other)
        assert redealt.view(seat) == state.view(seat)
        assert redealt.position() != state.position()
        first = twin.judge(view, deals=10, seed=seed, model="paranoid")
        second = twin.judge(json.dumps(redealt.view(seat)), deals=10, seed=seed, model="paranoid")
        assert first[:4] == second[:4]  # the seconds taken aside


def test_pimc_counts_its_deals_and_chooses_the_best_mean() -> None:
    twin = core_twin(THREE)
    for seed in range(4):
        state = late_decision(THREE, seed, 6)
        assert state.to_move is not None
        view = json.dumps(state.view(state.to_move))
        for threads in (1, 2):
            action, visits, values, deals, _, _ = twin.judge(
                view, deals=7, seed=seed, threads=threads, model="paranoid"
            )
            assert deals == 7
            assert sorted(values) == sorted(state.legal_action_ids())
            assert set(visits.values()) == {7}
            best = max(values.values())
            assert action == min(a for a, v in values.items() if v == best)
    with pytest.raises(InvalidBudgetError, match="budget"):
        twin.judge(view)
    with pytest.raises(InvalidBudgetError, match="model"):
        twin.judge(view, deals=3, model="hopeful")


def test_a_pimc_bot_plays_a_whole_deal_legally_and_the_cheater_plays_the_best() -> None:
    # PIMC by name for Neuf, paranoid by default (max-n is too slow for a whole deal); the
    # cheater plays the solver's best action on the true deal.
    pimc = make_bot("pimc:deals=2", "neuf")
    assert isinstance(pimc, PimcBot) and pimc.model is None
    easy = make_bot("easy", "neuf")
    cheater = make_bot("cheater", "neuf")
    assert isinstance(cheater, CheaterBot)
    twin = core_twin(THREE)
    rng = random.Random(3)
    state = THREE.new_state(seed=3)
    deal = state.view(None)["deal_number"]
    while not state.is_over and state.view(None)["deal_number"] == deal:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        if seat == 0:
            action = pimc.choose(state.view(seat), legal, rng)
            assert pimc.last is not None and pimc.last.iterations in (0, 2)
        elif seat == 1 and len(legal) > 1:
            values, _ = twin.state_from_position(state.position()).solve("paranoid")
            action = cheater.choose_seeing(state, legal, rng)
            assert dict(values)[THREE.action_to_int(action)] == max(v for _, v in values)
        else:
            action = easy.choose(state.view(seat), legal, rng)
        assert action in legal
        state.apply(action)
    assert state.view(None)["deal_number"] == deal + 1 or state.is_over
