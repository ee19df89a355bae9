"""Bot moves and hints, computed in worker processes so the event loop never waits on them.

Each function takes only what crosses a process boundary cheaply (the game's name, its
rules, a seat's view) and returns plain data. A worker keeps the bots it has built, so a
level's bot is built once per process and game.

Bot moves and hints have pools of their own (:func:`pool`), so that hints, which search
to the end of the hard level's budget, can never hold up a table's bot. Every worker
exits when the server does, however the server ends (:func:`_watch_server`).
"""

from __future__ import annotations

import copy
import json
import multiprocessing
import os
import random
import select
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import cardtable
from cardtable import hints
from cardtable.bots import Bot, make_bot
from cardtable.bots.ismcts import IsmctsBot
from cardtable.bots.pimc import solved_twin
from cardtable.core import Game, View
from cardtable.rules.catalog import descriptor

__all__ = [
    "HINT_BUDGET",
    "HINT_LEVEL",
    "HINT_NICENESS",
    "HintBudget",
    "advise",
    "choose",
    "pool",
]

# A hint's chances are the hard level's search (in the core when it is in use), run to the
# end of its budget so that every action's statistics mean something; its values in the
# game's unit are that search's (Kryt'-navalivat') or PIMC's (HintBudget).
HINT_LEVEL = "hard"

# Hint workers run at a lower priority than the bot workers: when the cores are all busy,
# the kernel gives them to the tables' bots first.
HINT_NICENESS = 10
POLL_SECONDS = 1.0  # where a process cannot be waited on (no pidfd), how often to look

_bots: dict[tuple[str, str], Bot] = {}
_games: dict[str, Game] = {}


def _game(game_name: str, view: View) -> Game:
    """The game a view is of, built once per process (``make`` costs more than an easy
    bot's whole move)."""
    key = json.dumps([game_name, view["options"]], sort_keys=True)
    game = _games.get(key)
    if game is None:
        game = _games[key] = cardtable.make(game_name, **view["options"])
    return game


def _bot(game_name: str, level: str) -> Bot:
    """A level's bot for a game, built once per process."""
    bot = _bots.get((game_name, level))
    if bot is None:
        bot = _bots[(game_name, level)] = make_bot(level, game_name)
    return bot


def choose(game_name: str, level: str, view: View, seed: int) -> str:
    """The action text a bot of ``level`` plays from ``view`` (whose turn it must be)."""
    bot = _bot(game_name, level)
    game = _game(game_name, view)
    legal = [game.parse_action(text) for text in view["legal_actions"]]
    return str(bot.choose(view, legal, random.Random(seed)))


@dataclass(frozen=True)
class HintBudget:
    """What a hint may spend. Knockout Whist and Neuf value the actions in their units by
    PIMC over the core's solvers (at most ``deals`` deals and ``seconds`` seconds), and
    the ``hard`` search gives each action's chance of a good end of the game beside it
    (within ``search_seconds``). Kryt'-navalivat's unit is that search's own chance, at
    the ``hard`` level's budget (``kryt_navalivat_seconds``, as its own). In all, about a second and
    a half at most."""

    deals: int = 400
    seconds: float = 0.9
    search_seconds: float = 0.5
    kryt_navalivat_seconds: float = 0.9


HINT_BUDGET = HintBudget()


def advise(game_name: str, view: View, seed: int) -> dict[str, Any]:
    """The hint for the seat whose ``view`` this is (its turn): the recommended action,
    each legal action's value in the game's unit and the search's chance of a good end
    for it (winning; in Kryt'-navalivat', not being the fool), and why
    (:func:`cardtable.hints.advice`). It reads ``view`` alone, the seat's own."""
    game = _game(game_name, view)
    legal = view["legal_actions"]
    if len(legal) == 1:
        return hints.advice(game_name, view, {}, {}, {})
    budget = HINT_BUDGET
    rng = random.Random(seed)
    values: dict[str, float | None] = {}
    visits: dict[str, int] = {}
    bot = _bot(game_name, HINT_LEVEL)
    assert isinstance(bot, IsmctsBot)  # the hard level searches
    judge = descriptor(game_name).hint_judge
    if judge is not None:
        from cardtable._core import KnockoutWhist, Neuf  # PIMC is the core's

        twin = solved_twin(game)
        assert isinstance(twin, KnockoutWhist | Neuf)
        _, deals, means, _, _ = twin.judge(
            json.dumps(view),
            deals=budget.deals,
            seconds=budget.seconds,
            model=judge,
            seed=rng.getrandbits(64),
        )
        for text in legal:
            number = game.number_of(text)
            values[text] = means.get(number)
            visits[text] = deals.get(number, 0)
    bot = copy.copy(bot)
    bot.seconds = budget.kryt_navalivat_seconds if judge is None else budget.search_seconds
    # A hint shows every action's chance, not just the best one's: no stopping early.
    result = bot.analyse(game, view, rng, stop_early=False)
    low, high = descriptor(game_name).return_range(game.num_players)
    chances: dict[str, float | None] = {}
    for text in legal:
        number = game.number_of(text)
        value = result.values.get(number)
        chance = None if value is None else min(1.0, max(0.0, (value - low) / (high - low)))
        chances[text] = chance
        if judge is None:  # the search's chance is the value
            values[text] = chance
            visits[text] = result.visits.get(number, 0)
    return hints.advice(game_name, view, values, chances, visits)


def pool(workers: int, *, niceness: int = 0) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that end with this one, ``niceness`` below it."""
    return ProcessPoolExecutor(
        max_workers=workers,
        # forkserver: the workers start from a clean process, not a copy of the server's
        # threads.
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=_start_worker,
        initargs=(os.getpid(), niceness),
    )


def _start_worker(server: int, niceness: int) -> None:
    if niceness:
        os.nice(niceness)
    threading.Thread(target=_watch_server, args=(server,), name="server-watch", daemon=True).start()


def _watch_server(server: int) -> None:
    """Exit as soon as process ``server`` has ended.

    A worker is the forkserver's child, not the server's, and nothing else tells it of a
    server killed outright: it would wait on its task queue for ever, and keep the
    forkserver and the resource tracker alive with it (both exit once every holder of
    their pipes has gone). The core's searches release the interpreter lock, so this
    thread runs even in the middle of one."""
    try:
        handle = os.pidfd_open(server)
    except (AttributeError, OSError):  # no pidfd (not Linux, or an old kernel): poll
        while _alive(server):
            time.sleep(POLL_SECONDS)
    else:
        select.select([handle], [], [])  # readable once the process has exited
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: ours is gone, its number reused
        return False
    return True
