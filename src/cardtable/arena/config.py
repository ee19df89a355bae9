"""What a tournament is: the game, its options, the bots, the number of games, the seed,
what a game is (a whole game, or Neuf's first deal alone) and when to stop early.

A configuration is all that decides a tournament's games; how they are run (the backend,
the number of workers, what to do on a failure) is not part of it, so a tournament
resumed on another backend or with more workers plays the very same games.

The saved form (``arena.json``) is version 1 unless the tournament plays single deals
(``per_deal``) or has a stopping rule (``stop``): those are version 2, so that an older
cardtable refuses to resume them rather than play on without what it cannot read. Both
versions are read; a version 1 file means ``per_deal`` false and no stopping rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable.bots import make_bot
from cardtable.core import Game
from cardtable.errors import CardtableError
from cardtable.rules.catalog import descriptor

__all__ = [
    "CONFIG_FORMAT",
    "DEFAULT_MIN_DEALS",
    "DEFAULT_SPRT_MIN_DEALS",
    "MAX_ACTIONS",
    "ArenaConfig",
    "ArenaError",
    "BackendUnavailableError",
    "InvalidTournamentError",
    "ResumeMismatchError",
    "Sprt",
    "StoppingRule",
]

CONFIG_FORMAT = "cardtable-arena"
CONFIG_VERSION = 1
CONFIG_VERSION_EXTENDED = 2  # with per_deal, a stopping rule or a cap of its own
CONFIG_VERSIONS = (CONFIG_VERSION, CONFIG_VERSION_EXTENDED)
DEFAULT_MIN_DEALS = 100
# With an SPRT: deals played before it is first checked, so that the spread of a deal's
# difference, which the test estimates as it goes, is not read from a handful.
DEFAULT_SPRT_MIN_DEALS = 20

MAX_ACTIONS = 10_000
"""The actions after which the arena stops a game that has not ended and scores it a draw.
Kryt'-navalivat' has no move limit: two players can pass the pile to and fro for ever
(K-14), and KRYT-7.7 asks harnesses to cap a game (10,000 turns its example) and report the
games that hit the cap. The other games end long before (a whole game of Knockout Whist or
Neuf is some hundreds of actions)."""


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
class Sprt:
    """A sequential probability ratio test of the first bot's paired difference to the
    second (``--sprt H0,H1 --alpha A --beta B``): ``h0`` and ``h1`` the two differences told
    apart, in the metric's units, first bot minus second, averaged by deal; ``alpha`` the
    chance of taking H1 when H0 holds, ``beta`` of taking H0 when H1 holds. Its error rates
    hold however often it is checked (:mod:`cardtable.arena.stopping`)."""

    h0: float
    h1: float
    alpha: float = 0.05
    beta: float = 0.05

    def validate(self) -> None:
        numbers = (self.h0, self.h1, self.alpha, self.beta)
        if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in numbers):
            raise InvalidTournamentError(f"the SPRT's bounds and errors are numbers: {numbers!r}")
        if not all(math.isfinite(x) for x in numbers) or self.h0 == self.h1:
            raise InvalidTournamentError(
                f"the SPRT tells two different differences apart (--sprt H0,H1), not "
                f"{self.h0!r} and {self.h1!r}"
            )
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise InvalidTournamentError(
                f"the SPRT's error rates (--alpha, --beta) lie between 0 and 0.5, not "
                f"{self.alpha!r} and {self.beta!r}"
            )

    def to_dict(self) -> dict[str, Any]:
        return {"h0": self.h0, "h1": self.h1, "alpha": self.alpha, "beta": self.beta}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Sprt:
        return cls(*(float(data[key]) for key in ("h0", "h1", "alpha", "beta")))


@dataclass(frozen=True)
class StoppingRule:
    """When a tournament stops before its last game, checked after each whole deal from the
    ``min_deals``-th on. With an ``sprt``, when the test takes one of its hypotheses: the
    table of record's way, its error rates controlled. Else once the first bot is told
    apart from every other (``--stop-when-separated MARGIN --min-deals N``): the first
    entry's 95% interval and each other entry's at least ``margin`` apart (no overlap), in
    the metric's units, by the same statistics as the report's; optional stopping, for
    exploration (:mod:`cardtable.arena.stopping`)."""

    margin: float = 0.0
    min_deals: int = DEFAULT_MIN_DEALS
    sprt: Sprt | None = None

    def validate(self) -> None:
        if self.sprt is not None:
            self.sprt.validate()
        margin = self.margin
        if (
            isinstance(margin, bool)
            or not isinstance(margin, int | float)
            or not math.isfinite(margin)
            or margin < 0
        ):
            raise InvalidTournamentError(
                f"the stopping margin (--stop-when-separated) must be a number 0 or more, "
                f"not {margin!r}"
            )
        deals = self.min_deals
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise InvalidTournamentError(
                f"the minimum number of deals (--min-deals) must be 1 or more, not {deals!r}"
            )

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"margin": self.margin, "min_deals": self.min_deals}
        if self.sprt is not None:
            found["sprt"] = self.sprt.to_dict()
        return found

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StoppingRule:
        sprt = data.get("sprt")
        return cls(
            margin=float(data["margin"]),
            min_deals=int(data["min_deals"]),
            sprt=None if sprt is None else Sprt.from_dict(sprt),
        )


@dataclass(frozen=True)
class ArenaConfig:
    """A tournament. ``games`` is the number of games asked for; with ``duplicate`` each
    deal is played once per rotation of the bots over the seats, so the count is rounded
    up to whole deals (:attr:`deals`). ``options`` are the game's (``players`` among them).

    ``per_deal`` (Neuf only) makes each game the first deal of a game alone, measured by
    the score each side gains in it (:mod:`cardtable.arena.metrics`). ``stop`` is a
    stopping rule; ``games`` is then the most that are played. ``max_actions`` caps each
    game (:data:`MAX_ACTIONS`)."""

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = True
    per_deal: bool = False
    stop: StoppingRule | None = None
    max_actions: int = MAX_ACTIONS

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
        if self.per_deal and not descriptor(game.name).per_deal:
            raise InvalidTournamentError(
                f"--per-deal is for Neuf only, whose deals are scored on their own (NEUF-5); "
                f"a game of {game.name} is not made of scored deals"
            )
        if (
            isinstance(self.max_actions, bool)
            or not isinstance(self.max_actions, int)
            or self.max_actions < 1
        ):
            raise InvalidTournamentError(
                f"the cap on a game's actions must be 1 or more, not {self.max_actions!r}"
            )
        if self.stop is not None:
            self.stop.validate()
            if len(self.bots) < 2:
                raise InvalidTournamentError(
                    "a stopping rule compares the first bot with the others: give at least two bots"
                )
            if self.stop.sprt is not None and len(self.bots) != 2:
                raise InvalidTournamentError(
                    "the SPRT tests the first bot's difference to the second: give two bots"
                )
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
            per_deal=self.per_deal,
            stop=self.stop,
            max_actions=self.max_actions,
        )

    @property
    def games_per_deal(self) -> int:
        """Games of one deal: one per rotation with duplicate deals, else one."""
        return self.rotations if self.duplicate else 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": CONFIG_FORMAT,
            "version": CONFIG_VERSION_EXTENDED
            if self.per_deal or self.stop is not None or self.max_actions != MAX_ACTIONS
            else CONFIG_VERSION,
            "game": self.game,
            "options": dict(self.options),
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "per_deal": self.per_deal,
            "stop": None if self.stop is None else self.stop.to_dict(),
            "max_actions": self.max_actions,
        }

    @classmethod
    def from_dict(cls, data: object) -> ArenaConfig:
        if not isinstance(data, dict) or data.get("format") != CONFIG_FORMAT:
            raise ResumeMismatchError("not a cardtable arena configuration")
        if data.get("version") not in CONFIG_VERSIONS:
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
                per_deal=bool(data.get("per_deal", False)),
                stop=None if data.get("stop") is None else StoppingRule.from_dict(data["stop"]),
                max_actions=int(data.get("max_actions", MAX_ACTIONS)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ResumeMismatchError(f"arena configuration is incomplete: {exc}") from exc

    def differences(self, other: ArenaConfig) -> list[str]:
        """``key: mine != theirs`` for every field that differs (empty when equal)."""
        mine, theirs = self.to_dict(), other.to_dict()
        fields = [k for k in mine if k not in ("format", "version")]
        return [f"{k}: {mine[k]!r} != {theirs[k]!r}" for k in fields if mine[k] != theirs[k]]
