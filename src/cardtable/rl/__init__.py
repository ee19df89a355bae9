"""Research interfaces: the games as PettingZoo, Gymnasium and OpenSpiel environments.

The adapters read seats' views only (DESIGN.md, "Views"), never the state, so an agent
trained here sees exactly what a player at the table sees.

- :mod:`cardtable.rl.observation`: the fixed-size observation vector and the legal-action
  mask of a view (:func:`~cardtable.rl.observation.encode`,
  :func:`~cardtable.rl.observation.action_mask`, :func:`~cardtable.rl.observation.layout`);
- :mod:`cardtable.rl.pettingzoo`: PettingZoo AEC environments (``pettingzoo`` installed);
- :mod:`cardtable.rl.gymnasium`: a single-agent Gymnasium environment against bots
  (``gymnasium`` installed);
- :mod:`cardtable.rl.openspiel`: the games as OpenSpiel Python games (``open_spiel``);
- :mod:`cardtable.rl.vector`: batches of games stepped in the compiled core, NumPy in and
  out, and the same as a Gymnasium ``VectorEnv`` (the registered ids' ``vector_entry_point``).

``import cardtable`` imports none of them; this package imports a submodule on first use
of one of its names, so ``cardtable.rl.encode`` needs numpy but not PettingZoo.
See docs/research.md.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Layout", "action_mask", "encode", "layout"]

# name -> submodule; imported lazily so that numpy, PettingZoo and Gymnasium load only when used.
_LAZY = {
    "Layout": "cardtable.rl.observation",
    "action_mask": "cardtable.rl.observation",
    "encode": "cardtable.rl.observation",
    "layout": "cardtable.rl.observation",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cardtable.rl' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
