"""Hints that teach: one recommended action, what each action is worth in a unit a player
understands, and one short reason, built from the seat's own view alone.

A hint's search (``cardtable.server.thinking.advise``) values every legal action in the
game's unit (its descriptor's ``hint_unit``): the seat's expected tricks this hand
(Knockout Whist), its side's expected points this deal, tricks over the quota (Neuf,
NEUF-5.2), or its chance of not being the fool (Kryt'-navalivat'). :func:`advice` names the
best action, each action's gap to it, and the reason: a locale key and its parameters
(``hints.why.*`` in the page's locales), chosen by the game's rules of thumb
(:mod:`.knockout_whist`, :mod:`.neuf`, :mod:`.kryt_navalivat`), which look only at the
action and the public facts of the view and the seat's own hand: cards played this hand,
the trick or pile on the table, trumps.
Nothing the seat may not see goes into a hint (SPEC §0.4, item 4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.core import View
from cardtable.hints.reasons import Reason, any_action, forced
from cardtable.rules.catalog import descriptor
from cardtable.rules.descriptor import load

__all__ = ["MARGINS", "Reason", "advice", "reason_for"]

MARGINS = {"tricks": 0.15, "points": 0.15, "not_fool": 0.03}
"""How far below the best an action may be and still do "about as well": within it the
choice hardly matters (and the estimates' own noise is of that order)."""


def reason_for(game_name: str, view: View, best: str, values: Mapping[str, float]) -> Reason:
    """Why ``best`` is the action to play, from ``view`` (the seat's own) and the values of
    its legal actions."""
    rules = load(descriptor(game_name).hints)  # the game's rules of thumb, loaded when asked
    reason: Reason = rules.reason(view, best, values)
    return reason


def advice(
    game_name: str,
    view: View,
    values: Mapping[str, float | None],
    chances: Mapping[str, float | None],
    visits: Mapping[str, int],
) -> dict[str, Any]:
    """The hint for ``view``'s seat: ``best`` (an action text), ``unit``, ``actions`` (each
    legal action's ``chance`` and ``visits``, as hints always had them, its ``value`` in
    the unit and its ``gap`` to the best) and ``reason`` (``key``, ``params``).

    ``values`` are the actions' values in the unit (``None``: not rated), ``chances`` the
    search's chance of a good end of the game for each; the best is the highest value, a
    tie going to the higher chance, then to the first legal action. A forced move (one
    legal action) is not valued."""
    unit = descriptor(game_name).hint_unit
    legal: list[str] = list(view["legal_actions"])
    rated = {a: v for a in legal if (v := values.get(a)) is not None}
    if len(legal) == 1:
        best, why = legal[0], forced()
    elif not rated:
        best, why = legal[0], any_action()
    else:
        best = max(legal, key=lambda a: _rank(a, rated, chances, legal))
        spread = max(rated.values()) - min(rated.values())
        if len(rated) == len(legal) and spread <= MARGINS[unit]:
            why = any_action()
        else:
            why = reason_for(game_name, view, best, rated)
    top = rated.get(best)
    actions = []
    for action in legal:
        value = rated.get(action)
        actions.append(
            {
                "action": action,
                "chance": chances.get(action),
                "visits": visits.get(action, 0),
                "value": None if value is None else round(value, 3),
                "gap": None if value is None or top is None else round(value - top, 3),
            }
        )
    return {"best": best, "unit": unit, "actions": actions, "reason": why.message()}


def _rank(
    action: str,
    rated: Mapping[str, float],
    chances: Mapping[str, float | None],
    legal: list[str],
) -> tuple[float, float, int]:
    value = rated.get(action)
    chance = chances.get(action)
    return (
        float("-inf") if value is None else value,
        -1.0 if chance is None else chance,
        -legal.index(action),
    )
