"""Neuf's reasons (SPEC §1): the blind exchange (NEUF-3.2), and the trick rules of thumb
(:mod:`cardtable.hints.tricks`), a partner's trick as good as one's own in the
four-player game (NEUF-8.4). The unit is the side's points this deal: its tricks over its
quota. No reason quotes or restates the value: each states facts of the seat's cards."""

from __future__ import annotations

from collections.abc import Mapping

from cardtable.core import View
from cardtable.hints.reasons import Reason, no_rule, suit_of
from cardtable.hints.tricks import play_reason

__all__ = ["AVERAGE_TRUMPS", "reason"]

UNIT = "points"

AVERAGE_TRUMPS = 13 / 4
"""The trumps an average pile of 13 holds: the deal makes four piles of the 52 cards, a
spare among them (NEUF-2.3), and a suit has 13 cards."""


def reason(view: View, best: str, values: Mapping[str, float]) -> Reason:
    """Why ``best`` is the action to play from ``view``. The values are the solver's with
    the other seats playing against the seat (paranoid), lower than a real table's: the
    reasons compare actions, they never quote the values.

    - ``keep_hand`` "Keep your hand: you hold {count} trumps, more than an average hand":
      the deal has trumps and the seat holds ``count`` of them, more than 13/4.
    - ``exchange_hand`` "Swap for the spare: you hold {count} trumps, fewer than an
      average hand": the deal has trumps and the seat holds ``count`` of them, fewer
      than 13/4.
    """
    if best in ("keep", "exchange"):  # NEUF-3.2: the blind exchange, against an unseen spare
        trump = view["trump"]
        if trump in ("C", "D", "H", "S"):
            held = sum(1 for c in view["hand"] if suit_of(c) == trump)
            if best == "keep" and held > AVERAGE_TRUMPS:
                return Reason("keep_hand", {"count": held})
            if best == "exchange" and held < AVERAGE_TRUMPS:
                return Reason("exchange_hand", {"count": held})
        return no_rule(best, values, UNIT)
    seat = int(view["seat"])
    partnered = int(view["players"]) == 4
    card = best.partition(" ")[2]
    return play_reason(
        view,
        card,
        values,
        UNIT,
        friendly=lambda other: partnered and other % 2 == seat % 2,
    )
