"""Load a benchmark or a script of the repository (they are files, not a package) as a
module, for the tests that drive them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["load_script"]

ROOT = Path(__file__).resolve().parent.parent


def load_script(relative: str) -> ModuleType:
    """The module of ``relative`` (e.g. ``"benchmarks/rl.py"``), registered in
    ``sys.modules`` so that its dataclasses and pickling find it."""
    path = ROOT / relative
    name = "cardtable_" + path.parent.name + "_" + path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
