"""Hints that teach: one recommended action, what each action is worth in a unit a player
understands and how sure that is, and one short reason, built from the seat's own view
alone.

The analysis (:mod:`cardtable.analysis`) values every legal action in the game's unit (its
descriptor's ``hint_unit``): the seat's expected tricks this hand (Knockout Whist), its
side's tricks over the quota this deal (Neuf, NEUF-5.2), or its chance of not being the fool
(Kryt'-navalivat'), with each value's uncertainty, and names the best, ties going to the
card a good player keeps least (among cards given to be beaten, the highest value).
:func:`advice` turns it into the ``hint`` message: each action's gap to the best, whether
it ties with the best, and the reason: a locale key and its parameters (``hints.why.*``
in the page's locales), chosen by the game's rules of thumb (:mod:`.knockout_whist`,
:mod:`.neuf`, :mod:`.kryt_navalivat`), which look only at the action and the public facts
of the view and the seat's own hand: cards played this hand, the trick or the pile on the
table, trumps.
Nothing the seat may not see goes into a hint (SPEC §0.4, item 4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.analysis import MARGINS, Analysis
from cardtable.core import View
from cardtable.hints.reasons import Reason, any_action, forced
from cardtable.parts import part

__all__ = ["MARGINS", "Reason", "advice", "reason_for"]


def reason_for(game_name: str, view: View, best: str, values: Mapping[str, float]) -> Reason:
    """Why ``best`` is the action to play, from ``view`` (the seat's own) and the values of
    its legal actions."""
    rules = part("hints", game_name)  # the game's rules of thumb, loaded when asked
    reason: Reason = rules.reason(view, best, values)
    return reason


def advice(view: View, analysis: Analysis) -> dict[str, Any]:
    """The hint for ``view``'s seat from the ``analysis`` of its position: ``best`` (an
    action text), ``unit``, ``actions`` (each legal action's ``value`` in the unit and
    ``gap`` to the best, None where not rated; ``error``, the standard error of that gap;
    ``tie``, whether it does as well as the best as far as the analysis can tell;
    ``visits``, the samples behind it; ``chance``, the search's chance of a good end where
    the unit is that chance, else None) and ``reason`` (``key``, ``params``). A forced move
    (one legal action) is not valued."""
    legal: list[str] = list(view["legal_actions"])
    best = analysis.best
    rated = analysis.values
    if analysis.forced:
        why = forced()
    elif analysis.alike:
        why = any_action()
    elif not rated or len(analysis.ties) == len(legal):
        why = Reason("close")  # tied within the analysis's noise, not known to be equal
    else:
        why = reason_for(analysis.game, view, best, rated)
    chance_unit = analysis.unit == "not_fool"
    actions = []
    for action in legal:
        appraisal = analysis.appraisal(action)
        value = appraisal.value
        gap = analysis.gap(action)
        actions.append(
            {
                "action": action,
                "chance": None if value is None or not chance_unit else round(value, 3),
                "visits": appraisal.samples,
                "value": None if value is None else round(value, 3),
                "gap": None if gap is None or analysis.forced else round(gap, 3),
                "error": None if value is None else round(appraisal.error, 3),
                "tie": not analysis.forced and value is not None and action in analysis.ties,
            }
        )
    return {"best": best, "unit": analysis.unit, "actions": actions, "reason": why.message()}
