"""How each layer above the rules finds its part of a game: by the game's name.

A layer that plays every game (the bots, the hints, the terminal, the tutorials) keeps one
module per game, named as the game's rules package is (``cardtable.bots.neuf`` beside
``cardtable.rules.neuf``), and reads from it what it needs: the easy bot and the expert
level (``HEURISTIC``, ``EXPERT``), the search's guided rollout (the ``_rollout`` module),
the rules of thumb of a hint (``reason``), the terminal's screen (``SCREEN``), the lesson
(``TUTORIAL``). The rules name none of them, not even as a string: a new game is a package
of rules with its descriptor in the catalog, and a module in each layer that plays it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from cardtable.rules.catalog import descriptor

__all__ = ["has_part", "part"]


def part(layer: str, game_name: str, suffix: str = "") -> ModuleType:
    """The module ``cardtable.<layer>.<package><suffix>`` of the game ``game_name`` (its
    rules' package name), imported on first use; :class:`~cardtable.UnknownGameError` for
    a name of no game, ``ModuleNotFoundError`` (naming that module) where the layer has no
    part for it."""
    return importlib.import_module(_module(layer, game_name, suffix))


def has_part(layer: str, game_name: str, suffix: str = "") -> bool:
    """Whether the layer has a part for the game (an error inside that part is raised, not
    taken for its absence)."""
    try:
        part(layer, game_name, suffix)
    except ModuleNotFoundError as missing:
        if missing.name != _module(layer, game_name, suffix):
            raise
        return False
    return True


def _module(layer: str, game_name: str, suffix: str) -> str:
    return f"cardtable.{layer}.{descriptor(game_name).package}{suffix}"
