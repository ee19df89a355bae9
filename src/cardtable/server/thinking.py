"""Bot moves and hints, computed in worker processes so the event loop never waits on them.

Each function takes only what crosses a process boundary cheaply (the game's name, its
rules, a seat's view) and returns plain data. A worker keeps the bots it has built, so a
level's bot is built once per process and game.

Bot moves and hints have pools of their own (:func:`pool`), so that hints, which search
to the end of the hard level's budget, can never hold up a table's bot. Every worker
exits when the server does, however the server ends (:func:`_watch_server`).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import select
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cardtable
from cardtable import hints
from cardtable.analysis import HINT_BUDGET, Budget, analyse
from cardtable.bots import Bot, make_bot
from cardtable.core import Game, View

__all__ = [
    "HINT_BUDGET",
    "HINT_NICENESS",
    "advise",
    "choose",
    "pool",
]

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


def advise(game_name: str, view: View, seed: int, budget: Budget | None = None) -> dict[str, Any]:
    """The hint for the seat whose ``view`` this is (its turn): the recommended action,
    each legal action's value in the game's unit, its uncertainty and its gap to the best,
    and why (:func:`cardtable.hints.advice` of :func:`cardtable.analysis.analyse`), within
    ``budget`` (:data:`HINT_BUDGET` unless given). It reads ``view`` alone, the seat's
    own."""
    game = _game(game_name, view)
    analysis = analyse(game, view, budget=budget or HINT_BUDGET, rng=random.Random(seed))
    return hints.advice(view, analysis)


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
