"""Knockout Whist as a :class:`cardtable.core.Game`: options, action notation, factories."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from cardtable.cards import Card, Suit
from cardtable.core import Action, Game, State, View
from cardtable.errors import (
    InvalidActionError,
    InvalidOptionError,
)
from cardtable.options import check_options
from cardtable.refusals import Refusal
from cardtable.rules.knockout_whist.invariants import check_transition
from cardtable.rules.knockout_whist.knowledge import KnockoutWhistKnowledge
from cardtable.rules.knockout_whist.position import format_position, parse_position
from cardtable.rules.knockout_whist.refusals import refusal
from cardtable.rules.knockout_whist.state import ACTIONS, KNOCK, TRUMP_BASE, KnockoutWhistState


class KnockoutWhist(Game):
    """Knockout Whist for 2–7 players (SPEC §3).

    Options: ``players`` (2–7, default 4) and ``dealer`` (the first dealer's seat;
    drawn from the seed when absent, W-11).
    """

    state_class = KnockoutWhistState
    """The class of this game's states in the Python engine."""

    name: ClassVar[str] = "knockout-whist"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 7
    defaults: ClassVar[dict[str, Any]] = {"players": 4, "dealer": None}

    def __init__(self, **options: Any) -> None:
        resolved = check_options(self.name, self.defaults, options)
        players = resolved["players"]
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidOptionError(
                f"knockout-whist is for {self.min_players} to {self.max_players} players, "
                f"not {players!r}"
            )
        dealer = resolved["dealer"]
        if dealer is not None and (type(dealer) is not int or not 0 <= dealer < players):
            raise InvalidOptionError(f"dealer must be a seat 0-{players - 1}, not {dealer!r}")
        super().__init__(resolved, ACTIONS)

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise InvalidActionError(f"an action must be text like 'play 7D', not {text!r}")
        words = text.strip().lower().split()
        if words == ["knock"]:
            return ACTIONS[KNOCK]
        if len(words) == 2 and words[0] in ("play", "lead"):
            # "lead" is accepted for the examples' LEAD(c); it is the same action as play.
            return Action("play", Card.parse(words[1]))
        if len(words) == 2 and words[0] == "trump":
            return ACTIONS[TRUMP_BASE + Suit.parse(words[1])]
        raise InvalidActionError(
            f"invalid knockout-whist action {text!r}: expected 'play <card>', "
            "'trump <C/D/H/S>' or 'knock'"
        )

    def new_state(
        self, seed: int | None = None, decks: Sequence[Sequence[str | Card]] | None = None
    ) -> KnockoutWhistState:
        state = super().new_state(seed, decks)
        assert isinstance(state, KnockoutWhistState)  # narrows the type for callers
        return state

    def begin(
        self, seed: int, dealer: int, decks: list[list[int]], reshuffles: list[list[int]]
    ) -> KnockoutWhistState:
        return KnockoutWhistState.begin(
            self, seed=seed, dealer=dealer, decks=decks, reshuffles=reshuffles
        )

    def position_of(self, state: State) -> str:
        """``state``'s position text (:meth:`KnockoutWhistState.position`): the game, above both,
        joins the state to its notation."""
        assert isinstance(state, KnockoutWhistState)  # the states of this game are its own
        return format_position(state)

    def refusal_of(self, state: State, number: int) -> Refusal:
        """Why ``state`` refuses action ``number`` (:meth:`KnockoutWhistState.refusal`)."""
        assert isinstance(state, KnockoutWhistState)
        return refusal(state, number)

    def state_from_position(self, text: str) -> KnockoutWhistState:
        return parse_position(self, text)

    def knowledge(self, view: View) -> KnockoutWhistKnowledge:
        """The determinizer of search for the seat whose ``view`` this is (KOW-9)."""
        return KnockoutWhistKnowledge(self, view)

    def check_transition(self, before: State, number: int, after: State) -> None:
        assert isinstance(before, KnockoutWhistState) and isinstance(after, KnockoutWhistState)
        check_transition(before, number, after)
