"""Bad input gets a specific error that says what was wrong, and changes nothing.

SPEC §0.4 (2): any action other than a legal one is rejected with an error, the state
unchanged. DESIGN.md: errors are specific and subclass ValueError.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import cardtable
from cardtable import (
    DECK_52,
    CardtableError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidDeckError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidRecordError,
    OutOfTurnError,
    State,
    UnknownGameError,
)

ERRORS = [
    CardtableError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidDeckError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidRecordError,
    OutOfTurnError,
    UnknownGameError,
]

PACK = [str(c) for c in DECK_52]


def snapshot(state: State) -> tuple[str, str, list[str]]:
    """Everything observable about a state: position, record and every view."""
    views = [
        json.dumps(state.view(s), sort_keys=True) for s in [None, *range(state.game.num_players)]
    ]
    return state.position(), state.record().to_json(), views


def started(players: int = 4, seed: int = 5) -> State:
    """A game a few moves in, so that a trick is in progress."""
    state = cardtable.make("knockout-whist", players=players, dealer=1).new_state(seed=seed)
    for _ in range(2):
        state.apply(state.legal_actions()[0])
    return state


def hands(state: State) -> list[list[str]]:
    return [list(state.view(s)["hand"]) for s in range(state.game.num_players)]


def finished(seed: int = 5) -> State:
    state = cardtable.make("knockout-whist", players=3, dealer=0).new_state(seed=seed)
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
    return state


@pytest.mark.parametrize("error", ERRORS)
def test_every_error_is_a_value_error(error: type[Exception]) -> None:
    """DESIGN.md: errors are specific and subclass ValueError."""
    assert issubclass(error, ValueError)
    assert issubclass(error, CardtableError)


def test_out_of_turn_and_game_over_are_illegal_actions() -> None:
    """errors.py: code that catches IllegalActionError also catches the two special cases."""
    assert issubclass(OutOfTurnError, IllegalActionError)
    assert issubclass(GameOverError, IllegalActionError)


# Games and options -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["chess", "knockout_whist", "Knockout-Whist", "", None, 3])
def test_unknown_game_lists_the_known_games(name: Any) -> None:
    """DESIGN.md (errors): an unknown game is an UnknownGameError that lists the known games."""
    with pytest.raises(UnknownGameError) as caught:
        cardtable.make(name)
    message = str(caught.value)
    assert repr(name) in message
    for known in cardtable.GAMES:
        assert known in message


def test_games_still_lists_the_games_once_one_has_been_made() -> None:
    """DESIGN.md (protocol): `cardtable.games()` names the games `make` accepts. Importing
    a game's package must not replace the function with the `cardtable.games` subpackage."""
    cardtable.make("knockout-whist", players=3)
    assert callable(cardtable.games)
    assert cardtable.games() == sorted(cardtable.GAMES)


def test_unknown_option_is_named_and_the_real_ones_listed() -> None:
    """DESIGN.md (errors): an unknown option is named, and the game's options listed."""
    with pytest.raises(InvalidOptionError) as caught:
        cardtable.make("knockout-whist", player=4)
    message = str(caught.value)
    assert "'player'" in message
    assert "players" in message and "dealer" in message


@pytest.mark.parametrize("players", [0, 1, 8, 52, -4, "4", True, 4.0, None])
def test_player_count_outside_2_to_7_is_rejected(players: Any) -> None:
    """KOW-1.1: 2 to 7 players; the count must be a whole number (not text, not a bool)."""
    with pytest.raises(InvalidOptionError) as caught:
        cardtable.make("knockout-whist", players=players)
    message = str(caught.value)
    assert "2 to 7" in message and repr(players) in message


@pytest.mark.parametrize("dealer", [-1, 4, 7, "0", True, 1.0])
def test_dealer_must_be_one_of_the_seats(dealer: Any) -> None:
    """W-11: the first dealer is a seat 0 … n-1 (or None for a seeded draw)."""
    with pytest.raises(InvalidOptionError) as caught:
        cardtable.make("knockout-whist", players=4, dealer=dealer)
    assert repr(dealer) in str(caught.value)
    assert "0-3" in str(caught.value)


# Action text, illegal actions, turn order, game over ------------------------------------------


@pytest.mark.parametrize(
    ("text", "error", "blamed"),
    [
        ("play 11S", InvalidCardError, "'11'"),
        ("play 1S", InvalidCardError, "'1'"),
        ("play AX", InvalidCardError, "'x'"),
        ("trump NT", InvalidCardError, "'nt'"),
        ("jump 7D", InvalidActionError, "'jump 7D'"),
        ("", InvalidActionError, "''"),
        ("play", InvalidActionError, "'play'"),
        ("knock knock", InvalidActionError, "'knock knock'"),
    ],
)
def test_malformed_action_text_is_rejected_and_changes_nothing(
    text: str, error: type[Exception], blamed: str
) -> None:
    """DESIGN.md (errors): bad card or action text gets a specific error naming the bad part;
    SPEC §0.4 (2): the state is unchanged."""
    state = started()
    before = snapshot(state)
    with pytest.raises(error) as caught:
        state.apply(text)
    assert blamed in str(caught.value).lower() or blamed in str(caught.value)
    assert snapshot(state) == before


@pytest.mark.parametrize("number", [-1, 57, 999])
def test_action_number_outside_the_table_is_rejected(number: int) -> None:
    """DESIGN.md: action numbers are 0 … 56; SPEC §0.4 (2): nothing changes."""
    state = started()
    before = snapshot(state)
    with pytest.raises(InvalidActionError, match=str(number)):
        state.apply(number)
    assert snapshot(state) == before


def test_illegal_action_lists_the_legal_ones_and_changes_nothing() -> None:
    """SPEC §0.4 (2): an illegal action is rejected with an error, the state unchanged;
    DESIGN.md: the message lists the legal actions."""
    state = started()
    game = state.game
    before = snapshot(state)
    legal = state.legal_action_ids()
    illegal = [n for n in range(game.num_distinct_actions) if n not in legal]
    assert illegal
    for number in illegal:
        action = game.action_from_int(number)
        with pytest.raises(IllegalActionError) as caught:
            state.apply(action)
        assert type(caught.value) is IllegalActionError
        message = str(caught.value)
        assert str(action) in message
        assert f"seat {state.to_move}" in message
        for allowed in state.legal_actions():
            assert str(allowed) in message
        assert snapshot(state) == before


EX1_DECK = (
    "7C 9C 4C JD 10C 3H 8D 4H KH 2H 6S AS 3S 4S 5S 10S KS 7S 8S 9S QC 5C 6C 5H 8C "
    "6H 2S AH 7H 8H 3C QS 2C 9H KC 3D JC AC 2D 4D 5D 6D 7D 9D 10D QD KD AD 10H JH QH JS"
)


def test_failing_to_follow_suit_is_illegal() -> None:
    """KOW-4.2: an ACTIVE player holding the suit led must follow (EX-1 deck, trick 2)."""
    deck = EX1_DECK.split()
    state = cardtable.make("knockout-whist", players=5, dealer=0).new_state(seed=1, decks=[deck])
    for text in ["7C", "9C", "4C", "JD", "10C", "KH", "2H", "3H", "8D"]:
        state.apply("play " + text)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=r"play 2C is not legal.*play 4H, play AH"):
        state.apply("play 2C", seat=3)
    assert snapshot(state) == before


@pytest.mark.parametrize("verb", ["knock", "trump H"])
def test_actions_of_another_phase_are_illegal(verb: str) -> None:
    """Only a dog may knock (KOW-6.3); trumps are named only by the chooser in hands 2-7."""
    state = started()
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=verb):
        state.apply(verb)
    assert snapshot(state) == before


def test_playing_a_card_not_held_is_illegal() -> None:
    """SPEC §0.4 (2): a card from another seat's hand is not a legal play."""
    state = started()
    to_move = state.to_move
    assert to_move is not None
    others = [c for s, hand in enumerate(hands(state)) if s != to_move for c in hand]
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply("play " + others[0])
    assert snapshot(state) == before


def test_action_out_of_turn_is_rejected_and_changes_nothing() -> None:
    """SPEC §0.4 (2) / DESIGN.md: apply(action, seat=s) for a seat s not to move raises
    OutOfTurnError naming both seats."""
    state = started()
    mover = state.to_move
    assert mover is not None
    before = snapshot(state)
    legal = state.legal_actions()[0]
    for seat in range(state.game.num_players):
        if seat == mover:
            continue
        with pytest.raises(OutOfTurnError) as caught:
            state.apply(legal, seat=seat)
        message = str(caught.value)
        assert f"seat {seat}" in message and f"seat {mover}" in message
        assert snapshot(state) == before
    state.apply(legal, seat=mover)
    assert snapshot(state) != before


def test_action_after_game_over_is_rejected_and_changes_nothing() -> None:
    """KOW-10: GAME_OVER has no legal actions."""
    state = finished()
    assert state.is_over and state.to_move is None
    before = snapshot(state)
    actions: list[str | int] = ["play 2C", "knock", "trump S", 0]
    for action in actions:
        with pytest.raises(GameOverError, match="over"):
            state.apply(action)
        with pytest.raises(GameOverError):
            state.apply(action, seat=0)
    assert snapshot(state) == before


# Stacked decks (SPEC §0.3) -----------------------------------------------------------------


def test_deck_with_a_missing_card_names_it() -> None:
    """SPEC §0.3: a stacked deck is a whole pack; a missing card is named."""
    deck = [c for c in PACK if c != "QH"]
    with pytest.raises(InvalidDeckError, match=r"51 cards.*missing QH"):
        cardtable.make("knockout-whist", players=3).new_state(seed=1, decks=[deck])


def test_deck_with_a_repeated_card_names_it() -> None:
    """SPEC §0.3: a stacked deck holds each card once; a repeated card is named."""
    deck = [*PACK[:-1], "2c"]
    with pytest.raises(InvalidDeckError, match="repeats 2C"):
        cardtable.make("knockout-whist", players=3).new_state(seed=1, decks=[deck])
    with pytest.raises(InvalidDeckError, match="repeats 2C"):
        cardtable.make("knockout-whist", players=3).new_state(seed=1, decks=[[*PACK, "2C"]])


@pytest.mark.parametrize("bad", ["ZZ", "11S", "", "AX"])
def test_deck_with_an_unknown_card_names_its_place(bad: str) -> None:
    """SPEC §0.3: text that is no card is an InvalidDeckError giving its place in the deck."""
    deck = PACK[:]
    deck[17] = bad
    with pytest.raises(InvalidDeckError, match="card 17") as caught:
        cardtable.make("knockout-whist", players=3).new_state(seed=1, decks=[deck])
    assert isinstance(caught.value.__cause__, InvalidCardError)


def test_a_bad_later_deck_is_named_by_its_hand() -> None:
    """SPEC §0.3: every stacked deck is checked before play starts, and the error says which one."""
    with pytest.raises(InvalidDeckError, match=r"deck 1 .*missing AS"):
        cardtable.make("knockout-whist", players=3).new_state(seed=1, decks=[PACK, PACK[:-1]])


# Records -----------------------------------------------------------------------------------


def a_record() -> dict[str, Any]:
    state = started(players=3)
    record: dict[str, Any] = state.record().to_dict()
    return record


@pytest.mark.parametrize("cut", [1, 10, 40])
def test_truncated_record_json_is_rejected(cut: int) -> None:
    """docs/record.md: text cut short raises InvalidRecordError."""
    text = json.dumps(a_record())
    with pytest.raises(InvalidRecordError, match="JSON"):
        cardtable.replay(text[:-cut])


@pytest.mark.parametrize(
    ("field", "value", "blamed"),
    [
        ("version", 2, "version 2"),
        ("version", "1", "version '1'"),
        ("format", "pgn", "'pgn'"),
        ("format", None, "None"),
    ],
)
def test_record_of_another_version_or_format_is_rejected(
    field: str, value: Any, blamed: str
) -> None:
    """docs/record.md: a reader refuses any other format or version."""
    record = a_record()
    record[field] = value
    with pytest.raises(InvalidRecordError, match=re.escape(blamed)):
        cardtable.replay(record)
    with pytest.raises(InvalidRecordError):
        cardtable.replay(json.dumps(record))


@pytest.mark.parametrize("field", ["game", "options", "seed", "decks", "reshuffles", "actions"])
def test_record_missing_a_field_names_it(field: str) -> None:
    """docs/record.md: a missing field raises InvalidRecordError naming it."""
    record = a_record()
    del record[field]
    with pytest.raises(InvalidRecordError, match=repr(field)):
        cardtable.replay(record)


@pytest.mark.parametrize("value", [[], "a list", 7])
def test_record_that_is_not_an_object_is_rejected(value: Any) -> None:
    """docs/record.md: a record is a JSON object."""
    with pytest.raises(InvalidRecordError):
        cardtable.replay(json.dumps(value))


def test_record_whose_action_does_not_replay_names_the_action() -> None:
    """SPEC §0.4 (3) / docs/record.md: an action that is not legal where it stands makes
    the record invalid; the message gives its index and the legal actions."""
    record = a_record()
    legal_now = record["actions"][1]
    record["actions"][1] = "trump H"
    with pytest.raises(InvalidRecordError, match=r"action 1 \('trump H'\)") as caught:
        cardtable.replay(record)
    assert legal_now in str(caught.value)  # the legal actions are listed
    record["actions"][1] = "play 12X"
    with pytest.raises(InvalidRecordError, match="action 1"):
        cardtable.replay(record)


def test_record_of_an_unknown_game_or_bad_options_is_rejected() -> None:
    """docs/record.md: a record must name a game from `cardtable.games()` with valid options."""
    record = a_record()
    record["game"] = "chess"
    with pytest.raises(InvalidRecordError, match="chess"):
        cardtable.replay(record)
    record = a_record()
    record["options"]["players"] = 9
    with pytest.raises(InvalidRecordError, match="9"):
        cardtable.replay(record)


def test_record_with_a_broken_deck_is_rejected() -> None:
    """docs/record.md: a recorded deck with missing or repeated cards is an InvalidRecordError."""
    record = a_record()
    record["decks"][0][5] = record["decks"][0][6]
    with pytest.raises(InvalidRecordError, match="repeats"):
        cardtable.replay(record)
    record = a_record()
    record["decks"][0] = record["decks"][0][:-1]
    with pytest.raises(InvalidRecordError, match="missing"):
        cardtable.replay(record)


def test_record_with_an_unknown_card_in_a_reshuffle_is_a_record_error() -> None:
    """docs/record.md: replay raises InvalidRecordError for a malformed record. A reshuffle
    holding `ZZ` is malformed; it must not escape as a bare InvalidCardError."""
    record = a_record()
    record["reshuffles"] = [["ZZ"]]
    with pytest.raises(InvalidRecordError):
        cardtable.replay(record)


def test_record_whose_start_is_not_a_position_is_a_record_error() -> None:
    """docs/record.md: a record is replayed from its `start` position; if that is not a
    position, the record is malformed (InvalidRecordError), whatever the parser says."""
    record = a_record()
    record["start"] = "kow/1 players=3"
    with pytest.raises(InvalidRecordError, match="position"):
        cardtable.replay(record)


# Positions ---------------------------------------------------------------------------------


def position_fields(state: State) -> dict[str, str]:
    words = state.position().split()
    return dict(word.split("=", 1) for word in words[1:])


def position_text(fields: dict[str, str]) -> str:
    return "kow/1 " + " ".join(f"{k}={v}" for k, v in fields.items())


POSITION_STATE = started(players=3, seed=3)
FIELDS = position_fields(POSITION_STATE)


def _with(**changes: str) -> str:
    return position_text({**FIELDS, **changes})


def _one_card_moved_from_stock_to_hand() -> str:
    stock = FIELDS["stock"].split(",")
    return _with(hands=stock[0] + "," + FIELDS["hands"], stock=",".join(stock[1:]))


def _swap_first_cards_of_two_hands() -> str:
    hands = FIELDS["hands"].split("/")
    first = hands[0].split(",")
    first[0] = hands[1].split(",")[0]
    return _with(hands="/".join([",".join(first), *hands[1:]]))


@pytest.mark.parametrize(
    ("text", "blamed"),
    [
        ("", "kow/1"),
        ("fen 8/8/8", "kow/1"),
        ("kow/2" + POSITION_STATE.position()[5:], "kow/1"),
        (re.sub(r" seed=\S+", "", POSITION_STATE.position()), "seed"),
        (POSITION_STATE.position() + " colour=red", "colour"),
        (POSITION_STATE.position() + " seed=4", "seed=4"),
        (POSITION_STATE.position() + " loose", "loose"),
        (_with(players="4"), "players"),
        (_with(players="three"), "players"),
        (_with(players="--3"), "players"),
        (_with(hand="8"), "hand"),
        (_with(hand="0"), "hand"),
        (_with(hand="²"), "hand"),
        (_with(dealer="3"), "dealer"),
        (_with(phase="deal"), "phase"),
        (_with(phase="trump"), "phase"),
        (_with(phase="over"), "status"),
        (_with(trump="X"), "trump"),
        (_with(trump="NT"), "trump"),
        (_with(dog="maybe"), "dog"),
        (_with(status="AAX"), "status"),
        (_with(status="AA"), "status"),
        (_one_card_moved_from_stock_to_hand(), "hands"),
        (_with(won="1,1,1"), "won"),
        (_with(won="0,0"), "won"),
        (_with(won="²,0,0"), "won"),
        (_with(out="0"), "out"),
        (_with(chooser="3"), "chooser"),
        (_with(cuts="9:AS"), "cuts"),
        (_with(trick="5:AS"), "trick"),
        (_with(trick="1:11S"), "trick"),
        (_with(seed="--3"), "seed"),
        (_with(seed="x"), "seed"),
        (_with(chance="1"), "chance"),
        (_with(stock="-"), "missing"),
        (_with(hands=FIELDS["hands"] + "/-"), "hands"),
        (_with(hands=FIELDS["hands"].replace(",", ",ZZ,", 1)), "'Z'"),
        (_swap_first_cards_of_two_hands(), "twice"),
    ],
)
def test_bad_position_text_is_rejected_naming_the_field(text: str, blamed: str) -> None:
    """DESIGN.md: positions round-trip; text that is not one is an InvalidPositionError."""
    game = cardtable.make("knockout-whist", players=3)
    with pytest.raises(InvalidPositionError) as caught:
        game.state_from_position(text)
    assert blamed in str(caught.value)


FRESH = cardtable.make("knockout-whist", players=3, dealer=0).new_state(seed=3)


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"trump": "H"}, "KOW-3.1: hand 1's trump is the suit of the turned card"),
        ({"out": "0@1"}, "seat 0 is listed as knocked out, yet its status is A"),
        ({"trick": "1:x"}, "KOW-6.3: only a dog may knock, and seat 1 is ACTIVE"),
    ],
)
def test_inconsistent_position_is_rejected(changes: dict[str, str], why: str) -> None:
    """errors.py: InvalidPositionError is for text that does not describe a consistent
    state, not only for text that does not parse."""
    fields = position_fields(FRESH)
    assert fields["turned"][-1] != "H" and fields["status"] == "AAA" and FRESH.to_move == 1
    game = cardtable.make("knockout-whist", players=3)
    try:
        game.state_from_position(position_text({**fields, **changes}))
    except InvalidPositionError:
        return
    pytest.fail(f"accepted an inconsistent position: {why}")


@pytest.mark.parametrize("value", [None, 42, b"kow/1"])
def test_position_must_be_text(value: Any) -> None:
    """DESIGN.md (errors): a position is text; anything else is an InvalidPositionError."""
    game = cardtable.make("knockout-whist", players=3)
    with pytest.raises(InvalidPositionError):
        game.state_from_position(value)
