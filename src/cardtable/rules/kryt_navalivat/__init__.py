"""Kryt'-navalivat' (SPEC §2): the state machine, its notation and its invariants."""

from cardtable.rules.kryt_navalivat.game import KrytNavalivat
from cardtable.rules.kryt_navalivat.state import KrytNavalivatState

__all__ = ["KrytNavalivat", "KrytNavalivatState"]
