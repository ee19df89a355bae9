"""The bot interface and the registry that builds a bot from a name a player picks.

A bot sees what a seat sees and nothing more: ``choose`` gets the seat's view
(``state.view(seat)``), the legal actions and a random-number generator, never the
state. Everything a bot does with randomness goes through that generator, so a bot
is a deterministic function of its inputs and a seeded game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from cardtable.core import Action, View
from cardtable.errors import CardtableError

__all__ = ["BOT_NAMES", "LEVELS", "PYTHON_HARD", "Bot", "UnknownBotError", "make_bot"]


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
# ``expert`` is perfect-information Monte Carlo over the core's exact solvers
# (``cardtable.bots.pimc``, ``docs/bots.md``): in Knockout Whist every decision, up to 100 deals
# each solved with the other seats taken to play against the bot (paranoid), in at most 0.9 s; in
# Kryt'-navalivat' ``hard``'s search at five times its iterations (250,000) until the stock is
# empty, and then the exact endgame solver beside it. In Neuf it is ``hard``, whom neither PIMC over
# the end of a deal nor any other method tried has beaten. (``hard``'s search with exact leaves,
# ``solve=9``, measured no stronger than PIMC in Knockout Whist, and the rule written before its
# tables ended kept PIMC; in Kryt'-navalivat' five times the search beat ``hard`` by far where the
# endgame solve alone did not, and a rule written before that table kept it.)
LEVELS: dict[str, str] = {
    "easy": "heuristic",
    "medium": "ismcts:iterations=2000",
    "hard": "ismcts:iterations=50000,seconds=0.9",
    "expert": "pimc:deals=100,seconds=0.9,model=paranoid",
}

EXPERTS: dict[str, str] = {
    "kryt-navalivat": "pimc:deals=100,seconds=0.9,model=paranoid,iterations=250000",
    "neuf": LEVELS["hard"],
}
"""Each game's ``expert`` where it is not ``LEVELS["expert"]``."""


def level_spec(level: str, game_name: str) -> str:
    """The bot spec a level (one of :data:`LEVELS`) stands for in a game."""
    return EXPERTS.get(game_name, LEVELS[level]) if level == "expert" else LEVELS[level]


PYTHON_HARD = "ismcts:iterations=2000,seconds=0.9,engine=python"
"""The ``hard`` level as it was before the core's search: Python's search, 2,000 iterations."""


def _heuristics() -> dict[str, Callable[[], Bot]]:
    # Imported here so that a game's bot loads only when someone asks for it.
    from cardtable.bots.knockout_whist import KnockoutWhistHeuristic
    from cardtable.bots.kryt_navalivat import KrytNavalivatHeuristic
    from cardtable.bots.neuf import NeufHeuristic

    return {
        "knockout-whist": KnockoutWhistHeuristic,
        "kryt-navalivat": KrytNavalivatHeuristic,
        "neuf": NeufHeuristic,
    }


BOT_NAMES: tuple[str, ...] = ("random", "heuristic", "ismcts", "pimc", *LEVELS)
"""The bot names :func:`make_bot` accepts; ``ismcts`` and ``pimc`` also take parameters.
(``cheater``, which sees every card, is built too, for the arena's measurements alone.)"""

_ISMCTS_PARAMETERS: dict[str, type] = {
    "iterations": int,
    "seconds": float,
    "exploration": float,
    "rollout": str,
    "engine": str,
    "threads": int,
    "solve": int,
}
_PIMC_PARAMETERS: dict[str, type] = {
    "deals": int,
    "seconds": float,
    "model": str,
    "belief": float,
    "threads": int,
    "cards": int,
    "iterations": int,
}


def make_bot(spec: str, game_name: str) -> Bot:
    """The bot a spec names, for a game. A spec is

    - ``random``, ``heuristic`` (the game's own), or a level: ``easy``, ``medium``, ``hard``,
      ``expert``;
    - ``ismcts:key=value,...`` with ``iterations``, ``seconds``, ``exploration``,
      ``rollout`` (``guided`` or ``random``), ``engine`` (``core`` or ``python``) and
      ``threads``, e.g. ``ismcts:iterations=2000``;
    - ``pimc:key=value,...`` (a game with an exact solver) with ``deals``, ``seconds``,
      ``model`` (``max-n`` or ``paranoid``), ``belief`` (inference, 0 to below 1) and
      ``threads``, e.g. ``pimc:deals=50``;
    - ``package.module:Class`` for a bot of one's own: a class built with no arguments whose
      instances have ``name`` and ``choose(view, legal_actions, rng)``.

    Raises :class:`UnknownBotError` for a spec that names no bot (or a heuristic asked of a
    game that has none) and ``InvalidBudgetError`` for bad search parameters.
    """
    from cardtable.bots.random_bot import RandomBot

    if not isinstance(spec, str) or not spec.strip():
        raise UnknownBotError(f"a bot spec is a name like 'hard', not {spec!r}")
    spec = spec.strip()
    kind, _, arguments = spec.partition(":")
    if kind in LEVELS:
        if arguments:
            raise UnknownBotError(f"the level {kind!r} takes no parameters; use 'ismcts:…'")
        bot = make_bot(level_spec(kind, game_name), game_name)
        bot.name = kind
        return bot
    if kind == "random" and not arguments:
        return RandomBot()
    if kind == "heuristic" and not arguments:
        factory = _heuristics().get(game_name)
        if factory is None:
            raise UnknownBotError(f"there is no heuristic bot for {game_name!r} yet; use 'random'")
        return factory()
    if kind == "ismcts":
        from cardtable.bots.ismcts import IsmctsBot

        return IsmctsBot(
            spec, **_parameters(spec, arguments, _ISMCTS_PARAMETERS, ("iterations", 1000))
        )
    if kind == "cheater":
        from cardtable.bots.pimc import CHEATER_GAMES, CheaterBot

        if game_name not in CHEATER_GAMES:
            raise UnknownBotError(f"there is no cheater for {game_name!r}")
        return CheaterBot(spec, **_parameters(spec, arguments, {"model": str, "iterations": int}))
    if kind == "pimc":
        from cardtable.bots.pimc import PimcBot

        if game_name not in _solved_games():
            raise UnknownBotError(f"there is no exact solver for {game_name!r} yet; use 'ismcts'")
        return PimcBot(spec, **_parameters(spec, arguments, _PIMC_PARAMETERS, ("deals", 100)))
    if "." in kind and arguments.isidentifier():
        return _own_bot(spec, kind, arguments)
    known = ", ".join(BOT_NAMES)
    raise UnknownBotError(
        f"unknown bot {spec!r}; choose one of {known}, 'ismcts:iterations=N' or 'module:Class'"
    )


def _solved_games() -> frozenset[str]:
    from cardtable.bots.pimc import SOLVED_GAMES

    return SOLVED_GAMES


def _parameters(
    spec: str, arguments: str, known: dict[str, type], budget: tuple[str, int] | None = None
) -> dict[str, Any]:
    """``iterations=2000,seconds=0.5`` as typed keyword arguments of the bot's class, from
    the names and types ``known`` gives; ``budget`` (a name and a value: 1,000 iterations,
    100 deals) when the spec gives neither it nor seconds."""
    from cardtable.errors import InvalidBudgetError

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


def _own_bot(spec: str, module_name: str, class_name: str) -> Bot:
    """A user's bot class, imported by name and built with no arguments."""
    import importlib

    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownBotError(f"bot spec {spec!r}: cannot import {module_name!r}: {exc}") from exc
    factory = getattr(module, class_name, None)
    if not callable(factory):
        raise UnknownBotError(f"bot spec {spec!r}: {module_name} has no class {class_name!r}")
    bot = factory()
    if not callable(getattr(bot, "choose", None)):
        raise UnknownBotError(f"bot spec {spec!r}: {class_name} has no choose(view, legal, rng)")
    if not isinstance(getattr(bot, "name", None), str):
        bot.name = spec
    return cast(Bot, bot)
