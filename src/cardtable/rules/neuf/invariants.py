"""NEUF-11 invariants, checked across every action by ``cardtable.testing``."""

from __future__ import annotations

from cardtable.rules.neuf.state import NeufState


def check_transition(before: NeufState, number: int, after: NeufState) -> None:
    """Raise ``AssertionError`` naming the NEUF-11 rule that ``before -> after`` breaks."""
