"""The trained agent of examples/ as a bot, in NumPy alone (examples/knockout_whist_agent.py):
it reads the weights the training saves, plays legal moves from its seat's view only, and
the committed weights load as the bot spec ``examples.knockout_whist_agent:Agent``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable import compiled
from cardtable.bots import make_bot
from cardtable.rl.observation import action_mask, encode, layout
from scripts_loader import load_script

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the core is not built")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def agent_module() -> Any:
    return load_script("examples/knockout_whist_agent.py")


def random_weights(seed: int, hidden: int = 16) -> dict[str, Any]:
    game = cardtable.make("knockout-whist", players=3)
    inputs, actions = layout(game).size, game.num_distinct_actions
    rng = np.random.default_rng(seed)
    shapes = {
        "w1": (inputs, hidden),
        "b1": (hidden,),
        "w2": (hidden, hidden),
        "b2": (hidden,),
        "wp": (hidden, actions),
        "bp": (actions,),
        "wv": (hidden, 1),
        "bv": (1,),
    }
    return {name: rng.standard_normal(shape).astype(np.float32) for name, shape in shapes.items()}


def test_the_policy_gives_illegal_actions_no_probability(agent_module: Any) -> None:
    policy = agent_module.Policy(random_weights(1))
    game = cardtable.make("knockout-whist", players=3)
    state = game.new_state(seed=4)
    view = state.view(state.to_move)
    observation, mask = encode(game, view), action_mask(game, view)
    log_probs, values = policy.forward(observation[None, :], mask[None, :])
    probs = np.exp(log_probs[0])
    assert probs[mask == 0].max() == 0.0
    assert probs.sum() == pytest.approx(1.0, abs=1e-5) and values.shape == (1,)
    assert mask[policy.greedy(observation, mask)] == 1


def test_weights_lacking_an_array_are_refused(agent_module: Any, tmp_path: Path) -> None:
    weights = random_weights(2)
    del weights["wv"]
    np.savez(tmp_path / "partial.npz", **weights)
    with pytest.raises(ValueError, match="lack wv"):
        agent_module.Policy.load(tmp_path / "partial.npz")


def test_the_agent_bot_plays_legal_moves_from_the_view(
    agent_module: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "agent.npz"
    agent_module.Policy(random_weights(3)).save(path)
    monkeypatch.setenv("CARDTABLE_AGENT_WEIGHTS", str(path))
    game = cardtable.make("knockout-whist", players=3)
    agent = agent_module.Agent()
    policy = agent_module.Policy.load(path)
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
            bot = bots[(seat + seed) % 3]
            action = bot.choose(view, legal, rng)
            assert action in legal
            if bot is agent:
                agent_moves += 1
                # The bot's choice is the policy's greedy one on the view's encoding.
                number = policy.greedy(encode(game, view), action_mask(game, view))
                assert game.action_to_int(action) == number
            state.apply(action)
        assert agent_moves > 0


def test_the_committed_agent_is_a_bot_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    """``examples.knockout_whist_agent:Agent`` loads through make_bot from the repository's
    root, with the committed weights, and plays a game to its end."""
    assert (ROOT / "examples" / "ppo_knockout_whist.npz").exists()
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.delenv("CARDTABLE_AGENT_WEIGHTS", raising=False)
    bot = make_bot("examples.knockout_whist_agent:Agent", "knockout-whist")
    game = cardtable.make("knockout-whist", players=3)
    state = game.new_state(seed=11)
    rng = random.Random(1)
    while not state.is_over:
        legal = state.legal_actions()
        action = bot.choose(state.view(state.to_move), legal, rng)
        assert action in legal
        state.apply(action)
