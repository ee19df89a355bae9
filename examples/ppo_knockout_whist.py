"""Train a masked PPO agent for Knockout Whist (3 players) on the batch environment, in
NumPy alone, on the CPU; and play it in ``cardtable arena`` as a bot.

The agent holds one seat (drawn at every deal) of ``num_games`` games stepped together in
the compiled core (:class:`cardtable.rl.vector.BatchEnv`), the other seats played there by
``random`` bots, then (the second stage of the default schedule) by the core's guided
rollout policy, its cheap heuristic player. The policy is a small network (two hidden
layers, a policy head over the 57 action numbers and a value head) whose illegal actions
are masked out before the softmax; the reward is the game's return at its end (+1 for a
win, -1/2 for a loss with 3 players), undiscounted. PPO with clipping, generalised
advantage estimates, an entropy bonus and Adam, written out by hand.

    .venv/bin/python examples/ppo_knockout_whist.py                # 4-5 minutes
    .venv/bin/python examples/ppo_knockout_whist.py --schedule random:20 --out /tmp/kow

It saves the weights (``--out``, default ``examples/ppo_knockout_whist.npz``), the learning
curve (the mean return of every ``--report`` games, ``…-curve.csv`` and ``…-curve.png``
when matplotlib is installed). Everything random comes from ``--seed``: the same seed and
arguments give the same weights (on one machine: floating-point sums may differ between
BLAS builds).

The trained agent is a bot spec, from the repository's root (it loads the weights beside
this file, or those ``CARDTABLE_AGENT_WEIGHTS`` names)::

    .venv/bin/python -m cardtable arena knockout-whist -p 3 \\
        --bots examples.ppo_knockout_whist:Agent,random,random --games 300 --seed 2

The bot sees only its seat's view: its observation is
:func:`cardtable.rl.observation.encode` of the view, the vector the batch environment
hands the agent in training. An example, not part of the package.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import cardtable
from cardtable.core import Action, Game, View
from cardtable.rl.observation import encode
from cardtable.rl.vector import BatchEnv

Array = npt.NDArray[np.float32]

HERE = Path(__file__).resolve().parent
WEIGHTS = HERE / "ppo_knockout_whist.npz"
NEGATIVE = np.float32(-1e9)  # the logit of an illegal action


# The network ---------------------------------------------------------------------------


class Policy:
    """Observation → two ReLU layers → logits over the actions (masked) and a value."""

    names = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")

    def __init__(self, params: dict[str, Array]) -> None:
        self.params = params

    @classmethod
    def initial(cls, inputs: int, actions: int, hidden: int, rng: np.random.Generator) -> Policy:
        def dense(fan_in: int, fan_out: int, gain: float) -> Array:
            scaled = rng.standard_normal((fan_in, fan_out)) * gain / np.sqrt(fan_in)
            weights: Array = scaled.astype(np.float32)
            return weights

        return cls(
            {
                "w1": dense(inputs, hidden, np.sqrt(2.0)),
                "b1": np.zeros(hidden, np.float32),
                "w2": dense(hidden, hidden, np.sqrt(2.0)),
                "b2": np.zeros(hidden, np.float32),
                # Small policy weights: the first policy is near uniform over the legal actions.
                "wp": dense(hidden, actions, 0.01),
                "bp": np.zeros(actions, np.float32),
                "wv": dense(hidden, 1, 1.0),
                "bv": np.zeros(1, np.float32),
            }
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Policy:
        with np.load(path) as saved:
            return cls({name: saved[name].astype(np.float32) for name in cls.names})

    def save(self, path: str | os.PathLike[str], **extra: Any) -> None:
        arrays: dict[str, Any] = {**self.params, **extra}
        np.savez_compressed(path, **arrays)

    def forward(
        self, observations: Array, masks: npt.NDArray[Any]
    ) -> tuple[Array, Array, dict[str, Array]]:
        """Log-probabilities (illegal actions about -1e9), values, and what backward needs."""
        p = self.params
        z1 = observations @ p["w1"] + p["b1"]
        h1 = np.maximum(z1, 0)
        z2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(z2, 0)
        logits = h2 @ p["wp"] + p["bp"]
        logits = np.where(masks > 0, logits, NEGATIVE)
        logits -= logits.max(axis=1, keepdims=True)
        log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        values = (h2 @ p["wv"] + p["bv"])[:, 0]
        return log_probs, values, {"x": observations, "h1": h1, "h2": h2}

    def backward(
        self, cache: dict[str, Array], d_logits: Array, d_values: Array
    ) -> dict[str, Array]:
        """The gradients of the parameters given those of the logits and values."""
        p = self.params
        x, h1, h2 = cache["x"], cache["h1"], cache["h2"]
        d_h2 = d_logits @ p["wp"].T + d_values[:, None] @ p["wv"].T
        d_z2 = d_h2 * (h2 > 0)
        d_h1 = d_z2 @ p["w2"].T
        d_z1 = d_h1 * (h1 > 0)
        return {
            "wp": h2.T @ d_logits,
            "bp": d_logits.sum(axis=0),
            "wv": h2.T @ d_values[:, None],
            "bv": d_values.sum(keepdims=True),
            "w2": h1.T @ d_z2,
            "b2": d_z2.sum(axis=0),
            "w1": x.T @ d_z1,
            "b1": d_z1.sum(axis=0),
        }

    def greedy(self, observation: Array, mask: npt.NDArray[Any]) -> int:
        """The most probable legal action of one observation."""
        log_probs, _, _ = self.forward(observation[None, :], mask[None, :])
        return int(np.argmax(log_probs[0]))


class Adam:
    def __init__(self, params: dict[str, Array], lr: float) -> None:
        self.lr = lr
        self.t = 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: dict[str, Array], grads: dict[str, Array], clip: float) -> float:
        """One update, the gradient's global norm clipped to ``clip``; returns that norm."""
        norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads.values())))
        scale = min(1.0, clip / (norm + 1e-8))
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, g in grads.items():
            g = g * scale
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            m_hat = self.m[k] / (1 - b1**self.t)
            v_hat = self.v[k] / (1 - b2**self.t)
            params[k] -= (self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        return norm


# Training ------------------------------------------------------------------------------


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
    report: int = 2000
    """Games per point of the learning curve."""
    verbose: bool = True


@dataclass
class Stats:
    returns: list[float] = field(default_factory=list)
    """Every finished game's return to the agent, in order."""
    stages: list[tuple[str, int]] = field(default_factory=list)
    """(opponents, games finished before the stage began)."""
    losses: list[float] = field(default_factory=list)
    entropies: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def curve(self, every: int) -> list[tuple[int, str, float, float]]:
        """(games so far, opponents, mean return, win rate) of each block of ``every``
        games, blocks not crossing a stage's start."""
        points = []
        bounds = [start for _, start in self.stages] + [len(self.returns)]
        for (kind, start), end in zip(self.stages, bounds[1:], strict=True):
            for a in range(start, end - every + 1, every):
                block = np.array(self.returns[a : a + every])
                points.append((a + every, kind, float(block.mean()), float((block > 0).mean())))
        return points


def train(config: Config, policy: Policy | None = None) -> tuple[Policy, Stats]:
    rng = np.random.default_rng(config.seed)
    game = cardtable.make("knockout-whist", players=3)
    inputs = encode(game, game.new_state(seed=0).view(0)).size
    actions = game.num_distinct_actions
    if policy is None:
        policy = Policy.initial(inputs, actions, config.hidden, rng)
    adam = Adam(policy.params, config.lr)
    stats = Stats()
    n, steps = config.num_games, config.steps
    start = time.perf_counter()
    for stage, (opponents, updates) in enumerate(config.schedule):
        stats.stages.append((opponents, len(stats.returns)))
        batch = BatchEnv(
            "knockout-whist",
            num_games=n,
            opponents=opponents,
            seat=None,
            autoreset="same_step",
            players=3,
        )
        # The stage's seed: the same games whatever the stages before it did.
        observations, masks = batch.reset(seed=config.seed * 1000 + stage)
        for update in range(updates):
            obs_buf = np.empty((steps, n, inputs), np.float32)
            mask_buf = np.empty((steps, n, actions), np.int8)
            act_buf = np.empty((steps, n), np.int64)
            logp_buf = np.empty((steps, n), np.float32)
            value_buf = np.empty((steps + 1, n), np.float32)
            reward_buf = np.empty((steps, n), np.float32)
            done_buf = np.empty((steps, n), np.float32)
            for t in range(steps):
                obs_buf[t] = observations
                mask_buf[t] = masks
                log_probs, values, _ = policy.forward(obs_buf[t], mask_buf[t])
                # Gumbel-max sampling from the masked distribution.
                chosen = np.argmax(log_probs - np.log(-np.log(rng.random(log_probs.shape))), 1)
                act_buf[t] = chosen
                logp_buf[t] = log_probs[np.arange(n), chosen]
                value_buf[t] = values
                observations, masks, rewards, terminated, truncated = batch.step(chosen)
                ended = terminated | truncated
                reward_buf[t] = rewards
                done_buf[t] = ended
                stats.returns.extend(rewards[ended].tolist())
            value_buf[steps] = policy.forward(observations, masks)[1]
            # Generalised advantage estimates, undiscounted (the only reward ends a game).
            advantages = np.zeros((steps, n), np.float32)
            running = np.zeros(n, np.float32)
            for t in reversed(range(steps)):
                alive = 1.0 - done_buf[t]
                delta = reward_buf[t] + alive * value_buf[t + 1] - value_buf[t]
                running = delta + config.lam * alive * running
                advantages[t] = running
            targets = advantages + value_buf[:steps]
            loss, entropy = _optimise(
                policy,
                adam,
                config,
                rng,
                obs_buf.reshape(steps * n, inputs),
                mask_buf.reshape(steps * n, actions),
                act_buf.reshape(-1),
                logp_buf.reshape(-1),
                advantages.reshape(-1),
                targets.reshape(-1),
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
    return policy, stats


def _optimise(
    policy: Policy,
    adam: Adam,
    config: Config,
    rng: np.random.Generator,
    observations: Array,
    masks: npt.NDArray[np.int8],
    actions: npt.NDArray[np.int64],
    old_log_probs: Array,
    advantages: Array,
    targets: Array,
) -> tuple[float, float]:
    """PPO's clipped objective over a few epochs of minibatches; the last minibatch's loss
    and the mean entropy."""
    total = len(actions)
    loss = entropy_mean = 0.0
    for _ in range(config.epochs):
        order = rng.permutation(total)
        for begin in range(0, total, config.minibatch):
            idx = order[begin : begin + config.minibatch]
            m = len(idx)
            adv = advantages[idx]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            legal = masks[idx] > 0
            log_probs, values, cache = policy.forward(observations[idx], masks[idx])
            probs = np.where(legal, np.exp(log_probs), 0.0).astype(np.float32)
            new = log_probs[np.arange(m), actions[idx]]
            ratio = np.exp(new - old_log_probs[idx])
            surrogate = ratio * adv
            clipped = np.clip(ratio, 1 - config.clip, 1 + config.clip) * adv
            plogp = np.where(legal, probs * log_probs, 0.0)
            entropy = -plogp.sum(axis=1)
            error = values - targets[idx]
            loss = float(
                -np.minimum(surrogate, clipped).mean()
                + config.value * 0.5 * (error**2).mean()
                - config.entropy * entropy.mean()
            )
            entropy_mean = float(entropy.mean())
            # d loss / d log pi(a): the unclipped term's where it is the smaller one.
            d_logp = np.where(surrogate <= clipped, -adv * ratio, 0.0) / m
            d_logits = -probs * d_logp[:, None]
            d_logits[np.arange(m), actions[idx]] += d_logp
            # d(-c H)/d logits_j = c p_j (log p_j + H), over the legal actions.
            log_legal = np.where(legal, log_probs, 0.0)
            d_logits += config.entropy * probs * (log_legal + entropy[:, None]) / m
            d_values = config.value * error / m
            grads = policy.backward(cache, d_logits.astype(np.float32), d_values.astype(np.float32))
            adam.step(policy.params, grads, config.grad_clip)
    return loss, entropy_mean


# Output --------------------------------------------------------------------------------


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
    axes.set_title("PPO (NumPy) on Knockout Whist, 3 players, cardtable.rl.vector.BatchEnv")
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
        kind, _, updates = item.partition(":")
        if kind not in ("random", "guided") or not updates.isdigit() or int(updates) < 1:
            raise argparse.ArgumentTypeError(
                f"a schedule is like random:60,guided:60, not {text!r}"
            )
        stages.append((kind, int(updates)))
    return stages


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Masked PPO for Knockout Whist, NumPy only")
    defaults = Config()
    parser.add_argument(
        "--schedule",
        type=_schedule,
        default=[("random", 100), ("guided", 200)],
        help="opponents:updates per stage (default random:100,guided:200)",
    )
    parser.add_argument("--num-games", type=int, default=defaults.num_games)
    parser.add_argument("--steps", type=int, default=defaults.steps)
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--minibatch", type=int, default=defaults.minibatch)
    parser.add_argument("--hidden", type=int, default=defaults.hidden)
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--seed", type=int, default=defaults.seed)
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
        report=args.report,
    )
    policy, stats = train(config)
    out: Path = args.out.with_suffix(".npz")
    out.parent.mkdir(parents=True, exist_ok=True)
    policy.save(out)
    stem = out.with_suffix("")
    points = write_curve(stats, config.report, Path(f"{stem}-curve.csv"))
    drawn = plot_curve(points, config.report, Path(f"{stem}-curve.png"))
    print(
        f"{len(stats.returns)} games in {stats.seconds:.0f} s; weights in {out}, curve in "
        f"{stem}-curve.csv" + (" and .png" if drawn else "")
    )
    for games, kind, mean, wins in points:
        print(f"  {games:>7} games ({kind}): mean return {mean:+.3f}, win rate {wins:.3f}")


# The bot -------------------------------------------------------------------------------


class Agent:
    """The trained policy as a cardtable bot (``examples.ppo_knockout_whist:Agent``): the
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


if __name__ == "__main__":
    main()
