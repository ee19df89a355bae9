"""What a tournament is: the game, its options, the bots, the number of games and the seed.

A configuration is all that decides a tournament's games; how they are run (the backend,
the number of workers, what to do on a failure) is not part of it, so a tournament
resumed on another backend or with more workers plays the very same games.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable.bots import make_bot
from cardtable.core import Game
from cardtable.errors import CardtableError

__all__ = [
    "CONFIG_FORMAT",
    "ArenaConfig",
    "ArenaError",
    "BackendUnavailableError",
    "InvalidTournamentError",
    "ResumeMismatchError",
]

CONFIG_FORMAT = "cardtable-arena"
CONFIG_VERSION = 1


class ArenaError(CardtableError):
    """Bad input to a tournament."""


class InvalidTournamentError(ArenaError):
    """A tournament that cannot be run as asked: no bots, a count of zero or less, an
    output folder that already holds another tournament's results."""


class ResumeMismatchError(ArenaError):
    """A resume asked of a folder whose tournament is not the one described."""


class BackendUnavailableError(ArenaError):
    """An unknown backend, or one whose package is not installed."""


@dataclass(frozen=True)
class ArenaConfig:
    """A tournament. ``games`` is the number of games asked for; with ``duplicate`` each
    deal is played once per rotation of the bots over the seats, so the count is rounded
    up to whole deals (:attr:`deals`). ``options`` are the game's (``players`` among them)."""

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = True

    def make_game(self) -> Game:
        """The game with its options checked; :class:`CardtableError` if they are bad."""
        return cardtable.make(self.game, **self.options)

    def validate(self) -> Game:
        """Check everything before a game is played: the game and its options, every bot
        spec (built once), and the counts. Returns the game."""
        if not self.bots:
            raise InvalidTournamentError("a tournament needs at least one bot (--bots a,b)")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise InvalidTournamentError(f"the number of games must be 1 or more, not {self.games}")
        game = self.make_game()
        for spec in self.bots:
            make_bot(spec, game.name)
        return game

    @property
    def rotations(self) -> int:
        """Rotations of the bots over the seats: one per bot, so each bot sits at each seat."""
        return len(self.bots)

    @property
    def deals(self) -> int:
        """The number of deals: every game is a new deal unless deals are duplicated."""
        if not self.duplicate:
            return self.games
        return -(-self.games // self.rotations)

    @property
    def total_games(self) -> int:
        """The games actually scheduled (``games`` rounded up to whole deals)."""
        return self.deals * self.rotations if self.duplicate else self.games

    def resolved(self) -> ArenaConfig:
        """The same tournament with the game's options in full (defaults filled in), the
        form saved and compared on resume."""
        game = self.make_game()
        return ArenaConfig(
            game=game.name,
            bots=tuple(self.bots),
            games=self.games,
            seed=self.seed,
            options=dict(game.options),
            duplicate=self.duplicate,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": CONFIG_FORMAT,
            "version": CONFIG_VERSION,
            "game": self.game,
            "options": dict(self.options),
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "duplicate": self.duplicate,
        }

    @classmethod
    def from_dict(cls, data: object) -> ArenaConfig:
        if not isinstance(data, dict) or data.get("format") != CONFIG_FORMAT:
            raise ResumeMismatchError("not a cardtable arena configuration")
        if data.get("version") != CONFIG_VERSION:
            raise ResumeMismatchError(
                f"arena configuration version {data.get('version')!r} is not supported"
            )
        try:
            return cls(
                game=str(data["game"]),
                bots=tuple(str(b) for b in data["bots"]),
                games=int(data["games"]),
                seed=int(data["seed"]),
                options=dict(data["options"]),
                duplicate=bool(data["duplicate"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ResumeMismatchError(f"arena configuration is incomplete: {exc}") from exc

    def differences(self, other: ArenaConfig) -> list[str]:
        """``key: mine != theirs`` for every field that differs (empty when equal)."""
        mine, theirs = self.to_dict(), other.to_dict()
        return [f"{k}: {mine[k]!r} != {theirs[k]!r}" for k in mine if mine[k] != theirs[k]]
