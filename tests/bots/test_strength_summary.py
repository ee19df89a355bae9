"""``benchmarks/strength_summary.py``: one row per tournament folder, from its own
``summary.json``, and the summaries copied where ``benchmarks/README.md`` points."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable.arena import ArenaConfig, run_tournament
from scripts_loader import load_script

summary = load_script("benchmarks/strength_summary.py")


def test_a_row_per_tournament_with_its_intervals_and_the_summaries_copied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = tmp_path / "runs"
    config = ArenaConfig("knockout-whist", ("easy", "random"), games=6, seed=3,
                         options={"players": 2})  # fmt: skip
    run_tournament(config, out=runs / "kow-easy-random")
    (runs / "unfinished").mkdir()  # a folder with no summary yet is passed over
    monkeypatch.setattr(summary, "RESULTS", tmp_path / "results")
    assert summary.main([str(runs), "--copy"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 1
    written = json.loads((runs / "kow-easy-random" / "summary.json").read_text())
    easy = next(s for s in written["standings"] if s["entry"] == "easy")
    expected = f"easy {easy['mean']:.3f} [{easy['low']:.3f}, {easy['high']:.3f}]"
    assert rows[0].startswith("| `kow-easy-random.json` | `easy`, `random` | 6 | all 6 games | 0 |")
    assert expected in rows[0]
    [paired] = written["differences"]
    assert (
        f"easy − random {paired['mean']:.3f} [{paired['low']:.3f}, {paired['high']:.3f}] paired"
        in rows[0]
    )
    assert json.loads((tmp_path / "results" / "kow-easy-random.json").read_text()) == written


def test_a_report_of_an_unfinished_table_says_so(tmp_path: Path) -> None:
    """A table stopped by time and reported with --report-only has played fewer games than
    it scheduled: its row says how many, not "all"."""
    config = ArenaConfig("knockout-whist", ("easy", "random"), games=6, seed=3,
                         options={"players": 2})  # fmt: skip
    run_tournament(config, out=tmp_path / "t")
    written = json.loads((tmp_path / "t" / "summary.json").read_text())
    cut = {**written, "finished": 4}
    assert "| unfinished: 4 of 6 games |" in summary.row("t", cut, 0.0)
    assert "| all 6 games |" in summary.row("t", written, 0.0)
