"""Who took a trick, for the games played in tricks (Knockout Whist, Neuf).

An action that completes a trick says in its event which seat took it (docs/server.md), so
that a page rebuilding its log from the events alone tells every trick of the game as a page
watching all along told it, and not only the tricks its current view still holds. Who took
a trick is public: every card of it was played face up (KOW-4.3, NEUF-4.3 decide it).
"""

from __future__ import annotations

from cardtable.core import View
from cardtable.rules.catalog import descriptor

__all__ = ["trick_taken"]


def trick_taken(game: str, before: View, after: View) -> int | None:
    """The seat that took the trick an action completed, from the public views before and
    after it; None if it completed none (or the game is not played in tricks)."""
    # The games played in tricks name their hand's number and the hand before.
    keys = descriptor(game).trick_counters
    if keys is None:
        return None
    number, previous = keys
    # Counted, not read from the open trick: a trick may have one card only (the others out
    # of cards, KOW-4.5), and then the open trick is empty before and after.
    tricks = after.get("tricks") or []
    if after.get(number) != before.get(number):
        # The action ended its hand and the next was dealt: its tricks are the hand before's.
        tricks = (after.get(previous) or {}).get("tricks") or []
    if len(tricks) <= len(before.get("tricks") or []):
        return None
    return int(tricks[-1]["winner"])
