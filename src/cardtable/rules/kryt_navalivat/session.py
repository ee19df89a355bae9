"""Hands of Kryt'-navalivat' in a row at one table, with a tally of who was the fool.

A game is one hand (SPEC §0.1); people play many. The fool deals the next hand; after a
draw the same dealer deals again (KRYT-2.1, KRYT-7.5, K-8). Each hand is an ordinary game
with its own record, so a session saves as the list of its hands' records::

    {"format": "cardtable-session", "version": 1, "game": "kryt-navalivat",
     "options": {"players": 3, "trump_mode": "turned"}, "seed": 7, "hands": [record, ...]}

and loading it replays every hand and checks that each was dealt by the right player.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from cardtable.cards import Card
from cardtable.chance import draw
from cardtable.core import Game, Record
from cardtable.errors import InvalidRecordError
from cardtable.rules.kryt_navalivat.game import KrytNavalivat
from cardtable.rules.kryt_navalivat.state import KrytNavalivatState

__all__ = ["SESSION_FORMAT", "SESSION_VERSION", "Session"]

SESSION_FORMAT = "cardtable-session"
SESSION_VERSION = 1


class Session:
    """Hands played in a row: ``state`` is the hand in progress (or the last one),
    ``losses`` counts each seat's hands as the fool and ``draws`` the drawn hands."""

    def __init__(
        self,
        players: int = 2,
        trump_mode: str = "turned",
        dealer: int | None = None,
        seed: int | None = None,
        decks: Sequence[Sequence[str | Card]] = (),
    ) -> None:
        # Checks the options once, and gives the first dealer (drawn from the seed if absent).
        first = KrytNavalivat(players=players, trump_mode=trump_mode, dealer=dealer)
        self.seed = Game.fresh_seed() if seed is None else seed
        self.options: dict[str, Any] = {"players": players, "trump_mode": trump_mode}
        self.first_dealer = first.resolved_dealer(self.seed)
        self.stacked = [list(d) for d in decks]
        self.hands: list[KrytNavalivatState] = []
        self.losses = [0] * players
        self.draws = 0
        self._deal(self.first_dealer)

    @property
    def state(self) -> KrytNavalivatState:
        return self.hands[-1]

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand: the fool of the last one, or after a draw its dealer."""
        last = self.state
        return last.dealer if last.loser is None else last.loser

    def next_hand(self) -> KrytNavalivatState:
        """Deal the next hand; the one in progress must be over."""
        if not self.state.is_over:
            raise InvalidRecordError(
                f"hand {len(self.hands)} is still being played; finish it before the next"
            )
        self._deal(self.next_dealer)
        return self.state

    def _deal(self, dealer: int) -> None:
        if self.hands:
            last = self.state
            if last.loser is None:
                self.draws += 1
            else:
                self.losses[last.loser] += 1
        game = KrytNavalivat(**self.options, dealer=dealer)
        number = len(self.hands)
        seed = draw(self.seed, f"hand {number}", 2**63)
        decks = [self.stacked.pop(0)] if self.stacked else None
        self.hands.append(game.new_state(seed=seed, decks=decks))

    @property
    def tally(self) -> dict[str, Any]:
        """Hands played to the end, each seat's losses (the last hand counted once it is
        over) and the draws."""
        losses, draws = self.losses[:], self.draws
        if self.state.is_over:
            if self.state.loser is None:
                draws += 1
            else:
                losses[self.state.loser] += 1
        finished = len(self.hands) - (not self.state.is_over)
        return {"hands": finished, "losses": losses, "draws": draws}

    # Saving and loading --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SESSION_FORMAT,
            "version": SESSION_VERSION,
            "game": KrytNavalivat.name,
            "options": dict(self.options),
            "seed": self.seed,
            "hands": [hand.record().to_dict() for hand in self.hands],
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Session:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidRecordError(f"session is not valid JSON (truncated?): {exc}") from exc
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> Session:
        """Replay a saved session: every hand, every action, every dealer checked."""
        if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
            raise InvalidRecordError("not a cardtable session (format 'cardtable-session')")
        if data.get("version") != SESSION_VERSION:
            raise InvalidRecordError(
                f"session version {data.get('version')!r} is not supported; "
                f"this cardtable reads version {SESSION_VERSION}"
            )
        options, hands, seed = data.get("options"), data.get("hands"), data.get("seed")
        if data.get("game") != KrytNavalivat.name or not isinstance(options, dict):
            raise InvalidRecordError("a session holds kryt-navalivat hands and their options")
        if not isinstance(hands, list) or not hands or type(seed) is not int:
            raise InvalidRecordError("a session has a seed and at least one hand")
        records = [Record.from_dict(hand) for hand in hands]
        try:
            session = cls(**options, dealer=records[0].options.get("dealer"), seed=seed)
        except (TypeError, ValueError) as exc:
            raise InvalidRecordError(f"session options: {exc}") from exc
        session.hands = []
        for number, record in enumerate(records):
            if record.game != KrytNavalivat.name or record.start is not None:
                raise InvalidRecordError(f"hand {number} is not a kryt-navalivat hand dealt anew")
            want = session.first_dealer if number == 0 else session.next_dealer
            if record.options != {**options, "dealer": want}:
                raise InvalidRecordError(
                    f"hand {number} was dealt with options {record.options}; "
                    f"the session's are {options} with seat {want} dealing"
                )
            if number and not session.state.is_over:
                raise InvalidRecordError(f"hand {number - 1} ends unfinished before hand {number}")
            if number:
                last = session.state
                if last.loser is None:
                    session.draws += 1
                else:
                    session.losses[last.loser] += 1
            hand = KrytNavalivat(**record.options).replay(record)
            assert isinstance(hand, KrytNavalivatState)
            session.hands.append(hand)
        return session
