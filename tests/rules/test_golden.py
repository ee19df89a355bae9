"""Golden transcripts (DESIGN.md, Testing): seeded games with every seat's view, diffed.

A failure here means the rules or the views changed. If that was meant, run
``scripts/regenerate_golden.py`` and commit the new transcripts with the change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scripts_loader import load_script

ROOT = Path(__file__).resolve().parents[2]


golden = load_script("scripts/regenerate_golden.py")


def _first_difference(want: str, got: str) -> str:
    before, after = json.loads(want), json.loads(got)
    if before.get("action") != after.get("action"):
        return f"action {before.get('action')!r} became {after.get('action')!r}"
    for seat, view in before.get("views", {}).items():
        new = after["views"].get(seat, {})
        changed = sorted(k for k in set(view) | set(new) if view.get(k) != new.get(k))
        if changed:
            return f"view of {seat}: keys {changed} changed"
    return "lines differ"


@pytest.mark.parametrize("entry", golden.TRANSCRIPTS, ids=lambda e: e[0])
def test_golden_transcript_is_unchanged(entry: tuple[str, str, dict[str, object], int]) -> None:
    """KOW-9 / KOW-10, NEUF-9 / NEUF-10 and KRYT-9 / KRYT-10 through a whole game: every
    view at every step as recorded."""
    name, game_name, options, seed = entry
    want = (ROOT / "tests" / "golden" / name).read_text(encoding="utf-8").splitlines()
    got = list(golden.transcript(game_name, options, seed))
    for step, (old, new) in enumerate(zip(want, got, strict=False)):
        assert old == new, f"{name}, line {step}: {_first_difference(old, new)}"
    assert len(want) == len(got), f"{name}: {len(want)} lines recorded, {len(got)} now"


def test_golden_transcripts_cover_dogs_knocks_and_cuts() -> None:
    """The recorded games are worth diffing: between them they reach the dog's life
    (KOW-6), a knock (KOW-6.3), a tie-break cut (KOW-5.3) and the end of a game."""
    text = "".join(
        (ROOT / "tests" / "golden" / name).read_text(encoding="utf-8")
        for name, *_ in golden.TRANSCRIPTS
    )
    assert '"action":"knock"' in text
    assert '"dog"' in text
    assert '"cuts":[[' in text
    assert text.count('"action":null') == len(golden.TRANSCRIPTS)


def test_kryt_navalivat_golden_transcripts_reach_swap_free_turn_draw_and_both_trump_modes() -> None:
    """KRYT-6 (the six of trumps swapped), KRYT-4.3 (a free turn), KRYT-7.3 (a drawn hand)
    and KRYT-8 (permanent trumps, spades anti-trumps) are all in the recorded games, and
    each game ends (KRYT-7.2) with the stock empty and at most one seat holding cards."""
    kryt_navalivat = [e for e in golden.TRANSCRIPTS if e[1] == "kryt-navalivat"]
    assert {e[2].get("trump_mode", "turned") for e in kryt_navalivat} == {"turned", "permanent"}
    lines = [
        json.loads(line)
        for name, *_ in kryt_navalivat
        for line in (ROOT / "tests" / "golden" / name).read_text(encoding="utf-8").splitlines()[1:]
    ]
    spectators = [line["views"]["spectator"] for line in lines]
    assert any(line["action"] == "swap" for line in lines)
    assert any(view["phase"] == "free" for view in spectators)
    assert any(view["anti_trump"] == "S" and view["trump"] == "D" for view in spectators)
    ends = [line["views"]["spectator"] for line in lines if line["action"] is None]
    assert len(ends) == len(kryt_navalivat)
    assert any(view["draw"] and view["loser"] is None for view in ends)
    for view in ends:
        assert view["phase"] == "over" and view["stock"] == 0
        assert sum(1 for size in view["hand_sizes"] if size) == 1
