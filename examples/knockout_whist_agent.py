"""The trained Knockout Whist agent as a cardtable bot, in NumPy alone: no PyTorch at play
time.

``examples/ppo_knockout_whist.py`` trains the policy with PyTorch and saves its weights
here as plain arrays (``examples/ppo_knockout_whist.npz``); this module reads them and
plays. From the repository's root it is a bot spec::

    .venv/bin/python -m cardtable arena knockout-whist -p 3 \\
        --bots examples.knockout_whist_agent:Agent,random,random --games 300 --seed 2

The bot sees only its seat's view: its observation is
:func:`cardtable.rl.observation.encode` of the view, the vector the batch environment
hands the agent in training, and it plays the most probable legal action.
``CARDTABLE_AGENT_WEIGHTS`` names other weights. An example, not part of the package.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import cardtable
from cardtable.core import Action, Game, View
from cardtable.rl.observation import encode

Array = npt.NDArray[np.float32]

WEIGHTS = Path(__file__).resolve().parent / "ppo_knockout_whist.npz"
NEGATIVE = np.float32(-1e9)  # the logit of an illegal action


class Policy:
    """Observation → two ReLU layers → logits over the actions (illegal ones masked out)
    and a value: the forward pass of the trained network, from its saved arrays."""

    names = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")
    """``w*`` are (inputs, outputs): PyTorch's ``Linear.weight`` transposed."""

    def __init__(self, params: dict[str, Array]) -> None:
        missing = [name for name in self.names if name not in params]
        if missing:
            raise ValueError(f"the weights lack {', '.join(missing)}")
        self.params = params

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Policy:
        with np.load(path) as saved:
            return cls(
                {name: saved[name].astype(np.float32) for name in cls.names if name in saved}
            )

    def save(self, path: str | os.PathLike[str], **extra: Any) -> None:
        arrays: dict[str, Any] = {**self.params, **extra}
        np.savez_compressed(path, **arrays)

    def forward(self, observations: Array, masks: npt.NDArray[Any]) -> tuple[Array, Array]:
        """Log-probabilities (illegal actions about -1e9) and values of a batch."""
        p = self.params
        h1 = np.maximum(observations @ p["w1"] + p["b1"], 0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0)
        logits = np.where(masks > 0, h2 @ p["wp"] + p["bp"], NEGATIVE)
        logits -= logits.max(axis=1, keepdims=True)
        log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        values = (h2 @ p["wv"] + p["bv"])[:, 0]
        return log_probs, values

    def greedy(self, observation: Array, mask: npt.NDArray[Any]) -> int:
        """The most probable legal action of one observation."""
        log_probs, _ = self.forward(observation[None, :], mask[None, :])
        return int(np.argmax(log_probs[0]))


class Agent:
    """The trained policy as a cardtable bot (``examples.knockout_whist_agent:Agent``): the
    most probable legal action of the observation of the seat's view. It loads the weights
    that ``CARDTABLE_AGENT_WEIGHTS`` names, or those beside this file."""

    name = "ppo"

    def __init__(self, weights: str | os.PathLike[str] | None = None) -> None:
        path = weights or os.environ.get("CARDTABLE_AGENT_WEIGHTS") or WEIGHTS
        self.policy = Policy.load(path)
        self._games: dict[tuple[str, int], Game] = {}

    def _game(self, view: View) -> Game:
        key = (str(view["game"]), int(view["players"]))
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = cardtable.make(key[0], **view["options"])
        return game

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        game = self._game(view)
        observation = encode(game, view)
        mask = np.zeros(game.num_distinct_actions, np.int8)
        numbers = [game.action_to_int(action) for action in legal_actions]
        mask[numbers] = 1
        chosen = self.policy.greedy(observation, mask)
        return legal_actions[numbers.index(chosen)]
