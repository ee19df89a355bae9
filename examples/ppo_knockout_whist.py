"""Train a masked PPO agent for Knockout Whist (3 players) on the batch environment with
PyTorch, in the manner of CleanRL's single-file PPO, on the CPU.

The agent holds one seat (drawn at every deal) of ``num_games`` games stepped together in
the compiled core (:class:`cardtable.rl.vector.BatchEnv`), the other seats played there by
``random`` bots, then (the second stage of the default schedule) by the core's guided
rollout policy, its cheap heuristic player. The network has two hidden layers, a policy
head over the 57 action numbers whose illegal ones are set to -1e9 before the softmax (the
batch's ``masks``: a masked action has probability 0, so it is never sampled), and a value
head. The reward is the game's return at its end (+1 for a win, -1/2 for a loss with 3
players), undiscounted. PPO with clipping, generalised advantage estimates, an entropy
bonus and Adam, from PyTorch: ``pip install -e '.[train]'``.

    .venv/bin/python examples/ppo_knockout_whist.py                # a few minutes
    .venv/bin/python examples/ppo_knockout_whist.py --schedule random:20 --out /tmp/kow

It saves the weights as plain arrays (``--out``, default ``examples/ppo_knockout_whist.npz``)
and the learning curve (the mean return of every ``--report`` games, ``…-curve.csv``, and
``…-curve.png`` when matplotlib is installed). Everything random comes from ``--seed``: the
same seed and arguments give the same weights on one machine with the same ``--threads``.

The trained agent plays without PyTorch: ``examples/knockout_whist_agent.py`` reads the
arrays, and is the bot spec ``examples.knockout_whist_agent:Agent`` of ``cardtable arena``.
An example, not part of the package.
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import cardtable
from cardtable.rl.observation import layout
from cardtable.rl.vector import BatchEnv

HERE = Path(__file__).resolve().parent
WEIGHTS = HERE / "ppo_knockout_whist.npz"
ILLEGAL = -1e9
"""The logit of an illegal action: its probability is exactly 0, its entropy term 0."""


def layer(inputs: int, outputs: int, gain: float) -> nn.Linear:
    """A linear layer initialised as CleanRL's: orthogonal weights, zero biases."""
    linear = nn.Linear(inputs, outputs)
    nn.init.orthogonal_(linear.weight, gain)
    nn.init.zeros_(linear.bias)
    return linear


class Network(nn.Module):
    """Observation → two ReLU layers → masked logits over the actions, and a value."""

    def __init__(self, inputs: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            layer(inputs, hidden, math.sqrt(2)),
            nn.ReLU(),
            layer(hidden, hidden, math.sqrt(2)),
            nn.ReLU(),
        )
        # Small policy weights: the first policy is near uniform over the legal actions.
        self.policy = layer(hidden, actions, 0.01)
        self.value = layer(hidden, 1, 1.0)

    def forward(self, observations: torch.Tensor, masks: torch.Tensor) -> Any:
        hidden = self.body(observations)
        logits = self.policy(hidden).masked_fill(~masks, ILLEGAL)
        return logits, self.value(hidden).squeeze(-1)

    def arrays(self) -> dict[str, np.ndarray[Any, Any]]:
        """The weights as ``examples/knockout_whist_agent.py`` reads them: ``w*`` as
        (inputs, outputs), ``b*`` the biases."""
        named = {"1": self.body[0], "2": self.body[2], "p": self.policy, "v": self.value}
        arrays = {}
        for suffix, linear in named.items():
            arrays[f"w{suffix}"] = linear.weight.detach().numpy().T.copy()
            arrays[f"b{suffix}"] = linear.bias.detach().numpy().copy()
        return arrays


@dataclass
class Config:
    schedule: list[tuple[str, int]] = field(default_factory=lambda: [("random", 60)])
    """(opponents, updates) per stage."""
    num_games: int = 128
    steps: int = 64
    """Agent steps per game per update: ``num_games × steps`` samples an update."""
    epochs: int = 4
    minibatch: int = 2048
    hidden: int = 128
    lr: float = 1e-3
    clip: float = 0.2
    entropy: float = 0.01
    value: float = 0.5
    lam: float = 0.95
    grad_clip: float = 1.0
    seed: int = 0
    threads: int = 0
    """PyTorch's threads; 0 keeps its default (one per core)."""
    report: int = 2000
    """Games per point of the learning curve."""
    verbose: bool = True


@dataclass
class Stats:
    returns: list[float] = field(default_factory=list)
    """Every finished game's return to the agent, in order."""
    opponents: list[str] = field(default_factory=list)
    """Each finished game's kind of opponents (``"random"``, ``"guided"``)."""
    stages: list[tuple[str, int]] = field(default_factory=list)
    """(opponents, games finished before the stage began)."""
    losses: list[float] = field(default_factory=list)
    entropies: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def curve(self, every: int) -> list[tuple[int, str, float, float]]:
        """(games so far, opponents, mean return, win rate) of each block of ``every`` games
        against one kind of opponents, blocks not crossing a stage's start, in order."""
        points = []
        bounds = [start for _, start in self.stages] + [len(self.returns)]
        for (_, start), end in zip(self.stages, bounds[1:], strict=True):
            for kind in dict.fromkeys(self.opponents[start:end]):
                games = [i for i in range(start, end) if self.opponents[i] == kind]
                for a in range(0, len(games) - every + 1, every):
                    block = np.array([self.returns[i] for i in games[a : a + every]])
                    wins = float((block > 0).mean())
                    points.append((games[a + every - 1] + 1, kind, float(block.mean()), wins))
        return sorted(points)


class Tables:
    """``num_games`` games stepped as one batch, split evenly between kinds of opponents
    (``["random", "guided"]``: half the games against two random bots, half against two
    guided ones), one :class:`BatchEnv` a kind: the rows of each in turn."""

    def __init__(self, kinds: list[str], num_games: int) -> None:
        if num_games % len(kinds):
            raise ValueError(f"{num_games} games do not split evenly between {kinds}")
        self.size = num_games // len(kinds)
        self.kinds = np.repeat(kinds, self.size)
        """Each row's kind of opponents."""
        self.batches = [
            BatchEnv(
                "knockout-whist",
                num_games=self.size,
                opponents=kind,
                seat=None,
                autoreset="same_step",
                players=3,
            )
            for kind in kinds
        ]

    def reset(self, seed: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        dealt = [batch.reset(seed=seed * 16 + k) for k, batch in enumerate(self.batches)]
        return np.concatenate([o for o, _ in dealt]), np.concatenate([m for _, m in dealt])

    def step(self, actions: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], ...]:
        size = self.size
        stepped = [
            batch.step(actions[k * size : (k + 1) * size]) for k, batch in enumerate(self.batches)
        ]
        return tuple(np.concatenate(part) for part in zip(*stepped, strict=True))


def train(config: Config, network: Network | None = None) -> tuple[Network, Stats]:
    torch.manual_seed(config.seed)
    if config.threads:
        torch.set_num_threads(config.threads)
    game = cardtable.make("knockout-whist", players=3)
    inputs, actions = layout(game).size, game.num_distinct_actions
    if network is None:
        network = Network(inputs, actions, config.hidden)
    optimiser = torch.optim.Adam(network.parameters(), lr=config.lr, eps=1e-5)
    stats = Stats()
    n, steps = config.num_games, config.steps
    observations_buf = torch.zeros((steps, n, inputs))
    masks_buf = torch.zeros((steps, n, actions), dtype=torch.bool)
    actions_buf = torch.zeros((steps, n), dtype=torch.long)
    log_probs_buf = torch.zeros((steps, n))
    values_buf = torch.zeros((steps + 1, n))
    rewards_buf = torch.zeros((steps, n))
    dones_buf = torch.zeros((steps, n))
    start = time.perf_counter()
    for stage, (opponents, updates) in enumerate(config.schedule):
        stats.stages.append((opponents, len(stats.returns)))
        batch = Tables(opponents.split("+"), n)
        observations, masks = batch.reset(seed=config.seed * 1000 + stage)
        for update in range(updates):
            for t in range(steps):
                # Copies: the batch writes its next step into the same arrays.
                observations_buf[t] = torch.from_numpy(observations)
                masks_buf[t] = torch.from_numpy(masks) > 0
                with torch.no_grad():
                    logits, values = network(observations_buf[t], masks_buf[t])
                    distribution = Categorical(logits=logits)
                    chosen = distribution.sample()
                actions_buf[t] = chosen
                log_probs_buf[t] = distribution.log_prob(chosen)
                values_buf[t] = values
                observations, masks, rewards, terminated, truncated = batch.step(chosen.numpy())
                ended = terminated | truncated
                rewards_buf[t] = torch.from_numpy(rewards)
                dones_buf[t] = torch.from_numpy(ended.astype(np.float32))
                stats.returns.extend(rewards[ended].tolist())
                stats.opponents.extend(batch.kinds[ended].tolist())
            with torch.no_grad():
                values_buf[steps] = network(
                    torch.from_numpy(observations), torch.from_numpy(masks) > 0
                )[1]
            advantages = advantage_estimates(rewards_buf, values_buf, dones_buf, config.lam)
            loss, entropy = optimise(
                network,
                optimiser,
                config,
                observations_buf.reshape(steps * n, inputs),
                masks_buf.reshape(steps * n, actions),
                actions_buf.reshape(-1),
                log_probs_buf.reshape(-1),
                advantages.reshape(-1),
                (advantages + values_buf[:steps]).reshape(-1),
            )
            stats.losses.append(loss)
            stats.entropies.append(entropy)
            if config.verbose:
                recent = stats.returns[-config.report :]
                print(
                    f"{opponents:>6} update {update + 1:>4}/{updates}: "
                    f"games {len(stats.returns):>7}, "
                    f"mean return of the last {len(recent)} {np.mean(recent):+.3f}, "
                    f"loss {loss:+.4f}, entropy {entropy:.3f}, "
                    f"{time.perf_counter() - start:.0f} s",
                    flush=True,
                )
    stats.seconds = time.perf_counter() - start
    return network, stats


def advantage_estimates(
    rewards: torch.Tensor, values: torch.Tensor, dones: torch.Tensor, lam: float
) -> torch.Tensor:
    """Generalised advantage estimates, undiscounted (the only reward ends a game)."""
    steps = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    running = torch.zeros_like(rewards[0])
    for t in reversed(range(steps)):
        alive = 1.0 - dones[t]
        delta = rewards[t] + alive * values[t + 1] - values[t]
        running = delta + lam * alive * running
        advantages[t] = running
    return advantages


def optimise(
    network: Network,
    optimiser: torch.optim.Optimizer,
    config: Config,
    observations: torch.Tensor,
    masks: torch.Tensor,
    actions: torch.Tensor,
    old_log_probs: torch.Tensor,
    advantages: torch.Tensor,
    targets: torch.Tensor,
) -> tuple[float, float]:
    """PPO's clipped objective over a few epochs of minibatches; the last minibatch's loss
    and the mean entropy of the last epoch."""
    total = len(actions)
    loss_value = entropy_value = 0.0
    for _ in range(config.epochs):
        order = torch.randperm(total)
        entropies = []
        for begin in range(0, total, config.minibatch):
            idx = order[begin : begin + config.minibatch]
            logits, values = network(observations[idx], masks[idx])
            distribution = Categorical(logits=logits)
            ratio = (distribution.log_prob(actions[idx]) - old_log_probs[idx]).exp()
            adv = advantages[idx]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            surrogate = torch.max(
                -adv * ratio, -adv * ratio.clamp(1 - config.clip, 1 + config.clip)
            ).mean()
            entropy = distribution.entropy().mean()
            value_loss = 0.5 * ((values - targets[idx]) ** 2).mean()
            loss = surrogate + config.value * value_loss - config.entropy * entropy
            optimiser.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(network.parameters(), config.grad_clip)
            optimiser.step()
            loss_value = loss.item()
            entropies.append(entropy.item())
        entropy_value = float(np.mean(entropies))
    return loss_value, entropy_value


# Output --------------------------------------------------------------------------------


def save(network: Network, path: Path) -> None:
    np.savez_compressed(path, **network.arrays())


def write_curve(stats: Stats, every: int, path: Path) -> list[tuple[int, str, float, float]]:
    points = stats.curve(every)
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["games", "opponents", "mean_return", "win_rate"])
        for games, kind, mean, wins in points:
            writer.writerow([games, kind, f"{mean:.4f}", f"{wins:.4f}"])
    return points


def plot_curve(points: list[tuple[int, str, float, float]], every: int, path: Path) -> bool:
    """The learning curve as a PNG; False when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=100)
    for kind, colour in (("random", "tab:blue"), ("guided", "tab:orange")):
        chosen = [(g, mean) for g, k, mean, _ in points if k == kind]
        if chosen:
            xs, ys = zip(*chosen, strict=True)
            axes.plot(xs, ys, marker=".", color=colour, label=f"against 2 {kind} opponents")
    axes.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
    axes.set_xlabel("games played in training")
    axes.set_ylabel(f"mean return of the last {every} games")
    axes.set_title("PPO (PyTorch) on Knockout Whist, 3 players, cardtable.rl.vector.BatchEnv")
    axes.set_ylim(-0.55, 1.0)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return True


def _schedule(text: str) -> list[tuple[str, int]]:
    stages = []
    for item in text.split(","):
        kinds, _, updates = item.partition(":")
        known = all(kind in ("random", "guided") for kind in kinds.split("+"))
        if not known or not updates.isdigit() or int(updates) < 1:
            raise argparse.ArgumentTypeError(
                f"a schedule is like random:100,random+guided:500, not {text!r}"
            )
        stages.append((kinds, int(updates)))
    return stages


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Masked PPO for Knockout Whist, PyTorch")
    defaults = Config()
    parser.add_argument(
        "--schedule",
        type=_schedule,
        default=[("random", 100), ("random+guided", 500)],
        help="opponents:updates per stage (default random:100,random+guided:500)",
    )
    parser.add_argument("--num-games", type=int, default=defaults.num_games)
    parser.add_argument("--steps", type=int, default=defaults.steps)
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--minibatch", type=int, default=defaults.minibatch)
    parser.add_argument("--hidden", type=int, default=defaults.hidden)
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--threads", type=int, default=defaults.threads)
    parser.add_argument("--report", type=int, default=defaults.report, help="games a point")
    parser.add_argument("--out", type=Path, default=WEIGHTS, help="weights (.npz)")
    args = parser.parse_args(argv)
    config = Config(
        schedule=args.schedule,
        num_games=args.num_games,
        steps=args.steps,
        epochs=args.epochs,
        minibatch=args.minibatch,
        hidden=args.hidden,
        lr=args.lr,
        seed=args.seed,
        threads=args.threads,
        report=args.report,
    )
    network, stats = train(config)
    out: Path = args.out.with_suffix(".npz")
    out.parent.mkdir(parents=True, exist_ok=True)
    save(network, out)
    stem = out.with_suffix("")
    points = write_curve(stats, config.report, Path(f"{stem}-curve.csv"))
    drawn = plot_curve(points, config.report, Path(f"{stem}-curve.png"))
    print(
        f"{len(stats.returns)} games in {stats.seconds:.0f} s; weights in {out}, curve in "
        f"{stem}-curve.csv" + (" and .png" if drawn else "")
    )
    for games, kind, mean, wins in points:
        print(f"  {games:>7} games ({kind}): mean return {mean:+.3f}, win rate {wins:.3f}")


if __name__ == "__main__":
    main()
