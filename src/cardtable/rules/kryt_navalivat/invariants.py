"""KRYT-11's invariants, checked across every action of the conformance suite."""

from __future__ import annotations

from cardtable.rules.checks import broken, cards_of
from cardtable.rules.kryt_navalivat.beating import PACK_36
from cardtable.rules.kryt_navalivat.state import KrytState


def check_transition(before: KrytState, number: int, after: KrytState) -> None:
    cards = [c for h in after.hands for c in cards_of(h)] + after.pile + after.stock
    if after.faceup >= 0:
        cards.append(after.faceup)
    if sorted(cards) != list(PACK_36):
        raise broken("KRYT-11.1", "the hands, pile and stock do not hold the pack once each")
