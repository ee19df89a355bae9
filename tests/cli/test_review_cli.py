"""``cardtable review RECORD --seat N`` (docs/review.md): the decisions, the costliest
first, their losses in the game's unit; the review as JSON and its chart as a PNG; a
one-line error for bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.review import Review
from terminal_io import run_cli
from test_review import FAST, played_game, stacked_blunder

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ROW = re.compile(r"^│\s+(\d+)\s+│.*│\s+(fine|inaccuracy|mistake|unrated)\s+│$", re.MULTILINE)


@pytest.fixture
def blunder(tmp_path: Path) -> Path:
    path = tmp_path / "blunder.json"
    path.write_text(stacked_blunder().to_json(), encoding="utf-8")
    return path


def test_the_worst_decision_is_listed_first_with_json_and_chart(
    blunder: Path, tmp_path: Path
) -> None:
    out, chart = tmp_path / "review.json", tmp_path / "review.png"
    done = run_cli(
        "review", str(blunder), "--seat", "0", "--level", FAST,
        "--json", str(out), "--chart", str(chart),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = ROW.findall(done.stdout)
    assert rows == [("1", "mistake"), ("5", "fine")], done.stdout
    assert "play 2S" in done.stdout.splitlines()[row_line(done.stdout, "1")]
    # The loss is in the game's unit, with the thresholds it was judged by.
    said = " ".join(done.stdout.split())
    assert "in expected tricks this hand; inaccuracy from 0.3, mistake from 0.75" in said
    saved = Review.from_dict(json.loads(out.read_text(encoding="utf-8")))
    assert [d.index for d in saved.decisions] == [1, 5]  # the JSON keeps the game's order
    assert saved.worst(1)[0].best == "play 2S"
    assert chart.read_bytes()[:8] == PNG_SIGNATURE


def row_line(output: str, index: str) -> int:
    """The line number of the table row of the decision at ``index``."""
    lines = output.splitlines()
    return next(i for i, line in enumerate(lines) if re.match(rf"^│\s+{index}\s+│", line))


def test_worst_first_in_a_whole_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(played_game("knockout-whist", 3, seed=11).to_json(), encoding="utf-8")
    out = tmp_path / "r.json"
    done = run_cli("review", str(path), "--seat", "2", "--level", FAST, "--json", str(out))
    assert done.returncode == 0, done.stderr
    saved = Review.from_dict(json.loads(out.read_text(encoding="utf-8")))
    listed = [int(index) for index, _ in ROW.findall(done.stdout)]
    assert listed == [d.index for d in saved.worst()]
    top = run_cli("review", str(path), "--seat", "2", "--level", FAST, "--top", "3")
    assert [int(i) for i, _ in ROW.findall(top.stdout)] == listed[:3]


def test_without_matplotlib_the_review_is_printed_and_the_chart_explained(
    blunder: Path, tmp_path: Path
) -> None:
    hidden = tmp_path / "no-matplotlib"
    hidden.mkdir()
    (hidden / "matplotlib.py").write_text("raise ImportError('matplotlib is not installed')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hidden), *sys.path])}
    chart = tmp_path / "r.png"
    done = subprocess.run(
        [sys.executable, "-m", "cardtable.cli", "review", str(blunder), "--seat", "0",
         "--level", FAST, "--chart", str(chart)],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "the chart needs matplotlib: pip install 'cardtable[arena]'" in done.stdout
    assert ROW.findall(done.stdout)[0] == ("1", "mistake")
    assert not chart.exists()


def test_bad_input_is_one_line_on_stderr(blunder: Path, tmp_path: Path) -> None:
    record = stacked_blunder()
    unfinished = tmp_path / "unfinished.json"
    data = record.to_dict() | {"actions": record.actions[:3]}
    unfinished.write_text(json.dumps(data), encoding="utf-8")
    cut = tmp_path / "cut.json"
    cut.write_text(record.to_json()[:40], encoding="utf-8")
    cases = [
        ((str(tmp_path / "missing.json"), "--seat", "0"), 1, "cannot read"),
        ((str(cut), "--seat", "0"), 1, "is not a record: record is not valid JSON"),
        ((str(blunder), "--seat", "5"), 2, "seat 5 is not at this game: seats are 0-1"),
        ((str(unfinished), "--seat", "0"), 2, "the game is not over after its 3 actions"),
        ((str(blunder), "--seat", "0", "--level", "easy"), 2, "a review's level is expert, quick"),
        ((str(blunder), "--seat", "0", "--level", "nobody"), 2, "; not 'nobody'"),
        # A bot's spec judged version 1's reviews; the analysis's budget judges now.
        ((str(blunder), "--seat", "0", "--level", "pimc:deals=8"), 2, "; not 'pimc:deals=8'"),
        ((str(blunder), "--seat", "0", "--level", "analysis:deals=0"), 2, "deals must be above 0"),
    ]
    for args, status, words in cases:
        level = () if "--level" in args else ("--level", FAST)
        done = run_cli("review", *args, *level)
        assert done.returncode == status, (args, done.stdout, done.stderr)
        assert done.stderr.count("\n") == 1 and words in done.stderr, (args, done.stderr)
        assert done.stderr.startswith("cardtable: ")


def test_a_fault_shows_what_the_hint_said_and_a_hinted_fault_is_noted(blunder: Path) -> None:
    """The table's hint column names the hint's move for a decision at fault (none for the
    others); a fault the hint had suggested is marked and explained under the table."""
    from dataclasses import replace

    from rich.console import Console

    from cardtable.cli.review import _review_table, hint_note
    from cardtable.core import Record
    from cardtable.review import review

    done = review(Record.from_json(blunder.read_text(encoding="utf-8")), 0, level=FAST)
    fault = done.worst(1)[0]
    assert fault.verdict == "mistake" and fault.hint == "play 2S" and not fault.hint_agrees
    hinted = replace(fault, hint=fault.chosen, hint_agrees=True)
    console = Console(width=160, record=True)
    console.print(_review_table([fault, hinted, *done.worst()[1:]]))
    rows = [line for line in console.export_text().splitlines() if line.startswith("│")]
    assert "play 2S" in rows[0] and "(as played)" not in rows[0]
    assert f"{fault.chosen} (as played)" in rows[1]
    assert all("play" not in line.split("│")[6] for line in rows[2:])
    assert hint_note([fault]) is None
    note = hint_note([fault, hinted])
    assert note is not None and "suggested 1 of these moves" in note and "finds it worse" in note
    assert "finds them worse" in (hint_note([hinted, hinted]) or "")
