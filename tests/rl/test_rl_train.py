"""Training with the libraries of the field (the optional ``train`` extra: PyTorch,
sb3-contrib), skipped where it is not installed: a few hundred steps of the CleanRL-style
PPO of examples/ppo_knockout_whist.py on the batch environment, and of sb3-contrib's
MaskablePPO (examples/maskable_ppo.py) on the Gymnasium and PettingZoo environments. Every
action sent is checked against the mask of the position it is sent to: none is illegal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import cardtable
from cardtable import compiled
from cardtable.rl.gymnasium import CardtableEnv
from cardtable.rl.observation import layout
from cardtable.rl.pettingzoo import raw_env
from cardtable.rl.vector import BatchEnv
from scripts_loader import load_script

pytestmark = [
    pytest.mark.train,
    pytest.mark.skipif(not compiled.available(), reason="the core is not built"),
]


@pytest.fixture(scope="module")
def ppo() -> Any:
    return load_script("examples/ppo_knockout_whist.py")


@pytest.fixture(scope="module")
def maskable() -> Any:
    return load_script("examples/maskable_ppo.py")


@pytest.fixture(scope="module")
def agent_module() -> Any:
    return load_script("examples/knockout_whist_agent.py")


def tiny(ppo: Any, seed: int = 3, stages: list[tuple[str, int]] | None = None) -> Any:
    return ppo.Config(
        schedule=stages or [("random", 3)],
        num_games=16,
        steps=30,
        epochs=2,
        minibatch=160,
        hidden=16,
        seed=seed,
        threads=1,
        report=10,
        verbose=False,
    )


class CheckedBatch(BatchEnv):
    """The real batch environment, which also checks that every action it is sent is legal
    under the mask it handed out for that game, and counts them."""

    sent = 0

    def reset(self, *args: Any, **kwargs: Any) -> Any:
        observations, masks = super().reset(*args, **kwargs)
        self._last_masks = masks.copy()
        return observations, masks

    def step(self, actions: npt.ArrayLike) -> Any:
        chosen = np.asarray(actions)
        assert (self._last_masks[np.arange(len(chosen)), chosen] == 1).all()
        CheckedBatch.sent += len(chosen)
        out = super().step(actions)
        self._last_masks = out[1].copy()
        return out


def test_a_few_updates_train_honour_the_mask_and_change_the_policy(
    ppo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ppo, "BatchEnv", CheckedBatch)
    CheckedBatch.sent = 0
    config = tiny(ppo, stages=[("random", 2), ("random+guided", 2)])
    game = cardtable.make("knockout-whist", players=3)
    start = ppo.Network(layout(game).size, game.num_distinct_actions, config.hidden)
    before = {name: value.copy() for name, value in start.arrays().items()}
    network, stats = ppo.train(config, start)
    assert CheckedBatch.sent == 4 * 16 * 30
    assert len(stats.losses) == 4 and all(np.isfinite(stats.losses))
    assert all(e > 0 for e in stats.entropies)
    # 16 games × 30 agent steps an update finish some games (about 25 agent steps each).
    assert len(stats.returns) > 0 and all(-0.5 <= r <= 1.0 for r in stats.returns)
    assert [kind for kind, _ in stats.stages] == ["random", "random+guided"]
    # The mixed stage plays half its games against each kind, and the curve tells them apart.
    second = stats.stages[1][1]
    assert len(stats.opponents) == len(stats.returns)
    assert set(stats.opponents[:second]) == {"random"}
    assert set(stats.opponents[second:]) == {"random", "guided"}
    assert {kind for _, kind, _, _ in stats.curve(5)} == {"random", "guided"}
    for name, value in network.arrays().items():
        assert np.isfinite(value).all(), name
        assert not np.array_equal(value, before[name]), f"{name} did not change"


def test_the_same_seed_gives_the_same_weights(ppo: Any) -> None:
    first, stats_a = ppo.train(tiny(ppo, seed=5))
    second, stats_b = ppo.train(tiny(ppo, seed=5))
    assert stats_a.returns == stats_b.returns
    for name, value in first.arrays().items():
        np.testing.assert_array_equal(value, second.arrays()[name])
    other, _ = ppo.train(tiny(ppo, seed=6))
    assert not np.array_equal(other.arrays()["w1"], first.arrays()["w1"])


def test_the_saved_arrays_are_the_networks_policy_in_numpy(
    ppo: Any, agent_module: Any, tmp_path: Path
) -> None:
    """What the training saves, read by the NumPy bot, gives the PyTorch network's
    probabilities and values, and the curve is written."""
    import torch

    network, stats = ppo.train(tiny(ppo))
    path = tmp_path / "agent.npz"
    ppo.save(network, path)
    policy = agent_module.Policy.load(path)
    batch = BatchEnv("knockout-whist", num_games=8, players=3, seat=None)
    observations, masks = batch.reset(seed=9)
    log_probs, values = policy.forward(observations, masks)
    with torch.no_grad():
        logits, torch_values = network(torch.from_numpy(observations), torch.from_numpy(masks) > 0)
        torch_log_probs = torch.log_softmax(logits, dim=1).numpy()
    legal = masks > 0
    np.testing.assert_allclose(log_probs[legal], torch_log_probs[legal], atol=1e-4)
    np.testing.assert_allclose(values, torch_values.numpy(), atol=1e-4)
    points = ppo.write_curve(stats, 10, tmp_path / "curve.csv")
    lines = (tmp_path / "curve.csv").read_text().splitlines()
    assert lines[0] == "games,opponents,mean_return,win_rate" and len(lines) == len(points) + 1


class CheckedGymnasium(CardtableEnv):
    """The real Gymnasium environment, which also checks each action against its own
    ``action_masks()`` before playing it."""

    sent = 0

    def step(self, action: Any) -> Any:
        assert self.action_masks()[int(action)], f"illegal action {action}"
        CheckedGymnasium.sent += 1
        return super().step(action)


class CheckedPettingZoo(raw_env):
    """The real PettingZoo environment, which also checks each action against the mask of
    the seat to play before playing it."""

    sent = 0

    def step(self, action: Any) -> None:
        seat = self.agent_selection
        if not (self.terminations[seat] or self.truncations[seat]):
            assert self.observe(seat)["action_mask"][int(action)] == 1, f"illegal {action}"
            CheckedPettingZoo.sent += 1
        super().step(action)


@pytest.mark.parametrize(
    ("kind", "game"),
    [
        ("gymnasium", "knockout-whist"),
        ("gymnasium", "neuf"),
        ("pettingzoo", "kryt-navalivat"),
        ("pettingzoo", "knockout-whist"),
    ],
)
def test_maskable_ppo_learns_in_the_environments_unchanged(
    maskable: Any, monkeypatch: pytest.MonkeyPatch, kind: str, game: str
) -> None:
    monkeypatch.setattr(maskable, "CardtableEnv", CheckedGymnasium)
    monkeypatch.setattr(maskable, "raw_env", CheckedPettingZoo)
    CheckedGymnasium.sent = CheckedPettingZoo.sent = 0
    model = maskable.train(kind, game, 300, n_steps=128, batch_size=64, seed=1)
    assert model.num_timesteps >= 300
    checked = CheckedGymnasium.sent if kind == "gymnasium" else CheckedPettingZoo.sent
    assert checked >= 300
    # The learnt policy, asked with the mask, names a legal action.
    env = maskable.environment(kind, game, "random", None)
    observation, _ = env.reset(seed=4)
    masks = env.action_masks()
    action, _ = model.predict(observation, action_masks=masks, deterministic=True)
    assert masks[int(action)]
