"""Perft: the number of action sequences of each length from a state, the fixtures of
these counts kept per game (``tests/fixtures/``), and their regeneration."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cardtable.core import State


def perft(state: State, depth: int) -> list[int]:
    """Perft-style counts: ``[n(1), …, n(depth)]`` where ``n(d)`` is the number of action
    sequences of length ``d`` from ``state`` (sequences that end the game early count at
    their own length only). A change in move generation shows up as a changed count;
    fixtures of these numbers are kept per game (``tests/fixtures/``). Uses the unchecked
    path and ``copy()``; the state itself is not changed."""
    counts = [0] * depth

    def walk(node: State, ply: int) -> None:
        numbers = node.legal_action_ids()
        counts[ply] += len(numbers)
        if ply + 1 < depth:
            for number in numbers:
                child = node.copy()
                child.apply_id(number)
                walk(child, ply + 1)

    walk(state, 0)
    return counts


def checked_perft(state: State, depth: int) -> int:
    """The last of :func:`perft`'s counts through the checked path (``legal_actions()`` and
    ``apply()``), to show both paths generate the same moves."""
    if depth == 0:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.copy()
        child.apply(action)
        total += checked_perft(child, depth - 1)
    return total


def perft_start(game: str, entry: Mapping[str, Any]) -> State:
    """The start of a perft fixture entry: the game made with ``entry["options"]``, then
    ``entry["position"]``, or a first deal of ``entry["deck"]`` (card text, seed 0)."""
    from cardtable import make

    made = make(game, **entry["options"])
    if "position" in entry:
        return made.state_from_position(entry["position"])
    return made.new_state(seed=0, decks=[entry["deck"].split()])


def perft_fixture(game: str, about: str, entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A perft fixture: each entry (``name``, ``options``, ``position`` or ``deck``,
    ``depth``, …) with its counts at depths 1 … ``depth`` instead of the depth."""
    positions = []
    for entry in entries:
        counts = perft(perft_start(game, entry), entry["depth"])
        record = {k: v for k, v in entry.items() if k != "depth"}
        record["counts"] = {str(d): n for d, n in enumerate(counts, 1)}
        positions.append(record)
    return {"about": about, "positions": positions}


def write_perft_fixture(
    path: Path,
    game: str,
    about: str,
    entries: Sequence[Mapping[str, Any]],
    echo: Callable[[str], object] | None = None,
) -> dict[str, Any]:
    """Compute :func:`perft_fixture` and write it to ``path`` as JSON; returns it too.
    ``echo`` (``print`` in the regeneration scripts) is told each start's counts and the
    time it all took."""
    began = time.perf_counter()
    fixture = perft_fixture(game, about, entries)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(fixture, indent=2) + "\n", encoding="utf-8")
    if echo is not None:
        for entry in fixture["positions"]:
            echo(f"{entry['name']}: {list(entry['counts'].values())}")
        echo(f"wrote {path} in {time.perf_counter() - began:.2f} s")
    return fixture
