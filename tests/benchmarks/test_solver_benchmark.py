"""Smoke test for ``benchmarks/solver.py``: tiny sizes, no timing asserted.

It checks that the benchmark solves whole first hands under both models at every player
count it reports and Kryt'-navalivat' endgames of every size it reports, measures its
``hard`` baseline in the same run, and times the expert level's real decisions. Speed is
the benchmark's business, not the tests'.
"""

from __future__ import annotations

from scripts_loader import load_script

bench = load_script("benchmarks/solver.py")


def test_the_report_has_every_row_and_model() -> None:
    report = bench.measure(hands=2, games=1, expert="pimc:deals=3", neuf_players=(3,))
    rows = report["knockout_whist"]
    assert [row["players"] for row in rows] == list(bench.PLAYERS)
    for row in rows:
        assert row["hands"] == 2 and row["hard_seconds_median"] > 0
        for model in bench.MODELS:
            cell = row[model]
            assert 0 < cell["median_seconds"] <= cell["max_seconds"]
            assert cell["median_nodes"] >= 1
    # A full 3-player hand: alpha-beta on the paranoid tree visits fewer nodes than max-n.
    three = rows[list(bench.PLAYERS).index(3)]
    assert three["paranoid"]["median_nodes"] < three["max-n"]["median_nodes"]
    # Kryt'-navalivat's endgames: a row per size of endgame, each solved and timed.
    endgames = report["kryt_navalivat_endgames"]
    assert [row["cards"] for row in endgames] == list(bench.ENDGAME_CARDS)
    for row in endgames:
        assert row["endgames"] == 2
        assert 0 < row["median_seconds"] <= row["max_seconds"]
        assert row["median_nodes"] >= 1 and 0 <= row["proven_share"] <= 1
    assert "Kryt'-navalivat'" in bench.render(report)
    expert = report["expert"]
    assert expert["spec"] == "pimc:deals=3" and expert["decisions"] > 0
    # Neuf at 3 players (a 4-player deal takes seconds): a whole deal under paranoid, the
    # last tricks under max-n.
    neuf = {cell["model"]: cell for cell in report["neuf"]}
    assert [cell["players"] for cell in report["neuf"]] == [3, 3]
    assert neuf["paranoid"]["tricks"] == 13 and neuf["max-n"]["tricks"] == bench.NEUF_MAX_N_TRICKS
    for cell in neuf.values():
        assert cell["hands"] == 2 and 0 < cell["median_seconds"] <= cell["max_seconds"]
        assert cell["median_nodes"] >= 1
    assert "Neuf" in bench.render(report)
    assert "max-n" in bench.render(report)


def test_percentiles_take_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert bench.percentile(values, 0.5) == 51.0
    assert bench.percentile(values, 0.99) == 100.0
    assert bench.percentile([3.0], 0.99) == 3.0


def test_one_games_rows_alone() -> None:
    report = bench.measure(hands=2, games=1, only=("kryt-navalivat",))
    assert "kryt_navalivat_endgames" in report
    assert not {"knockout_whist", "neuf", "expert"} & report.keys()
    text = bench.render(report)
    assert "Kryt'-navalivat'" in text and "Knockout Whist" not in text
