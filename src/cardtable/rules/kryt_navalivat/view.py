"""The one schema of a Kryt'-navalivat' view: what ``KrytState.view(seat)`` writes
(KRYT-9), field by field.

The dictionaries are closed (PEP 728): a view holds these fields and no others. The types
describe the view as JSON, as the core and the page receive it: a pair such as a play is a
JSON array of two, written here as a tuple.

The core reads the same view with serde (``crates/core/src/kryt_navalivat/view.rs``)
and the web page is described by the JSON Schema generated from these types (``python -m
cardtable.view_schemas``); tests/rules/test_view_schema.py holds the three equal.
"""

from __future__ import annotations

from typing import Literal, NotRequired

# PEP 728 closed TypedDicts (a view holds its fields and no others) are newer than 3.11.
from typing_extensions import TypedDict

Suit = Literal["C", "D", "H", "S"]
TrumpMode = Literal["turned", "permanent"]


class KrytNavalivatRules(TypedDict, closed=True):
    """The rules being played (``game.rules``)."""

    players: int
    trump_mode: TrumpMode


class KrytNavalivatView(TypedDict, closed=True):
    """A seat's view (``seat`` a number) or a spectator's (``seat`` null, and no ``hand``
    or ``legal_actions``)."""

    game: Literal["kryt-navalivat"]
    options: KrytNavalivatRules
    seat: int | None
    players: int
    dealer: int
    trump_mode: TrumpMode
    trump: Suit
    anti_trump: Suit | None
    # The turned card under the stock, while it lies there.
    trump_card: str | None
    # The cards in the stock, the turned card among them.
    stock: int
    hand_sizes: list[int]
    # Per seat, the cards it is publicly known to hold (K-10).
    known: list[list[str]]
    out: list[int]
    pile: list[str]
    would_take: list[str]
    # The turn's phase, as every game's view names it (the state's own ``mode``).
    phase: Literal["lead", "respond", "cover", "free", "over"]
    to_move: int | None
    loser: int | None
    draw: bool
    hand: NotRequired[list[str]]
    legal_actions: NotRequired[list[str]]
