"""Smoke test for ``benchmarks/side_by_side.py``: two tiny games, no strength asserted.

It checks that both searches play a whole game through the OpenSpiel adapter, that the
games of a deal share their cards, and how the deals argument is read.
"""

from __future__ import annotations

import pytest

from scripts_loader import load_script

pytest.importorskip("pyspiel")


side = load_script("benchmarks/side_by_side.py")


def test_both_searches_play_a_whole_game_and_time_their_decisions() -> None:
    clock = side.Clock()
    lineup = ["openspiel", "cardtable", "cardtable"]
    returns = side.play_game("knockout-whist", 5, lineup, 0.005, 2, clock)
    assert sorted(returns) == [-0.5, -0.5, 1.0]
    assert clock.times["openspiel"] and clock.times["cardtable"]
    assert all(t > 0 for t in clock.times["openspiel"] + clock.times["cardtable"])


def test_the_games_of_a_deal_share_their_first_deck() -> None:
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

    firsts = []
    for _ in range(2):
        state = pyspiel.load_game(side.GAMES["neuf"]).new_initial_state()
        draws: dict[str, object] = {}
        while state.is_chance_node():
            state.apply_action(side._chance(state, 17, draws))
        firsts.append(state.engine.record().decks[0])
    other = pyspiel.load_game(side.GAMES["neuf"]).new_initial_state()
    draws = {}
    while other.is_chance_node():
        other.apply_action(side._chance(other, 18, draws))
    assert firsts[0] == firsts[1] != other.engine.record().decks[0]


def test_deals_argument_reads_one_number_or_one_per_game() -> None:
    names = ["knockout-whist", "neuf"]
    assert side._deals("3", names) == {"knockout-whist": 3, "neuf": 3}
    assert side._deals("knockout-whist=4,neuf=1", names) == {"knockout-whist": 4, "neuf": 1}
    assert side._deals("0", names) is None
    assert side._deals("neuf=2", names) is None
    assert side._deals("many", names) is None
