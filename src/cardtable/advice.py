"""Advice on a position, for anyone who wants to study it: :func:`advise` is what the
table's hint button says, from the same analysis (:mod:`cardtable.analysis`) and the same
rules of thumb (:mod:`cardtable.hints`), for a state or a seat's view.

    >>> import cardtable
    >>> from cardtable.advice import advise
    >>> state = cardtable.make("knockout-whist", players=3).new_state(seed=4)
    >>> advice = advise(state, seconds=0.2)
    >>> advice.best in [str(action) for action in state.legal_actions()]
    True

``cardtable hint RECORD --at N`` prints it for a position of a saved game.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from cardtable.analysis import HINT_BUDGET, Analysis, Budget, analyse
from cardtable.core import State, View
from cardtable.errors import CardtableError, OutOfTurnError

__all__ = ["Advice", "advise"]


@dataclass(frozen=True, slots=True)
class Advice:
    """The ``analysis`` of a position and the ``hint`` the table would show for it (the
    ``hint`` message of ``docs/server.md``, less its ``type`` and ``seq``)."""

    analysis: Analysis
    hint: dict[str, Any]

    @property
    def best(self) -> str:
        return self.analysis.best

    @property
    def reason(self) -> dict[str, Any]:
        """The reason's locale key (``hints.why.*``) and parameters."""
        reason: dict[str, Any] = self.hint["reason"]
        return reason

    def said(self) -> str:
        """The reason in English, as the page writes it."""
        return english(self.reason["key"], self.reason["params"])

    def to_dict(self) -> dict[str, Any]:
        return {**self.hint, "analysis": self.analysis.to_dict(), "said": self.said()}


def advise(
    position: State | View,
    seat: int | None = None,
    *,
    seconds: float | None = None,
    seed: int = 0,
    budget: Budget | None = None,
) -> Advice:
    """The hint for ``seat`` (by default the seat to move) at ``position``: a state, or a
    seat's own view (as ``State.view`` gives it, or the server sends it). A state is read
    only through the seat's view: nothing the seat cannot see goes in. ``seconds`` bounds
    the analysis (as ``Budget(seconds=…)``); ``budget`` sets it whole; ``seed`` seeds its
    sampling. :class:`OutOfTurnError` unless it is the seat's turn."""
    import cardtable
    from cardtable import hints

    if isinstance(position, State):
        mover = position.to_move
        seat = mover if seat is None else seat
        if seat is None or seat != mover:
            raise OutOfTurnError(f"advice is for the seat to move ({mover}), not {seat}")
        view = position.view(seat)
    else:
        view = position
        if not isinstance(view, dict) or "legal_actions" not in view or "game" not in view:
            raise CardtableError("advise() takes a state or a seat's view (a dict with its game)")
        if view.get("to_move") != view.get("seat") or (seat is not None and seat != view["seat"]):
            raise OutOfTurnError("advice is for the seat to move, from its own view")
    if budget is None:
        budget = HINT_BUDGET if seconds is None else Budget(seconds=seconds)
    game = cardtable.make(view["game"], **view["options"])
    analysis = analyse(game, view, budget=budget, rng=random.Random(seed))
    return Advice(analysis, hints.advice(view, analysis))


@cache
def _english() -> dict[str, Any]:
    text = resources.files("cardtable.web").joinpath("locales/en.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def english(key: str, params: dict[str, Any]) -> str:
    """A locale text of the page's English, filled as the page fills a hint's: a card by
    its name ("the queen of spades"), a suit, a seat as "Seat n", a count by its plural."""
    words = _english()
    found: Any = words
    for part in key.split("."):
        found = found[part]
    if isinstance(found, dict):  # plural forms
        found = found["one" if params.get("count") == 1 else "other"]
    filled = {}
    for name, value in params.items():
        if name == "card":
            rank, suit = str(value)[:-1], str(value)[-1]
            filled["card"] = words["card_name"].format(
                rank=words["ranks"][rank], suit=words["suits"][suit]
            )
        elif name == "suit":
            filled["suit"] = words["suits"][value]
        elif name == "seat":
            filled["name"] = f"Seat {value}"
        else:
            filled[name] = value
    return str(found).format(**filled)
