"""Seeded chance: the same seed gives the same shuffle on every machine and Python.

A shuffle is read off a BLAKE2b digest of the seed and a label (``"deck 3"``) as a
512-bit number written in the mixed radix 52, 51, … 2: a Fisher–Yates shuffle, run
from the front, whose draws are that number's digits. 52! is below 2**226, so every
order is equally likely to within 2**-286, and nothing depends on the ``random``
module's algorithms, which
may change between Python versions. Records still store every deck (DESIGN.md), so a
replay never needs this; it fixes what an unfinished game deals next.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

__all__ = ["Shuffler", "draw", "shuffled"]

Shuffler = Callable[[str, list[int]], list[int]]
"""A source of decks that replaces the seed (the web table's fair deals, docs/fairness.md):
called with a label (``"hand 2"``: hands from 1; ``"reshuffle 0"``: reshuffles from 0, in
the game) and the cards to shuffle, it returns them in the order they are dealt."""


def _number(seed: int, label: str) -> int:
    digest = hashlib.blake2b(f"{seed}/{label}".encode(), digest_size=64).digest()
    return int.from_bytes(digest, "big")


def shuffled(seed: int, label: str, items: list[int], settle: int | None = None) -> list[int]:
    """A copy of ``items`` in an order fixed by ``seed`` and ``label``.

    ``settle`` limits the work to the first ``settle`` positions: they hold a uniformly
    random arrangement of ``settle`` of the items (a Fisher–Yates shuffle run from the
    front and stopped there), and the rest follow in an order the seed fixes but that is
    not itself shuffled. A game that will only ever look at the first cards of a deck
    asks for just those."""
    order = items[:]
    n = len(order)
    x = _number(seed, label)
    for i in range(min(n - 1, n if settle is None else settle)):
        x, r = divmod(x, n - i)
        j = i + r
        order[i], order[j] = order[j], order[i]
    return order


def draw(seed: int, label: str, n: int) -> int:
    """A number in ``0 … n-1`` fixed by ``seed`` and ``label``."""
    return _number(seed, label) % n
