"""Trains Knockout Whist's policy prior for search (``prior=learned``) and writes the
weights the core compiles in (``crates/core/src/knockout_whist/prior_net.json``).

The samples are the searchers' own decisions: every decision with two or more legal
actions that a ``hard`` or ``expert`` seat made in the arena's recorded games of three
players (``--games``: the folders' ``games.jsonl``; ``benchmarks/strength.sh`` queues 18,
19 and 20 played the ones the shipped weights learnt from), as the seat saw it (the 0/1 blocks of
its observation, ``cardtable.rl.observation``: its hand, the trick in progress, this
hand's finished tricks, the turned card, the trump and the phase) with the action it
chose as the target. The network (two ReLU layers, a softmax over the legal actions)
learns the searchers' choice by cross-entropy with PyTorch (the ``train`` extra); the core
runs it in plain Rust (``crates/core/src/net.rs``) at the search's nodes.

The games are megabytes of records and stay where they were played; the decisions drawn
from them are kept, packed, in ``benchmarks/results/knockout_whist_prior_data.npz`` (under
a megabyte), which a run without ``--games`` trains from. Resumable, as
``neuf_value_net.py``: the model and optimizer are saved after every epoch beside the
learning curve, and the same decisions and settings give the same weights::

    pip install -e '.[train]'
    python benchmarks/knockout_whist_prior.py --games strength-runs/knockout-whist-3-*-long \
        strength-runs/knockout-whist-3-expert-2-threads-expert
    python benchmarks/knockout_whist_prior.py      # again, from the decisions kept
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from training import Checkpoint, network, torch_or_none, train_epoch, write_weights

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "crates/core/src/knockout_whist/prior_net.json"
RESULTS = ROOT / "benchmarks/results"
CURVE = RESULTS / "knockout_whist_prior_curve.json"
CHECKPOINT = RESULTS / "knockout_whist_prior.pt"  # ignored by git: the run's state
DATA = RESULTS / "knockout_whist_prior_data.npz"
SEARCHERS = ("hard", "expert")


def prior_size(players: int) -> int:
    """Where the observation's 0/1 blocks end: before the hand number, the first count
    (``Layout`` in ``crates/core/src/knockout_whist/observation.rs``)."""
    import cardtable
    from cardtable.rl.observation import layout

    return int(
        layout(cardtable.make("knockout-whist", players=players)).fields["hand_number"].start
    )


# Draws that never take the guided policy's random share: its own card, for the baseline.
NO_RANDOM = [0.99] * 8


def samples(folders: list[Path]) -> dict[str, np.ndarray]:
    """Inputs, legal masks, the searchers' choices, the guided policy's, and each sample's
    deal (to hold deals out), from the recorded games in ``folders``."""
    import cardtable
    from cardtable import _core
    from cardtable.core import Record

    game = cardtable.make("knockout-whist", players=3)
    twin = _core.KnockoutWhist(players=3)
    size = prior_size(3)
    found: dict[str, list[Any]] = {k: [] for k in ("x", "mask", "chosen", "guided", "deal")}
    for folder in folders:
        for line in (folder / "games.jsonl").open():
            played = json.loads(line)
            if played["status"] != "ok":
                continue
            record = cardtable.load_record(played["record"])
            bare = Record(
                record.game,
                record.options,
                record.seed,
                [],
                record.decks,
                record.reshuffles,
                record.start,
            )
            state = game.replay(bare)
            for text in record.actions:
                seat = state.to_move
                assert seat is not None
                legal = state.legal_action_ids()
                if played["specs"][seat] in SEARCHERS and len(legal) > 1:
                    core = twin.state_from_position(game.position_of(state))
                    found["x"].append(core.observation(seat)[:size].astype(np.uint8))
                    mask = np.zeros(game.num_distinct_actions, dtype=np.uint8)
                    mask[legal] = 1
                    found["mask"].append(mask)
                    found["chosen"].append(game.number_of(text))
                    found["guided"].append(core.guided_action(NO_RANDOM)[0])
                    found["deal"].append(played["deal_seed"] % 1000)
                state.apply(text)
    return {k: np.array(v) for k, v in found.items()}


def save(data: dict[str, np.ndarray], path: Path) -> None:
    """The decisions, packed: a bit an input and a legal action."""
    np.savez_compressed(
        path,
        x=np.packbits(data["x"], axis=1),
        mask=np.packbits(data["mask"], axis=1),
        chosen=data["chosen"].astype(np.uint8),
        guided=data["guided"].astype(np.uint8),
        deal=data["deal"].astype(np.uint16),
        width=np.array([data["x"].shape[1], data["mask"].shape[1]]),
    )


def load(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as packed:
        inputs, actions = (int(n) for n in packed["width"])
        return {
            "x": np.unpackbits(packed["x"], axis=1)[:, :inputs],
            "mask": np.unpackbits(packed["mask"], axis=1)[:, :actions],
            "chosen": packed["chosen"].astype(np.int64),
            "guided": packed["guided"].astype(np.int64),
            "deal": packed["deal"].astype(np.int64),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=Path, nargs="+", help="arena folders to draw the decisions from again"
    )
    parser.add_argument("--hidden", type=int, default=64, help="units in each hidden layer")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-write", action="store_true", help="leave the shipped weights")
    args = parser.parse_args(argv)
    torch = torch_or_none(args.seed)
    if torch is None:
        return 2
    names = ("hidden", "batch", "lr", "weight_decay", "seed")
    settings: dict[str, Any] = {k: getattr(args, k) for k in names}
    began = time.perf_counter()
    if args.games:
        RESULTS.mkdir(parents=True, exist_ok=True)
        save(samples(sorted(args.games)), DATA)
    data = load(DATA)
    # A tenth of the deals held out, whole: their positions never train the network.
    held = data["deal"] % 10 == 0
    train = {k: v[~held] for k, v in data.items()}
    test = {k: v[held] for k, v in data.items()}
    print(
        f"{len(train['x']):,} decisions, {len(test['x']):,} held out "
        f"({time.perf_counter() - began:.0f} s)"
    )
    inputs = data["x"].shape[1]
    actions = data["mask"].shape[1]
    model = network(torch, inputs, args.hidden, actions)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    legal_counts = test["mask"].sum(axis=1)
    curve: dict[str, Any] = {
        "settings": settings,
        "samples": len(train["x"]),
        "held_out_samples": len(test["x"]),
        # Every legal action alike, and the guided rollout policy's own card.
        "uniform": {"cross_entropy": float(np.log(legal_counts).mean())},
        "guided": {"agreement": float((test["guided"] == test["chosen"]).mean())},
        "epochs": [],
    }
    checkpoint = Checkpoint(torch, CHECKPOINT, CURVE, settings)
    checkpoint.resume(model, optimizer, curve)

    def tensors(part: dict[str, np.ndarray]) -> tuple[Any, Any, Any]:
        return (
            torch.from_numpy(part["x"].astype(np.float32)),
            torch.from_numpy(part["mask"].astype(bool)),
            torch.from_numpy(part["chosen"].astype(np.int64)),
        )

    def log_policy(x: Any, mask: Any) -> Any:
        return torch.log_softmax(model(x).masked_fill(~mask, -1e9), dim=1)

    train_x, train_mask, train_y = tensors(train)
    test_x, test_mask, test_y = tensors(test)

    def loss_of(pick: Any) -> Any:
        logp = log_policy(train_x[pick], train_mask[pick])
        return -logp.gather(1, train_y[pick, None]).mean()

    for epoch in range(len(curve["epochs"]), args.epochs):
        train_loss = train_epoch(
            torch, model, optimizer, epoch, args.epochs, len(train_x), args.batch, loss_of
        )
        with torch.no_grad():
            logp = log_policy(test_x, test_mask)
            held_loss = float(-logp.gather(1, test_y[:, None]).mean())
            agreement = float((logp.argmax(dim=1) == test_y).float().mean())
        row = {
            "epoch": epoch + 1,
            "train_cross_entropy": train_loss,
            "held_out_cross_entropy": held_loss,
            "held_out_agreement": agreement,
        }
        checkpoint.save(model, optimizer, curve, row)
    if not args.no_write:
        write_weights(model, inputs, WEIGHTS, ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
