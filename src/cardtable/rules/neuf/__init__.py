"""Neuf (Nines, SPEC §1): 3 players with a spare hand, or 4 in partnership."""

from cardtable.rules.neuf.game import Neuf
from cardtable.rules.neuf.ledger import TRUMP_SEQUENCES, Ledger, Row
from cardtable.rules.neuf.state import NeufState

__all__ = ["TRUMP_SEQUENCES", "Ledger", "Neuf", "NeufState", "Row"]
