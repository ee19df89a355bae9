"""Kryt'-navalivat' as a :class:`cardtable.core.Game`: options, action notation, factories."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from cardtable.cards import Card
from cardtable.core import Action, Game, State, View
from cardtable.errors import InvalidActionError, InvalidDeckError, InvalidOptionError
from cardtable.options import check_options
from cardtable.refusals import Refusal
from cardtable.rules.kryt_navalivat.beating import PACK_36
from cardtable.rules.kryt_navalivat.invariants import check_transition
from cardtable.rules.kryt_navalivat.knowledge import KrytNavalivatKnowledge
from cardtable.rules.kryt_navalivat.position import format_position, parse_position
from cardtable.rules.kryt_navalivat.refusals import refusal
from cardtable.rules.kryt_navalivat.state import (
    ACTIONS,
    BEAT,
    COVER,
    LEAD,
    NUMBER,
    SWAP,
    TAKE,
    KrytNavalivatState,
)

TRUMP_MODES = ("turned", "permanent")
_VERBS = {"lead": LEAD, "beat": BEAT, "cover": COVER}


class KrytNavalivat(Game):
    """Kryt'-navalivat' for 2–6 players, one hand a game (SPEC §2).

    Options: ``players`` (2–6, default 2, K-2), ``dealer`` (the dealer's seat; drawn from
    the seed when absent, KRYT-2.1) and ``trump_mode``: ``"turned"`` (the card turned after
    the deal names trumps, KRYT-2.4) or ``"permanent"`` (diamonds trumps, spades
    anti-trumps, KRYT-8). Hands in a row, the fool dealing the next, are a
    :class:`~cardtable.session.Session`.
    """

    state_class = KrytNavalivatState
    """The class of this game's states in the Python engine."""

    name: ClassVar[str] = "kryt-navalivat"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    pack: ClassVar[tuple[int, ...]] = PACK_36
    defaults: ClassVar[dict[str, Any]] = {"players": 2, "dealer": None, "trump_mode": "turned"}

    def __init__(self, **options: Any) -> None:
        resolved = check_options(self.name, self.defaults, options)
        players = resolved["players"]
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidOptionError(
                f"kryt-navalivat is for {self.min_players} to {self.max_players} players "
                f"(K-2), not {players!r}"
            )
        dealer = resolved["dealer"]
        if dealer is not None and (type(dealer) is not int or not 0 <= dealer < players):
            raise InvalidOptionError(f"dealer must be a seat 0-{players - 1}, not {dealer!r}")
        if resolved["trump_mode"] not in TRUMP_MODES:
            raise InvalidOptionError(
                f"trump_mode must be 'turned' or 'permanent' (KRYT-8), "
                f"not {resolved['trump_mode']!r}"
            )
        super().__init__(resolved, ACTIONS)

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise InvalidActionError(f"an action must be text like 'beat 7D', not {text!r}")
        words = text.strip().lower().split()
        if words == ["take"]:
            return ACTIONS[TAKE]
        if words == ["swap"]:
            return ACTIONS[SWAP]
        if len(words) == 2 and words[0] in _VERBS:
            card = Card.parse(words[1])
            number = NUMBER[card.index]
            if number < 0:
                raise InvalidActionError(
                    f"{card} is not in kryt-navalivat's 36-card pack (6 to ace)"
                )
            return ACTIONS[_VERBS[words[0]] + number]
        raise InvalidActionError(
            f"invalid kryt-navalivat action {text!r}: expected 'lead <card>', 'beat <card>', "
            "'cover <card>', 'take' or 'swap'"
        )

    def new_state(
        self, seed: int | None = None, decks: Sequence[Sequence[str | Card]] | None = None
    ) -> KrytNavalivatState:
        state = super().new_state(seed, decks)
        assert isinstance(state, KrytNavalivatState)  # narrows the type for callers
        return state

    def begin(
        self, seed: int, dealer: int, decks: list[list[int]], reshuffles: list[list[int]]
    ) -> KrytNavalivatState:
        if len(decks) > 1 or reshuffles:
            raise InvalidDeckError(
                "a kryt-navalivat game is one hand and deals one deck; play hands in a row "
                "with a Session"
            )
        return KrytNavalivatState.begin(
            self, seed=seed, dealer=dealer, deck=decks[0] if decks else None
        )

    def position_of(self, state: State) -> str:
        """``state``'s position text (:meth:`KrytNavalivatState.position`): the game, above both,
        joins the state to its notation."""
        assert isinstance(state, KrytNavalivatState)  # the states of this game are its own
        return format_position(state)

    def refusal_of(self, state: State, number: int) -> Refusal:
        """Why ``state`` refuses action ``number`` (:meth:`KrytNavalivatState.refusal`)."""
        assert isinstance(state, KrytNavalivatState)
        return refusal(state, number)

    def state_from_position(self, text: str) -> KrytNavalivatState:
        return parse_position(self, text)

    def check_transition(self, before: State, number: int, after: State) -> None:
        assert isinstance(before, KrytNavalivatState) and isinstance(after, KrytNavalivatState)
        check_transition(before, number, after)

    def knowledge(self, view: View) -> KrytNavalivatKnowledge:
        """KRYT-9: the seat's knowledge as a sampler of full states (``knowledge.py``)."""
        return KrytNavalivatKnowledge(self, view)
