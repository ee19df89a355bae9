"""Neuf's reasons (SPEC §1): the blind exchange (NEUF-3.2), and the trick rules of thumb
(:mod:`cardtable.hints.tricks`), a partner's trick as good as one's own in the
four-player game (NEUF-8.4). The unit is the side's points this deal: its tricks over its
quota."""

from __future__ import annotations

from collections.abc import Mapping

from cardtable.core import View
from cardtable.hints.reasons import Reason
from cardtable.hints.tricks import play_reason

__all__ = ["reason"]


def reason(view: View, best: str, values: Mapping[str, float]) -> Reason:
    """Why ``best`` is the action to play from ``view``. The values are the solver's with
    the other seats playing against the seat (paranoid), lower than a real table's: the
    reasons compare actions, they never quote the values."""
    del values
    if best == "keep":  # NEUF-3.2: the blind exchange, against an unseen spare
        return Reason("keep_hand")
    if best == "exchange":
        return Reason("exchange_hand")
    seat = int(view["seat"])
    partnered = int(view["players"]) == 4
    card = best.partition(" ")[2]
    return play_reason(
        view,
        card,
        Reason("most_points", {"card": card}),
        friendly=lambda other: partnered and other % 2 == seat % 2,
    )
