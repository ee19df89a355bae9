"""The registry that builds a bot from the spec a player picks: a level
(:data:`~cardtable.bots.base.LEVELS`), ``ismcts:…``, ``pimc:…`` or a class of one's own.

It stands above every bot it builds, so that none of them need import it."""

from __future__ import annotations

import importlib
from typing import cast

from cardtable.bots.base import (
    BOT_NAMES,
    ISMCTS_PARAMETERS,
    LEVELS,
    PIMC_PARAMETERS,
    Bot,
    UnknownBotError,
    level_spec,
    parameters,
)
from cardtable.errors import InvalidBudgetError
from cardtable.parts import has_part, part
from cardtable.rules.catalog import DESCRIPTORS

__all__ = ["make_bot"]


def make_bot(spec: str, game_name: str) -> Bot:
    """The bot a spec names, for a game. A spec is

    - ``random``, ``heuristic`` (the game's own), or a level: ``easy``, ``medium``, ``hard``,
      ``expert``;
    - ``ismcts:key=value,...`` with ``iterations``, ``seconds``, ``exploration``,
      ``rollout`` (``guided``, ``random``, or ``learned`` in a game with a learned estimate),
      ``engine`` (``core`` or ``python``), ``threads``, ``solve`` and the inference's
      ``belief``, ``choice`` and ``deals`` (:class:`~cardtable.bots.ismcts.IsmctsBot`),
      e.g. ``ismcts:iterations=2000``;
    - ``pimc:key=value,...`` (a game with an exact solver) with ``deals``, ``seconds``,
      ``model`` (``max-n`` or ``paranoid``), ``belief`` (inference, 0 to below 1) and
      ``threads``, e.g. ``pimc:deals=50``;
    - ``hints`` or ``hints:key=value,...``: the hint-following player, who plays every hint
      (:class:`~cardtable.bots.advice.HintFollower`), at the hint's budget or at the one
      given by ``seconds``, ``deals``, ``rounds`` and ``iterations``
      (:meth:`cardtable.analysis.Budget.parse`), e.g. ``hints:iterations=2000``;
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
        if game_name not in DESCRIPTORS or not has_part("bots", game_name):
            raise UnknownBotError(f"there is no heuristic bot for {game_name!r} yet; use 'random'")
        # A game's bot loads when someone asks for it.
        heuristic: Bot = part("bots", game_name).HEURISTIC()
        return heuristic
    if kind == "ismcts":
        from cardtable.bots.ismcts import IsmctsBot

        searcher = IsmctsBot(
            spec, **parameters(spec, arguments, ISMCTS_PARAMETERS, ("iterations", 1000))
        )
        # The core holds the learned estimates: a game has one where it compiled one in.
        from cardtable import _core

        if searcher.rollout == "learned" and _core.learned_values(game_name) is None:
            raise InvalidBudgetError(f"there is no learned estimate for {game_name!r} yet")
        return searcher
    if kind == "cheater":
        from cardtable.bots.pimc import CheaterBot

        if not _solved(game_name):
            raise UnknownBotError(f"there is no cheater for {game_name!r}")
        return CheaterBot(spec, **parameters(spec, arguments, {"model": str, "iterations": int}))
    if kind == "pimc":
        from cardtable.bots.pimc import PimcBot

        if not _solved(game_name):
            raise UnknownBotError(f"there is no exact solver for {game_name!r} yet; use 'ismcts'")
        return PimcBot(spec, **parameters(spec, arguments, PIMC_PARAMETERS, ("deals", 100)))
    if kind == "hints":
        from cardtable.analysis import Budget
        from cardtable.bots.advice import HintFollower

        follower = HintFollower(Budget.parse(arguments) if arguments else None)
        follower.name = spec
        return follower
    if "." in kind and arguments.isidentifier():
        return _own_bot(spec, kind, arguments)
    known = ", ".join(BOT_NAMES)
    raise UnknownBotError(
        f"unknown bot {spec!r}; choose one of {known}, 'ismcts:iterations=N' or 'module:Class'"
    )


def _solved(game_name: str) -> bool:
    """Whether the game has an exact solver in the core (PIMC's and the cheater's)."""
    known = DESCRIPTORS.get(game_name)
    return known is not None and known.solver_model is not None


def _own_bot(spec: str, module_name: str, class_name: str) -> Bot:
    """A user's bot class, imported by name and built with no arguments."""
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
