"""The Neuf score sheet on its own (EXAMPLES.md NEUF-EX-1, 2, 3 and 7; NEUF-5, NEUF-6,
NEUF-8.4): trick counts in, rows, scores and winners out.

Seats A, B, C are 0, 1, 2; in the four-player game team 0 is seats 0 and 2, team 1 seats
1 and 3. Every expected score below is worked out from NEUF-5.2 (``score -= t - quota``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.errors import InvalidScoreError
from cardtable.rules.neuf.ledger import Ledger

A, B, C = 0, 1, 2


def test_neuf_ex_1_score_sheet_total_falls_by_one_per_deal() -> None:
    """NEUF-EX-1 (NEUF-5.4, NEUF-5.5, NEUF-2.1, NEUF-2.2): first dealer C, default
    sequence; each row's trump, dealer, scores and total."""
    sheet = Ledger(players=3, first_dealer=C)
    assert sheet.scores == (9, 9, 9)
    assert sum(sheet.scores) == 27
    expected = [
        ((5, 4, 4), "H", C, (8, 9, 9), 26),
        ((3, 6, 4), "D", A, (9, 7, 9), 25),
        ((4, 4, 5), "C", B, (9, 7, 8), 24),
        ((2, 7, 4), "S", C, (11, 4, 8), 23),
        ((4, 3, 6), "NT", A, (11, 5, 6), 22),
    ]
    for deal, (tricks, trump, dealer, scores, total) in enumerate(expected, 1):
        row = sheet.record(tricks)
        assert (row.deal, row.trump, row.dealer, row.tricks) == (deal, trump, dealer, tricks)
        assert (row.scores, row.total) == (scores, total)
        assert sheet.winners == ()
        assert not sheet.is_over
    # Deal 6 wraps round the cycle to hearts again, dealt by B; its total is 21.
    assert (sheet.deal, sheet.trump, sheet.dealer) == (6, "H", B)
    assert sheet.record([4, 4, 5]).total == 21
    assert [row.total for row in sheet.rows] == [26, 25, 24, 23, 22, 21]


@pytest.mark.parametrize(
    "tricks",
    [[5, 4, 3], [5, 5, 4], [13, 0, 1], [0, 0, 0], [4, 4], [4, 4, 4, 1, 0], [14, -1, 0]],
)
def test_neuf_ex_1_counts_not_adding_to_13_are_refused(tricks: list[int]) -> None:
    """NEUF-EX-1's guard (NEUF-4.4: a hand has exactly 13 tricks): the sheet refuses other
    counts, and a refused row leaves the sheet as it was."""
    sheet = Ledger(players=3, first_dealer=0)
    sheet.record([5, 4, 4])
    with pytest.raises(InvalidScoreError):
        sheet.record(tricks)
    assert len(sheet.rows) == 1
    assert sheet.scores == (8, 9, 9)


def test_neuf_8_4_four_player_counts_not_adding_to_13_are_refused() -> None:
    """NEUF-8.4 with NEUF-4.4: the partnership sheet also refuses counts other than 13."""
    sheet = Ledger(players=4, first_dealer=0)
    for tricks in ([7, 7], [3, 3, 3, 3], [6, 6]):
        with pytest.raises(InvalidScoreError):
            sheet.record(tricks)
    assert sheet.rows == []


def test_neuf_ex_2_the_game_lasts_at_most_25_deals() -> None:
    """NEUF-EX-2 (NEUF-6.5): rotating 5/4/4 splits reach 1/1/1 after 24 deals; deal 25
    (NT) leaves A at 0 and A wins; no 26th deal can be scored."""
    sheet = Ledger(players=3, first_dealer=0)
    for deal in range(1, 25):
        tricks = [4, 4, 4]
        tricks[(deal - 1) % 3] = 5
        row = sheet.record(tricks)
        assert row.total == 27 - deal
        assert not sheet.is_over, f"nobody may win before deal 25 (deal {deal})"
    assert sheet.scores == (1, 1, 1)
    assert sheet.rows[-1].trump == "S"
    row = sheet.record([5, 4, 4])
    assert (row.deal, row.trump, row.scores, row.total) == (25, "NT", (0, 1, 1), 2)
    assert sheet.winners == (A,)
    assert sheet.is_over
    with pytest.raises(InvalidScoreError):
        sheet.record([4, 4, 5])
    assert len(sheet.rows) == 25


@pytest.mark.parametrize(
    ("tricks", "final", "winners"),
    [
        ((3, 5, 5), (4, 0, 0), (B, C)),
        ((2, 6, 5), (5, -1, 0), (B,)),
        ((3, 4, 6), (4, 1, -1), (C,)),
    ],
    ids=["shared-win", "b-further-below-zero", "c-alone-at-zero-or-below"],
)
def test_neuf_ex_3_two_players_reach_zero_in_the_same_deal(
    tricks: tuple[int, int, int], final: tuple[int, int, int], winners: tuple[int, ...]
) -> None:
    """NEUF-EX-3 (NEUF-6.2, NEUF-6.3, decision N-6): from A 3, B 1, C 1 (total 5) one deal
    takes the total to 4; the lower of two crossing scores wins, equal scores share."""
    sheet = start_of_deal_3_1_1()
    assert sheet.scores == (3, 1, 1)
    row = sheet.record(tricks)
    assert row.scores == final
    assert row.total == 4
    assert sheet.winners == winners
    assert sheet.is_over


def start_of_deal_3_1_1() -> Ledger:
    """A sheet at A 3, B 1, C 1 after 22 deals: A takes 5 tricks six times, B and C
    eight times each, spread out so that nobody reaches 0 on the way."""
    sheet = Ledger(players=3, first_dealer=0)
    takers = [A, B, C] * 6 + [B, C, B, C]
    for seat in takers:
        tricks = [4, 4, 4]
        tricks[seat] = 5
        sheet.record(tricks)
        assert not sheet.is_over
    return sheet


def test_neuf_ex_7_four_player_partnership_17_deals() -> None:
    """NEUF-EX-7 (NEUF-8.4, decision N-8): team 0 (seats 0 and 2) takes 7 tricks in deals
    1-8, team 1 in deals 9-16: 1/1 after 16 deals; deal 17 gives team 0 the win at 0/1."""
    sheet = Ledger(players=4, first_dealer=0)
    assert sheet.scores == (9, 9)
    for deal in range(1, 17):
        # Tricks per seat; the sheet adds partners' tricks (seats 0+2, 1+3).
        tricks = [4, 3, 3, 3] if deal <= 8 else [3, 4, 3, 3]
        row = sheet.record(tricks)
        assert row.tricks == ((7, 6) if deal <= 8 else (6, 7))
        assert row.total == 18 - deal
        assert row.dealer == (deal - 1) % 4
        assert not sheet.is_over
    assert sheet.scores == (1, 1)
    row = sheet.record([7, 6])
    assert (row.deal, row.scores, row.total) == (17, (0, 1), 1)
    assert sheet.winners == (0,)
    with pytest.raises(InvalidScoreError):
        sheet.record([6, 7])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_neuf_ex_2_random_splits_until_someone_wins(data: st.DataObject) -> None:
    """NEUF-EX-2's property test (NEUF-5.4, NEUF-6.4, NEUF-6.5; NEUF-11 (7), (8)): random
    13-trick splits until the game ends. After deal n the total is 27 - n, at most 2 win,
    and n <= 25; a winner exists exactly when some score is <= 0."""
    sheet = Ledger(players=3, first_dealer=data.draw(st.integers(0, 2)))
    while not sheet.is_over:
        a = data.draw(st.integers(0, 13))
        b = data.draw(st.integers(0, 13 - a))
        before = sheet.scores
        row = sheet.record([a, b, 13 - a - b])
        n = row.deal
        assert sum(sheet.scores) == 27 - n
        assert sheet.scores == (before[0] - (a - 4), before[1] - (b - 4), before[2] - (9 - a - b))
        assert len(sheet.winners) <= 2
        assert sheet.is_over == any(score <= 0 for score in sheet.scores)
        assert n <= 25
    assert all(sheet.scores[w] == min(sheet.scores) <= 0 for w in sheet.winners)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_neuf_ex_7_random_splits_until_a_team_wins(data: st.DataObject) -> None:
    """NEUF-EX-7's property test (NEUF-8.4; NEUF-11 (7), (8)): random per-seat splits of 13
    tricks; after deal n the team total is 18 - n, and the game ends with exactly one
    winning team within 17 deals."""
    sheet = Ledger(players=4, first_dealer=data.draw(st.integers(0, 3)))
    while not sheet.is_over:
        left = 13
        tricks = []
        for _ in range(3):
            t = data.draw(st.integers(0, left))
            tricks.append(t)
            left -= t
        row = sheet.record([*tricks, left])
        n = row.deal
        assert sum(sheet.scores) == 18 - n
        assert row.tricks == (tricks[0] + tricks[2], tricks[1] + left)
        assert n <= 17
        assert len(sheet.winners) <= 1
    assert len(sheet.winners) == 1
