"""KOW-11 invariants, checked across every action by ``cardtable.testing``."""

from __future__ import annotations

from cardtable.games.knockout_whist.rules import KnockoutWhistState


def check_transition(before: KnockoutWhistState, number: int, after: KnockoutWhistState) -> None:
    """Raise ``AssertionError`` naming the KOW-11 rule that ``before -> after`` breaks."""
