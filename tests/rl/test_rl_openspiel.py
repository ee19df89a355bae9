"""The games as OpenSpiel Python games (cardtable.rl.openspiel): OpenSpiel's own
conformance test, its Python ISMCTS, the card-by-card chance model, resampling and
serialization."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found, import-untyped, unused-ignore]  # noqa: E402

from cardtable.cards import Card  # noqa: E402
from cardtable.errors import GameOverError, IllegalActionError, InvalidOptionError  # noqa: E402
from cardtable.rl.observation import encode  # noqa: E402
from cardtable.rl.openspiel import (  # noqa: E402
    GAME_NAMES,
    CardtableGame,
    CardtableState,
    register,
)

VARIANTS = [
    "python_cardtable_knockout_whist",
    "python_cardtable_knockout_whist(players=2)",
    "python_cardtable_knockout_whist(players=5,dealer=3)",
    "python_cardtable_neuf",
    "python_cardtable_neuf(players=4)",
    "python_cardtable_neuf(dealer_exchanges_first=True,tie_avoidance=True,dealer=2)",
    "python_cardtable_neuf(trump_sequence=SHDC-NT)",
    "python_cardtable_kryt_navalivat",
    "python_cardtable_kryt_navalivat(players=4,trump_mode=permanent)",
]


def _random_step(state: CardtableState, rng: random.Random) -> int:
    if state.is_chance_node():
        outcomes = [outcome for outcome, _ in state.chance_outcomes()]
        action = rng.choice(outcomes)
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return int(action)


def _deal_through(state: CardtableState, rng: random.Random) -> None:
    while state.is_chance_node():
        _random_step(state, rng)


@pytest.mark.parametrize("name", VARIANTS)
def test_openspiel_random_sim_test_passes(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_register_is_idempotent_and_names_the_three_games() -> None:
    register()
    register()
    assert set(GAME_NAMES) <= set(pyspiel.registered_names())
    assert GAME_NAMES == (
        "python_cardtable_knockout_whist",
        "python_cardtable_neuf",
        "python_cardtable_kryt_navalivat",
    )


def test_game_info_follows_the_engine() -> None:
    game = pyspiel.load_game("python_cardtable_kryt_navalivat(players=3)")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 110
    assert game.max_chance_outcomes() == 36
    assert (game.min_utility(), game.max_utility()) == (-1.0, 0.5)
    neuf = pyspiel.load_game("python_cardtable_neuf")
    assert (neuf.min_utility(), neuf.max_utility()) == (-2.0, 1.0)
    assert neuf.get_parameters()["trump_sequence"] == "HDCS-NT"


# Chance ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "pack"),
    [("python_cardtable_knockout_whist(players=3)", 52), ("python_cardtable_kryt_navalivat", 36)],
)
def test_chance_outcomes_are_the_cards_left_and_sum_to_one(name: str, pack: int) -> None:
    state = pyspiel.load_game(name).new_initial_state()
    rng = random.Random(3)
    drawn: list[int] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert sorted(o for o, _ in outcomes) == sorted(set(range(pack)) - set(drawn))
        assert len({p for _, p in outcomes}) == 1
        drawn.append(_random_step(state, rng))
    # The last card needs no chance node of its own.
    assert len(drawn) == pack - 1


def test_first_deck_is_the_cards_drawn_in_order() -> None:
    game = pyspiel.load_game("python_cardtable_kryt_navalivat")
    state = game.new_initial_state()
    order = list(range(35, 0, -1))
    for outcome in order:
        state.apply_action(outcome)
    assert state.engine is not None
    pack = state.engine.game.pack
    expected = [str(Card.from_index(pack[o])) for o in [*order, 0]]
    assert state.engine.record().decks == [expected]


@pytest.mark.parametrize(
    "name", ["python_cardtable_knockout_whist(players=3)", "python_cardtable_neuf"]
)
def test_every_later_deal_is_drawn_card_by_card_before_the_action_that_needs_it(
    name: str,
) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(11)
    events: list[list[str]] = []
    drawn: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            # The 52-card pack: an outcome is the card's index.
            drawn.append(str(Card.from_index(_random_step(state, rng))))
            continue
        if drawn:
            events.append(drawn)
            drawn = []
        decks_before = len(state.engine.record().decks)
        _random_step(state, rng)
        if state.is_chance_node():
            # The waiting action has not reached the engine yet.
            assert len(state.engine.record().decks) == decks_before
    record = state.engine.record()
    assert len(record.decks) >= 2  # the game dealt again
    # Each deck and reshuffle is the cards drawn for it, in order, and then the one left.
    assert [e for e in events if len(e) == 51] == [deck[:51] for deck in record.decks]
    assert [e for e in events if len(e) < 51] == [r[:-1] for r in record.reshuffles]


# Errors --------------------------------------------------------------------------------------


def test_bad_parameters_give_specific_errors() -> None:
    with pytest.raises(InvalidOptionError, match="neuf is for 3 players"):
        pyspiel.load_game("python_cardtable_neuf(players=9)")
    with pytest.raises(InvalidOptionError, match="trump_mode must be 'turned' or 'permanent'"):
        pyspiel.load_game("python_cardtable_kryt_navalivat(trump_mode=sideways)")
    with pytest.raises(InvalidOptionError, match="a rule of the 3-player game"):
        pyspiel.load_game("python_cardtable_neuf(players=4,tie_avoidance=True)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("python_cardtable_neuf(colour=1)")
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter tie_avoidance"):
        pyspiel.load_game("python_cardtable_neuf(tie_avoidance=1)")
    spec = pyspiel.load_game("python_cardtable_neuf").spec
    with pytest.raises(InvalidOptionError, match="has no parameter 'colour'"):
        CardtableGame(spec, {"colour": 1})


def test_stepping_a_finished_game_errors_and_changes_nothing() -> None:
    state = pyspiel.load_game("python_cardtable_knockout_whist(players=2)").new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        _random_step(state, rng)
    before, history = str(state), state.history()
    with pytest.raises(GameOverError, match="the game is over"):
        state.apply_action(0)
    assert (str(state), state.history()) == (before, history)
    assert state.legal_actions() == []
    assert sum(state.returns()) == pytest.approx(0.0)


def test_illegal_actions_and_outcomes_error_and_change_nothing() -> None:
    state = pyspiel.load_game("python_cardtable_knockout_whist(players=3)").new_initial_state()
    with pytest.raises(IllegalActionError, match="chance outcome 60 is not a card left"):
        state.apply_action(60)
    state.apply_action(4)
    with pytest.raises(IllegalActionError, match="chance outcome 4 is not a card left"):
        state.apply_action(4)
    _deal_through(state, random.Random(1))
    illegal = next(a for a in range(57) if a not in state.legal_actions())
    before = str(state)
    with pytest.raises(IllegalActionError, match=f"action {illegal} is not legal for seat"):
        state.apply_action(illegal)
    assert str(state) == before


# Observations --------------------------------------------------------------------------------


def test_strings_and_tensors_are_the_seats_view() -> None:
    game = pyspiel.load_game("python_cardtable_neuf")
    state = game.new_initial_state()
    assert state.observation_string(0) == "seat 0: the first deal is being drawn"
    assert not np.any(state.observation_tensor(0))
    rng = random.Random(2)
    _deal_through(state, rng)
    for _ in range(5):
        _random_step(state, rng)
    engine = state.engine
    for seat in range(3):
        view = engine.view(seat)
        expected = encode(engine.game, view)
        np.testing.assert_array_equal(np.array(state.observation_tensor(seat)), expected)
        np.testing.assert_array_equal(np.array(state.information_state_tensor(seat)), expected)
        assert state.observation_string(seat).startswith('{"')
        own = ", ".join(str(engine.game.actions[a]) for a in state.own_actions(seat))
        assert state.information_state_string(seat).endswith(f"\nown actions: {own}")
    # Another seat's hand is nowhere in seat 0's strings or tensor.
    hidden = engine.view(1)["hand"]
    assert not any(f'"{card}"' in state.information_state_string(0) for card in hidden)


# Resampling ----------------------------------------------------------------------------------


def _states_along_a_game(name: str, seed: int, every: int) -> list[CardtableState]:
    state = pyspiel.load_game(name).new_initial_state()
    rng = random.Random(seed)
    found: list[CardtableState] = []
    step = 0
    while not state.is_terminal() and len(found) < 12:
        if not state.is_chance_node() and step % every == 0:
            found.append(state.clone())
        _random_step(state, rng)
        step += 1
    return found


def _hand(state: CardtableState, seat: int) -> list[str]:
    view = state.view(seat)
    assert view is not None
    hand: list[str] = view["hand"]
    return hand


@pytest.mark.parametrize(
    "name",
    [
        "python_cardtable_knockout_whist(players=3)",
        "python_cardtable_neuf",
        "python_cardtable_kryt_navalivat(players=3)",
    ],
)
def test_resampling_keeps_the_information_state_and_plays_on(name: str) -> None:
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for state in _states_along_a_game(name, seed=4, every=7):
        for player in range(state.num_players()):
            sample = state.resample_from_infostate(player, sampler)
            assert sample.information_state_string(player) == state.information_state_string(player)
            np.testing.assert_array_equal(
                sample.information_state_tensor(player), state.information_state_tensor(player)
            )
            # Never a contradiction: same hand, same public cards, same turn.
            assert sample.view(player) == state.view(player)
            assert sample.current_player() == state.current_player()
            if player == state.current_player():
                assert sample.legal_actions() == state.legal_actions()
            others = [s for s in range(state.num_players()) if s != player]
            hands = [_hand(sample, s) for s in others]
            differed += hands != [_hand(state, s) for s in others]
        # A sample is a state like any other: it plays to the end.
        rng = random.Random(9)
        while not sample.is_terminal():
            _random_step(sample, rng)
        assert sum(sample.returns()) == pytest.approx(0.0)
    assert differed > 0


def test_resampling_while_a_deal_waits_only_for_the_seat_that_acted() -> None:
    state = pyspiel.load_game("python_cardtable_knockout_whist(players=2)").new_initial_state()
    rng = random.Random(8)
    _deal_through(state, rng)
    actor = -1
    while not state.is_chance_node():
        actor = state.current_player()
        _random_step(state, rng)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    sample = state.resample_from_infostate(actor, sampler)
    assert sample.is_chance_node()
    assert sample.information_state_string(actor) == state.information_state_string(actor)
    with pytest.raises(ValueError, match="resample at a decision node"):
        state.resample_from_infostate(1 - actor, sampler)
    with pytest.raises(ValueError, match="player_id must be a seat 0-1"):
        state.resample_from_infostate(2, sampler)


# Serialization -------------------------------------------------------------------------------


def _same_future(a: Any, b: Any, seed: int) -> None:
    """Both states take the same actions to the end, looking the same all the way."""
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    while not a.is_terminal():
        assert str(a) == str(b)
        _random_step(a, rng_a)
        _random_step(b, rng_b)
    assert b.is_terminal() and a.returns() == b.returns()


@pytest.mark.parametrize(
    "name", ["python_cardtable_knockout_whist(players=3)", "python_cardtable_kryt_navalivat"]
)
def test_serialization_round_trips(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(6)
    for _ in range(20):  # part way through the first deal
        _random_step(state, rng)
    checked = []
    for stop in (0, 30, 30):
        for _ in range(stop):
            if not state.is_terminal():
                _random_step(state, rng)
        copy_game, copy = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state)
        )
        assert str(copy_game) == str(game)
        assert str(copy) == str(state) and copy.history() == state.history()
        for player in range(game.num_players()):
            assert copy.information_state_string(player) == state.information_state_string(player)
        checked.append(str(state))
        _same_future(state.clone(), copy, seed=len(checked))
    _deal_through(state, rng)
    sample = state.resample_from_infostate(
        state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0)
    )
    _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, sample))
    assert str(copy) == str(sample)
    _same_future(sample, copy, seed=99)


# OpenSpiel's Python ISMCTS ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "simulations", "searching"),
    [
        ("python_cardtable_knockout_whist(players=3)", 6, {0, 1, 2}),
        # Random Kryt'-navalivat' hands run to hundreds of turns: one seat searches.
        ("python_cardtable_kryt_navalivat", 2, {0}),
    ],
)
def test_openspiel_ismcts_plays_to_the_end(
    name: str, simulations: int, searching: set[int]
) -> None:
    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game, evaluator, 2.0, max_simulations=simulations, random_state=np.random.RandomState(2)
    )
    state = game.new_initial_state()
    rng = random.Random(3)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _random_step(state, rng)
            continue
        if state.current_player() not in searching:
            _random_step(state, rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    returns = state.returns()
    assert decisions > 10
    assert sum(returns) == pytest.approx(0.0)
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
