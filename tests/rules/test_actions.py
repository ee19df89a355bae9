"""Knockout Whist action notation and its dense numbering (DESIGN.md, docs/knockout-whist.md).

 0 … 51   play <card>     card number = suit * 13 + rank - 2, suits C D H S
52 … 55   trump <suit>    C, D, H, S
56        knock           a dog keeps its card (KOW-6.3)
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable import DECK_52, Action, Card, InvalidActionError, InvalidCardError, Suit

GAME = cardtable.make("knockout-whist", players=4, dealer=0)
NUMBERS = range(57)


def test_there_are_57_actions() -> None:
    """DESIGN.md: dense numbering; Knockout Whist has 52 plays, 4 trumps and knock."""
    assert GAME.num_distinct_actions == 57
    assert len(GAME.actions) == 57


def test_the_numbering_table() -> None:
    """DESIGN.md / docs/knockout-whist.md, the documented table: 0 = play 2C, 12 = play AC,
    13 = play 2D, 51 = play AS, 52-55 = trump C/D/H/S, 56 = knock."""
    assert str(GAME.action_from_int(0)) == "play 2C"
    assert str(GAME.action_from_int(12)) == "play AC"
    assert str(GAME.action_from_int(13)) == "play 2D"
    assert str(GAME.action_from_int(21)) == "play 10D"
    assert str(GAME.action_from_int(51)) == "play AS"
    assert [str(GAME.action_from_int(n)) for n in range(52, 57)] == [
        "trump C",
        "trump D",
        "trump H",
        "trump S",
        "knock",
    ]
    for card in DECK_52:
        assert GAME.action_from_int(card.index) == Action("play", card)
    for suit in Suit:
        assert GAME.action_from_int(52 + suit) == Action("trump", suit)
    assert GAME.action_from_int(56) == Action("knock")


@pytest.mark.parametrize("number", NUMBERS)
def test_number_and_text_convert_both_ways(number: int) -> None:
    """DESIGN.md: for every action, number -> action -> number and action -> text -> action."""
    action = GAME.action_from_int(number)
    assert GAME.action_to_int(action) == number
    assert GAME.parse_action(str(action)) == action
    assert GAME.actions[number] == action
    text = str(action)
    assert text == text.strip() and text.split()[0] in ("play", "trump", "knock")
    assert text.split()[0].islower()


def test_actions_are_distinct_value_types() -> None:
    """STYLE: actions are small hashable value types; the same move is the same value."""
    assert len(set(GAME.actions)) == 57
    assert Action("play", Card.parse("7C")) == GAME.parse_action("play 7c")
    assert hash(Action("knock")) == hash(GAME.parse_action("KNOCK"))


def test_action_repr_pastes_back() -> None:
    """STYLE: `repr` shows something that can be pasted back. `Action('play 7C')`
    evaluates to an action with the verb 'play 7C', which is not the action shown."""
    namespace = {"Action": Action, "Card": Card, "Suit": Suit}
    for action in GAME.actions:
        assert eval(repr(action), namespace) == action


@st.composite
def action_spellings(draw: st.DrawFn) -> tuple[str, int]:
    number = draw(st.integers(min_value=0, max_value=56))
    if number < 52:
        card = Card.from_index(number)
        rank = card.rank.notation
        if rank == "10":
            rank = draw(st.sampled_from(["10", "T", "t"]))
        suit = draw(st.sampled_from([card.suit.letter, card.suit.letter.lower(), card.suit.symbol]))
        verb = draw(st.sampled_from(["play", "PLAY", "Play", "lead", "LEAD", "Lead"]))
        words = [verb, rank + suit]
    elif number < 56:
        suit_ = Suit(number - 52)
        verb = draw(st.sampled_from(["trump", "TRUMP", "Trump"]))
        words = [verb, draw(st.sampled_from([suit_.letter, suit_.letter.lower(), suit_.symbol]))]
    else:
        words = [draw(st.sampled_from(["knock", "KNOCK", "Knock"]))]
    gaps = st.sampled_from([" ", "  ", "\t"])
    text = draw(st.sampled_from(["", " ", "\t"])) + words[0]
    for word in words[1:]:
        text += draw(gaps) + word
    return text + draw(st.sampled_from(["", " ", "\n"])), number


@given(action_spellings())
def test_action_text_is_read_in_any_case_with_any_spacing(spelled: tuple[str, int]) -> None:
    """DESIGN.md: lowercase canonical text; the parser also takes upper case, extra spaces,
    `T` for ten, suit symbols and `lead <card>` (the examples' LEAD(c)) as `play <card>`."""
    text, number = spelled
    action = GAME.parse_action(text)
    assert GAME.action_to_int(action) == number
    assert str(action) == str(GAME.action_from_int(number))


def test_lead_is_the_same_action_as_play() -> None:
    """EXAMPLES Part 3: LEAD(c) is the action `play <c>`."""
    assert GAME.parse_action("lead 7C") == GAME.parse_action("play 7C")
    assert str(GAME.parse_action("lead 10s")) == "play 10S"


@pytest.mark.parametrize(
    "text", ["", "jump 7D", "play", "play 7D 8D", "knock 7D", "trump", "lead", "pass", "7D"]
)
def test_malformed_action_text_is_rejected(text: str) -> None:
    """DESIGN.md (errors): text naming no action is an InvalidActionError listing the forms."""
    with pytest.raises(InvalidActionError, match="play <card>"):
        GAME.parse_action(text)


@pytest.mark.parametrize(("text", "blamed"), [("play 11S", "'11'"), ("trump X", "'x'")])
def test_action_with_a_bad_card_or_suit_names_it(text: str, blamed: str) -> None:
    with pytest.raises(InvalidCardError) as caught:
        GAME.parse_action(text)
    assert blamed in str(caught.value).lower()


@pytest.mark.parametrize("number", [-1, 57, 1000, True, 3.0, "3", None])
def test_number_outside_the_table_is_rejected(number: object) -> None:
    """DESIGN.md: numbers convert to actions only in 0 … 56; a bool is not a number."""
    with pytest.raises(InvalidActionError):
        GAME.action_from_int(number)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "action",
    [Action("jump"), Action("play"), Action("trump", Card.parse("7D")), Action("play", Suit.CLUBS)],
)
def test_foreign_action_has_no_number(action: Action) -> None:
    """DESIGN.md: only the 57 actions of the table have numbers."""
    with pytest.raises(InvalidActionError):
        GAME.action_to_int(action)


def test_legal_actions_are_listed_in_ascending_number_order() -> None:
    """DESIGN.md: legal_actions() is sorted by action number, without repeats, and agrees
    with legal_action_ids(); checked along random games for every player count."""
    rng = random.Random(20240607)
    for players in range(2, 8):
        game = cardtable.make("knockout-whist", players=players)
        for seed in range(3):
            state = game.new_state(seed=seed)
            while not state.is_over:
                ids = state.legal_action_ids()
                actions = state.legal_actions()
                numbers = [game.action_to_int(a) for a in actions]
                assert numbers == ids
                assert numbers == sorted(set(numbers)), numbers
                assert [game.parse_action(str(a)) for a in actions] == actions
                state.apply(rng.choice(actions))
            assert state.legal_actions() == [] and state.legal_action_ids() == []


def test_apply_takes_an_action_its_text_or_its_number() -> None:
    """DESIGN.md (protocol): apply takes an Action, its text or its number, alike."""
    base = GAME.new_state(seed=11)
    number = base.legal_action_ids()[0]
    action = GAME.action_from_int(number)
    results = []
    for spelled in (action, str(action), str(action).upper(), number):
        state = base.copy()
        assert state.apply(spelled) == action
        results.append(state.position())
    assert len(set(results)) == 1
    assert results[0] != base.position()
