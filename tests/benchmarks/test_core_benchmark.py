"""Smoke test for ``benchmarks/core.py``: tiny sizes, no timing asserted. It checks that
each path plays the games it claims and counts their decisions, so that the ratios it
prints compare like with like."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scripts_loader import load_script

core = load_script("benchmarks/core.py")

pytest.importorskip("pyspiel")


def test_every_pairing_is_measured_on_every_path(tmp_path: Path) -> None:
    out = tmp_path / "core.json"
    core.main(["--games", "20", "--runs", "1", "--json", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    rows = report["pairings"]
    assert [(r["game"], r["players"]) for r in rows] == [(g, n) for g, n, *_ in core.PAIRINGS]
    for row in rows:
        assert set(row["us_per_decision"]) == set(core.PATHS)
        assert all(v > 0 for v in row["us_per_decision"].values())
        # Whole games: at least one decision per seat on both sides.
        assert row["decisions_per_game"]["ours"] >= row["players"]
        assert row["decisions_per_game"]["openspiel"] >= row["players"]
    assert set(report["state_bytes"]) == {"knockout-whist", "neuf", "kryt-navalivat"}


def test_the_per_call_path_plays_the_batch_games_decision_counts() -> None:
    """The per-call loop and the Python playout play whole games: their decisions per game
    are of the same size as the batch's (random games of the same game)."""
    for name, players in (("knockout-whist", 3), ("kryt-navalivat", 2)):
        _, batch = core.core_batch(name, players, range(40))()
        _, per_call = core.core_per_call(name, players, range(40))()
        _, python = core.python_playout(name, players, range(40))()
        for other in (per_call, python):
            assert 0.5 < other / batch < 2.0, (name, batch, per_call, python)
