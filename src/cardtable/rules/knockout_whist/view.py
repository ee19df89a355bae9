"""The one schema of a Knockout Whist view: what ``KnockoutWhistState.view(seat)`` writes
(KOW-9), field by field.

The dictionaries are closed (PEP 728): a view holds these fields and no others. The types
describe the view as JSON, as the core and the page receive it: a pair such as a play is a
JSON array of two, written here as a tuple.

The core reads the same view with serde (``crates/core/src/knockout_whist/view.rs``)
and the web page is described by the JSON Schema generated from these types (``python -m
cardtable.view_schemas``); tests/rules/test_view_schema.py holds the three equal.
"""

from __future__ import annotations

from typing import Literal, NotRequired

# PEP 728 closed TypedDicts (a view holds its fields and no others) are newer than 3.11.
from typing_extensions import TypedDict

Suit = Literal["C", "D", "H", "S"]
# A play: ``[seat, "7D"]``, or ``[seat, "knock"]`` for a dog's knock (KOW-6.3).
Play = tuple[int, str]


class KnockoutWhistRules(TypedDict, closed=True):
    """The rules being played (``game.rules``)."""

    players: int


class KnockoutWhistTrick(TypedDict, closed=True):
    """A trick played out, and the seat that took it."""

    plays: list[Play]
    winner: int | None


class KnockoutWhistPreviousHand(TypedDict, closed=True):
    """The hand before this one, shown to everyone."""

    hand_number: int
    trump: Suit
    tricks: list[KnockoutWhistTrick]
    tricks_won: list[int]


class KnockoutWhistView(TypedDict, closed=True):
    """A seat's view (``seat`` a number) or a spectator's (``seat`` null, and no ``hand``
    or ``legal_actions``)."""

    game: Literal["knockout-whist"]
    options: KnockoutWhistRules
    seat: int | None
    players: int
    hand_number: int
    hand_size: int
    dealer: int
    phase: Literal["trump", "play", "over"]
    to_move: int | None
    statuses: list[Literal["active", "dog", "out"]]
    dog_used: bool
    hand_sizes: list[int]
    tricks_won: list[int]
    trump: Suit | None
    turned: str | None
    # The cut of W-2, round by round.
    cuts: list[list[Play]]
    chooser: int | None
    trick: list[Play]
    tricks: list[KnockoutWhistTrick]
    previous_hand: KnockoutWhistPreviousHand | None
    # ``[seat, hand]`` for each seat knocked out, in order.
    eliminated: list[tuple[int, int]]
    winner: int | None
    hand: NotRequired[list[str]]
    legal_actions: NotRequired[list[str]]
