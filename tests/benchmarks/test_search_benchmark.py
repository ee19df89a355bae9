"""Smoke test for ``benchmarks/search.py``: tiny sizes, no timing asserted.

It checks that the benchmark searches real decisions of each game, spends the iterations
it reports, measures OpenSpiel's baseline in the same run when open-spiel is installed,
and states a verdict for each target. Speed is the benchmark's business, not the tests'.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable.bots import make_bot
from cardtable.bots.ismcts import IsmctsBot
from scripts_loader import load_script

bench = load_script("benchmarks/search.py")


def test_positions_are_decisions_of_each_game() -> None:
    for name in bench.GAMES:
        states = bench.positions(name, 4, 0)
        assert len(states) == 4
        for state in states:
            assert state.game.name == name and state.game.num_players == bench.PLAYERS
            assert not state.is_over and len(state.legal_action_ids()) > 1


def test_measure_reports_every_game_beside_the_baseline(tmp_path: Path) -> None:
    out = tmp_path / "search.json"
    sizes = ["--positions", "2", "--iterations", "20", "--thread-iterations", "40"]
    assert bench.main([*sizes, "--no-hard", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert set(report["games"]) == set(bench.GAMES)
    for entry in report["games"].values():
        assert 0 < entry["rate"]["low"] <= entry["rate"]["median"] <= entry["rate"]["high"]
        for key in ("core_rate", "core_random_rate", "core_1_thread_rate", "core_2_threads_rate"):
            core = entry[key]
            assert 0 < core["low"] <= core["median"] <= core["high"]
        assert entry["core_speedup_over_python"] == pytest.approx(
            entry["core_rate"]["median"] / entry["rate"]["median"]
        )
    if report["open_spiel_cpp_oh_hell"] is not None:
        cpp = report["open_spiel_cpp_oh_hell"]["median"]
        kow = report["games"]["knockout-whist"]
        assert abs(kow["core_ratio_to_open_spiel_cpp"] - kow["core_rate"]["median"] / cpp) < 1e-9
    if report["open_spiel_oh_hell"] is not None:
        base = report["open_spiel_oh_hell"]["median"]
        kow = report["games"]["knockout-whist"]
        assert abs(kow["rate_ratio_to_open_spiel"] - kow["rate"]["median"] / base) < 1e-9
    if report["open_spiel_cpp_oh_hell"] is not None:
        assert {"knockout-whist core >= 5x OpenSpiel C++", "neuf core >= 2x OpenSpiel C++"} <= set(
            report["verdicts"]
        )


def test_hard_is_timed_on_every_position() -> None:
    states = bench.positions("kryt-navalivat", 2, 1)
    times, spent = bench.hard_decisions("kryt-navalivat", states)
    assert len(times) == 2 and all(t > 0 for t in times)
    hard = make_bot("hard", "kryt-navalivat")
    assert isinstance(hard, IsmctsBot) and hard.iterations is not None
    assert len(spent) == 2 and all(0 < n <= hard.iterations for n in spent)
