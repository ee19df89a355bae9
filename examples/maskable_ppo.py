"""sb3-contrib's ``MaskablePPO`` on cardtable's environments, unchanged: the Gymnasium
environment (one seat learns, bots hold the others) and the PettingZoo one (every seat is
the learner, self-play), for any of the three games.

``MaskablePPO`` asks the environment for ``action_masks()`` before every step and gives
the illegal actions probability 0. ``CardtableEnv`` has that method; the PettingZoo
environment hands its mask in each observation (``observe(agent)["action_mask"]``), and
:class:`SelfPlay` below turns the AEC game into the single-agent loop Stable-Baselines3
steps, as PettingZoo's own Stable-Baselines3 tutorial does::

    pip install -e '.[train]'
    .venv/bin/python examples/maskable_ppo.py --env gymnasium --game knockout-whist --steps 20000
    .venv/bin/python examples/maskable_ppo.py --env pettingzoo --game kryt-navalivat --steps 20000

It prints Stable-Baselines3's training log and saves the model (``--out``). An example, not
part of the package.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from sb3_contrib import MaskablePPO

from cardtable.rl.gymnasium import CardtableEnv
from cardtable.rl.pettingzoo import raw_env


class SelfPlay(gymnasium.Env[Any, Any]):
    """A PettingZoo AEC game as one Gymnasium environment: each ``step`` is the move of the
    seat to play, observed and masked as that seat; its reward is the return the seat that
    moved was given by that move, so every seat learns from its own games (self-play). The
    same loop as PettingZoo's Stable-Baselines3 tutorial, held rather than inherited: a
    Gymnasium wrapper only wraps a ``gymnasium.Env``."""

    def __init__(self, game: AECEnv) -> None:
        self.game = game
        first = game.possible_agents[0]
        # Stable-Baselines3 wants one space for the observation, not PettingZoo's dict.
        self.observation_space = game.observation_space(first)["observation"]
        self.action_space = game.action_space(first)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.game.reset(seed=seed, options=options)
        return self.game.observe(self.game.agent_selection)["observation"], {}

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        game = self.game
        seat = game.agent_selection
        game.step(action)
        following = game.agent_selection
        return (
            game.observe(following)["observation"],
            float(game._cumulative_rewards[seat]),
            bool(game.terminations[seat]),
            bool(game.truncations[seat]),
            dict(game.infos[seat]),
        )

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The mask of the seat to play (``MaskablePPO`` asks before every step)."""
        mask: np.ndarray[Any, Any] = self.game.observe(self.game.agent_selection)["action_mask"]
        return mask.astype(bool)


def environment(
    kind: str, game: str, opponents: str, players: int | None
) -> gymnasium.Env[Any, Any]:
    """The environment ``MaskablePPO`` learns in: Gymnasium's as it is, PettingZoo's through
    :class:`SelfPlay`."""
    options = {} if players is None else {"players": players}
    if kind == "gymnasium":
        return CardtableEnv(game, opponents=opponents, seat=None, **options)
    return SelfPlay(raw_env(game, **options))


def train(
    kind: str,
    game: str,
    steps: int,
    *,
    opponents: str = "random",
    players: int | None = None,
    seed: int = 0,
    n_steps: int = 2048,
    batch_size: int = 256,
    verbose: int = 0,
) -> MaskablePPO:
    env = environment(kind, game, opponents, players)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=batch_size,
        gamma=1.0,  # the only reward ends the game
        seed=seed,
        verbose=verbose,
        device="cpu",
    )
    model.learn(total_timesteps=steps)
    return model


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="sb3-contrib's MaskablePPO on cardtable")
    parser.add_argument("--env", choices=["gymnasium", "pettingzoo"], default="gymnasium")
    parser.add_argument("--game", default="knockout-whist")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--opponents", default="random", help="the Gymnasium bots' spec")
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="where to save the model (.zip)")
    args = parser.parse_args(argv)
    model = train(
        args.env,
        args.game,
        args.steps,
        opponents=args.opponents,
        players=args.players,
        seed=args.seed,
        verbose=1,
    )
    if args.out:
        model.save(args.out)


if __name__ == "__main__":
    main()
