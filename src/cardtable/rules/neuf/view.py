"""The one schema of a Neuf view: what ``NeufState.view(seat)`` writes (NEUF-9), field by
field.

The dictionaries are closed (PEP 728): a view holds these fields and no others. The types
describe the view as JSON, as the core and the page receive it: a pair such as a play is a
JSON array of two, written here as a tuple.

The core reads the same view with serde (``crates/core/src/neuf/view.rs``) and the web page
is described by the JSON Schema generated from these types (``python -m
cardtable.view_schemas``); tests/rules/test_view_schema.py holds the three equal.
"""

from __future__ import annotations

from typing import Literal, NotRequired

# PEP 728 closed TypedDicts (a view holds its fields and no others) are newer than 3.11.
from typing_extensions import TypedDict

Trump = Literal["C", "D", "H", "S", "NT"]
Sequence = Literal["HDCS-NT", "SHDC-NT", "HDSC-NT", "HCDS-NT", "HDCS"]
# A play: ``[seat, "7D"]``.
Play = tuple[int, str]


class NeufRules(TypedDict, closed=True):
    """The rules being played (``game.rules``)."""

    players: int
    trump_sequence: Sequence
    dealer_exchanges_first: bool
    tie_avoidance: bool


class NeufLedgerRow(TypedDict, closed=True):
    """A row of the score sheet: one deal's tricks and the scores after it (NEUF-5)."""

    deal: int
    trump: Trump
    dealer: int
    tricks: list[int]
    scores: list[int]
    total: int


class NeufTrick(TypedDict, closed=True):
    """A trick played out, and the seat that took it."""

    plays: list[Play]
    winner: int | None


class NeufPreviousDeal(TypedDict, closed=True):
    """The deal before, with its final spare shown now that it is over (N-5; null with
    four players)."""

    tricks: list[NeufTrick]
    spare: list[str] | None


class NeufView(TypedDict, closed=True):
    """A seat's view (``seat`` a number) or a spectator's (``seat`` null, and no ``hand``,
    ``held`` or ``legal_actions``); ``held`` is the 3-player game's alone."""

    game: Literal["neuf"]
    options: NeufRules
    seat: int | None
    players: int
    deal_number: int
    dealer: int
    trump: Trump
    trump_sequence: Sequence
    phase: Literal["exchange", "play", "over"]
    to_move: int | None
    exchange_order: list[int]
    exchanges: list[tuple[int, Literal["exchange", "keep"]]]
    quota: int
    scores: list[int]
    ledger: list[NeufLedgerRow]
    hand_sizes: list[int]
    tricks_won: list[int]
    trick: list[Play]
    tricks: list[NeufTrick]
    previous_deal: NeufPreviousDeal | None
    winners: list[int]
    hand: NotRequired[list[str]]
    # Every 13-card hand the seat has held this deal, in order (NEUF-9).
    held: NotRequired[list[list[str]]]
    legal_actions: NotRequired[list[str]]
