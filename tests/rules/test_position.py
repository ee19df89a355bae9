"""The position notation: one line holding a whole Knockout Whist state.

SPEC §0.4 (1): tests must be able to build a mid-game state directly. DESIGN.md: the
position round-trips; `game.state_from_position(text)` rebuilds what `state.position()`
wrote, so tests, bug reports and puzzles can start mid-game.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable import DECK_52, InvalidPositionError, State

# KOW-EX-3 after trick 1 (P1 won it with JC, his only card) and P2's knock on the lead
# (KOW-6.4, KOW-6.5): P3 (seat 2) is to lead trick 2.
EX3_DEALT = "AH JH JC 2D 6H 3S 4S AS 5S 6S KS KH 4H 3H AC 7D 5C"
EX3_STOCK = ",".join(str(c) for c in DECK_52 if str(c) not in EX3_DEALT.split())
EX3_TRICK_2 = (
    "kow/1 players=5 hand=3 dealer=2 phase=play trump=C turned=- dog=used status=DDAAA out=- "
    "won=1,0,0,0,0 cuts=- chooser=3 hands=-/2D/5C,3H,KS,AS/AC,KH,3S,5S/7D,4H,4S,6S "
    f"stock={EX3_STOCK} done=3:AH,4:JH,0:JC,1:x,2:6H trick=1:x seed=17 chance=3,0"
)


def views(state: State) -> list[str]:
    seats = [None, *range(state.game.num_players)]
    return [json.dumps(state.view(s), sort_keys=True) for s in seats]


def assert_round_trip(state: State) -> State:
    """The position read back is the same state: text, legal actions and every view."""
    text = state.position()
    again = state.game.state_from_position(text)
    assert again.position() == text
    assert again.to_move == state.to_move
    assert again.legal_action_ids() == state.legal_action_ids()
    assert again.is_over == state.is_over
    assert again.result == state.result
    assert views(again) == views(state)
    return again


@pytest.mark.parametrize("players", range(2, 8))
def test_position_round_trips_at_random_points_of_random_games(players: int) -> None:
    """SPEC §0.4 (1) / DESIGN.md: every state along random games, for every player count,
    survives position -> state."""
    rng = random.Random(players * 7919)
    game = cardtable.make("knockout-whist", players=players)
    for _ in range(4):
        state = game.new_state(seed=rng.getrandbits(40))
        while not state.is_over:
            assert_round_trip(state)
            for _ in range(rng.randint(1, 6)):
                if state.is_over:
                    break
                state.apply(rng.choice(state.legal_actions()))
        assert_round_trip(state)


@pytest.mark.parametrize("players", range(2, 8))
def test_a_state_read_from_its_position_plays_on_identically(players: int) -> None:
    """SPEC §0.3 / DESIGN.md: the position fixes the future too (seed and chance counters):
    the same actions from the original and the read-back state give the same positions,
    deals included."""
    rng = random.Random(players)
    game = cardtable.make("knockout-whist", players=players)
    state = game.new_state(seed=players * 31)
    # Stay inside hand 1 (at least 14 actions for any player count), so a deal is ahead.
    for _ in range(rng.randint(0, 12)):
        state.apply(rng.choice(state.legal_actions()))
    copy = game.state_from_position(state.position())
    hands_seen = {state.view(None)["hand_number"]}
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        copy.apply(action)
        assert copy.position() == state.position()
        assert views(copy) == views(state)
        hands_seen.add(state.view(None)["hand_number"])
    assert len(hands_seen) > 1, "the continuation crossed a deal"


def test_position_keeps_decks_stacked_for_later_hands() -> None:
    """SPEC §0.3: stacked decks are dealt in order; a position written before hand 2 still
    deals hand 2's stacked deck when read back."""
    pack = [str(c) for c in DECK_52]
    game = cardtable.make("knockout-whist", players=2, dealer=0)
    state = game.new_state(seed=1, decks=[pack[::-1], pack])
    assert "stacked=" + ",".join(pack) in state.position()
    copy = game.state_from_position(state.position())
    while state.view(None)["hand_number"] == 1:
        action = state.legal_actions()[0]
        state.apply(action)
        copy.apply(action)
    assert copy.position() == state.position()
    assert state.record().decks[1] == pack


def test_hand_written_position_gives_the_expected_state() -> None:
    """KOW-EX-3, trick 2: P1's trick won with JC is on the board, P2 (a dog) has knocked on
    the lead, so P3 must lead; P2 gets no second turn in the trick (W-4)."""
    game = cardtable.make("knockout-whist", players=5)
    state = game.state_from_position(EX3_TRICK_2)
    assert state.position() == EX3_TRICK_2
    # Cards may be listed in any order and spelt any way; the position is written canonically.
    scrambled = EX3_TRICK_2.replace("AC,KH,3S,5S", "5s,3S,K♥,AC")
    assert game.state_from_position(scrambled).position() == EX3_TRICK_2
    assert state.to_move == 2
    assert [str(a) for a in state.legal_actions()] == [
        "play 5C",
        "play 3H",
        "play KS",
        "play AS",
    ]
    view = state.view(None)
    assert view["hand_number"] == 3 and view["hand_size"] == 5
    assert view["dealer"] == 2 and view["chooser"] == 3
    assert view["trump"] == "C" and view["turned"] is None
    assert view["statuses"] == ["dog", "dog", "active", "active", "active"]
    assert view["dog_used"] is True
    assert view["hand_sizes"] == [0, 1, 4, 4, 4]
    assert view["tricks_won"] == [1, 0, 0, 0, 0]
    assert view["trick"] == [[1, "knock"]]
    assert view["tricks"] == [
        {"plays": [[3, "AH"], [4, "JH"], [0, "JC"], [1, "knock"], [2, "6H"]], "winner": 0}
    ]
    assert "hand" not in view
    assert state.view(1)["hand"] == ["2D"]
    assert state.view(2)["hand"] == ["5C", "3H", "KS", "AS"]
    # EX-3 trick 2: P3 AS, P4 3S, P5 4S; P2 already knocked, so the trick is complete.
    for text in ["play AS", "play 3S", "play 4S"]:
        state.apply(text)
    after = state.view(None)
    assert after["tricks_won"] == [1, 0, 1, 0, 0]
    assert after["trick"] == []
    assert state.to_move == 2
    assert state.view(1)["hand"] == ["2D"]


def test_every_prefix_of_a_position_is_rejected() -> None:
    """errors.py: a position cut short anywhere is an InvalidPositionError, never another error."""
    game = cardtable.make("knockout-whist", players=5)
    for end in range(len(EX3_TRICK_2)):
        with pytest.raises(InvalidPositionError):
            game.state_from_position(EX3_TRICK_2[:end])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_damaged_position_text_is_rejected_or_read_consistently(data: st.DataObject) -> None:
    """Fuzz: with a character deleted or replaced, a position either raises
    InvalidPositionError or reads as a state that writes itself back unchanged."""
    game = cardtable.make("knockout-whist", players=5)
    where = data.draw(st.integers(min_value=0, max_value=len(EX3_TRICK_2) - 1))
    replacement = data.draw(st.sampled_from(["", "0", "9", "-", ",", "/", "=", " ", "x", "²"]))
    text = EX3_TRICK_2[:where] + replacement + EX3_TRICK_2[where + 1 :]
    try:
        state = game.state_from_position(text)
    except InvalidPositionError:
        return
    assert game.state_from_position(state.position()).position() == state.position()
