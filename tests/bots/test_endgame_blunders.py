"""``benchmarks/endgame_blunders.py``: Kryt'-navalivat' endgame decisions of an arena table
judged by the exact solver (KRYT-9, KRYT-10: with the stock empty two players know every
card). ``expert`` never misses a proven win nor chooses a proven loss where its solve ends
(``pimc.endgame_choice``); a random player does both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable.arena import ArenaConfig, run_tournament
from scripts_loader import load_script

blunders = load_script("benchmarks/endgame_blunders.py")

EXPERT = "pimc:deals=1,seconds=0.9,iterations=300"


def test_the_expert_plays_no_proven_blunder_and_a_random_player_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = ArenaConfig("kryt-navalivat", (EXPERT, "random"), games=8, seed=5,
                         options={"players": 2})  # fmt: skip
    run_tournament(config, out=tmp_path / "t")
    assert blunders.main([str(tmp_path / "t"), "--json", str(tmp_path / "counts.json")]) == 0
    counts = json.loads((tmp_path / "counts.json").read_text())
    assert counts["games"] == 8
    expert, random_player = counts["bots"][EXPERT], counts["bots"]["random"]
    assert expert["games"] == random_player["games"] == 8
    assert expert["decisions"] > expert.get("unsolved", 0)  # some were judged
    assert expert.get("missed_win", 0) == expert.get("proven_loss", 0) == 0
    assert random_player.get("missed_win", 0) + random_player.get("proven_loss", 0) > 0
    # Losses counted from the table's own results, the blunders' games among them.
    lines = [
        json.loads(text)
        for text in (tmp_path / "t" / "games.jsonl").read_text().split("\n")
        if text
    ]
    for bot, tally in ((EXPERT, expert), ("random", random_player)):
        lost = sum(line["returns"][line["seats"].index(bot)] < 0 for line in lines)
        assert tally.get("lost", 0) == lost
        assert tally.get("lost_with_one", 0) <= min(lost, tally.get("games_with_one", 0))
    assert random_player["lost"] > 0 and random_player["lost_with_one"] > 0
    shown = capsys.readouterr().out
    assert f"| `{EXPERT}` | 8 | {expert['decisions']} |" in shown
