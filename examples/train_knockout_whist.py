"""Train a masked policy for Knockout Whist with REINFORCE (PyTorch, CPU).

One seat learns in the Gymnasium environment against random bots; the policy is a small
network over the observation vector whose illegal actions are masked out before the
softmax. The mean return of the last games is printed as it learns (above 0 means it
beats the random bots, whose share is -1/(n-1) of a win each when the agent wins).

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    .venv/bin/python examples/train_knockout_whist.py --games 3000 --players 3

An example, not part of the test suite.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from cardtable.rl.gymnasium import CardtableEnv
from cardtable.rl.observation import layout


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="REINFORCE for Knockout Whist")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--opponents", default="random", help="bot spec for the other seats")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report", type=int, default=200, help="games between reports")
    args = parser.parse_args(argv)

    # Imported here so that the repository's checks need no PyTorch.
    import torch  # type: ignore[import-not-found, unused-ignore]

    torch.manual_seed(args.seed)
    env = CardtableEnv("knockout-whist", opponents=args.opponents, players=args.players)
    size = layout(env.game).size
    actions = env.game.num_distinct_actions
    policy: Any = torch.nn.Sequential(
        torch.nn.Linear(size, 256),
        torch.nn.ReLU(),
        torch.nn.Linear(256, actions),
    )
    optimiser = torch.optim.Adam(policy.parameters(), lr=1e-3)
    baseline = 0.0  # a running mean of the return, to lower the gradient's variance
    returns: list[float] = []

    for game in range(args.games):
        observation, info = env.reset(seed=args.seed + game)
        log_probs = []
        done = False
        reward = 0.0
        while not done:
            logits = policy(torch.as_tensor(observation))
            mask = torch.as_tensor(info["action_mask"], dtype=torch.bool)
            masked = logits.masked_fill(~mask, float("-inf"))
            distribution = torch.distributions.Categorical(logits=masked)
            action = distribution.sample()
            log_probs.append(distribution.log_prob(action))
            observation, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        # The only reward comes at the end, so every decision of the game shares it.
        advantage = reward - baseline
        loss = -advantage * torch.stack(log_probs).sum()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        baseline += 0.01 * (reward - baseline)
        returns.append(reward)
        if (game + 1) % args.report == 0:
            recent = float(np.mean(returns[-args.report :]))
            print(f"games {game + 1:>6}: mean return of the last {args.report} {recent:+.3f}")


if __name__ == "__main__":
    main()
