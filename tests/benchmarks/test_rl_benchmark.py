"""Smoke test for ``benchmarks/rl.py``: tiny sizes, no timing asserted.

It checks that every loop plays whole games and counts their decisions (the PettingZoo
loops the baseline's very games, the Gymnasium baseline the Gymnasium env's), and that the
report states each adapter's ratio to its baseline.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import cardtable
from scripts_loader import load_script

bench = load_script("benchmarks/rl.py")


def test_every_loop_plays_whole_games() -> None:
    """The engine loops play the very game a seeded random playout of the engine plays;
    the adapters' games end too, with as many actions as their state holds."""
    for name, options in bench.VARIANTS:
        game = cardtable.make(name, **options)
        state = game.new_state(seed=1)
        choose = random.Random(1).choice
        while state.to_move is not None:
            state.apply_id(choose(state.legal_action_ids()))
        assert bench.engine_loop(name, options, 1) == len(state.history)
        assert bench.baseline_loop(name, options, 1) == len(state.history)
        for label in ("pettingzoo", "pettingzoo_wrapped"):
            assert bench.LOOPS[label](name, options, 1) == len(state.history)
        # The Gymnasium env's bots draw from its own generator: its baseline replays its games.
        played = bench.gymnasium_loop(name, options, 1)
        assert played > 0 and bench.gymnasium_baseline_loop(name, options, 1) == played


def test_the_report_gives_each_adapters_ratio(tmp_path: Path) -> None:
    out = tmp_path / "rl.json"
    bench.main(["--games", "1", "--runs", "1", "--json", str(out)])
    data = json.loads(out.read_text())
    assert [row["game"] for row in data["results"]] == [name for name, _ in bench.VARIANTS]
    for row in data["results"]:
        assert set(row["decisions_per_second"]) == set(bench.LOOPS)
        assert all(rate > 0 for rate in row["decisions_per_second"].values())
        ratios = row["time_per_decision_over_baseline"]
        assert set(ratios) == set(bench.LOOPS) - {"baseline", "gymnasium_baseline"}
        rates = row["decisions_per_second"]
        assert ratios["pettingzoo"] == rates["baseline"] / rates["pettingzoo"]
        assert ratios["gymnasium"] == rates["gymnasium_baseline"] / rates["gymnasium"]
        assert row["under_target"] == (ratios["pettingzoo"] < 2 and ratios["gymnasium"] < 2)
    assert "view" in data["baseline"]


def test_the_batch_table_reports_every_cell() -> None:
    """``--batch``: a rate for every batch size and thread count of every game, the int8
    observations' at the largest on the most threads, and the ratio to PettingZoo's
    ``raw_env`` (tiny sizes; no timing asserted)."""
    from cardtable import compiled

    if not compiled.available():
        return
    data = bench.measure_batch(seconds=0.001, runs=1, sizes=(1, 4), threads=(1, 2))
    assert [row["game"] for row in data["results"]] == [name for name, _ in bench.VARIANTS]
    for row in data["results"]:
        assert set(row["agent_steps_per_second"]) == {"1x1", "1x2", "4x1", "4x2", "int8 4x2"}
        assert all(rate > 0 for rate in row["agent_steps_per_second"].values())
        assert row["pettingzoo_time_over_batch_time"] > 0
    assert "4x2" in bench.report_batch(data) and "int8 4x2" in bench.report_batch(data)


def test_pgx_goes_only_with_the_batch_table(capsys: pytest.CaptureFixture[str]) -> None:
    """``--pgx`` alone is refused with a one-line reason, before anything is measured."""
    with pytest.raises(SystemExit) as exit_info:
        bench.main(["--pgx"])
    assert exit_info.value.code == 2
    assert "--pgx goes with --batch" in capsys.readouterr().err
