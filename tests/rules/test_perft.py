"""Perft counts for Knockout Whist (STYLE.md, DESIGN.md "Testing").

``perft(state, d)`` is the number of action sequences of exactly ``d`` actions from
``state``; chance steps happen inside actions and are not counted. The counts live in
``tests/fixtures/perft_knockout_whist.json``, written by ``scripts/regenerate_perft.py``;
a change in the generation of legal actions (follow-suit KOW-4.2, knocks KOW-6.3/W-3,
leads KOW-4.1/KOW-6.4, trump choices KOW-3.2, the order of play) changes a number here.
The small depths are also derived by hand below, so the fixture is not merely the
engine's own output.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cardtable.core import State
from cardtable.testing import checked_perft, perft, perft_start

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "perft_knockout_whist.json"
ENTRIES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["positions"]
BY_NAME = {entry["name"]: entry for entry in ENTRIES}
KNOCK = "knock"


def start(entry: dict[str, Any]) -> State:
    return perft_start("knockout-whist", entry)


def last_actions(state: State, depth: int) -> Counter[str]:
    """How many sequences of exactly ``depth`` actions end with each action."""
    if depth == 1:
        return Counter(str(action) for action in state.legal_actions())
    out: Counter[str] = Counter()
    for number in state.legal_action_ids():
        child = state.copy()
        child.apply_id(number)
        out += last_actions(child, depth - 1)
    return out


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["name"] for entry in ENTRIES])
def test_perft_counts_match_the_fixture(entry: dict[str, Any]) -> None:
    """Every stored count, recomputed (KOW-4, KOW-6, KOW-10 move generation)."""
    counts = perft(start(entry), len(entry["counts"]))
    assert {str(d): n for d, n in enumerate(counts, 1)} == entry["counts"]


def test_perft_fixture_covers_dogs_deals_and_the_game_end() -> None:
    """The fixture holds a hand-1 deal for 3 and 5 players, a position with dogs (knocks,
    KOW-6.3) and one played to the end of the game (KOW-5.2), so that every kind of action
    and the automatic steps between hands are counted."""
    assert {entry["options"]["players"] for entry in ENTRIES} >= {3, 5}
    with_dogs = start(BY_NAME["five-players-hand-3-two-dogs-kow-ex-3"])
    assert "status=DDAAA" in with_dogs.position()
    to_the_end = BY_NAME["three-players-hand-6-dog-to-game-end-kow-ex-9"]["counts"]
    assert to_the_end[str(len(to_the_end))] == 0  # every line has ended by then
    assert min(len(entry["counts"]) for entry in ENTRIES) >= 8


def test_perft_three_players_small_depths_by_hand() -> None:
    """Three players, dealer seat 0, clubs trump (4C turned). Seat 1 leads from
    2D 8D AS QC KC JS 3C; seat 2 holds 4H 5H 8H JD 6D KD 7D (no clubs, no spades);
    seat 0 holds 5C 8C 7C 2H QH 9H 7H (no diamonds, no spades).

    - depth 1: the leader's 7 cards (KOW-4.1, KOW-4.2).
    - depth 2: after a diamond lead seat 2 must follow (4 diamonds); after a spade or club
      lead it may play any of 7: 4 + 4 + 7 * 5 = 43.
    - depth 3: seat 0 has 7 choices after a diamond or spade lead and 3 after a club lead:
      2 * (4 * 7) + 2 * (7 * 7) + 3 * (7 * 3) = 217.
    """
    entry = BY_NAME["three-players-hand-1"]
    assert perft(start(entry), 3) == [7, 43, 217]
    assert [entry["counts"][d] for d in "123"] == [7, 43, 217]


def test_perft_kow_ex_1_deal_small_depths_by_hand() -> None:
    """KOW-EX-1's deal (diamonds trump). P2 leads from 7C 3H 6S 10S QC 6H 3C; P3 holds
    clubs 9C 5C, spades AS KS 2S QS, no hearts; P4 holds clubs 4C 6C 2C, hearts 4H AH,
    spades 3S 7S.

    - depth 1: P2's 7 cards.
    - depth 2: clubs leads (7C QC 3C) 2 each, hearts (3H 6H) 7 each, spades (6S 10S) 4
      each: 6 + 14 + 8 = 28.
    - depth 3: times P4's choices, 3 after clubs, 2 after hearts or spades:
      3 * 2 * 3 + 2 * 7 * 2 + 2 * 4 * 2 = 18 + 28 + 16 = 62.
    """
    entry = BY_NAME["five-players-hand-1-kow-ex-1"]
    assert perft(start(entry), 3) == [7, 28, 62]
    assert [entry["counts"][d] for d in "123"] == [7, 28, 62]


def test_perft_kow_ex_3_dogs_small_depths_by_hand() -> None:
    """KOW-EX-3's hand 3 at P4's trump choice. The trump does not change trick 1's choices.

    - depth 1: 4 suits (KOW-3.2).
    - depth 2: P4 leads any of AH 3S 5S KH AC: 4 * 5 = 20.
    - depth 3: P5 (JH 4S 6S 4H 7D) has 2 hearts, 2 spades and no clubs:
      4 * (2 + 2 + 2 + 2 + 5) = 52.
    - depth 4 and 5: the dogs P1 and P2 each play or knock (KOW-6.3): 104, 208; half of
      the 104 end with P1's knock.
    - depth 6: P3 (6H AS KS 3H 5C) has 2 hearts, 2 spades, 1 club:
      4 * (4 leads * 2 * 4 * 2 + AC * 5 * 4 * 1) = 4 * 84 = 336.
    """
    entry = BY_NAME["five-players-hand-3-two-dogs-kow-ex-3"]
    state = start(entry)
    assert perft(state, 6) == [4, 20, 52, 104, 208, 336]
    assert [entry["counts"][d] for d in "123456"] == [4, 20, 52, 104, 208, 336]
    assert last_actions(state, 4) == Counter({KNOCK: 52, "play JC": 52})
    for trump in "CDHS":
        child = state.copy()
        child.apply(f"trump {trump}")
        assert perft(child, 5)[-1] == 84


def test_perft_kow_ex_9_whole_tree_by_hand() -> None:
    """KOW-EX-9's hand 6 to the end of the game, every count derived by hand.

    X (dog, AD) leads AD or knocks (KOW-6.4); clubs are trumps.

    - A, X knocks: Y leads 2C or 3C, Z must follow with KC and wins; Z leads 4H, X must
      play AD (W-3), Y trumps with his other club and wins. Actions at depths 1-6: 2 lines.
    - B1, X leads AD, Y trumps (2C or 3C), Z overtrumps with KC: Z leads 4H, Y trumps with
      his other club. Depths 1-5, 2 lines.
    - B2, X leads AD, Y trumps, Z throws 4H: Y leads his other club, Z must follow with KC.
      Depths 1-5, 2 lines.

    Every line ends hand 6 with X 0, Y 1, Z 1: X is out, Y and Z tie, X deals hand 7
    (KOW-5.4), Y then Z take AS and KD, cut QC and 2H, and Y names one of 4 trumps, leads AS
    and Z plays KD, which ends the game (KOW-5.2): 3 more actions, the first with 4 choices.

    So depth 1: 2; 2: 4; 3: 2 + 4 = 6; 4 and 5: 2 + 2 + 2 = 6; 6: 2 + 4 * 4 = 18;
    7 and 8: 8 * 3 = 24; 9: the 8 lines of A; 10: none.
    """
    expected = [2, 4, 6, 6, 6, 18, 24, 24, 8, 0]
    entry = BY_NAME["three-players-hand-6-dog-to-game-end-kow-ex-9"]
    assert perft(start(entry), 10) == expected
    assert [entry["counts"][str(d)] for d in range(1, 11)] == expected


@pytest.mark.parametrize(
    ("name", "depth"),
    [
        ("three-players-hand-1", 4),
        ("five-players-hand-1-kow-ex-1", 4),
        ("five-players-hand-3-two-dogs-kow-ex-3", 7),
        ("three-players-hand-6-dog-to-game-end-kow-ex-9", 9),
    ],
)
def test_perft_checked_path_agrees(name: str, depth: int) -> None:
    """The checked ``legal_actions()``/``apply()`` path counts what the unchecked one does
    (§0.4 (2): the listed actions are exactly those ``apply`` accepts)."""
    entry = BY_NAME[name]
    assert checked_perft(start(entry), depth) == entry["counts"][str(depth)]
