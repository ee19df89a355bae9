"""Small helpers for the games' invariant checks (``invariants.py`` in each game).

They repeat on purpose what ``cardtable.rules.tricks`` does for the engines, in the
plainest way, so that a check never trusts the code it is checking.
"""

from __future__ import annotations

__all__ = ["FULL_DECK", "SUIT_MASKS", "broken", "cards_of"]

FULL_DECK = (1 << 52) - 1
SUIT_MASKS = tuple(0x1FFF << (13 * suit) for suit in range(4))


def broken(rule: str, message: str) -> AssertionError:
    """The failure of rule ``rule`` (a SPEC ID), for the conformance suite to report."""
    return AssertionError(f"{rule}: {message}")


def cards_of(mask: int) -> list[int]:
    """The cards of a bitmask, lowest first, one set bit at a time."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
