"""The bot interface, and the spec a player picks a bot by: the levels and the parameters.

A bot sees what a seat sees and nothing more: ``choose`` gets the seat's view
(``state.view(seat)``), the legal actions and a random-number generator, never the
state. Everything a bot does with randomness goes through that generator, so a bot
is a deterministic function of its inputs and a seeded game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from cardtable.core import Action, View
from cardtable.errors import CardtableError, InvalidBudgetError
from cardtable.parts import has_part, part
from cardtable.rules.catalog import DESCRIPTORS

__all__ = [
    "BOT_NAMES",
    "ISMCTS_PARAMETERS",
    "LEVELS",
    "PIMC_PARAMETERS",
    "PYTHON_HARD",
    "Bot",
    "UnknownBotError",
    "level_spec",
    "parameters",
]


class UnknownBotError(CardtableError):
    """No bot of that name exists, or none is written yet for that game."""


@runtime_checkable
class Bot(Protocol):
    """A player driven by code. ``name`` is the registry name it was built from."""

    name: str

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal_actions`` for the seat whose ``view`` this is."""
        ...


# The levels a player picks, as bot specs. Both search in the compiled core (when it is in use)
# with the game's guided rollouts, on one thread, stopping once no iteration left could change
# the choice. ``medium`` spends ten times the iterations the Python ``medium`` spent, in less
# time; ``hard`` about 25 times those of the Python ``hard`` (2,000, the spec ``PYTHON_HARD``
# keeps for comparison), and never longer than 0.9 s, a cap meant to bind only on a very slow
# machine. ``benchmarks/search.py`` times them (docs/bots.md and benchmarks/README.md).
#
# ``expert`` is ``hard``'s search with the estimate learnt by self-play at the end of each
# rollout (``rollout=learned``: who names the next trumps, how a dog fares; ``docs/bots.md``), in
# Knockout Whist, the one game whose learned estimate measured stronger (Neuf's network at the
# end of a trick measured weaker than ``hard``); it beat ``hard`` where perfect-information
# Monte Carlo over the exact solver (the level before it) could not be told from ``hard``. In
# Kryt'-navalivat' it is ``hard``'s search at five times its iterations (250,000) until the stock
# is empty, and then the exact endgame solver beside it (PIMC, ``cardtable.bots.pimc``). In Neuf
# it is ``hard``, whom neither PIMC over the end of a deal, a learned value nor any other method
# tried has beaten.
# Each game's bots module says which (its ``EXPERT``, :mod:`cardtable.parts`). (``hard``'s
# search with exact leaves, ``solve=9``, measured no stronger than PIMC in Knockout Whist; in
# Kryt'-navalivat' five times the search beat ``hard`` by far where the endgame solve alone did
# not, and a rule written before that table kept it.)
LEVELS: dict[str, str] = {
    "easy": "heuristic",
    "medium": "ismcts:iterations=2000",
    "hard": "ismcts:iterations=50000,seconds=0.9",
    "expert": "ismcts:iterations=50000,seconds=0.9,rollout=learned",
}


def level_spec(level: str, game_name: str) -> str:
    """The bot spec a level (one of :data:`LEVELS`) stands for in a game: ``expert`` is
    the game's own where its bots module names one (another level, or a spec)."""
    if level == "expert" and game_name in DESCRIPTORS and has_part("bots", game_name):
        expert: str | None = part("bots", game_name).EXPERT
        if expert is not None:
            return LEVELS.get(expert, expert)
    return LEVELS[level]


PYTHON_HARD = "ismcts:iterations=2000,seconds=0.9,engine=python"
"""The ``hard`` level as it was before the core's search: Python's search, 2,000 iterations."""


BOT_NAMES: tuple[str, ...] = ("random", "heuristic", "ismcts", "pimc", "hints", *LEVELS)
"""The bot names :func:`make_bot` accepts; ``ismcts``, ``pimc`` and ``hints`` (the
hint-following player) also take parameters.
(``cheater``, which sees every card, is built too, for the arena's measurements alone.)"""

ISMCTS_PARAMETERS: dict[str, type] = {
    "iterations": int,
    "seconds": float,
    "exploration": float,
    "rollout": str,
    "engine": str,
    "threads": int,
    "solve": int,
    "belief": float,
    "choice": float,
    "deals": int,
    "prior": float,
}
PIMC_PARAMETERS: dict[str, type] = {
    "deals": int,
    "seconds": float,
    "model": str,
    "belief": float,
    "threads": int,
    "cards": int,
    "iterations": int,
}


def parameters(
    spec: str, arguments: str, known: dict[str, type], budget: tuple[str, int] | None = None
) -> dict[str, Any]:
    """``iterations=2000,seconds=0.5`` as typed keyword arguments of the bot's class, from
    the names and types ``known`` gives; ``budget`` (a name and a value: 1,000 iterations,
    100 deals) when the spec gives neither it nor seconds."""
    parameters: dict[str, Any] = {}
    for item in filter(None, arguments.split(",")):
        key, sep, value = item.partition("=")
        kind = known.get(key.strip())
        if not sep or kind is None:
            names = ", ".join(known)
            raise UnknownBotError(f"bot spec {spec!r}: {item!r} is not one of {names} =value")
        try:
            parameters[key.strip()] = kind(value.strip())
        except ValueError as exc:
            raise InvalidBudgetError(
                f"bot spec {spec!r}: {key.strip()} must be a {kind.__name__}, not {value!r}"
            ) from exc
    if budget is not None and budget[0] not in parameters and "seconds" not in parameters:
        parameters[budget[0]] = budget[1]
    return parameters
