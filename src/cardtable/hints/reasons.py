"""What every game's reasons are made of: the :class:`Reason` a hint gives (a locale key
under ``hints.why`` and its parameters), the :class:`Rule` that gives it only where the
facts it states hold (:mod:`.facts`), and the card arithmetic the rules of thumb share.

Parameters are plain data the page turns into words (``web/table_hints.js``): ``card`` a card
(``"AH"``, named in the grammatical case the text asks for), ``suit`` a suit letter (its
name, ``{suit:gen}`` the form after "of"), ``seat`` a seat number (its player's name),
``count`` a number the text's plural forms follow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from cardtable.analysis import MARGINS

__all__ = [
    "RANKS",
    "Reason",
    "Rule",
    "any_action",
    "close_call",
    "first_true",
    "forced",
    "no_rule",
    "rank_of",
    "suit_of",
]

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
"""Ranks from low to high (SPEC §0.2)."""


@dataclass(frozen=True)
class Reason:
    """Why the hint's action is the one to play: ``hints.why.<key>`` with ``params``."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def message(self) -> dict[str, Any]:
        """The reason as the ``hint`` message carries it."""
        return {"key": f"hints.why.{self.key}", "params": dict(self.params)}


Facts = TypeVar("Facts")


@dataclass(frozen=True)
class Rule(Generic[Facts]):
    """A rule of thumb: the reason ``key``, whose sentence ``says`` (in English) what the
    ``claims`` state, each a fact of :mod:`.facts` about the card (``facts``, ``card``);
    the reason is given only when every claim holds."""

    key: str
    says: str
    claims: tuple[Callable[[Facts, str], bool], ...]

    def holds(self, facts: Facts, card: str) -> bool:
        return all(claim(facts, card) for claim in self.claims)


def first_true(
    rules: Sequence[Rule[Facts]], facts: Facts, card: str, params: dict[str, Any]
) -> Reason | None:
    """The reason of the first rule whose claims all hold, with ``params``; ``None`` if
    none does."""
    for rule in rules:
        if rule.holds(facts, card):
            return Reason(rule.key, params)
    return None


def forced() -> Reason:
    """The only legal action."""
    return Reason("forced")


def any_action() -> Reason:
    """Every action does about as well as the best."""
    return Reason("any")


def close_call(best: str, values: Mapping[str, float], unit: str) -> bool:
    """Whether another action is valued within the unit's margin (the analysis's
    ``MARGINS``) of ``best``'s value: the choice is close (``close_call``: "another move
    does about as well")."""
    top = values.get(best)
    if top is None:
        return False
    return any(a != best and abs(top - v) <= MARGINS[unit] for a, v in values.items())


def no_rule(best: str, values: Mapping[str, float], unit: str) -> Reason:
    """The reason when no rule of thumb's claims hold: ``close_call`` where another action
    does about as well, else ``no_rule`` ("no simple rule explains this move"), which says
    nothing of the action but that the search prefers it."""
    return Reason("close_call") if close_call(best, values, unit) else Reason("no_rule")


def rank_of(card: str) -> int:
    """A card's rank, 0 for a two up to 12 for an ace."""
    return RANKS.index(card[:-1])


def suit_of(card: str) -> str:
    return card[-1]
