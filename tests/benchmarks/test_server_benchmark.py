"""Smoke test for ``benchmarks/server.py``: a tiny load, no speed asserted.

It starts a real server through the benchmark, drives a few tables for a few seconds and
checks that the report counts what happened: every table held, human actions timed on
both sockets, latencies that are positive and ordered, and memory measured. Whether the
server is fast enough is the benchmark's business, not the tests'.
"""

from __future__ import annotations

import json
from pathlib import Path

from scripts_loader import load_script

bench = load_script("benchmarks/server.py")


def test_a_tiny_load_is_measured_and_reported(tmp_path: Path) -> None:
    out = tmp_path / "server.json"
    tables = 5
    seconds = 3.0
    code = bench.main(
        [
            "--tables", str(tables),
            "--seconds", str(seconds),
            "--warmup", "1",
            "--think", "0.05",
            "--bot-delay", "0",
            "--bot-workers", "1",
            "--json", str(out),
        ]
    )  # fmt: skip
    assert code == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["tables"] == tables and report["tables_held"] == tables
    assert report["server_tables"] == tables
    assert report["errors"] == {} and report["sockets_closed_by_server"] == 0
    # Every human action is also an action; bots act between them at every table.
    human = report["human_actions_per_second"]
    assert 0 < human < report["actions_per_second"]
    assert report["actions"] == round(report["actions_per_second"] * seconds)
    assert report["latency_samples"] >= tables
    for name in ("both", "acting", "spectator"):
        figures = report["latency_ms"][name]
        assert 0 < figures["p50"] <= figures["p90"] <= figures["p99"] <= figures["max"]
    both, acting, spectator = (report["latency_ms"][k] for k in ("both", "acting", "spectator"))
    # ``both`` waits for the later socket, so it is never below either one.
    assert both["p50"] >= min(acting["p50"], spectator["p50"])
    assert both["max"] == max(acting["max"], spectator["max"])
    memory = report["memory"]
    rss = memory["server_rss_mib"]
    assert 0 < rss["before"] <= rss["end"] + 1
    assert memory["per_table_kib_end"] == (rss["end"] - rss["before"]) * 1024 / tables
    assert report["target"] == {"tables": 500, "p99_ms": 50.0, "met": False}
    assert "same machine" in report["note"]
    assert "tables held concurrently" in bench.render(report)


def test_one_process_and_two_are_measured_side_by_side(tmp_path: Path) -> None:
    """``--processes 2``: the same tiny load against one process and two on PostgreSQL,
    then a worker killed and its tables timed until another process serves them."""
    out = tmp_path / "processes.json"
    tables = 6
    code = bench.main(
        [
            "--tables", str(tables),
            "--seconds", "3",
            "--warmup", "1",
            "--think", "0.05",
            "--bot-delay", "0",
            "--bot-workers", "1",
            "--processes", "2",
            "--json", str(out),
        ]
    )  # fmt: skip
    assert code == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    runs = report["runs"]
    assert [run["settings"]["processes"] for run in runs] == [1, 2]
    for run in runs:
        assert run["tables_held"] == tables and run["errors"] == {}
        assert run["latency_ms"]["both"]["p99"] > 0
    takeover = runs[1]["takeover"]
    assert 0 < takeover["tables_on_killed_process"] <= tables
    parts = [takeover["with_a_seat_reconnecting"], takeover["with_nobody_connected"]]
    assert sum(part["tables"] for part in parts) == takeover["tables_on_killed_process"]
    for part in parts:
        assert part["moved"] == part["tables"]  # every table served again
    assert "seconds until each is served by another" in bench.render_side_by_side(report)


def test_bad_options_are_refused() -> None:
    for argv in (
        ["--tables", "0"],
        ["--seconds", "0"],
        ["--players", "1"],
        ["--bot-workers", "0"],
        ["--processes", "1"],
        ["--processes", "2", "--url", "http://127.0.0.1:1"],
    ):
        try:
            bench.main(argv)
        except SystemExit as exc:
            assert exc.code == 2
        else:
            raise AssertionError(f"{argv} was accepted")
