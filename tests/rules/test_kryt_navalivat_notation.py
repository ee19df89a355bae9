"""Kryt'-navalivat' action numbers and text, the ``kryt/1`` position notation, and bad
input of every kind (SPEC §0.4 (1) and (2), KRYT-10): a specific error, naming what was
wrong, and the state left as it was.

Seats A, B, C are 0, 1, 2. Constructed states come from ``compose_position`` and KRYT-EX-1's deck
(tests/kryt_navalivat_pieces.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidDeckError,
    InvalidOptionError,
    InvalidPositionError,
    OutOfTurnError,
)
from cardtable.rules.kryt_navalivat import KrytNavalivat, KrytNavalivatState
from kryt_navalivat_pieces import (
    EX_1_DECK,
    FILL,
    GAMES,
    PACK,
    compose_position,
    position_state,
    random_states,
)

A, B, C = 0, 1, 2


# Action numbers ---------------------------------------------------------------------------------


def expected_text(number: int) -> str:
    """The state module's table: 0-35 lead, 36-71 beat, 72-107 cover (card number suit * 9
    + rank - 6, suits C D H S), 108 take, 109 swap."""
    if number == 108:
        return "take"
    if number == 109:
        return "swap"
    return f"{('lead', 'beat', 'cover')[number // 36]} {PACK[number % 36]}"


def test_kryt_navalivat_10_all_110_actions_are_numbered_densely_both_ways() -> None:
    game = KrytNavalivat()
    assert game.num_distinct_actions == 110
    assert [expected_text(n) for n in (0, 8, 9, 35)] == ["lead 6C", "lead AC", "lead 6D", "lead AS"]
    for number in range(110):
        action = game.actions[number]
        assert str(action) == expected_text(number)
        assert game.number_of(str(action)) == number == game.number_of(action)
        assert game.parse_action(str(action).upper()) == action


def test_kryt_navalivat_10_legal_action_numbers_are_sorted_and_agree_with_is_legal() -> None:
    """legal_action_ids() ascending, and is_legal() true exactly for them, all along games
    of each player count and trump mode."""
    for players, trump_mode, seed in GAMES[::3]:
        for state in random_states(players, trump_mode, seed)[::3]:
            ids = state.legal_action_ids()
            assert ids == sorted(ids)
            assert [n for n in range(110) if state.is_legal(n)] == ids


# Position round trips ----------------------------------------------------------------------------


def same(a: KrytNavalivatState, b: KrytNavalivatState) -> None:
    assert a.position() == b.position()
    assert a.legal_action_ids() == b.legal_action_ids()
    for seat in [None, *range(a.players)]:
        assert a.view(seat) == b.view(seat), seat
    assert a.result == b.result


@pytest.mark.parametrize(("players", "trump_mode", "seed"), GAMES)
def test_kryt_navalivat_position_round_trips_at_random_points(
    players: int, trump_mode: str, seed: int
) -> None:
    """SPEC §0.4 (1): at points of random games (the start and the end included) the
    position reads back to the same text, legal actions and views, and both copies stay
    equal under the same actions."""
    states = random_states(players, trump_mode, seed)
    rng = random.Random(seed)
    for state in [*states[::9], states[-1]]:
        again = state.game.state_from_position(state.position())
        assert isinstance(again, KrytNavalivatState)
        same(state, again)
        mirror = state.copy()
        for _ in range(6):
            if mirror.is_over:
                break
            number = rng.choice(mirror.legal_action_ids())
            mirror.apply(number)
            again.apply(number)
            same(mirror, again)
    assert states[-1].is_over and states[-1].position().split()[-2] != "result=-"


def test_kryt_navalivat_position_names_every_field_of_ex_1_after_a_lead() -> None:
    """The documented field order and values for KRYT-EX-1 after A's lead (A drew QS)."""
    game = KrytNavalivat(players=3, dealer=C)
    state = game.new_state(seed=1, decks=[EX_1_DECK.replace("|", " ").split()])
    state.apply("lead 7D")
    words = state.position().split()
    assert words[0] == "kryt/1"
    got = dict(w.split("=", 1) for w in words[1:])
    assert list(got) == [
        "players", "trumps", "dealer", "hands", "known", "pile", "faceup", "stock", "turn",
        "to_move", "result", "seed",
    ]  # fmt: skip
    hands = [set(h.split(",")) for h in got["hands"].split("/")]
    assert hands == [{"9S", "10D", "QS"}, {"KD", "10S", "6H"}, {"9C", "8S", "KC"}]
    assert (got["trumps"], got["faceup"], got["pile"], got["known"]) == ("C", "8C", "7D", "-/-/-")
    assert got["stock"].split(",")[:3] == ["7H", "8H", "9H"] and got["stock"].endswith("KS,AS")
    assert (got["turn"], got["to_move"], got["result"]) == ("respond", "1", "-")


# Malformed positions -----------------------------------------------------------------------------


def ex_1_after_lead() -> str:
    game = KrytNavalivat(players=3, dealer=C)
    state = game.new_state(seed=1, decks=[EX_1_DECK.replace("|", " ").split()])
    state.apply("lead 7D")
    return state.position()


def replace(text: str, key: str, value: str) -> str:
    words = text.split()
    out = [f"{key}={value}" if w.startswith(key + "=") else w for w in words]
    assert out != words
    return " ".join(out)


def field(text: str, key: str) -> str:
    return dict(w.split("=", 1) for w in text.split()[1:])[key]


def _bad_positions() -> list[tuple[str, str, str, str]]:
    """(why, trump mode, text, what the message names) for positions of a 3-player game."""
    good = ex_1_after_lead()  # A 10D,9S,QS; B KD,6H,10S; C 9C,KC,8S; pile 7D; 8C turned
    hands, stock = field(good, "hands"), field(good, "stock")

    def good_with(**changes: str) -> str:
        text = good
        for key, value in changes.items():
            text = replace(text, key, value)
        return text

    empty_stock = compose_position(["QH", "7S 8S", "9D 10D"], pile=f"{FILL} JH")
    one_out = compose_position(["QH", "", "7S 8S"], pile=f"{FILL} JH")
    over = compose_position(
        ["", "", "7C 8C 9S"], pile=f"{FILL} JH QH AD", to_move=None, turn="over"
    )
    over = replace(over, "result", "loser:2")
    permanent = compose_position(
        ["JD QD KD", "JC QC KC", "JH QH KH"], stock=FILL, trumps="permanent", turn="lead"
    )
    permanent_stock = field(permanent, "stock").replace(",AD", "")
    turned: list[tuple[str, str, str]] = [
        ("bad header", good.replace("kryt/1", "kryt/2"), "kryt/1"),
        ("other game's header", good.replace("kryt/1", "neuf/1"), "kryt/1"),
        ("wrong player count", good_with(players="2"), "field players="),
        ("players 7", good_with(players="7"), "field players="),
        ("unknown field", good + " colour=red", "unknown: \\['colour'\\]"),
        ("missing field", good.replace(" seed=1", ""), "missing: \\['seed'\\]"),
        ("repeated field", good + " seed=1", "seed=1"),
        ("trumps not a suit", good_with(trumps="X"), "field trumps="),
        ("trumps permanent in a turned game", good_with(trumps="permanent"), "field trumps="),
        ("dealer out of range", good_with(dealer="3"), "field dealer="),
        ("two hands for three players", good_with(hands=hands.rsplit("/", 1)[0]), "field hands="),
        ("bad card", good_with(hands=hands.replace("QS", "1X")), "field hands="),
        ("card outside the pack", good_with(hands=hands.replace("QS", "2C")), "field hands="),
        ("card twice in a hand", good_with(hands=hands.replace("QS", "QS,QS")), "field hands="),
        ("card in a hand and the pile", good_with(pile="7D,QS"), "field hands="),
        ("missing card", good_with(stock=stock.removesuffix(",AS")), "field hands="),
        ("bad card in the stock", good_with(stock=stock.replace("AS", "AX")), "field stock="),
        ("bad card in the pile", good_with(pile="7X"), "field pile="),
        ("known not held", good_with(known="KD/-/-"), "field known="),
        ("known lists", good_with(known="-/-"), "field known="),
        (
            "turned card not a trump",
            good_with(faceup="8H", stock=stock.replace("8H", "8C")),
            "field faceup=",
        ),
        (
            "two turned cards",
            good_with(faceup="8C,AS", stock=stock.removesuffix(",AS")),
            "field faceup=",
        ),
        ("lead with a pile", good_with(turn="lead"), "field turn="),
        (
            "respond on an empty pile",
            good_with(pile="-", hands=hands.replace("QS", "QS,7D")),
            "field turn=",
        ),
        ("unknown turn", good_with(turn="attack"), "field turn="),
        ("free with a stock", good_with(turn="free"), "field turn="),
        ("result while playing", good_with(result="loser:2"), "field result="),
        ("to_move out of range", good_with(to_move="3"), "field to_move="),
        (
            "hands below 3 while the stock lasts",
            good_with(hands=hands.replace(",QS", ""), pile="7D,QS"),
            "field hands=",
        ),
        ("seed not a number", good_with(seed="x"), "field seed="),
        ("mover without cards", replace(one_out, "to_move", "1"), "field to_move="),
        (
            "one holder left but not over",
            replace(empty_stock, "hands", "QH,7S,8S,9D,10D/-/-"),
            "field turn=",
        ),
        ("over without a result", replace(over, "result", "-"), "field result="),
        ("over with the wrong loser", replace(over, "result", "loser:0"), "field result="),
        ("a draw that is not a draw", replace(over, "result", "draw"), "field result="),
        ("over with a mover", replace(over, "to_move", "2"), "field to_move="),
        ("over with the stock left", good_with(turn="over", to_move="-"), "field turn="),
        ("empty", "", "kryt/1"),
    ]
    permanent_cases = [
        (
            "permanent with a turned card",
            replace(replace(permanent, "faceup", "AD"), "stock", permanent_stock),
            "field faceup=",
        ),
        ("a suit in a permanent game", replace(permanent, "trumps", "D"), "field trumps="),
    ]
    return [(why, "turned", text, match) for why, text, match in turned] + [
        (why, "permanent", text, match) for why, text, match in permanent_cases
    ]


BAD = _bad_positions()


@pytest.mark.parametrize(("why", "trump_mode", "text", "match"), BAD, ids=[b[0] for b in BAD])
def test_kryt_navalivat_invalid_positions_are_refused_naming_the_field(
    why: str, trump_mode: str, text: str, match: str
) -> None:
    """Positions that are not ``kryt/1`` or describe no reachable state: InvalidPositionError
    whose message names the field (KRYT-11.1 the pack once; KRYT-2.4 the turned card is a
    trump; KRYT-8.1 none turned; KRYT-4.1 a lead on an empty pile; KRYT-4.3 free only with
    the stock empty; KRYT-7.2 / 7.3 the result; KRYT-11.3 / 11.6 hand sizes and the mover)."""
    with pytest.raises(InvalidPositionError, match=match):
        KrytNavalivat(players=3, trump_mode=trump_mode).state_from_position(text)


def test_kryt_navalivat_the_bad_positions_are_one_change_from_good_ones() -> None:
    """The positions the cases above start from are themselves valid."""
    for text, mode in [
        (ex_1_after_lead(), "turned"),
        (compose_position(["QH", "", "7S 8S"], pile=f"{FILL} JH"), "turned"),
        (
            compose_position(["", "", "7C"], pile=f"{FILL} JH QH AD", to_move=None, turn="over"),
            "turned",
        ),
        (
            compose_position(
                ["JD QD KD", "JC QC KC", "JH QH KH"], stock=FILL, trumps="permanent", turn="lead"
            ),
            "permanent",
        ),
    ]:
        text = text.replace("result=-", "result=loser:2") if "turn=over" in text else text
        state = position_state(text, mode)
        assert state.position() == text


def test_kryt_navalivat_a_position_is_text() -> None:
    with pytest.raises(InvalidPositionError):
        KrytNavalivat().state_from_position(42)  # type: ignore[arg-type]


# Bad actions: specific errors, nothing changed ------------------------------------------------


def unchanged(state: KrytNavalivatState, action: Any, error: type[Exception], **kwargs: Any) -> str:
    before = state.position()
    with pytest.raises(error) as caught:
        state.apply(action, **kwargs)
    assert state.position() == before
    return str(caught.value)


def respond_state() -> KrytNavalivatState:
    """A (7H 8H 6S) faces 7D, trumps spades, 10S turned: A may beat with 6S only."""
    text = compose_position(
        ["7H 8H 6S", FILL], pile="7D", stock="9C 10C JC", faceup="10S", trumps="S"
    )
    return position_state(text)


def test_kryt_navalivat_4_2_a_beat_that_does_not_beat_is_illegal_and_lists_the_legal_actions() -> (
    None
):
    """KRYT-3 / KRYT-4.2a: 8H does not beat 7D; the message lists the legal actions."""
    state = respond_state()
    message = unchanged(state, "beat 8H", IllegalActionError)
    assert "legal: beat 6S, take, swap" in message
    unchanged(state, "beat 9D", IllegalActionError)  # not held


def test_kryt_navalivat_4_2_a_cover_when_none_is_due_is_illegal() -> None:
    """KRYT-4.6: a cover comes only right after one's own beat."""
    state = respond_state()
    unchanged(state, "cover 7H", IllegalActionError)
    state.apply("take")
    assert (state.to_move, state.mode) == (B, "lead")
    unchanged(state, f"cover {state.view(B)['hand'][0]}", IllegalActionError)


@pytest.mark.parametrize("action", ["take", "lead 7H", "beat 7H", "swap", "beat 6S"])
def test_kryt_navalivat_4_6_after_a_beat_only_a_cover_is_legal(action: str) -> None:
    """KRYT-4.2a, K-4, K-9: after ``beat 6S`` with cards left the cover is compulsory; any
    other action is illegal and changes nothing."""
    state = respond_state()
    state.apply("beat 6S")
    message = unchanged(state, action, IllegalActionError)
    assert "legal: cover 7H, cover 8H" in message


def test_kryt_navalivat_6_a_swap_when_not_allowed_and_a_take_on_an_empty_pile_are_illegal() -> None:
    """KRYT-6.2 / K-9: no six of trumps held, no swap; KRYT-4.1: on an empty pile the
    only actions are leads, so there is nothing to pick up."""
    state = KrytNavalivat(players=3, dealer=C).new_state(
        seed=1, decks=[EX_1_DECK.replace("|", " ").split()]
    )
    unchanged(state, "swap", IllegalActionError)
    message = unchanged(state, "take", IllegalActionError)
    assert message.endswith("legal: lead 7D, lead 10D, lead 9S")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("lead 2C", InvalidActionError),  # a card, but not of the 36-card pack
        ("beat 5H", InvalidActionError),
        ("lead 1X", InvalidCardError),
        ("lead T9", InvalidCardError),
        ("lead", InvalidActionError),
        ("jump 7D", InvalidActionError),
        ("beat 7D 8D", InvalidActionError),
        ("", InvalidActionError),
        (110, InvalidActionError),
        (-1, InvalidActionError),
    ],
)
def test_kryt_navalivat_malformed_action_text_gets_its_specific_error(
    text: Any, error: type
) -> None:
    unchanged(respond_state(), text, error)


def test_kryt_navalivat_out_of_turn_and_after_the_end_are_refused() -> None:
    state = respond_state()
    unchanged(state, "take", OutOfTurnError, seat=B)
    over = position_state(compose_position(["QH", "7S 8S"], pile=f"{FILL} JH"))
    over.apply("beat QH")
    unchanged(over, "take", GameOverError)


# Options and stacked decks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"players": 7},
        {"players": 1},
        {"players": "3"},
        {"trump_mode": "fixed"},
        {"trump_mode": None},
        {"players": 3, "dealer": 3},
        {"dealer": -1},
        {"dealer": "0"},
        {"colour": "red"},
    ],
)
def test_kryt_navalivat_1_1_k_2_bad_options_are_refused(options: dict[str, Any]) -> None:
    """K-2: 2 to 6 players; KRYT-8: trump_mode turned or permanent; a dealer is a seat."""
    with pytest.raises(InvalidOptionError):
        cardtable.make("kryt-navalivat", **options)


def test_kryt_navalivat_bad_stacked_decks_are_refused() -> None:
    """KRYT-1.2: a stacked deck is the 36-card pack once; a game is one hand, one deck."""
    game = KrytNavalivat(players=2, dealer=0)
    with pytest.raises(InvalidDeckError, match="2C"):
        game.new_state(seed=1, decks=[["2C", *PACK[1:]]])
    with pytest.raises(InvalidDeckError, match="35 cards"):
        game.new_state(seed=1, decks=[PACK[1:]])
    with pytest.raises(InvalidDeckError, match="repeats"):
        game.new_state(seed=1, decks=[[PACK[1], *PACK[1:]]])
    with pytest.raises(InvalidDeckError, match="one deck"):
        game.new_state(seed=1, decks=[PACK, PACK])
    with pytest.raises(InvalidDeckError):
        game.new_state(seed=1, decks=[[*PACK[:-1], "1X"]])


def test_kryt_navalivat_2_5_a_turned_mode_stock_without_its_turned_card_is_refused() -> None:
    """KRYT-2.5 / K-3: in the turned mode the turned card is the stock's last card and is
    drawn last, so face-down cards never remain once it is gone: ``faceup=-`` with a
    face-down stock describes no reachable state."""
    text = compose_position(["7H 8H 9H", FILL], stock="9C 10C JC", turn="lead")
    with pytest.raises(InvalidPositionError, match="field faceup="):
        KrytNavalivat(players=2).state_from_position(text)
