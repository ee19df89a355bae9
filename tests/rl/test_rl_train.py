"""The training example (examples/ppo_knockout_whist.py): a few seconds of PPO on the batch
environment give finite losses and rewards and move the policy; the same seed gives the
same weights; the trained agent is a bot that plays legal moves in real games."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import cardtable
from cardtable import compiled
from cardtable.bots import make_bot
from cardtable.rl.observation import action_mask, encode
from scripts_loader import load_script

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the core is not built")


@pytest.fixture(scope="module")
def example() -> Any:
    return load_script("examples/ppo_knockout_whist.py")


def tiny(example: Any, seed: int = 3, stages: list[tuple[str, int]] | None = None) -> Any:
    return example.Config(
        schedule=stages or [("random", 3)],
        num_games=16,
        steps=30,
        epochs=2,
        minibatch=160,
        hidden=16,
        seed=seed,
        report=10,
        verbose=False,
    )


def test_a_few_updates_train_and_change_the_policy(example: Any) -> None:
    config = tiny(example, stages=[("random", 2), ("guided", 2)])
    rng = np.random.default_rng(config.seed)
    start = example.Policy.initial(455, 57, config.hidden, rng)
    before = {name: value.copy() for name, value in start.params.items()}
    policy, stats = example.train(config, start)
    assert len(stats.losses) == 4 and all(np.isfinite(stats.losses))
    assert all(np.isfinite(stats.entropies)) and all(e > 0 for e in stats.entropies)
    # 16 games × 30 agent steps an update finish some games (about 25 agent steps each).
    assert len(stats.returns) > 0 and np.isfinite(stats.returns).all()
    assert all(-0.5 <= r <= 1.0 for r in stats.returns)
    assert [kind for kind, _ in stats.stages] == ["random", "guided"]
    for name, value in policy.params.items():
        assert np.isfinite(value).all(), name
        assert not np.array_equal(value, before[name]), f"{name} did not change"
    points = stats.curve(config.report)
    assert points and all(np.isfinite(mean) for _, _, mean, _ in points)


def test_the_same_seed_gives_the_same_weights(example: Any) -> None:
    first, stats_a = example.train(tiny(example, seed=5))
    second, stats_b = example.train(tiny(example, seed=5))
    assert stats_a.returns == stats_b.returns
    for name in first.params:
        np.testing.assert_array_equal(first.params[name], second.params[name])
    other, _ = example.train(tiny(example, seed=6))
    assert not np.array_equal(other.params["w1"], first.params["w1"])


def test_saved_weights_load_and_the_curve_is_written(example: Any, tmp_path: Path) -> None:
    policy, stats = example.train(tiny(example))
    path = tmp_path / "agent.npz"
    policy.save(path)
    loaded = example.Policy.load(path)
    for name in policy.params:
        np.testing.assert_array_equal(loaded.params[name], policy.params[name])
    points = example.write_curve(stats, 10, tmp_path / "curve.csv")
    lines = (tmp_path / "curve.csv").read_text().splitlines()
    assert lines[0] == "games,opponents,mean_return,win_rate" and len(lines) == len(points) + 1


def test_the_agent_bot_plays_legal_moves_from_the_view(
    example: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy, _ = example.train(tiny(example))
    path = tmp_path / "agent.npz"
    policy.save(path)
    monkeypatch.setenv("CARDTABLE_AGENT_WEIGHTS", str(path))
    game = cardtable.make("knockout-whist", players=3)
    agent = example.Agent()
    bots = [agent, make_bot("random", game.name), make_bot("easy", game.name)]
    rng = random.Random(0)
    for seed in range(3):
        state = game.new_state(seed=seed)
        agent_moves = 0
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            legal = state.legal_actions()
            action = bots[(seat + seed) % 3].choose(view, legal, rng)
            assert action in legal
            if bots[(seat + seed) % 3] is agent:
                agent_moves += 1
                # The bot's choice is the policy's greedy one on the view's encoding.
                number = policy.greedy(encode(game, view), action_mask(game, view))
                assert game.action_to_int(action) == number
            state.apply(action)
        assert agent_moves > 0


def test_the_committed_agent_is_a_bot_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    """``examples.ppo_knockout_whist:Agent`` loads through make_bot from the repository's
    root, with the committed weights."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "examples" / "ppo_knockout_whist.npz").exists():
        pytest.skip("no trained weights committed")
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.delenv("CARDTABLE_AGENT_WEIGHTS", raising=False)
    bot = make_bot("examples.ppo_knockout_whist:Agent", "knockout-whist")
    game = cardtable.make("knockout-whist", players=3)
    state = game.new_state(seed=11)
    rng = random.Random(1)
    while not state.is_over:
        legal = state.legal_actions()
        action = bot.choose(state.view(state.to_move), legal, rng)
        assert action in legal
        state.apply(action)
