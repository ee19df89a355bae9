"""Seeded chance: the same seed gives the same shuffle on every machine and Python.

A shuffle is read off a BLAKE2b digest of the seed and a label (``"deck 3"``) as a
512-bit number written in the mixed radix 52, 51, … 2: a Fisher–Yates shuffle whose
draws are that number's digits. 52! is below 2**226, so every order is equally likely
to within 2**-286, and nothing depends on the ``random`` module's algorithms, which
may change between Python versions. Records still store every deck (DESIGN.md), so a
replay never needs this; it fixes what an unfinished game deals next.
"""

from __future__ import annotations

import hashlib

__all__ = ["draw", "shuffled"]


def _number(seed: int, label: str) -> int:
    digest = hashlib.blake2b(f"{seed}/{label}".encode(), digest_size=64).digest()
    return int.from_bytes(digest, "big")


def shuffled(seed: int, label: str, items: list[int]) -> list[int]:
    """A copy of ``items`` in an order fixed by ``seed`` and ``label``."""
    order = items[:]
    x = _number(seed, label)
    for i in range(len(order) - 1, 0, -1):
        x, j = divmod(x, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def draw(seed: int, label: str, n: int) -> int:
    """A number in ``0 … n-1`` fixed by ``seed`` and ``label``."""
    return _number(seed, label) % n
