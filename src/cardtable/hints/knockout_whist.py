"""Knockout Whist's reasons (SPEC §3): naming trumps (KOW-3.2), a dog's knock (KOW-6.3),
and the trick rules of thumb (:mod:`cardtable.hints.tricks`). The unit is the seat's
tricks this hand: taking tricks is what keeps a player in (KOW-5.1) and names the next
trumps (KOW-5.3)."""

from __future__ import annotations

from collections.abc import Mapping

from cardtable.core import View
from cardtable.hints.reasons import Reason, suit_of
from cardtable.hints.tricks import play_reason

__all__ = ["reason"]


def reason(view: View, best: str, values: Mapping[str, float]) -> Reason:
    """Why ``best`` is the action to play from ``view``."""
    verb, _, arg = best.partition(" ")
    if verb == "trump":  # KOW-3.2: the chooser names trumps having seen the new hand
        held = sum(1 for c in view["hand"] if suit_of(c) == arg)
        return Reason("trump_suit", {"suit": arg, "count": held})
    if verb == "knock":  # KOW-6.3: a dog keeps its card for a later trick
        return Reason("knock")
    del values  # the rules of thumb need the cards alone; the values name the best
    return play_reason(view, arg, Reason("most_tricks", {"card": arg}))
