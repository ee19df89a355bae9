"""Why Kryt'-navalivat' refuses an action (``cardtable.refusals``): one code per rule
broken."""

from __future__ import annotations

from enum import StrEnum

from cardtable.cards import card_text
from cardtable.refusals import GAME_OVER, NOT_LEGAL, NOT_YOUR_TURN, Refusal
from cardtable.rules.kryt_navalivat.beating import NO_SUIT, PACK_36
from cardtable.rules.kryt_navalivat.state import (
    BEAT,
    COVER,
    COVERING,
    FREE,
    LEADING,
    RESPONDING,
    SWAP,
    TAKE,
    KrytNavalivatState,
)

__all__ = ["KrytNavalivatReason", "refusal"]

SUITS = "CDHS"


class KrytNavalivatReason(StrEnum):
    """Kryt'-navalivat''s reason codes, each with the rule it enforces."""

    NOT_YOUR_TURN = NOT_YOUR_TURN  # KRYT-10: the seat to move acts, nobody else
    NOT_LEGAL = NOT_LEGAL  # a refusal no rule explains (cardtable.refusals)
    GAME_OVER = GAME_OVER  # KRYT-10: GAME_OVER has no action
    NOT_IN_HAND = "not_in_hand"  # KRYT-4.1, KRYT-4.2: cards are played from one's hand
    MUST_LEAD = "must_lead"  # KRYT-4.1: on an empty pile only a lead
    NOTHING_TO_PICK_UP = "nothing_to_pick_up"  # KRYT-4.1, KRYT-5: the pile is empty
    MUST_BEAT_OR_PICK_UP = "must_beat_or_pick_up"  # KRYT-4.2: no lead on a card to answer
    CANNOT_BEAT = "cannot_beat"  # KRYT-3.1, KRYT-3.2, KRYT-8.2: what beats what
    MUST_COVER = "must_cover"  # KRYT-4.2a, KRYT-4.6: the cover comes at once
    NO_PICK_UP_BETWEEN_BEAT_AND_COVER = "no_pick_up_between_beat_and_cover"  # KRYT-4.4, 4.6
    COVER_ONLY_ON_ONES_BEAT = "cover_only_on_ones_beat"  # KRYT-4.2a: a cover tops a beat
    NO_SWAP_WITH_PERMANENT_TRUMPS = "no_swap_with_permanent_trumps"  # KRYT-8.1: none turned
    NO_SWAP_TRUMP_CARD_DRAWN = "no_swap_trump_card_drawn"  # KRYT-6.2: it left the stock
    NO_SWAP_SIX_TURNED = "no_swap_six_turned"  # KRYT-6.2: the turned card is the six
    NO_SWAP_WITHOUT_SIX = "no_swap_without_six"  # KRYT-6.1: only the six's holder swaps


def refusal(state: KrytNavalivatState, number: int) -> Refusal:
    """Why action ``number`` is not legal in ``state``, whose seat ``state.to_move`` acts."""
    seat = state.to_move
    if seat is None:
        return Refusal(KrytNavalivatReason.GAME_OVER, {})
    mode = state.mode
    top: dict[str, str | int] = {"top": card_text(state.pile[-1])} if state.pile else {}
    if number == SWAP:
        six = state.six_of_trumps
        if state.anti != NO_SUIT:
            return Refusal(KrytNavalivatReason.NO_SWAP_WITH_PERMANENT_TRUMPS, {})
        if state.faceup < 0:
            return Refusal(KrytNavalivatReason.NO_SWAP_TRUMP_CARD_DRAWN, {})
        if state.faceup == six:
            return Refusal(KrytNavalivatReason.NO_SWAP_SIX_TURNED, {"six": card_text(six)})
        if not state.hands[seat] >> six & 1:
            return Refusal(KrytNavalivatReason.NO_SWAP_WITHOUT_SIX, {"six": card_text(six)})
        if mode != COVERING:
            return Refusal(KrytNavalivatReason.NOT_LEGAL, {})
        return Refusal(KrytNavalivatReason.MUST_COVER, top)
    if number == TAKE:
        if mode == LEADING:
            return Refusal(KrytNavalivatReason.NOTHING_TO_PICK_UP, {})
        return Refusal(KrytNavalivatReason.NO_PICK_UP_BETWEEN_BEAT_AND_COVER, top)
    card = PACK_36[number % 36]
    named: dict[str, str | int] = {"card": card_text(card)}
    if not state.hands[seat] >> card & 1:
        return Refusal(KrytNavalivatReason.NOT_IN_HAND, named)
    if number >= COVER:
        return Refusal(KrytNavalivatReason.COVER_ONLY_ON_ONES_BEAT, named | top)
    if mode == COVERING:
        return Refusal(KrytNavalivatReason.MUST_COVER, named | top)
    if number < BEAT:
        return Refusal(KrytNavalivatReason.MUST_BEAT_OR_PICK_UP, named | top)
    if mode == LEADING:
        return Refusal(KrytNavalivatReason.MUST_LEAD, named)
    if mode not in (RESPONDING, FREE) or not state.pile:
        return Refusal(KrytNavalivatReason.NOT_LEGAL, named)
    beaten: dict[str, str | int] = {"trump": SUITS[state.trump]}
    if state.anti != NO_SUIT:
        beaten["anti_trump"] = SUITS[state.anti]
    return Refusal(KrytNavalivatReason.CANNOT_BEAT, named | top | beaten)
