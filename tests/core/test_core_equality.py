"""The compiled core equals the Python engine (``docs/core.md``).

A hundred random games of every variant (``cardtable.differential.VARIANTS``: every
player count of every game, every Neuf trump sequence and rule, both Kryt'-navalivat'
trump modes) are played in both engines at once, and at every step they must agree on the
seat to move, the legal actions and the position text, and at the end on the returns.
(The differential runs of docs/core.md play millions of moves; this is their guard in CI.)
"""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.differential import VARIANTS, compare_games

GAMES_PER_VARIANT = 100
# Each variant's games are split in chunks so that xdist spreads them over the cores.
CHUNKS = 4


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize(
    ("name", "options"),
    VARIANTS,
    ids=[f"{name}-" + "-".join(f"{k}={v}" for k, v in o.items()) for name, o in VARIANTS],
)
def test_core_and_python_agree_at_every_step(
    name: str, options: dict[str, Any], chunk: int
) -> None:
    size = GAMES_PER_VARIANT // CHUNKS
    tally = compare_games(name, options, range(chunk * size, (chunk + 1) * size))
    assert tally.games == size
    assert tally.steps > tally.games  # every game took steps: something was compared
