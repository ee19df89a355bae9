"""The single-agent Gymnasium environment (cardtable.rl.gymnasium): Gymnasium's own
check_env for every game, whole episodes against bots checked against the engine, and the
bad-input cases.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

import cardtable
from cardtable.bots.base import UnknownBotError
from cardtable.core import Action, View
from cardtable.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    UnknownGameError,
)
from cardtable.rl.gymnasium import ENVIRONMENTS, CardtableEnv
from cardtable.rl.observation import action_mask, encode

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("cardtable/KnockoutWhist-v0", {"players": 3}),
    ("cardtable/KnockoutWhist-v0", {"players": 5, "opponents": "easy"}),
    ("cardtable/Neuf-v0", {"players": 3, "tie_avoidance": True}),
    ("cardtable/Neuf-v0", {"players": 4, "opponents": "easy"}),
    ("cardtable/KrytNavalivat-v0", {"players": 2}),
    ("cardtable/KrytNavalivat-v0", {"players": 3, "trump_mode": "permanent"}),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in opts.items())}" for name, opts in VARIANTS]


@pytest.mark.parametrize(("env_id", "options"), VARIANTS, ids=IDS)
def test_gymnasium_check_env(env_id: str, options: dict[str, Any]) -> None:
    """check_env steps with actions sampled without the mask, so the environment ends the
    episode on an illegal one instead of raising."""
    env = gymnasium.make(env_id, illegal_action="terminate", **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not caught, [str(w.message) for w in caught]


def episode(env: Any, seed: int) -> tuple[float, int, list[np.ndarray]]:
    """One whole game with random legal actions, each observation checked against the
    engine; the final reward, the number of agent steps and the observations."""
    observation, info = env.reset(seed=seed)
    base = env.unwrapped
    play = np.random.default_rng(seed)
    observations = [observation]
    steps = 0
    while True:
        state = base.game_state
        assert state.to_move == base.seat
        view = state.view(base.seat)
        assert np.array_equal(observation, encode(base.game, view))
        assert np.array_equal(info["action_mask"], action_mask(base.game, view))
        action = int(play.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        observations.append(observation)
        steps += 1
        assert not truncated
        if terminated:
            return reward, steps, observations
        assert reward == 0.0


@pytest.mark.parametrize(("env_id", "options"), VARIANTS, ids=IDS)
def test_an_episode_is_a_game_and_its_reward_the_agents_return(
    env_id: str, options: dict[str, Any]
) -> None:
    env = gymnasium.make(env_id, **options)
    reward, steps, _ = episode(env, seed=2)
    base = env.unwrapped
    assert isinstance(base, CardtableEnv)
    result = base.game_state.result
    assert result is not None and steps > 0
    assert reward == result.returns[base.seat]


def test_the_same_seed_gives_the_same_episode() -> None:
    first = gymnasium.make("cardtable/Neuf-v0", opponents="easy", seat=None)
    second = gymnasium.make("cardtable/Neuf-v0", opponents="easy", seat=None)
    one, two = episode(first, seed=8), episode(second, seed=8)
    assert one[:2] == two[:2]
    assert all(np.array_equal(a, b) for a, b in zip(one[2], two[2], strict=True))


def test_a_seat_drawn_at_each_reset_takes_every_seat() -> None:
    env = CardtableEnv("knockout-whist", seat=None, players=4)
    seats = set()
    for seed in range(30):
        env.reset(seed=seed)
        seats.add(env.seat)
        assert env.game_state.to_move == env.seat
    assert seats == {0, 1, 2, 3}


def test_a_knocked_out_agent_sees_the_bots_finish_the_game() -> None:
    """Knockout Whist goes on without a player knocked out (KOW-5): the agent's last step
    lets the bots play to the end, and the episode ends there with the agent's return."""
    env = CardtableEnv("knockout-whist", players=5, opponents="easy")
    for seed in range(40):
        reward, _, _ = episode(env, seed=seed)
        view = env.game_state.view(env.seat)
        if view["statuses"][env.seat] == "out":
            assert view["winner"] != env.seat
            assert reward == pytest.approx(-1 / 4)
            return
    pytest.fail("the agent never went out in 40 games")


def test_max_actions_truncates_an_episode() -> None:
    env = CardtableEnv("kryt-navalivat", players=2, max_actions=40)
    _, info = env.reset(seed=1)
    truncated = terminated = False
    while not (truncated or terminated):
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = env.step(action)
    assert truncated and not terminated and reward == 0.0
    assert 40 <= len(env.game_state.history) <= 41  # the agent's action may be the 41st
    with pytest.raises(GameOverError):
        env.step(action)


def test_render_draws_the_table_from_the_agents_seat() -> None:
    env = gymnasium.make("cardtable/Neuf-v0", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and "agent" in text and "Your hand" in text
    assert CardtableEnv("neuf").render() is None


def test_every_registered_id_makes_its_game() -> None:
    for env_id, game in ENVIRONMENTS.items():
        assert env_id in gymnasium.registry
        base = gymnasium.make(env_id).unwrapped
        assert isinstance(base, CardtableEnv) and base.game.name == game


# Bad input --------------------------------------------------------------------------------


def test_an_illegal_action_is_refused_by_name_and_changes_nothing() -> None:
    env = CardtableEnv("knockout-whist", players=3)
    _, info = env.reset(seed=7)
    before = env.game_state.position()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    text = str(env.game.actions[illegal])
    with pytest.raises(IllegalActionError, match=rf"action {illegal} \({text}\) is not legal"):
        env.step(illegal)
    assert env.game_state.position() == before
    legal = int(np.flatnonzero(info["action_mask"])[0])
    env.step(legal)  # the episode goes on


def test_an_illegal_action_can_end_the_episode_instead() -> None:
    env = CardtableEnv("neuf", illegal_action="terminate")
    _, info = env.reset(seed=7)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, illegal)
    with pytest.raises(GameOverError, match="reset"):
        env.step(illegal)


@pytest.mark.parametrize("game", ["knockout-whist", "neuf", "kryt-navalivat"])
def test_action_masks_is_the_info_mask_as_booleans_and_empty_once_over(game: str) -> None:
    """``action_masks()`` (sb3-contrib's ``MaskablePPO`` convention) says at every step what
    ``info["action_mask"]`` says, as booleans; nothing once the episode is over."""
    env = CardtableEnv(game, seat=None)
    with pytest.raises(ResetNeeded):
        env.action_masks()
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    done = False
    while not done:
        masks = env.action_masks()
        assert masks.dtype == np.bool_
        np.testing.assert_array_equal(masks, info["action_mask"] == 1)
        legal = env.game_state.legal_action_ids()
        assert sorted(np.flatnonzero(masks).tolist()) == sorted(legal)
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(masks))))
        done = terminated or truncated
    assert not env.action_masks().any()


def test_action_masks_is_empty_after_an_illegal_action_ended_the_episode() -> None:
    env = CardtableEnv("neuf", illegal_action="terminate")
    _, info = env.reset(seed=7)
    assert env.action_masks().any()
    env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert not env.action_masks().any()


@pytest.mark.parametrize("action", [57, -3, None, "play 7C", 2.0, np.True_])
def test_what_is_no_action_number_is_refused(action: Any) -> None:
    env = CardtableEnv("knockout-whist", players=3)
    env.reset(seed=7)
    before = env.game_state.position()
    with pytest.raises(InvalidActionError):
        env.step(action)
    assert env.game_state.position() == before


def test_stepping_before_reset_is_an_error() -> None:
    env = CardtableEnv("neuf")
    with pytest.raises(ResetNeeded):
        env.step(52)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"game": "whist"}, UnknownGameError, "unknown game 'whist'"),
        ({"game": "neuf", "players": 2}, InvalidOptionError, "players"),
        ({"game": "neuf", "trump": "H"}, InvalidOptionError, "no option 'trump'"),
        ({"game": "neuf", "opponents": "genius"}, UnknownBotError, "genius"),
        ({"game": "neuf", "opponents": ["easy"]}, ValueError, "needs 2"),
        ({"game": "neuf", "seat": 3}, ValueError, "seat 0-2"),
        ({"game": "neuf", "render_mode": "human"}, ValueError, "human"),
        ({"game": "neuf", "illegal_action": "ignore"}, ValueError, "ignore"),
        ({"game": "neuf", "max_actions": -1}, ValueError, "max_actions"),
    ],
)
def test_bad_options_are_refused(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        CardtableEnv(**options)


def test_the_engine_game_is_the_one_asked_for() -> None:
    env = CardtableEnv("kryt-navalivat", players=4, trump_mode="permanent")
    assert (
        env.game.options
        == cardtable.make("kryt-navalivat", players=4, trump_mode="permanent").options
    )
    assert env.action_space == gymnasium.spaces.Discrete(110)


class _PlaysTheFirstCardItHolds:
    """An opponent that ignores the legal actions it is given: its first card, led."""

    name = "first card"

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return cardtable.make("kryt-navalivat").parse_action(f"lead {view['hand'][0]}")


def test_an_opponent_that_plays_an_illegal_action_is_refused_and_changes_nothing() -> None:
    """Opponents' choices are checked: one outside the legal actions they were given raises
    the game's IllegalActionError, and only the agent's own move is on record."""
    env = CardtableEnv("kryt-navalivat", players=2, seat=0)
    _, info = env.reset(seed=4)
    env.bots[0] = _PlaysTheFirstCardItHolds()
    for _ in range(200):
        history = list(env.game_state.history)
        action = int(info["action_mask"].nonzero()[0][0])
        try:
            _, _, terminated, _, info = env.step(action)
        except IllegalActionError as error:
            assert "not legal for seat 1" in str(error)
            assert env.game_state.history == [*history, action]
            assert env.game_state.to_move == 1
            return
        assert not terminated, "the game ended before the opponent chose an illegal action"
    pytest.fail("the opponent never chose an illegal action")
