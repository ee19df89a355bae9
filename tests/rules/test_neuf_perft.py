"""Perft counts for Neuf (STYLE.md, DESIGN.md "Testing").

``perft(state, d)`` is the number of action sequences of exactly ``d`` actions from
``state``; deals happen inside actions and are not counted. The counts live in
``tests/fixtures/perft_neuf.json``, written by ``scripts/regenerate_perft.py``; a
change in the generation of legal actions (the exchange NEUF-3, follow-suit NEUF-4.2, the
leader NEUF-4.1 and NEUF-4.4, the end of the game NEUF-6 and NEUF-8.3) changes a number
here. The small depths are also derived by hand below, so the fixture is not merely the
engine's own output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardtable.core import State
from cardtable.testing import checked_perft, perft, perft_start

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "perft_neuf.json"
ENTRIES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["positions"]
BY_NAME = {entry["name"]: entry for entry in ENTRIES}


def start(entry: dict[str, Any]) -> State:
    return perft_start("neuf", entry)


def stored(name: str, depth: int) -> list[int]:
    counts = BY_NAME[name]["counts"]
    return [counts[str(d)] for d in range(1, depth + 1)]


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["name"] for entry in ENTRIES])
def test_neuf_perft_counts_match_the_fixture(entry: dict[str, Any]) -> None:
    """Every stored count, recomputed (NEUF-3, NEUF-4, NEUF-10 move generation)."""
    counts = perft(start(entry), len(entry["counts"]))
    assert {str(d): n for d, n in enumerate(counts, 1)} == entry["counts"]


def test_neuf_perft_fixture_covers_exchange_play_game_end_and_four_players() -> None:
    """The fixture starts before an exchange, mid-play with and without the house rule
    (both reaching the end of the game), and in the partnership game."""
    assert {entry["options"]["players"] for entry in ENTRIES} == {3, 4}
    assert start(BY_NAME["three-players-exchange-neuf-ex-5"]).view(None)["phase"] == "exchange"
    for name in (
        "three-players-trick-10-neuf-ex-4",
        "three-players-trick-10-neuf-ex-4-tie-avoidance",
    ):
        counts = BY_NAME[name]["counts"]
        assert counts[str(len(counts))] == 0  # every line has ended the game by then


def test_neuf_perft_exchange_small_depths_by_hand() -> None:
    """NEUF-EX-5's deal, dealer C: A holds the hearts (trumps), B 5 clubs, 4 diamonds,
    4 spades, and the spare 4 clubs, 4 diamonds, 5 spades; nobody but A holds a heart.

    - depths 1-3: one exchange-or-keep decision each for A, B, C (NEUF-3.1): 2, 4, 8.
    - depth 4: A leads (NEUF-4.1) from 13 cards, whatever was exchanged: 8 * 13 = 104.
    - depth 5: B's replies. If B ends with no heart to follow, B may play any of 13.
      That is so unless A exchanged (A leads from the old spare) and B kept (B holds its
      dealt hand): then B follows 4C 7C 10C KC with 5 clubs, 3D 6D 9D QD with 4 diamonds
      and the 5 spades with 4 spades: 4 * 5 + 4 * 4 + 5 * 4 = 56. C's choice doubles both
      kinds of line: 6 lines * 169 + 2 * 56 = 1014 + 112 = 1126.
    """
    expected = [2, 4, 8, 104, 1126]
    assert perft(start(BY_NAME["three-players-exchange-neuf-ex-5"]), 5) == expected
    assert stored("three-players-exchange-neuf-ex-5", 5) == expected


def test_neuf_perft_ex_4_trick_10_by_hand() -> None:
    """NEUF-EX-4 at trick 10, trump S: C leads from AS 2D 3D 4D; A (4C 5C 2H 3H) has no
    spades or diamonds; B (2S 3S 2C 3C) has spades but no diamonds.

    - depth 1: C's 4 cards; depth 2: A may play any of 4: 16.
    - depth 3: after AS B must follow with 2S or 3S; after a diamond B may play any of 4:
      4 * 2 + 3 * 4 * 4 = 56.
    - depth 4, house rule off: the trick winner leads from 3 cards: 56 * 3 = 168.
    - depth 4, house rule on: A holds no trump and no diamond, so B or C takes trick 10,
      that player's fifth trick, and wins at once (NEUF-8.3): no line goes on, 0.
    - the end: A cannot take all four tricks, so B or C reaches 0 and the game ends
      within the deal (NEUF-6.1): nothing at depth 13.
    """
    off = "three-players-trick-10-neuf-ex-4"
    on = "three-players-trick-10-neuf-ex-4-tie-avoidance"
    view = start(BY_NAME[off]).view(None)
    assert (view["scores"], view["tricks_won"], view["trump"]) == ([3, 1, 1], [1, 4, 4], "S")
    assert perft(start(BY_NAME[off]), 4) == [4, 16, 56, 168]
    assert stored(off, 4) == [4, 16, 56, 168]
    assert perft(start(BY_NAME[on]), 4) == [4, 16, 56, 0]
    assert stored(on, 4) == [4, 16, 56, 0]
    assert stored(off, 13)[-1] == 0


def test_neuf_perft_four_players_by_hand() -> None:
    """The partnership deal, dealer seat 3: cards go one at a time to seats 0, 1, 2, 3
    (NEUF-8.4), and seat 0 leads. Suit counts (C, D, H, S): seat 0 4/4/2/3, seat 1
    2/2/6/3, seat 2 4/2/4/3, seat 3 3/5/1/4; every seat holds every suit, so each must
    follow.

    - depth 1: 13; depth 2: 4 * 2 + 4 * 2 + 2 * 6 + 3 * 3 = 37.
    - depth 3: 4 * 2 * 4 + 4 * 2 * 2 + 2 * 6 * 4 + 3 * 3 * 3 = 123.
    - depth 4: 32 * 3 + 16 * 5 + 48 * 1 + 27 * 4 = 332.
    - depth 5: the trick's winner leads from 12 cards: 332 * 12 = 3984.
    """
    entry = BY_NAME["four-players-deal-1"]
    state = start(entry)
    suits = [[sum(c.endswith(s) for c in state.view(p)["hand"]) for s in "CDHS"] for p in range(4)]
    assert suits == [[4, 4, 2, 3], [2, 2, 6, 3], [4, 2, 4, 3], [3, 5, 1, 4]]
    assert state.view(None)["phase"] == "play"
    expected = [13, 37, 123, 332, 3984]
    assert perft(state, 5) == expected
    assert stored("four-players-deal-1", 5) == expected


@pytest.mark.parametrize(
    ("name", "depth"),
    [
        ("three-players-exchange-neuf-ex-5", 5),
        ("three-players-trick-10-neuf-ex-4", 7),
        ("three-players-trick-10-neuf-ex-4-tie-avoidance", 4),
        ("four-players-deal-1", 4),
    ],
)
def test_neuf_perft_checked_path_agrees(name: str, depth: int) -> None:
    """The checked ``legal_actions()``/``apply()`` path counts what the unchecked one does
    (§0.4 (2): the listed actions are exactly those ``apply`` accepts)."""
    assert checked_perft(start(BY_NAME[name]), depth) == BY_NAME[name]["counts"][str(depth)]
