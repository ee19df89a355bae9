"""Batches of games stepped in the core (cardtable.rl.vector).

Step by step, every game's observation and mask equal the Python encoder's on the same
state (the game rebuilt from the core's position), its reward is 0 until the game ends and
then its seat's share of the returns; finished games are dealt again (both auto-reset
modes); a seed gives the same games whatever the batch size and thread count; bad input is
refused naming the game and changes nothing; ``gymnasium.make_vec`` gives the batch as a
``VectorEnv``. The opponents draw from the core's generators, not from the single
environment's Python bots, so the two environments are compared through the definitions
(encoder, masks, returns) rather than trajectory for trajectory.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.spaces import Box

from cardtable import compiled
from cardtable.errors import IllegalActionError, InvalidActionError, InvalidOptionError
from cardtable.rl.observation import action_mask, encode, layout

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the core is not built")

from cardtable.rl.vector import BatchEnv, CardtableVectorEnv, default_threads  # noqa: E402

# (game, options, batch settings): every game, fixed and drawn seats, both opponents,
# self-play, both auto-resets, and a truncation.
CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("knockout-whist", {"players": 3}, {"opponents": "random"}),
    ("knockout-whist", {"players": 5}, {"opponents": "guided", "seat": None}),
    ("knockout-whist", {"players": 3}, {"opponents": "self"}),
    ("neuf", {"players": 3}, {"opponents": ["guided", "random"], "autoreset": "same_step"}),
    ("neuf", {"players": 4}, {"opponents": "self", "autoreset": "same_step", "max_actions": 40}),
    ("kryt-navalivat", {"players": 2}, {"opponents": "guided", "max_actions": 60}),
    ("kryt-navalivat", {"players": 3}, {"opponents": "random", "seat": None, "max_actions": 90}),
]
IDS = [f"{g}-{o}-{s}" for g, o, s in CASES]


def last_legal(masks: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """A fixed legal choice per row (the highest legal action; 0 for an empty row)."""
    width = masks.shape[-1]
    highest = width - 1 - np.argmax(masks[..., ::-1], axis=-1)
    return np.where(masks.any(axis=-1), highest, 0).astype(np.int64)


def agent_actions(batch: BatchEnv, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    return batch.sample_actions(rng)


def check_game(batch: BatchEnv, i: int, where: str) -> None:
    """Game ``i``'s rows against the Python engine on the state its position gives."""
    game = batch.game
    state = batch.state(i)
    assert batch.to_move[i] == (-1 if state.to_move is None else state.to_move), where
    seats = range(game.num_players) if batch.self_play else [int(batch.seats[i])]
    for k, seat in enumerate(seats):
        view = state.view(seat)
        obs = batch.observations[i, k] if batch.self_play else batch.observations[i]
        mask = batch.masks[i, k] if batch.self_play else batch.masks[i]
        expected = encode(game, view)
        assert obs.tobytes() == expected.tobytes(), f"{where}: seat {seat}'s observation"
        assert np.array_equal(mask, action_mask(game, view)), f"{where}: seat {seat}'s mask"
        if state.to_move == seat:
            assert np.flatnonzero(mask).tolist() == state.legal_action_ids(), where


@pytest.mark.parametrize(("name", "options", "settings"), CASES, ids=IDS)
def test_every_step_equals_the_python_engine(
    name: str, options: dict[str, Any], settings: dict[str, Any]
) -> None:
    games = 5
    batch = BatchEnv(name, num_games=games, threads=2, **settings, **options)
    same_step = settings.get("autoreset") == "same_step"
    batch.reset(seed=11)
    for i in range(games):
        check_game(batch, i, f"game {i} after reset")
    rng = np.random.default_rng(5)
    ended = [0] * games
    truncated = 0
    pending = np.zeros(games, dtype=bool)  # next-step games waiting to be dealt again
    for step in range(80):
        actions = agent_actions(batch, rng)
        batch.step(actions)
        for i in range(games):
            where = f"game {i}, step {step}"
            done = bool(batch.terminations[i] or batch.truncations[i])
            rewards = batch.rewards[i]
            if pending[i]:  # dealt again: a new game's first rows, reward 0
                assert not done and not np.any(rewards), where
            if done:
                ended[i] += 1
            if batch.truncations[i]:
                truncated += 1
                assert not batch.terminations[i], where
                if not same_step:
                    assert not batch.state(i).is_over, where
            if batch.terminations[i] and not same_step:
                final = batch.state(i)  # the finished game, until its next step
                assert final.result is not None, where
                returns = np.asarray(final.result.returns, dtype=np.float32)
                want = returns if batch.self_play else returns[batch.seats[i]]
                assert np.array_equal(rewards, want), where
            elif batch.terminations[i] and batch.self_play:
                # Dealt again already: the returns are gone, but they sum to zero.
                assert np.isclose(np.sum(rewards), 0.0, atol=1e-6), where
            elif not batch.terminations[i]:
                assert not np.any(rewards), where
            check_game(batch, i, where)
            pending[i] = done and not same_step
    assert sum(ended) > 0, "no game ended: the test saw no reward"
    assert (truncated > 0) == ("max_actions" in settings)


def test_same_step_and_next_step_give_the_same_games() -> None:
    """One game under each auto-reset, given the same actions: the same-step batch's final
    observation and reward are the next-step batch's terminal ones, and its next game's first
    observation is what the next-step batch deals at its following step."""
    kw: dict[str, Any] = {"players": 3, "opponents": "random", "seat": None}
    same = BatchEnv("knockout-whist", num_games=1, autoreset="same_step", **kw)
    nxt = BatchEnv("knockout-whist", num_games=1, **kw)
    same.reset(seed=3)
    nxt.reset(seed=3)
    rng = np.random.default_rng(0)
    episodes = 0
    while episodes < 4:
        assert np.array_equal(same.observations, nxt.observations)
        assert np.array_equal(same.masks, nxt.masks)
        actions = same.sample_actions(rng)
        same.step(actions)
        nxt.step(actions)
        assert np.array_equal(same.rewards, nxt.rewards)
        assert np.array_equal(same.terminations, nxt.terminations)
        if nxt.terminations[0]:
            episodes += 1
            assert np.array_equal(same.final_observations, nxt.observations)
            assert not nxt.masks.any()
            nxt.step(np.array([12345]))  # ignored: the game is dealt again
            assert not nxt.rewards.any() and not nxt.terminations.any()


def trajectory(
    num_games: int, threads: int, steps: int, games: int, **settings: Any
) -> list[npt.NDArray[Any]]:
    batch = BatchEnv("knockout-whist", num_games=num_games, threads=threads, **settings)
    batch.reset(seed=2024)
    rows: list[npt.NDArray[Any]] = [batch.observations[:games].copy()]
    for _ in range(steps):
        batch.step(last_legal(batch.acting_masks()))
        for array in (batch.observations, batch.rewards, batch.terminations, batch.seats):
            rows.append(array[:games].copy())
    return rows


@pytest.mark.parametrize(
    "settings",
    [
        {"players": 3, "opponents": ["random", "guided"], "seat": None},
        {"players": 4, "opponents": "self"},
    ],
    ids=["opponents", "self-play"],
)
def test_a_seed_gives_the_same_games_whatever_the_batch_and_threads(
    settings: dict[str, Any],
) -> None:
    steps = 150
    one = trajectory(1, 1, steps, 1, **settings)
    many = trajectory(100, 1, steps, 100, **settings)
    # Threads take 256 games at the least: 600 games are stepped on 2 threads, 1,100 on 2
    # with other runs of games.
    threaded = trajectory(600, 2, steps, 100, **settings)
    wider = trajectory(1100, 2, steps, 100, **settings)
    for a, b, c, d in zip(one, many, threaded, wider, strict=True):
        assert np.array_equal(a, b[:1])
        assert np.array_equal(b, c)
        assert np.array_equal(b, d)
    # ...and different games differ, as do different seeds.
    assert not np.array_equal(many[0][0], many[0][1])
    other = BatchEnv("knockout-whist", num_games=1, **settings)
    other.reset(seed=2025)
    assert not np.array_equal(other.observations[:1], one[0])


def test_seeds_per_game_and_carrying_on() -> None:
    from cardtable._core import game_seed

    a = BatchEnv("neuf", num_games=3, players=3)
    b = BatchEnv("neuf", num_games=3, players=3)
    a.reset(seed=9)
    b.reset(seed=[game_seed(9, i) for i in range(3)])
    assert [a.position(i) for i in range(3)] == [b.position(i) for i in range(3)]
    first = [a.position(i) for i in range(3)]
    a.reset()  # each game's generator carries on: new deals
    b.reset()
    assert [a.position(i) for i in range(3)] == [b.position(i) for i in range(3)]
    assert [a.position(i) for i in range(3)] != first
    c = BatchEnv("neuf", num_games=3, players=3)
    c.reset()  # unseeded: fresh entropy
    c.step(c.sample_actions())


@pytest.mark.parametrize(
    ("name", "options", "opponents"),
    [
        ("knockout-whist", {"players": 3}, "random"),
        ("neuf", {"players": 4}, "self"),
        ("kryt-navalivat", {"players": 2}, "random"),
    ],
)
def test_the_cores_random_actions_are_legal_uniform_and_the_same_whatever_the_threads(
    name: str, options: dict[str, Any], opponents: str
) -> None:
    """sample_actions() draws in the core: always a legal action of the seat that acts (0
    where it has none), every legal one about equally often, and game i's draws come from
    its seed alone, whatever the batch size and the threads."""
    batch = BatchEnv(name, num_games=600, opponents=opponents, threads=2, **options)
    wide = BatchEnv(name, num_games=700, opponents=opponents, threads=3, **options)
    batch.reset(seed=3)
    wide.reset(seed=3)
    # How often the lowest legal action is drawn, against 1/k for a row of k legal ones.
    drawn_lowest, expected, variance = 0, 0.0, 0.0
    for _ in range(40):
        masks = batch.acting_masks()
        actions, their_actions = batch.sample_actions(), wide.sample_actions()
        assert np.array_equal(actions, their_actions[:600])
        acting = masks.any(axis=1)
        assert (masks[np.arange(600), actions] == 1)[acting].all()
        assert (actions[~acting] == 0).all()
        for i in np.flatnonzero(acting):
            legal = np.flatnonzero(masks[i])
            drawn_lowest += int(actions[i] == legal[0])
            expected += 1 / len(legal)
            variance += (1 / len(legal)) * (1 - 1 / len(legal))
        batch.step(actions)
        wide.step(their_actions)
    assert variance > 100  # enough rows with a choice to tell
    assert abs(drawn_lowest - expected) <= 4 * variance**0.5, (drawn_lowest, expected)


def test_the_arrays_are_the_cores_own_and_reused() -> None:
    batch = BatchEnv("knockout-whist", num_games=4, players=3)
    observations, masks = batch.reset(seed=1)
    assert observations is batch.core.observations is batch.observations
    assert observations.dtype == np.float32 and observations.flags.c_contiguous
    assert masks.dtype == np.int8 and masks.shape == (4, 57)
    stepped = batch.step(batch.sample_actions())
    assert stepped[0] is observations and stepped[1] is masks
    assert stepped[2].dtype == np.float32 and stepped[3].dtype == np.bool_


def test_bad_actions_are_refused_naming_the_game_and_nothing_changes() -> None:
    batch = BatchEnv("knockout-whist", num_games=6, players=3)
    batch.reset(seed=4)
    positions = [batch.position(i) for i in range(6)]
    observations = batch.observations.copy()
    good = batch.sample_actions(np.random.default_rng(1))
    illegal = int(np.flatnonzero(batch.masks[3] == 0)[0])
    bad = good.copy()
    bad[3] = illegal
    with pytest.raises(IllegalActionError, match=rf"game 3: action {illegal} \(.*\) is not legal"):
        batch.step(bad)
    bad[3] = 57
    with pytest.raises(InvalidActionError, match="game 3: action number 57"):
        batch.step(bad)
    bad[3] = -1
    with pytest.raises(InvalidActionError, match="game 3"):
        batch.step(bad)
    with pytest.raises(ValueError, match=r"shape \(6,\)"):
        batch.step(good[:5])
    with pytest.raises(InvalidActionError, match="integer"):
        batch.step(good.astype(np.float64))
    assert [batch.position(i) for i in range(6)] == positions
    assert np.array_equal(batch.observations, observations)
    batch.step(good.astype(np.int32))  # any integer dtype
    assert [batch.position(i) for i in range(6)] != positions
    with pytest.raises(IndexError, match="game 6"):
        batch.position(6)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"num_games": 0}, "num_games"),
        ({"threads": 0}, "threads"),
        ({"seat": 3}, "seat"),
        ({"opponents": "easy"}, "opponents"),
        ({"opponents": ["random"]}, "opponents"),
        ({"opponents": ["random", "self"]}, "opponents"),
        ({"autoreset": "never"}, "autoreset"),
        ({"max_actions": 0}, "max_actions"),
    ],
)
def test_bad_settings_are_refused(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BatchEnv("knockout-whist", players=3, **settings)


def test_the_core_refuses_what_the_wrapper_would() -> None:
    twin = BatchEnv("knockout-whist", players=3).core
    assert twin.threads == default_threads() >= 1  # every CPU this process may use
    assert BatchEnv("knockout-whist", players=3, threads=1).core.threads == 1
    with pytest.raises(InvalidOptionError, match="threads"):
        twin.threads = 0
    from cardtable._core import KnockoutWhist

    with pytest.raises(InvalidOptionError, match="2 opponents"):
        KnockoutWhist(players=4).batch(2, opponents=["random", "guided"])
    with pytest.raises(InvalidOptionError, match="'random' or 'guided'"):
        KnockoutWhist(players=3).batch(2, opponents="easy")


def test_gymnasium_make_vec_gives_the_batch() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    import cardtable.rl.gymnasium  # noqa: F401  (registers the ids)
    from cardtable.rl.vector import CardtableVectorEnv

    envs = gymnasium.make_vec(
        "cardtable/KnockoutWhist-v0",
        num_envs=16,
        vectorization_mode="vector_entry_point",
        players=3,
        opponents="guided",
    )
    assert isinstance(envs, CardtableVectorEnv) and isinstance(envs, VectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.single_observation_space.shape == (455,)
    assert envs.observation_space.shape == (16, 455)
    assert envs.action_space.shape == (16,)
    envs = RecordEpisodeStatistics(envs)
    observations, info = envs.reset(seed=0)
    assert envs.observation_space.contains(observations)
    assert info["action_mask"].shape == (16, 57) and info["action_mask"].dtype == np.int8
    again, _ = envs.reset(seed=0)
    assert np.array_equal(again, observations)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(60):
        masks = info["action_mask"]
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        observations, rewards, terminations, truncations, info = envs.step(actions)
        assert envs.observation_space.contains(observations)
        assert rewards.shape == terminations.shape == truncations.shape == (16,)
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            assert np.all(np.isin(info["episode"]["r"][info["_episode"]], [1.0, -0.5]))
    assert episodes > 0
    envs.close()


def test_gymnasium_same_step_reports_final_observations() -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.vector import AutoresetMode

    from cardtable.rl.vector import CardtableVectorEnv

    envs = CardtableVectorEnv(
        "knockout-whist", num_envs=8, players=3, autoreset_mode=AutoresetMode.SAME_STEP, copy=False
    )
    observations, info = envs.reset(seed=[1, 2, 3, 4, 5, 6, 7, 8])
    assert observations is envs.batch.observations  # copy=False: the core's buffers
    seen = 0
    for _ in range(80):
        masks = info["action_mask"]
        observations, _, terminations, _, info = envs.step(last_legal(masks))
        assert info["action_mask"][~terminations].any(axis=1).all()  # always a live game
        if terminations.any():
            seen += 1
            assert info["_final_obs"].tolist() == terminations.tolist()
            for i in np.flatnonzero(terminations):
                assert info["final_obs"][i].shape == (455,)
    assert seen > 0
    with pytest.raises(ValueError, match="self-play"):
        CardtableVectorEnv("knockout-whist", num_envs=2, opponents="self")


@pytest.mark.parametrize(("name", "options", "settings"), CASES, ids=IDS)
def test_int8_observations_are_the_float32_ones_times_the_divisors(
    name: str, options: dict[str, Any], settings: dict[str, Any]
) -> None:
    """observation_dtype=np.int8: each entry times its column's divisor, a quarter of the
    bytes; over the divisors, in float32, exactly the float32 batch's observations (and its
    final observations), step after step of the same games."""
    wide = BatchEnv(name, num_games=64, threads=2, **options, **settings)
    small = BatchEnv(name, num_games=64, observation_dtype=np.int8, **options, **settings)
    divisors = layout(wide.game).column_divisors()
    assert set(np.unique(divisors)) > {1.0}  # some blocks are counts over a divisor
    wide.reset(seed=9)
    small.reset(seed=9)
    assert small.observations.dtype == np.int8
    assert small.observations.shape == wide.observations.shape
    for _ in range(120):
        assert np.array_equal(small.observations.astype(np.float32) / divisors, wide.observations)
        if wide.final_observations.size:  # same-step auto-reset only
            finals = small.final_observations.astype(np.float32) / divisors
            assert np.array_equal(finals, wide.final_observations)
        actions = wide.sample_actions()
        assert np.array_equal(actions, small.sample_actions())
        wide.step(actions)
        small.step(actions)


def test_an_observation_dtype_or_divisors_not_offered_are_refused() -> None:
    with pytest.raises(ValueError, match="float32 or int8"):
        BatchEnv("neuf", players=3, observation_dtype=np.float64)
    with pytest.raises(ValueError, match="float32 or int8"):
        BatchEnv("neuf", players=3, observation_dtype="bits")
    twin = BatchEnv("neuf", players=3).game.twin  # type: ignore[attr-defined]
    with pytest.raises(InvalidOptionError, match="divisors are 505 numbers"):
        twin.batch(2, divisors=[1.0] * 3)
    with pytest.raises(InvalidOptionError, match="from 1 to 127"):
        twin.batch(2, divisors=[0.0] * 505)


def test_the_vector_envs_int8_space_holds_its_observations() -> None:
    envs = CardtableVectorEnv("neuf", num_envs=32, observation_dtype=np.int8, players=3)
    observations, _ = envs.reset(seed=2)
    space = envs.single_observation_space
    assert isinstance(space, Box)
    assert space.dtype == np.int8 and observations.dtype == np.int8
    for _ in range(60):
        assert all(space.contains(row) for row in observations)
        observations, *_ = envs.step(envs.batch.sample_actions())
    # The bounds are the float32 space's times the divisors (Neuf's scores run below 0).
    plain = CardtableVectorEnv("neuf", num_envs=1, players=3).single_observation_space
    assert isinstance(plain, Box)
    divisors = layout(envs.batch.game).column_divisors()
    assert np.array_equal(space.low, np.round(plain.low * divisors))
    assert np.array_equal(space.high, np.round(plain.high * divisors)) and space.low.min() < 0
