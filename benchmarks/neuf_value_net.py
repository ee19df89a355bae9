"""Trains Neuf's learned value at the end of a trick (``rollout=learned``) and writes the
weights the core compiles in (``crates/core/src/neuf/value_net.json``).

The samples are self-play of the guided policy, drawn in the core
(``_core.Neuf().value_samples``): at the start of each trick of a first deal, every hand
seen from the seat to lead, and as the target each seat's mean share of the tricks left
over that many guided playouts of the rest of the deal. The network (two ReLU layers, a
softmax over the three seats) learns that share by cross-entropy with PyTorch (the
``train`` extra); the core runs it in plain Rust (``crates/core/src/net.rs``).

Resumable: the model and optimizer are saved after every epoch beside the learning curve,
and a run with the same settings goes on from the last epoch saved. The same settings
give the same weights (seeded data, seeded initialization, two threads)::

    pip install -e '.[train]'
    python benchmarks/neuf_value_net.py --games 300000 --rollouts 16 --epochs 20

The curve (``benchmarks/results/neuf_value_net_curve.json``) holds, per epoch, the
held-out cross-entropy and the mean error in tricks, beside those of the constant guess
(a third each) and of a single playout, so that what the network learnt can be read off.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from training import Checkpoint, network, torch_or_none, train_epoch, write_weights

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "crates/core/src/neuf/value_net.json"
RESULTS = ROOT / "benchmarks/results"
CURVE = RESULTS / "neuf_value_net_curve.json"
CHECKPOINT = RESULTS / "neuf_value_net.pt"  # ignored by git: the run's state, to resume
HELD_OUT_SEED = 1_000_000_000  # the held-out games' first seed, far from the training ones


def samples(games: int, seed: int, rollouts: int) -> tuple[np.ndarray, np.ndarray]:
    from cardtable import _core

    inputs, target = _core.Neuf().value_samples(games, seed=seed, rollouts=rollouts)
    return np.asarray(inputs), np.asarray(target)


def tricks_left(inputs: np.ndarray) -> np.ndarray:
    """The tricks left in each sample, read off its one-hot inputs (the last thirteen)."""
    left: np.ndarray = np.argmax(inputs[:, -13:], axis=1) + 1
    return left


def cross_entropy(target: np.ndarray, share: np.ndarray) -> float:
    return float(-(target * np.log(np.clip(share, 1e-7, 1.0))).sum(axis=1).mean())


def trick_error(target: np.ndarray, share: np.ndarray, left: np.ndarray) -> float:
    """Mean absolute error, in tricks, of each seat's tricks for the rest of the deal."""
    return float((np.abs(target - share) * left[:, None]).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300_000, help="training games")
    parser.add_argument("--held-out", type=int, default=20_000, help="held-out games")
    parser.add_argument("--rollouts", type=int, default=16, help="playouts a target")
    parser.add_argument("--hidden", type=int, default=64, help="units in each hidden layer")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-write", action="store_true", help="leave the shipped weights")
    args = parser.parse_args(argv)
    torch = torch_or_none(args.seed)
    if torch is None:
        return 2
    names = ("games", "held_out", "rollouts", "hidden", "batch", "lr", "seed")
    settings = {k: getattr(args, k) for k in names}
    began = time.perf_counter()
    x, y = samples(args.games, args.seed, args.rollouts)
    hx, hy = samples(args.held_out, HELD_OUT_SEED, args.rollouts)
    _, h1 = samples(args.held_out, HELD_OUT_SEED, 1)
    left = tricks_left(hx)
    print(f"{len(x):,} samples, {len(hx):,} held out ({time.perf_counter() - began:.0f} s)")
    inputs = x.shape[1]
    model = network(torch, inputs, args.hidden, 3)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    third = np.full_like(hy, 1 / 3)
    curve: dict[str, Any] = {
        "settings": settings,
        "samples": len(x),
        "held_out_samples": len(hx),
        "constant": {
            "cross_entropy": cross_entropy(hy, third),
            "tricks": trick_error(hy, third, left),
        },
        # One playout's shares as the guess: what a rollout tells the search each iteration.
        "one_playout": {"tricks": trick_error(hy, h1, left)},
        "entropy_of_target": cross_entropy(hy, hy),
        "epochs": [],
    }
    checkpoint = Checkpoint(torch, CHECKPOINT, CURVE, settings)
    checkpoint.resume(model, optimizer, curve)
    held_x = torch.from_numpy(hx.astype(np.float32))
    train_x = torch.from_numpy(x)
    train_y = torch.from_numpy(y)

    def loss_of(pick: Any) -> Any:
        logits = model(train_x[pick].float())
        return -(train_y[pick] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()

    for epoch in range(len(curve["epochs"]), args.epochs):
        train_loss = train_epoch(
            torch, model, optimizer, epoch, args.epochs, len(x), args.batch, loss_of
        )
        with torch.no_grad():
            share = torch.softmax(model(held_x), dim=1).numpy()
        row = {
            "epoch": epoch + 1,
            "train_cross_entropy": train_loss,
            "held_out_cross_entropy": cross_entropy(hy, share),
            "held_out_tricks": trick_error(hy, share, left),
        }
        checkpoint.save(model, optimizer, curve, row)
    if not args.no_write:
        write_weights(model, inputs, WEIGHTS, ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
