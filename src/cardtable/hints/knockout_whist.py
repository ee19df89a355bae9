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

UNIT = "tricks"


def reason(view: View, best: str, values: Mapping[str, float]) -> Reason:
    """Why ``best`` is the action to play from ``view``.

    - ``trump_suit`` "Name {suit} trumps: you hold {count} cards of that suit": ``count``
      is the number of the seat's cards of that suit (KOW-3.2: the chooser names trumps
      having seen the new hand).
    - ``knock`` "Knock: keep your card for a later trick": the seat is a dog holding its
      card, and this is not the hand's last trick (KOW-6.3: knocking is legal).
    """
    verb, _, arg = best.partition(" ")
    if verb == "trump":
        held = sum(1 for c in view["hand"] if suit_of(c) == arg)
        return Reason("trump_suit", {"suit": arg, "count": held})
    if verb == "knock":
        return Reason("knock")
    return play_reason(view, arg, values, UNIT)
