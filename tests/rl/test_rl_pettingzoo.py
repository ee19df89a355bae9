"""The PettingZoo AEC environments (cardtable.rl.pettingzoo): PettingZoo's own conformance
tests (api_test, seed_test, parallel_api_test through turn_based_aec_to_parallel,
render_test) over every game and several variants, whole games against the engine, and
the bad-input cases.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import (  # type: ignore[import-untyped]
    api_test,
    parallel_api_test,
    render_test,
    seed_test,
)
from pettingzoo.utils.conversions import (  # type: ignore[import-untyped]
    turn_based_aec_to_parallel,
)

import cardtable
from cardtable.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    UnknownGameError,
)
from cardtable.rl.observation import action_mask, encode
from cardtable.rl.pettingzoo import ENVIRONMENTS, env, make_env, raw_env

# Kryt'-navalivat' games under random play run to about a thousand actions (docs page,
# "Termination"), so its conformance runs stop after fewer cycles; whole games are played
# to the end below.
VARIANTS: list[tuple[str, dict[str, Any], int]] = [
    ("knockout-whist", {"players": 2}, 200),
    ("knockout-whist", {"players": 3}, 200),
    ("knockout-whist", {"players": 5}, 200),
    ("neuf", {"players": 3, "tie_avoidance": True}, 120),
    ("neuf", {"players": 4}, 120),
    ("kryt-navalivat", {"players": 2}, 100),
    ("kryt-navalivat", {"players": 3, "trump_mode": "permanent"}, 100),
]
IDS = [
    f"{name}-{'-'.join(f'{k}={v}' for k, v in options.items())}" for name, options, _ in VARIANTS
]

# What api_test says of every Dict observation, PettingZoo's classic card games' included.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def only_dict_observation_warnings(caught: list[warnings.WarningMessage]) -> None:
    others = {str(w.message) for w in caught} - DICT_OBSERVATION_WARNINGS
    assert not others, others


@pytest.mark.parametrize(("name", "options", "cycles"), VARIANTS, ids=IDS)
def test_pettingzoo_api_test(name: str, options: dict[str, Any], cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(name, **options), num_cycles=cycles)
    only_dict_observation_warnings(caught)


@pytest.mark.parametrize(("name", "options", "cycles"), VARIANTS, ids=IDS)
def test_pettingzoo_seed_test(name: str, options: dict[str, Any], cycles: int) -> None:
    seed_test(lambda: env(name, **options), num_cycles=cycles)


@pytest.mark.parametrize(("name", "options", "cycles"), VARIANTS, ids=IDS)
def test_pettingzoo_parallel_api_test(name: str, options: dict[str, Any], cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(turn_based_aec_to_parallel(env(name, **options)), num_cycles=cycles)
    assert not caught, [str(w.message) for w in caught]


@pytest.mark.parametrize(("name", "options", "cycles"), VARIANTS, ids=IDS)
def test_pettingzoo_render_test(
    name: str, options: dict[str, Any], cycles: int, capsys: pytest.CaptureFixture[str]
) -> None:
    def make(render_mode: str | None = None) -> Any:
        return env(name, render_mode=render_mode, **options)

    render_test(make, custom_tests={"ansi": lambda text: "player_0" in text})
    assert "player_0" in capsys.readouterr().out  # "human" prints the table


def play_out(table: Any, seed: int, play: random.Random) -> dict[str, float]:
    """A whole game with random legal actions, checking each observation against the
    engine; the rewards each agent collects."""
    table.reset(seed=seed)
    base = table.unwrapped
    game = base.game
    collected = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, info = table.last()
        collected[agent] += reward
        assert info == {}
        if terminated or truncated:
            table.step(None)
            continue
        state = base.game_state
        seat = table.possible_agents.index(agent)
        assert state.to_move == seat
        view = state.view(seat)
        assert np.array_equal(observation["observation"], encode(game, view))
        assert np.array_equal(observation["action_mask"], action_mask(game, view))
        table.step(play.choice(state.legal_action_ids()))
    return collected


@pytest.mark.parametrize(("name", "options", "cycles"), VARIANTS, ids=IDS)
def test_a_whole_game_ends_with_the_engines_returns(
    name: str, options: dict[str, Any], cycles: int
) -> None:
    table = env(name, **options)
    collected = play_out(table, seed=3, play=random.Random(3))
    state = table.unwrapped.game_state
    assert state.is_over and table.agents == []
    assert collected == {f"player_{seat}": value for seat, value in enumerate(state.result.returns)}
    assert sum(collected.values()) == pytest.approx(0.0)
    with pytest.raises(GameOverError, match="call reset"):
        table.unwrapped.step(0)


def test_a_seeded_reset_deals_the_engines_game_for_that_seed() -> None:
    """reset(seed=s) is game.new_state(seed=s), the first dealer drawn from the seed."""
    table = raw_env("neuf", players=3)
    game = cardtable.make("neuf", players=3)
    dealers = set()
    for seed in range(12):
        table.reset(seed=seed)
        assert table.game_state.position() == game.new_state(seed=seed).position()
        dealers.add(table.game_state.view(None)["dealer"])
    assert dealers == {0, 1, 2}


def test_resets_without_a_seed_follow_the_last_seed() -> None:
    first, second = raw_env("knockout-whist", players=4), raw_env("knockout-whist", players=4)
    deals = []
    for table in (first, second):
        table.reset(seed=21)
        positions = [table.game_state.position()]
        for _ in range(3):
            table.reset()
            positions.append(table.game_state.position())
        deals.append(positions)
    assert deals[0] == deals[1]
    assert len(set(deals[0])) == 4


def test_the_turn_based_parallel_env_takes_the_acting_agents_action_only() -> None:
    """turn_based_aec_to_parallel steps the AEC env with the action of the agent to act and
    ignores the rest; it names that agent in each info as ``active_agent``."""
    parallel = turn_based_aec_to_parallel(env("knockout-whist", players=3))
    observations, infos = parallel.reset(seed=4)
    reference = raw_env("knockout-whist", players=3)
    reference.reset(seed=4)
    play = random.Random(4)
    while parallel.agents:
        actor = reference.agent_selection
        assert set(observations) == set(parallel.agents)
        masks = {agent: obs["action_mask"] for agent, obs in observations.items()}
        assert [a for a, mask in masks.items() if mask.any()] == [actor]
        number = play.choice(list(np.flatnonzero(masks[actor])))
        # The others' actions are nonsense on purpose: they must change nothing.
        actions = dict.fromkeys(parallel.agents, 0) | {actor: number}
        observations, rewards, terminations, _, infos = parallel.step(actions)
        reference.step(number)
        while reference.agents and reference.terminations[reference.agent_selection]:
            reference.step(None)
        assert parallel.unwrapped.game_state.position() == reference.game_state.position()
        if parallel.agents:
            assert {info["active_agent"] for info in infos.values()} == {reference.agent_selection}
    assert sum(rewards.values()) == pytest.approx(0.0)
    assert all(terminations.values())


def test_max_actions_truncates_a_game() -> None:
    table = raw_env("kryt-navalivat", players=2, max_actions=30)
    table.reset(seed=1)
    play = random.Random(1)
    steps = 0
    while not any(table.truncations.values()):
        table.step(play.choice(table.game_state.legal_action_ids()))
        steps += 1
    assert steps == 30 and len(table.game_state.history) == 30
    assert not table.game_state.is_over
    assert not any(table.terminations.values())
    assert set(table.rewards.values()) == {0.0}
    while table.agents:
        table.step(None)


def test_observation_and_action_spaces() -> None:
    table = raw_env("kryt-navalivat", players=3)
    assert table.possible_agents == ["player_0", "player_1", "player_2"]
    space = table.observation_space("player_1")
    assert space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (110,) and space["action_mask"].dtype == np.int8
    assert table.action_space("player_2").n == 110
    assert table.metadata["name"] == "cardtable/kryt_navalivat_v0"
    # The spaces are made on first use, once: the dicts and each method give the same ones.
    assert table.observation_spaces["player_1"] is space
    assert table.observation_spaces is table.observation_spaces
    assert table.action_spaces["player_2"] is table.action_space("player_2")
    assert set(table.observation_spaces) == set(table.action_spaces) == set(table.possible_agents)


# Bad input --------------------------------------------------------------------------------


def test_the_raw_env_refuses_an_illegal_action_and_names_it() -> None:
    table = raw_env("knockout-whist", players=3)
    table.reset(seed=7)
    before = table.game_state.position()
    agent = table.agent_selection
    illegal = next(i for i in range(57) if i not in set(table.game_state.legal_action_ids()))
    text = str(table.game.actions[illegal])
    with pytest.raises(IllegalActionError, match=rf"action {illegal} \({text}\) .* {agent}"):
        table.step(illegal)
    assert table.game_state.position() == before and table.agent_selection == agent


@pytest.mark.parametrize("action", [57, -1, None, True, "play 7C", 1.5])
def test_the_raw_env_refuses_what_is_no_action_number(action: Any) -> None:
    table = raw_env("knockout-whist", players=3)
    table.reset(seed=7)
    before = table.game_state.position()
    with pytest.raises(InvalidActionError):
        table.step(action)
    assert table.game_state.position() == before


def test_the_wrapped_env_ends_the_game_on_an_illegal_action(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """PettingZoo's convention (TerminateIllegalWrapper): -1 to the offender, 0 to the rest."""
    table = env("neuf", players=3)
    table.reset(seed=2)
    offender = table.agent_selection
    legal = set(table.unwrapped.game_state.legal_action_ids())
    table.step(next(i for i in range(54) if i not in legal))
    assert "Illegal move made" in caplog.text
    assert all(table.terminations.values())
    assert table.rewards == {
        agent: (-1.0 if agent == offender else 0.0) for agent in table.possible_agents
    }


def test_stepping_a_finished_env_or_one_never_reset_is_an_error() -> None:
    table = raw_env("knockout-whist", players=2)
    with pytest.raises(RuntimeError, match="reset"):
        table.step(0)
    play_out(table, seed=1, play=random.Random(1))
    with pytest.raises(GameOverError, match="call reset"):
        table.step(0)
    table.reset(seed=2)
    assert len(table.agents) == 2


def test_a_dead_agent_may_only_pass_none() -> None:
    table = raw_env("knockout-whist", players=2, max_actions=1)
    table.reset(seed=1)
    table.step(table.game_state.legal_action_ids()[0])
    with pytest.raises(ValueError, match="only valid action is None"):
        table.step(0)


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: raw_env("whist"), UnknownGameError, "unknown game 'whist'"),
        (lambda: raw_env("neuf", players=5), InvalidOptionError, "players"),
        (lambda: raw_env("neuf", trumps="HDCS"), InvalidOptionError, "no option 'trumps'"),
        (lambda: raw_env("kryt-navalivat", trump_mode="fixed"), InvalidOptionError, "fixed"),
        (lambda: raw_env("neuf", render_mode="rgb_array"), ValueError, "rgb_array"),
        (lambda: raw_env("neuf", max_actions=0), ValueError, "max_actions"),
        (lambda: make_env("cardtable/whist_v0"), UnknownGameError, "cardtable/neuf_v0"),
    ],
)
def test_bad_environment_options_are_refused(
    make: Callable[[], Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        make()


def test_every_registered_name_makes_its_game() -> None:
    for name, game in ENVIRONMENTS.items():
        table = make_env(name)
        assert table.unwrapped.game.name == game
        assert table.unwrapped.metadata["name"] == name
    assert make_env("cardtable/neuf_v0", players=4).unwrapped.game.num_players == 4
