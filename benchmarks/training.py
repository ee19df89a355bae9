"""What the training scripts of the networks compiled into the core share: PyTorch (the
``train`` extra) brought in deterministically, the small network they all are, an epoch of
minibatches, a run that resumes after its last finished epoch, and the weights written as
the core reads them (``crates/core/src/net.rs``).

Used by ``neuf_value_net.py`` and ``knockout_whist_prior.py``, run as scripts from this
folder (``python benchmarks/<script>.py``), which puts it on the import path.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np


def torch_or_none(seed: int) -> Any:
    """PyTorch, seeded and deterministic on two threads; None (having said why) where the
    ``train`` extra is not installed."""
    try:
        import torch
    except ImportError:
        print("needs the train extra: pip install -e '.[train]'", file=sys.stderr)
        return None
    torch.manual_seed(seed)
    torch.set_num_threads(2)
    torch.use_deterministic_algorithms(True)
    return torch


def network(torch: Any, inputs: int, hidden: int, outputs: int) -> Any:
    """Two hidden ReLU layers of ``hidden`` units: the shape the core evaluates."""
    return torch.nn.Sequential(
        torch.nn.Linear(inputs, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, outputs),
    )


def train_epoch(
    torch: Any,
    model: Any,
    optimizer: Any,
    epoch: int,
    epochs: int,
    size: int,
    batch: int,
    loss_of: Callable[[Any], Any],
) -> float:
    """One pass over the ``size`` training samples in a fresh random order, ``batch`` at a
    time (``loss_of(picked indices)`` is the batch's mean loss); the pass's mean loss. The
    learning rate steps down, times 0.3, halfway and again at three quarters. The model is
    left in evaluation mode, for the held-out measures."""
    if epoch == epochs // 2 or epoch == epochs * 3 // 4:
        for group in optimizer.param_groups:
            group["lr"] *= 0.3
    model.train()
    order = torch.randperm(size)
    total = 0.0
    for start in range(0, size, batch):
        pick = order[start : start + batch]
        loss = loss_of(pick)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(pick)
    model.eval()
    return total / size


class Checkpoint:
    """The run's state after every epoch (model, optimizer, the epochs' rows, the random
    stream), so that a stopped run goes on where it stopped: the same weights as a run
    never stopped. A checkpoint of other settings is not resumed."""

    def __init__(self, torch: Any, path: Path, curve_path: Path, settings: dict[str, Any]):
        self.torch = torch
        self.path = path
        self.curve_path = curve_path
        self.settings = settings

    def resume(self, model: Any, optimizer: Any, curve: dict[str, Any]) -> None:
        if not self.path.exists():
            return
        saved = self.torch.load(self.path, weights_only=False)
        if saved["settings"] != self.settings:
            return
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        curve["epochs"] = saved["epochs"]
        self.torch.set_rng_state(saved["rng"])
        print(f"resumed after epoch {len(curve['epochs'])}")

    def save(self, model: Any, optimizer: Any, curve: dict[str, Any], row: dict[str, Any]) -> None:
        """Add the epoch's row to the curve; keep the state and the curve."""
        curve["epochs"].append(row)
        print(json.dumps(row), flush=True)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.torch.save(
            {
                "settings": self.settings,
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "epochs": curve["epochs"],
                "rng": self.torch.get_rng_state(),
            },
            self.path,
        )
        self.curve_path.write_text(json.dumps(curve, indent=1) + "\n")


def export(model: Any, inputs: int) -> dict[str, Any]:
    """The weights as the core reads them, six significant digits each."""
    layers = []
    for layer in model:
        if hasattr(layer, "weight"):
            weights = layer.weight.detach().numpy().astype(np.float32)
            bias = layer.bias.detach().numpy().astype(np.float32)
            layers.append(
                {
                    "weights": [[float(f"{w:.6g}") for w in row] for row in weights],
                    "bias": [float(f"{b:.6g}") for b in bias],
                }
            )
    return {"inputs": inputs, "layers": layers}


def write_weights(model: Any, inputs: int, path: Path, root: Path) -> None:
    path.write_text(json.dumps(export(model, inputs), separators=(",", ":")) + "\n")
    print(f"wrote {path.relative_to(root)}")
