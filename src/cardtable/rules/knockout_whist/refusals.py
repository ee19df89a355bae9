"""Why Knockout Whist refuses an action (``cardtable.refusals``): one code per rule
broken."""

from __future__ import annotations

from enum import StrEnum

from cardtable.cards import card_text
from cardtable.refusals import GAME_OVER, NOT_LEGAL, NOT_YOUR_TURN, Refusal
from cardtable.rules.knockout_whist.state import DOG, KNOCK, TRUMP, TRUMP_BASE, KnockoutWhistState
from cardtable.rules.tricks import SUIT_MASKS

__all__ = ["KnockoutWhistReason", "refusal"]

SUITS = "CDHS"


class KnockoutWhistReason(StrEnum):
    """Knockout Whist's reason codes, each with the rule it enforces."""

    NOT_YOUR_TURN = NOT_YOUR_TURN  # KOW-10: the seat to move acts, nobody else
    NOT_LEGAL = NOT_LEGAL  # a refusal no rule explains (cardtable.refusals)
    GAME_OVER = GAME_OVER  # KOW-10: GAME_OVER has no action
    MUST_CHOOSE_TRUMPS = "must_choose_trumps"  # KOW-3.2, KOW-3.3: trumps before the play
    TRUMPS_ALREADY_SET = "trumps_already_set"  # KOW-3.1, KOW-3.2: once a hand, before play
    ONLY_A_DOG_KNOCKS = "only_a_dog_knocks"  # KOW-6.3, KOW-6.4: an ACTIVE player must play
    NO_KNOCK_ON_THE_LAST_TRICK = "no_knock_on_the_last_trick"  # KOW-10, W-3
    NOT_IN_HAND = "not_in_hand"  # KOW-4.2: a player plays a card of their own hand
    MUST_FOLLOW_SUIT = "must_follow_suit"  # KOW-4.2: the suit led, when one holds it


def refusal(state: KnockoutWhistState, number: int) -> Refusal:
    """Why action ``number`` is not legal in ``state``, whose seat ``state.to_move`` acts."""
    seat = state.to_move
    if seat is None:
        return Refusal(KnockoutWhistReason.GAME_OVER, {})
    if state.phase == TRUMP:
        return Refusal(KnockoutWhistReason.MUST_CHOOSE_TRUMPS, {})
    if TRUMP_BASE <= number < KNOCK:
        trump = state.trump
        assert trump is not None
        return Refusal(KnockoutWhistReason.TRUMPS_ALREADY_SET, {"trump": SUITS[trump]})
    if number == KNOCK:
        if state.status[seat] == DOG:
            return Refusal(KnockoutWhistReason.NO_KNOCK_ON_THE_LAST_TRICK, {})
        return Refusal(KnockoutWhistReason.ONLY_A_DOG_KNOCKS, {})
    card = card_text(number)
    hand = state.hands[seat]
    if not hand >> number & 1:
        return Refusal(KnockoutWhistReason.NOT_IN_HAND, {"card": card})
    led = state.led_suit
    if led < 0 or not hand & SUIT_MASKS[led]:
        return Refusal(KnockoutWhistReason.NOT_LEGAL, {"card": card})
    return Refusal(KnockoutWhistReason.MUST_FOLLOW_SUIT, {"card": card, "suit": SUITS[led]})
