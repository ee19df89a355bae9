"""The compiled core (``cardtable._core``, Rust) as the Python engine's fast path.

The Python rules layer is the reference; the core is a second implementation of the same
rules, kept equal to it by the differential tests (``docs/core.md``). A state crosses the
boundary as its position text, once per playout or batch, never once per move.

``CARDTABLE_CORE`` chooses the path: ``auto`` (the default) uses the core when it is
built, ``python`` forces the pure-Python engine everywhere, and ``rust`` insists on the
core (an error if it is missing). Any other value is an error that names the choices.
"""

from __future__ import annotations

import functools
import os
import random
from typing import TYPE_CHECKING, Any

from cardtable.errors import CardtableError
from cardtable.rules.catalog import DESCRIPTORS, descriptor

if TYPE_CHECKING:
    from typing import TypeAlias

    from cardtable._core import (
        KnockoutWhist,
        KnockoutWhistState,
        KrytNavalivat,
        KrytNavalivatState,
        Neuf,
        NeufState,
    )
    from cardtable.core import Game, State

    CoreGame: TypeAlias = KnockoutWhist | Neuf | KrytNavalivat
    """A game of the compiled core (``_core.pyi``)."""
    CoreState: TypeAlias = KnockoutWhistState | NeufState | KrytNavalivatState
    """A state of the compiled core."""

__all__ = [
    "CHOICES",
    "VARIABLE",
    "available",
    "core_game",
    "core_state",
    "in_use",
    "module",
    "playout_returns",
]

VARIABLE = "CARDTABLE_CORE"
CHOICES = ("auto", "rust", "python")


def _choice() -> str:
    choice = os.environ.get(VARIABLE, "auto").strip().lower() or "auto"
    if choice not in CHOICES:
        raise CardtableError(
            f"{VARIABLE}={os.environ[VARIABLE]!r} is not a choice: expected one of "
            + ", ".join(CHOICES)
        )
    return choice


@functools.cache
def _module() -> Any:
    try:
        from cardtable import _core
    except ImportError:
        return None
    return _core


def module() -> Any:
    """``cardtable._core`` itself; :class:`CardtableError` when it is not built."""
    core = _module()
    if core is None:
        raise CardtableError("the compiled core is not built: `pip install -e .` builds it")
    return core


def available() -> bool:
    """Whether the compiled core is built and importable."""
    return _module() is not None


def in_use() -> bool:
    """Whether the paths that can use the core do so now (``CARDTABLE_CORE``)."""
    choice = _choice()
    if choice == "python":
        return False
    if choice == "rust" and not available():
        raise CardtableError(
            f"{VARIABLE}=rust but the compiled core is not built: `pip install -e .` builds it"
        )
    return available()


@functools.lru_cache(maxsize=64)
def _core_game(name: str, options: tuple[tuple[str, Any], ...]) -> CoreGame:
    cls = getattr(_module(), descriptor(name).core)
    game: CoreGame = cls(**dict(options))
    return game


def core_game(game: Game, *, always: bool = False) -> CoreGame | None:
    """The core's twin of ``game`` (same options), or ``None`` on the Python path.

    ``always`` asks for the twin whatever ``CARDTABLE_CORE`` says (the differential tests
    compare the two engines on either path); it is an error if the core is not built."""
    if always and not available():
        raise CardtableError("the compiled core is not built: `pip install -e .` builds it")
    if not (always or in_use()) or game.name not in DESCRIPTORS:
        return None
    return _core_game(game.name, tuple(sorted(game.options.items())))


def core_state(state: State) -> CoreState | None:
    """The core's twin of ``state`` (a copy a caller may play on), or ``None`` on the
    Python path or when the state holds something its position does not (recorded
    reshuffles still to come, which only a record's replay stacks)."""
    own: CoreState | None = getattr(state, "core", None)
    if own is not None:
        return own.copy()
    if getattr(state, "stacked_reshuffles", None):
        return None
    game = core_game(state.game)
    return None if game is None else game.state_from_position(state.position())


def playout_returns(state: State, rng: random.Random) -> tuple[float, ...] | None:
    """The returns of a uniformly random playout of ``state``, played in the core and
    leaving ``state`` as it is; ``None`` (and nothing done) when the core is not in use.
    What a search's rollout needs, without bringing the end back into Python."""
    twin = core_state(state)
    if twin is None:
        return None
    twin.playout(rng.getrandbits(64))
    returns = twin.returns()
    assert returns is not None  # a playout ends the game
    return tuple(returns)
