"""The bot interface and the registry that builds a bot from a name a player picks.

A bot sees what a seat sees and nothing more: ``choose`` gets the seat's view
(``state.view(seat)``), the legal actions and a random-number generator, never the
state. Everything a bot does with randomness goes through that generator, so a bot
is a deterministic function of its inputs and a seeded game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from cardtable.core import Action, View
from cardtable.errors import CardtableError

__all__ = ["BOT_NAMES", "LEVELS", "Bot", "UnknownBotError", "make_bot"]


class UnknownBotError(CardtableError):
    """No bot of that name exists, or none is written yet for that game."""


@runtime_checkable
class Bot(Protocol):
    """A player driven by code. ``name`` is the registry name it was built from."""

    name: str

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal_actions`` for the seat whose ``view`` this is."""
        ...


# The levels a player picks map to bot kinds; medium and hard will be ISMCTS.
LEVELS: dict[str, str] = {"easy": "heuristic"}
_PLANNED = {"medium", "hard", "ismcts"}


def _heuristics() -> dict[str, Callable[[], Bot]]:
    # Imported here so that a game's bot loads only when someone asks for it.
    from cardtable.bots.knockout_whist import KnockoutWhistHeuristic
    from cardtable.bots.kryt_navalivat import KrytHeuristic
    from cardtable.bots.neuf import NeufHeuristic

    return {
        "knockout-whist": KnockoutWhistHeuristic,
        "kryt-navalivat": KrytHeuristic,
        "neuf": NeufHeuristic,
    }


BOT_NAMES: tuple[str, ...] = ("random", "heuristic", *LEVELS)
"""The names :func:`make_bot` accepts (for a game that has a heuristic bot)."""


def make_bot(name: str, game_name: str) -> Bot:
    """The bot called ``name`` (``random``, ``heuristic`` or the level ``easy``) for a game.

    Raises :class:`UnknownBotError` for a name that is not a bot, for a level not yet
    available, and for a heuristic asked of a game that has none.
    """
    from cardtable.bots.random_bot import RandomBot

    kind = LEVELS.get(name, name)
    if kind == "random":
        return RandomBot()
    if kind == "heuristic":
        factory = _heuristics().get(game_name)
        if factory is None:
            raise UnknownBotError(f"there is no heuristic bot for {game_name!r} yet; use 'random'")
        return factory()
    known = ", ".join(BOT_NAMES)
    if name in _PLANNED:
        raise UnknownBotError(f"bot level {name!r} is not available yet; choose one of {known}")
    raise UnknownBotError(f"unknown bot {name!r}; choose one of {known}")
