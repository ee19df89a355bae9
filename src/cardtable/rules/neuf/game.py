"""Neuf as a :class:`cardtable.core.Game`: options, action notation, factories."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from cardtable.cards import Card
from cardtable.core import Action, Game, State, View
from cardtable.errors import (
    InvalidActionError,
    InvalidOptionError,
    InvalidRecordError,
)
from cardtable.options import check_options
from cardtable.refusals import Refusal
from cardtable.rules.neuf.invariants import check_transition
from cardtable.rules.neuf.knowledge import NeufKnowledge
from cardtable.rules.neuf.ledger import sequence
from cardtable.rules.neuf.position import format_position, parse_position
from cardtable.rules.neuf.refusals import refusal
from cardtable.rules.neuf.state import ACTIONS, EXCHANGE, KEEP, NeufState


class Neuf(Game):
    """Neuf (Nines) for 3 players, or 4 in two partnerships (SPEC §1).

    Options: ``players`` (3, or 4 for NEUF-8.4), ``dealer`` (the first dealer; drawn from
    the seed when absent, N-3), ``trump_sequence`` (NEUF-8.1: ``HDCS-NT`` by default,
    ``SHDC-NT``, ``HDSC-NT``, ``HCDS-NT``, ``HDCS``), ``dealer_exchanges_first``
    (NEUF-8.2) and ``tie_avoidance`` (the house rule, NEUF-8.3); the last two need 3 players.
    """

    state_class = NeufState
    """The class of this game's states in the Python engine."""

    name: ClassVar[str] = "neuf"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 4
    defaults: ClassVar[dict[str, Any]] = {
        "players": 3,
        "dealer": None,
        "trump_sequence": "HDCS-NT",
        "dealer_exchanges_first": False,
        "tie_avoidance": False,
    }

    def __init__(self, **options: Any) -> None:
        resolved = check_options(self.name, self.defaults, options)
        players = resolved["players"]
        if type(players) is not int or players not in (3, 4):
            raise InvalidOptionError(f"neuf is for 3 players, or 4 in partnership, not {players!r}")
        dealer = resolved["dealer"]
        if dealer is not None and (type(dealer) is not int or not 0 <= dealer < players):
            raise InvalidOptionError(f"dealer must be a seat 0-{players - 1}, not {dealer!r}")
        sequence(resolved["trump_sequence"])
        for flag in ("dealer_exchanges_first", "tie_avoidance"):
            if type(resolved[flag]) is not bool:
                raise InvalidOptionError(f"{flag} must be True or False, not {resolved[flag]!r}")
            if resolved[flag] and players == 4:
                raise InvalidOptionError(
                    f"{flag} is a rule of the 3-player game; the 4-player partnership game "
                    + (
                        "has no exchange (NEUF-8.4)"
                        if flag == "dealer_exchanges_first"
                        else "cannot tie (NEUF-8.4)"
                    )
                )
        super().__init__(resolved, ACTIONS)

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise InvalidActionError(f"an action must be text like 'play 7D', not {text!r}")
        words = text.strip().lower().split()
        if words == ["exchange"]:
            return ACTIONS[EXCHANGE]
        if words == ["keep"]:
            return ACTIONS[KEEP]
        if len(words) == 2 and words[0] == "play":
            return ACTIONS[Card.parse(words[1]).index]
        raise InvalidActionError(
            f"invalid neuf action {text!r}: expected 'exchange', 'keep' or 'play <card>'"
        )

    def new_state(
        self, seed: int | None = None, decks: Sequence[Sequence[str | Card]] | None = None
    ) -> NeufState:
        state = super().new_state(seed, decks)
        assert isinstance(state, NeufState)  # narrows the type for callers
        return state

    def begin(
        self, seed: int, dealer: int, decks: list[list[int]], reshuffles: list[list[int]]
    ) -> NeufState:
        if reshuffles:
            raise InvalidRecordError("neuf shuffles only whole decks: a record has no reshuffles")
        return NeufState.begin(self, seed=seed, dealer=dealer, decks=decks)

    def position_of(self, state: State) -> str:
        """``state``'s position text (:meth:`NeufState.position`): the game, above both,
        joins the state to its notation."""
        assert isinstance(state, NeufState)  # the states of this game are its own
        return format_position(state)

    def refusal_of(self, state: State, number: int) -> Refusal:
        """Why ``state`` refuses action ``number`` (:meth:`NeufState.refusal`)."""
        assert isinstance(state, NeufState)
        return refusal(state, number)

    def state_from_position(self, text: str) -> NeufState:
        return parse_position(self, text)

    def knowledge(self, view: View) -> NeufKnowledge:
        """The determinizer of ``view``'s seat (NEUF-9): see
        :mod:`cardtable.rules.neuf.knowledge`."""
        return NeufKnowledge(self, view)

    def check_transition(self, before: State, number: int, after: State) -> None:
        assert isinstance(before, NeufState) and isinstance(after, NeufState)
        check_transition(before, number, after)
