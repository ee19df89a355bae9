"""Why Neuf refuses an action (``cardtable.refusals``): one code per rule broken."""

from __future__ import annotations

from enum import StrEnum

from cardtable.cards import card_text
from cardtable.refusals import GAME_OVER, NOT_LEGAL, NOT_YOUR_TURN, Refusal
from cardtable.rules.neuf.state import EXCHANGE, EXCHANGING, NeufState
from cardtable.rules.tricks import SUIT_MASKS

__all__ = ["NeufReason", "refusal"]

SUITS = "CDHS"


class NeufReason(StrEnum):
    """Neuf's reason codes, each with the rule it enforces."""

    NOT_YOUR_TURN = NOT_YOUR_TURN  # NEUF-10: the seat to move acts, nobody else
    NOT_LEGAL = NOT_LEGAL  # a refusal no rule explains (cardtable.refusals)
    GAME_OVER = GAME_OVER  # NEUF-10: GAME_OVER has no action
    MUST_DECIDE_EXCHANGE = "must_decide_exchange"  # NEUF-3.1, NEUF-10: exchange or keep first
    EXCHANGE_IS_OVER = "exchange_is_over"  # NEUF-3.1: one chance each, before the play
    NO_EXCHANGE_IN_PARTNERSHIP = "no_exchange_in_partnership"  # NEUF-8.4: no spare, no exchange
    NOT_IN_HAND = "not_in_hand"  # NEUF-4.2: a player plays a card of their own hand
    MUST_FOLLOW_SUIT = "must_follow_suit"  # NEUF-4.2: the suit led, when one holds it


def refusal(state: NeufState, number: int) -> Refusal:
    """Why action ``number`` is not legal in ``state``, whose seat ``state.to_move`` acts."""
    seat = state.to_move
    if seat is None:
        return Refusal(NeufReason.GAME_OVER, {})
    if number >= EXCHANGE:
        if state.phase == EXCHANGING:
            return Refusal(NeufReason.NOT_LEGAL, {})
        if state.players == 4:
            return Refusal(NeufReason.NO_EXCHANGE_IN_PARTNERSHIP, {})
        return Refusal(NeufReason.EXCHANGE_IS_OVER, {})
    card = card_text(number)
    if state.phase == EXCHANGING:
        return Refusal(NeufReason.MUST_DECIDE_EXCHANGE, {"card": card})
    hand = state.hands[seat]
    if not hand >> number & 1:
        return Refusal(NeufReason.NOT_IN_HAND, {"card": card})
    led = state.led_suit
    if led < 0 or not hand & SUIT_MASKS[led]:
        return Refusal(NeufReason.NOT_LEGAL, {"card": card})
    return Refusal(NeufReason.MUST_FOLLOW_SUIT, {"card": card, "suit": SUITS[led]})
