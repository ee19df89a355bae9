"""Records: options + every deck + every action, replaying to the identical state.

SPEC §0.4 (3): every applied action, chance included, is recorded, and replaying the log
reproduces the state exactly. DESIGN.md: deals are recorded chance events, so a replay
never depends on a random-number generator; docs/record.md gives the schema.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardtable
from cardtable import DECK_52, Record, State

RECORD_KEYS = {
    "format",
    "version",
    "game",
    "options",
    "seed",
    "start",
    "decks",
    "reshuffles",
    "actions",
}
PACK = sorted(str(c) for c in DECK_52)


def views(state: State) -> list[str]:
    seats = [None, *range(state.game.num_players)]
    return [json.dumps(state.view(s), sort_keys=True) for s in seats]


def play(state: State, rng: random.Random, moves: int) -> list[str]:
    """Apply up to `moves` random legal actions; the texts applied."""
    done = []
    for _ in range(moves):
        if state.is_over:
            break
        action = rng.choice(state.legal_actions())
        state.apply(action)
        done.append(str(action))
    return done


def assert_same(a: State, b: State) -> None:
    assert a.position() == b.position()
    assert views(a) == views(b)
    assert a.legal_action_ids() == b.legal_action_ids()
    assert a.result == b.result


@pytest.mark.parametrize("players", range(2, 8))
def test_record_json_replay_is_the_identical_state_at_many_points(players: int) -> None:
    """SPEC §0.4 (3): record -> JSON -> replay gives the same position and every view."""
    rng = random.Random(players)
    game = cardtable.make("knockout-whist", players=players)
    for seed in range(3):
        state = game.new_state(seed=1000 * players + seed)
        while True:
            text = state.record().to_json()
            again = cardtable.replay(text)
            assert_same(again, state)
            assert again.record().to_json() == text
            if state.is_over:
                break
            play(state, rng, rng.randint(1, 15))


def test_record_schema() -> None:
    """docs/record.md, schema version 1."""
    game = cardtable.make("knockout-whist", players=4)
    state = game.new_state(seed=99)
    first_dealer = state.view(None)["dealer"]
    applied = play(state, random.Random(1), 40)
    data = json.loads(state.record().to_json())
    assert set(data) == RECORD_KEYS
    assert data["format"] == "cardtable-record"
    assert data["version"] == 1
    assert data["game"] == "knockout-whist"
    assert data["seed"] == 99
    assert data["start"] is None
    assert data["reshuffles"] == []
    assert data["actions"] == applied
    # The first dealer is filled in even when it was drawn from the seed (W-11).
    assert data["options"] == {"players": 4, "dealer": first_dealer}
    # One deck per hand dealt so far, each a whole pack in canonical notation.
    assert len(data["decks"]) == state.view(None)["hand_number"]
    for deck in data["decks"]:
        assert sorted(deck) == PACK


def test_record_writes_canonical_action_text() -> None:
    """Actions are recorded in canonical notation, whatever spelling was applied."""
    deck = [str(c) for c in DECK_52]
    state = cardtable.make("knockout-whist", players=2, dealer=1).new_state(seed=1, decks=[deck])
    # Deal order seat 0, seat 1: seat 0 holds 2C 4C … QC AC and leads; seat 1 holds 3C 5C …
    # KC 2D and takes the first trick with JC, then leads 3C (action number 1).
    state.apply("LEAD tc")
    state.apply(" play  JC ")
    state.apply(1)
    assert state.record().actions == ["play 10C", "play JC", "play 3C"]


def test_stacked_deck_is_recorded_as_dealt() -> None:
    """SPEC §0.3: a stacked deck is dealt as given (index 0 first) and recorded as such."""
    deck = [str(c) for c in DECK_52][::-1]
    state = cardtable.make("knockout-whist", players=3, dealer=0).new_state(seed=1, decks=[deck])
    assert state.record().decks == [deck]


def test_record_does_not_need_the_seed_to_replay() -> None:
    """DESIGN.md: every deck is recorded, so a finished game replays the same with any seed."""
    for players, seed in [(3, 4), (5, 8), (7, 2)]:
        state = cardtable.make("knockout-whist", players=players).new_state(seed=seed)
        play(state, random.Random(seed), 10_000)
        assert state.is_over
        data: dict[str, Any] = state.record().to_dict()
        assert len(data["decks"]) == state.view(None)["hand_number"]
        data["seed"] = seed + 12345
        again = cardtable.replay(data)
        assert views(again) == views(state)
        assert again.result == state.result
        assert again.is_over


def test_replayed_unfinished_game_deals_the_same_future_hands() -> None:
    """docs/record.md: the seed feeds chance events after the last recorded action, so a
    replayed game (a restarted server) goes on to deal exactly what the original would."""
    rng = random.Random(7)
    for players in (2, 4, 6):
        original = cardtable.make("knockout-whist", players=players).new_state(seed=players)
        play(original, rng, 3)
        copy = cardtable.replay(original.record().to_json())
        while not original.is_over:
            action = rng.choice(original.legal_actions())
            original.apply(action)
            copy.apply(action)
            assert copy.position() == original.position()
        assert copy.record().decks == original.record().decks
        assert len(original.record().decks) > 1


def test_replay_keeps_decks_stacked_for_hands_not_yet_dealt() -> None:
    """DESIGN.md: `decks=` stacks the decks of the first hands and a record replays to the
    identical state. A game stopped in hand 1 with hand 2's deck stacked must still deal
    that deck after a replay; the position (which lists stacked decks) must match."""
    hand_two = [str(c) for c in DECK_52]
    state = cardtable.make("knockout-whist", players=3, dealer=0).new_state(
        seed=3, decks=[hand_two[::-1], hand_two]
    )
    state.apply(state.legal_actions()[0])
    again = cardtable.replay(state.record().to_json())
    assert again.position() == state.position()


def test_record_from_a_position_replays() -> None:
    """docs/record.md: `start` holds the position a game began from; replay starts there."""
    source = cardtable.make("knockout-whist", players=4, dealer=2).new_state(seed=21)
    rng = random.Random(21)
    play(source, rng, 9)
    text = source.position()
    game = cardtable.make("knockout-whist", players=4)
    state = game.state_from_position(text)
    play(state, rng, 60)  # long enough to reach a new hand, so a deck is drawn
    record = state.record()
    assert record.start == text
    assert record.decks, "a deck drawn after the start position is recorded"
    again = cardtable.replay(record.to_json())
    assert_same(again, state)
    assert again.record().to_json() == record.to_json()
    # Replay from the start position does not depend on the seed either.
    data = record.to_dict()
    data["seed"] += 1
    assert views(cardtable.replay(data)) == views(state)


def test_record_json_is_deterministic() -> None:
    """SPEC §0.4 (3): the same game always writes the same text, and reading it back
    writes it again."""

    def make_text() -> str:
        state = cardtable.make("knockout-whist", players=5).new_state(seed=31)
        play(state, random.Random(31), 50)
        return state.record().to_json()

    text = make_text()
    assert make_text() == text
    assert Record.from_json(text).to_json() == text
    assert cardtable.load_record(json.loads(text)).to_json() == text
    assert json.loads(Record.from_json(text).to_json(indent=2)) == json.loads(text)
    assert list(json.loads(text)) == [
        "format",
        "version",
        "game",
        "options",
        "seed",
        "start",
        "decks",
        "reshuffles",
        "actions",
    ]


def test_replay_accepts_text_dict_or_record() -> None:
    state = cardtable.make("knockout-whist", players=3).new_state(seed=5)
    play(state, random.Random(5), 12)
    record = state.record()
    for source in (record, record.to_json(), record.to_dict()):
        assert cardtable.replay(source).position() == state.position()


def test_record_is_a_snapshot() -> None:
    """SPEC §0.4 (3): a record taken earlier does not change as the game goes on."""
    state = cardtable.make("knockout-whist", players=3).new_state(seed=6)
    play(state, random.Random(6), 5)
    record = state.record()
    text = record.to_json()
    play(state, random.Random(7), 30)
    assert record.to_json() == text
