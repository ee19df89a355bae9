"""Which games a tournament plays: deals, rotations of the bots over the seats, and seeds.

Bots are *entries*: each name in the bot list is one competitor, and a spec listed twice
is two competitors (``random`` and ``random#2``), rated and reported apart. Rotation ``r``
seats entry ``(r + s) % k`` at seat ``s`` (``k`` entries). Over the ``k`` rotations every
entry sits at every seat exactly once, whether there are as many entries as seats, fewer
(the list is cycled: an entry holds several seats in one game) or more (some sit out).

With duplicate deals (the default) each deal is played under every rotation: the same
deck, the same first dealer, only the bots moved. The luck of the cards then falls on
every entry alike, and statistics can be taken across deals. Without, deal ``d`` is
played once, in rotation ``d % k``.

Every seed is derived from the tournament's seed by hashing, so a game's inputs depend
only on the tournament's seed and the game's place in the schedule.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from cardtable.arena.config import MAX_ACTIONS, ArenaConfig

__all__ = ["GameTask", "deal_seed", "entry_names", "lineup", "schedule"]


@dataclass(frozen=True, slots=True)
class GameTask:
    """Everything one game depends on; :func:`cardtable.arena.match.play_game` is a pure
    function of it (apart from the time it takes)."""

    index: int
    deal: int
    rotation: int
    deal_seed: int
    game: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    """The entry at each seat."""
    specs: tuple[str, ...]
    """The bot spec at each seat."""
    rng_seeds: tuple[str, ...]
    """Each seat's bot's random-number generator seed."""
    per_deal: bool = False
    """Play the first deal only (Neuf), measured by the score gained in it."""
    max_actions: int = MAX_ACTIONS
    """Stop the game after this many actions if it has not ended (a draw, ``capped``)."""


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal ``deal``: it fixes the decks and the first dealer."""
    digest = hashlib.blake2b(f"cardtable-arena/{seed}/deal {deal}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big") >> 1  # 63 bits, like Game.fresh_seed


def entry_names(bots: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """One name per entry: the spec, with ``#2``, ``#3`` … on its later repeats."""
    seen: dict[str, int] = {}
    names = []
    for spec in bots:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return tuple(names)


def lineup(entries: tuple[str, ...], players: int, rotation: int) -> tuple[str, ...]:
    """The entry at each seat in rotation ``rotation``."""
    k = len(entries)
    return tuple(entries[(rotation + seat) % k] for seat in range(players))


def schedule(config: ArenaConfig, players: int) -> list[GameTask]:
    """Every game of the tournament, in index order (deal by deal, rotation by rotation)."""
    entries = entry_names(config.bots)
    spec_of = dict(zip(entries, config.bots, strict=True))
    k = len(entries)
    tasks: list[GameTask] = []
    for deal in range(config.deals):
        rotations = range(k) if config.duplicate else (deal % k,)
        seed = deal_seed(config.seed, deal)
        for rotation in rotations:
            seats = lineup(entries, players, rotation)
            tasks.append(
                GameTask(
                    index=len(tasks),
                    deal=deal,
                    rotation=rotation,
                    deal_seed=seed,
                    game=config.game,
                    options=dict(config.options),
                    seats=seats,
                    specs=tuple(spec_of[e] for e in seats),
                    rng_seeds=tuple(
                        f"{config.seed}:{deal}:{rotation}:{seat}" for seat in range(players)
                    ),
                    per_deal=config.per_deal,
                    max_actions=config.max_actions,
                )
            )
    return tasks
