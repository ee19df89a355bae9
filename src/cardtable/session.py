"""Games in a row at one table, for a game whose descriptor plays them so (``sessions``):
each game is one hand of Kryt'-navalivat' (SPEC §0.1), and people play many.

The next game's dealer is the descriptor's to say (``dealer_after``): in Kryt'-navalivat' the
fool deals the next hand, the same dealer after a draw (KRYT-2.1, KRYT-7.5, K-8). Each game
is an ordinary game with its own record, on the engine of the game it began with, so a
session saves as the list of its games' records::

    {"format": "cardtable-session", "version": 1, "game": "kryt-navalivat",
     "options": {"players": 3, "trump_mode": "turned"}, "seed": 7, "hands": [record, ...]}

and loading it replays every hand and checks that each was dealt by the right player.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Generic, cast

from typing_extensions import TypeVar

import cardtable
from cardtable.cards import Card
from cardtable.chance import draw
from cardtable.core import Game, Record, State
from cardtable.errors import InvalidOptionError, InvalidRecordError
from cardtable.rules.catalog import descriptor

__all__ = ["SESSION_FORMAT", "SESSION_VERSION", "Session"]

SESSION_FORMAT = "cardtable-session"
SESSION_VERSION = 1

S = TypeVar("S", bound=State, default=State)  # the game's state class, where a caller knows it


class Session(Generic[S]):
    """Games played in a row: ``state`` is the one in progress (or the last one),
    ``losses`` counts each seat's games as the fool and ``draws`` the drawn games.

    ``game`` is the first game (its options, its first dealer or none, and its engine:
    ``cardtable.make``); the session's seed deals every game, game ``n`` from the seed's
    ``hand n`` draw, or from ``decks`` while they last. ``Session[KrytNavalivatState]``
    types its hands as the caller knows them to be."""

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        decks: Sequence[Sequence[str | Card]] = (),
    ) -> None:
        self.rules = descriptor(game.name)
        if not self.rules.sessions:
            raise InvalidOptionError(f"{game.name} is not played as a session of hands")
        self.seed = Game.fresh_seed() if seed is None else seed
        self.options: dict[str, Any] = {k: v for k, v in game.options.items() if k != "dealer"}
        self.first_dealer = game.resolved_dealer(self.seed)
        self.stacked = [list(d) for d in decks]
        self._game = game
        self.hands: list[S] = []
        self.dealers: list[int] = []  # each game's dealer
        self.seeds: list[int] = []  # each game's seed, drawn from the session's
        self.losses = [0] * game.num_players
        self.draws = 0
        self._deal(self.first_dealer)

    @property
    def state(self) -> S:
        return self.hands[-1]

    @property
    def fool(self) -> int | None:
        """The fool of the last game, once it is over (None: a draw, or not over)."""
        result = self.state.result
        return None if result is None else self.rules.fool_of(result)

    @property
    def next_dealer(self) -> int:
        """Who deals the next game, after the last one."""
        return self.rules.dealer_after(self.dealers[-1], len(self.losses), self.fool)

    def next_hand(self) -> S:
        """Deal the next game; the one in progress must be over."""
        if not self.state.is_over:
            raise InvalidRecordError(
                f"hand {len(self.hands)} is still being played; finish it before the next"
            )
        self.draws = self._counted(self.losses, self.draws)
        self._deal(self.next_dealer)
        return self.state

    def _counted(self, losses: list[int], draws: int) -> int:
        """Count the last game, over: its fool's loss in ``losses``; the draws after it."""
        fool = self.fool
        if fool is None:
            return draws + 1
        losses[fool] += 1
        return draws

    def _game_dealt_by(self, dealer: int) -> Game:
        # The class of the first game: the same rules on the same engine.
        make: Any = type(self._game)
        return cast(Game, make(**self.options, dealer=dealer))

    def _deal(self, dealer: int) -> None:
        number = len(self.hands)
        seed = draw(self.seed, f"hand {number}", 2**63)
        decks = [self.stacked.pop(0)] if self.stacked else None
        state = self._game_dealt_by(dealer).new_state(seed=seed, decks=decks)
        self.hands.append(cast(S, state))
        self.dealers.append(dealer)
        self.seeds.append(seed)

    @property
    def tally(self) -> dict[str, Any]:
        """Games played to the end, each seat's losses (the last game counted once it is
        over) and the draws."""
        losses, draws = self.losses[:], self.draws
        if self.state.is_over:
            draws = self._counted(losses, draws)
        finished = len(self.hands) - (not self.state.is_over)
        return {"hands": finished, "losses": losses, "draws": draws}

    # Saving and loading --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SESSION_FORMAT,
            "version": SESSION_VERSION,
            "game": self.rules.name,
            "options": dict(self.options),
            "seed": self.seed,
            "hands": [hand.record().to_dict() for hand in self.hands],
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str, engine: str | None = None) -> Session[S]:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidRecordError(f"session is not valid JSON (truncated?): {exc}") from exc
        return cls.from_dict(data, engine)

    @classmethod
    def from_dict(cls, data: object, engine: str | None = None) -> Session[S]:
        """Replay a saved session on ``engine`` (``cardtable.make``'s): every game, every
        action, every dealer checked."""
        if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
            raise InvalidRecordError("not a cardtable session (format 'cardtable-session')")
        if data.get("version") != SESSION_VERSION:
            raise InvalidRecordError(
                f"session version {data.get('version')!r} is not supported; "
                f"this cardtable reads version {SESSION_VERSION}"
            )
        name, options = data.get("game"), data.get("options")
        hands, seed = data.get("hands"), data.get("seed")
        rules = cardtable.GAMES.get(name) if isinstance(name, str) else None
        if rules is None or not rules.sessions or not isinstance(options, dict):
            sessions = ", ".join(d.name for d in cardtable.GAMES.values() if d.sessions)
            raise InvalidRecordError(f"a session holds games of {sessions} and their options")
        if not isinstance(hands, list) or not hands or type(seed) is not int:
            raise InvalidRecordError("a session has a seed and at least one hand")
        records = [Record.from_dict(hand) for hand in hands]
        try:
            first = cardtable.make(
                rules.name, engine=engine, **options, dealer=records[0].options.get("dealer")
            )
            session: Session[S] = cls(first, seed=seed)
        except (TypeError, ValueError) as exc:
            raise InvalidRecordError(f"session options: {exc}") from exc
        session.hands, session.dealers, session.seeds = [], [], []
        for number, record in enumerate(records):
            if record.game != rules.name or record.start is not None:
                raise InvalidRecordError(f"hand {number} is not a {rules.name} hand dealt anew")
            want = session.first_dealer if number == 0 else session.next_dealer
            if record.options != {**options, "dealer": want}:
                raise InvalidRecordError(
                    f"hand {number} was dealt with options {record.options}; "
                    f"the session's are {options} with seat {want} dealing"
                )
            if number and not session.state.is_over:
                raise InvalidRecordError(f"hand {number - 1} ends unfinished before hand {number}")
            if number:
                session.draws = session._counted(session.losses, session.draws)
            session.hands.append(cast(S, session._game_dealt_by(want).replay(record)))
            session.dealers.append(want)
            session.seeds.append(record.seed)
        return session
