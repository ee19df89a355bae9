"""Kryt'-navalivat's reasons (SPEC §2): what a beat, a cover, a lead, a pick-up or the
swap of the six costs and saves, from the seat's hand, the pile's top card and trumps.
The unit is the chance of not being the fool (KRYT-7.2): the search's own estimate.

Cards compare as the rules' beating does (KRYT-3.1): any card of another suit below a
trump, and within a suit by rank; the cheapest card to give up is the lowest that is not a
trump.
"""

from __future__ import annotations

from collections.abc import Mapping

from cardtable.core import View
from cardtable.hints.reasons import Reason, rank_of, suit_of

__all__ = ["reason"]


def reason(view: View, best: str, values: Mapping[str, float]) -> Reason:
    """Why ``best`` is the action to play from ``view``."""
    del values  # the rules of thumb need the cards alone; the values name the best
    trump: str = view["trump"]
    hand: list[str] = list(view["hand"])
    legal: list[str] = list(view["legal_actions"])

    def cost(card: str) -> tuple[bool, int]:
        return suit_of(card) == trump, rank_of(card)

    verb, _, card = best.partition(" ")
    fallback = Reason("best_chance")
    if verb == "swap":  # KRYT-6.1: the six of trumps for the turned card
        return Reason("swap_six", {"card": view["trump_card"]})
    if verb == "take":  # KRYT-5: the cards the pick-up takes
        beats = [a.split()[1] for a in legal if a.startswith("beat ")]
        top = view["pile"][-1]
        if beats and suit_of(top) != trump and all(suit_of(c) == trump for c in beats):
            return Reason("take_keep_trump", {"card": min(beats, key=cost)})
        taken = len(view["would_take"])
        return Reason("take_few", {"count": taken}) if taken <= 2 else fallback
    if verb == "beat":  # KRYT-4.2 (a): a card that beats the top card, then a cover
        beats = [a.split()[1] for a in legal if a.startswith("beat ")]
        if min(beats, key=cost) == card:
            return Reason("beat_lowest", {"card": card})
        return fallback
    if verb == "cover":  # KRYT-4.2 (a): any card on the beating card
        if suit_of(card) == trump:
            return Reason("cover_trump", {"card": card})
        if min(hand, key=cost) == card:
            return Reason("cover_low", {"card": card})
        return fallback
    if verb == "lead":  # KRYT-4.1, KRYT-4.3: any card onto the pile
        if min(hand, key=cost) == card:
            return Reason("lead_lowest", {"card": card})
        if suit_of(card) == trump:
            return Reason("lead_trump", {"card": card})
        return fallback
    return fallback
