"""Neuf action numbers, action text, the `neuf/1` position notation and records
(docs/neuf.md; SPEC §0.4 (1): any state can be written down and read back; NEUF-10).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable import (
    InvalidActionError,
    InvalidCardError,
    InvalidPositionError,
    InvalidRecordError,
    Record,
)
from cardtable.core import Game, State
from cardtable.rules.neuf import NeufState

SUITS = "CDHS"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def neuf(**options: Any) -> Game:
    return cardtable.make("neuf", **options)


# Action numbers -------------------------------------------------------------------------------


def expected_text(number: int) -> str:
    """docs/neuf.md: 0-51 play the card suit * 13 + rank - 2 (suits C D H S), 52 exchange,
    53 keep (NEUF-3.2)."""
    if number == 52:
        return "exchange"
    if number == 53:
        return "keep"
    return f"play {RANKS[number % 13]}{SUITS[number // 13]}"


def test_neuf_10_all_54_actions_are_numbered_densely_both_ways() -> None:
    """NEUF-10: every action has one number 0-53 and back: text -> number -> action."""
    game = neuf()
    assert len(game.actions) == 54
    assert [expected_text(n) for n in (0, 12, 13, 51)] == [
        "play 2C",
        "play AC",
        "play 2D",
        "play AS",
    ]
    for number in range(54):
        action = game.actions[number]
        assert str(action) == expected_text(number)
        assert game.number_of(action) == number
        assert game.number_of(str(action)) == number
        assert game.number_of(number) == number
        assert game.parse_action(str(action)) == action


def test_neuf_10_legal_action_numbers_match_the_actions_in_order() -> None:
    """legal_actions() lists the actions of legal_action_ids(), in numeric order."""
    game = neuf()
    state = game.new_state(seed=4)
    rng = random.Random(4)
    for _ in range(60):
        ids = state.legal_action_ids()
        assert ids == sorted(ids)
        assert [game.number_of(a) for a in state.legal_actions()] == ids
        assert all(state.is_legal(n) for n in ids)
        assert not any(state.is_legal(n) for n in set(range(54)) - set(ids))
        state.apply_id(rng.choice(ids))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("exchange", "exchange"),
        ("  EXCHANGE ", "exchange"),
        ("Keep", "keep"),
        ("play 7C", "play 7C"),
        ("PLAY 10h", "play 10H"),
        ("play TH", "play 10H"),
        ("play qs", "play QS"),
        ("play A♥", "play AH"),
        ("play   2d", "play 2D"),
    ],
)
def test_neuf_10_parse_action_accepts_variants(text: str, expected: str) -> None:
    """Action text is read case-insensitively, with T for ten, suit symbols and spacing."""
    assert str(neuf().parse_action(text)) == expected


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", InvalidActionError),
        ("play", InvalidActionError),
        ("pass", InvalidActionError),
        ("exchange 7C", InvalidActionError),
        ("keep keep", InvalidActionError),
        ("lead 7C", InvalidActionError),
        ("play 7C 8C", InvalidActionError),
        ("play 1C", InvalidCardError),
        ("play 7X", InvalidCardError),
        (7, InvalidActionError),
    ],
)
def test_neuf_10_parse_action_refuses_anything_else(text: Any, error: type[Exception]) -> None:
    """Text naming no Neuf action is refused with a specific error."""
    with pytest.raises(error):
        neuf().parse_action(text)


# Positions -----------------------------------------------------------------------------------

VARIANTS = [
    {"players": 3},
    {"players": 3, "dealer_exchanges_first": True, "trump_sequence": "HDCS"},
    {"players": 3, "tie_avoidance": True, "trump_sequence": "SHDC-NT"},
    {"players": 4, "trump_sequence": "HCDS-NT"},
]


def _same(a: State, b: State) -> None:
    assert a.position() == b.position()
    assert a.to_move == b.to_move
    assert a.legal_action_ids() == b.legal_action_ids()
    assert [str(x) for x in a.legal_actions()] == [str(x) for x in b.legal_actions()]
    seats: list[int | None] = [None, *range(a.game.num_players)]
    for seat in seats:
        assert a.view(seat) == b.view(seat), seat
    assert a.result == b.result


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(map(str, o.values())))
def test_neuf_position_round_trips_at_random_points(options: dict[str, Any]) -> None:
    """SPEC §0.4 (1): at random points of random games the position reads back to the same
    text, legal actions and every view; both copies, given the same actions, stay equal
    (the seed and chance count fix later deals), to the end of the game."""
    game = neuf(**options)
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        points = 0
        new_deals = 0
        while not state.is_over:
            if rng.random() < 0.03:
                points += 1
                again = game.state_from_position(state.position())
                _same(state, again)
                follow = random.Random(rng.random())
                mirror = state.copy()
                deal = mirror.view(None)["deal_number"]
                for _ in range(30):
                    if mirror.is_over:
                        break
                    number = follow.choice(mirror.legal_action_ids())
                    mirror.apply(number)
                    again.apply(number)
                    _same(mirror, again)
                new_deals += mirror.view(None)["deal_number"] != deal
            state.apply_id(rng.choice(state.legal_action_ids()))
        again = game.state_from_position(state.position())
        _same(state, again)
        # Some copies must have dealt a new deal from the position's seed and chance count.
        assert points > 0 and new_deals > 0


def test_neuf_position_reads_back_the_start_and_the_end_of_a_game() -> None:
    """A fresh deal and a finished game both round-trip; the finished one is over."""
    game = neuf(dealer=2)
    state = game.new_state(seed=9)
    assert state.position().startswith("neuf/1 players=3 sequence=HDCS-NT first=2 ledger=- ")
    _same(state, game.state_from_position(state.position()))
    state.playout(random.Random(9))
    again = game.state_from_position(state.position())
    _same(state, again)
    assert again.is_over and again.to_move is None


# Records -----------------------------------------------------------------------------------


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(map(str, o.values())))
def test_neuf_record_json_replay_is_the_same_game(options: dict[str, Any]) -> None:
    """A record written to JSON and read back replays to the same final state, every view
    included, and records the same actions; a partial game replays to where it stopped."""
    game = neuf(**options)
    for seed in (1, 2):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        halfway = None
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            if halfway is None and len(state.history) == 100:
                halfway = state.copy()
        record = Record.from_json(state.record().to_json())
        assert record.game == "neuf" and len(record.actions) == len(state.history)
        replayed = cardtable.replay(record)
        _same(state, replayed)
        assert replayed.record().to_json() == state.record().to_json()
        assert halfway is not None
        _same(halfway, cardtable.replay(halfway.record().to_json()))


def test_neuf_record_from_a_position_replays_from_that_position() -> None:
    """A game started from a position records it as its start and replays from it."""
    game = neuf(players=4, dealer=1)
    state = game.new_state(seed=3)
    state.apply(state.legal_action_ids()[0])
    start = game.state_from_position(state.position())
    rng = random.Random(3)
    for _ in range(30):
        start.apply(rng.choice(start.legal_actions()))
    record = start.record()
    assert record.start == state.position()
    _same(start, cardtable.replay(record.to_json()))


def test_neuf_record_with_an_illegal_action_is_refused() -> None:
    """A record whose actions break the rules does not replay."""
    state = neuf().new_state(seed=1)
    state.apply("keep")
    data = state.record().to_dict()
    data["actions"] = ["keep", "play 2C", "keep"]
    with pytest.raises(InvalidRecordError):
        cardtable.replay(data)


# Hand-written invalid positions -----------------------------------------------------------------


def _fresh() -> str:
    return neuf(dealer=0).new_state(seed=1).position()


def _replace(text: str, key: str, value: str) -> str:
    words = text.split()
    out = [f"{key}={value}" if w.startswith(key + "=") else w for w in words]
    assert out != words
    return " ".join(out)


def _fields(text: str) -> dict[str, str]:
    return dict(w.split("=", 1) for w in text.split()[1:])


def _bad_positions() -> list[tuple[str, str]]:
    fresh = _fresh()
    piles = _fields(fresh)["piles"].split("/")
    first_cards = [p.split(",") for p in piles]
    # A pile of 12 (its last card moved to the next pile) and a duplicated card.
    moved = [*first_cards]
    moved[1] = [*moved[1], moved[0][-1]]
    moved[0] = moved[0][:-1]
    duplicated = [*first_cards]
    duplicated[0] = [*duplicated[0][:-1], duplicated[1][0]]
    # Dealer 0: exchange order 1, 2, 0; seat 1 leads. A card seat 1 does not hold.
    foreign = first_cards[0][0]
    played = _replace(_replace(fresh, "phase", "play"), "exchanges", "1:k,2:k,0:k")
    return [
        ("header", fresh.replace("neuf/1", "neuf/2")),
        ("other game", fresh.replace("neuf/1", "kow/1")),
        ("missing field", fresh.replace(" seed=1 ", " ")),
        ("unknown field", fresh + " colour=red"),
        ("repeated field", fresh + " seed=1"),
        ("not key=value", fresh + " loose"),
        ("players 5", _replace(fresh, "players", "5")),
        ("players of the other variant", _replace(fresh, "players", "4")),
        ("players not a number", _replace(fresh, "players", "three")),
        ("sequence not this game's", _replace(fresh, "sequence", "HDCS")),
        ("first dealer out of range", _replace(fresh, "first", "3")),
        ("ledger row not 13", _replace(fresh, "ledger", "5,4,3")),
        ("ledger row letters", _replace(fresh, "ledger", "5,4,x")),
        ("ledger after a win", _replace(fresh, "ledger", "13,0,0/4,4,5")),
        ("ledger over but play goes on", _replace(fresh, "ledger", "13,0,0")),
        ("phase unknown", _replace(fresh, "phase", "bidding")),
        ("three piles", _replace(fresh, "piles", "/".join(piles[:3]))),
        ("pile of 12", _replace(fresh, "piles", "/".join(",".join(p) for p in moved))),
        ("card twice", _replace(fresh, "piles", "/".join(",".join(p) for p in duplicated))),
        ("bad card in a pile", _replace(fresh, "piles", "/".join(["1X", *piles[1:]]))),
        ("exchange out of order", _replace(fresh, "exchanges", "2:k")),
        ("exchange choice", _replace(fresh, "exchanges", "1:x")),
        ("four decisions", _replace(fresh, "exchanges", "1:k,2:k,0:k,1:e")),
        ("play before the exchange ends", _replace(fresh, "phase", "play")),
        ("trick in the exchange", _replace(fresh, "trick", f"1:{first_cards[1][0]}")),
        ("card not held", _replace(played, "trick", f"1:{foreign}")),
        ("seat out of range", _replace(played, "trick", f"7:{first_cards[1][0]}")),
        ("short finished trick", _replace(played, "done", f"1:{first_cards[1][0]}")),
        ("seed not a number", _replace(fresh, "seed", "x")),
        ("chance negative", _replace(fresh, "chance", "-1")),
        ("previous trump", fresh + " previous=X:-:-"),
        ("empty", ""),
    ]


@pytest.mark.parametrize(("why", "text"), _bad_positions(), ids=[w for w, _ in _bad_positions()])
def test_neuf_invalid_positions_are_refused(why: str, text: str) -> None:
    """Positions that are not `neuf/1`, or describe no reachable state of this game, are an
    InvalidPositionError: cards must make one pack, decisions follow the order, trick
    cards must be held, the ledger must add up (NEUF-5.2) and have no winner in play."""
    with pytest.raises(InvalidPositionError):
        neuf(dealer=0).state_from_position(text)


def test_neuf_a_position_is_text() -> None:
    """A position that is not a string is refused the same way."""
    with pytest.raises(InvalidPositionError):
        neuf().state_from_position(42)  # type: ignore[arg-type]


def _unreachable_plays() -> list[tuple[str, str]]:
    """Positions whose plays break NEUF-4: dealer 2, seat 0 leads; seat 2 holds diamonds."""
    game = neuf(dealer=2)
    state = game.new_state(seed=7)
    for action in ("exchange", "keep", "keep", "play 2D", "play KD", "play 10D", "play 8C"):
        state.apply(action)
    text = state.position()
    assert " done=0:2D,1:KD,2:10D trick=1:8C " in text
    assert "5D" in state.view(2)["hand"] and "7C" in state.view(2)["hand"]
    return [
        ("led by the wrong seat", text.replace("done=0:2D,1:KD,2:10D", "done=1:KD,0:2D,2:10D")),
        ("a revoke in a finished trick", text.replace("2:10D trick", "2:7C trick")),
        ("trick led by a loser", text.replace("trick=1:8C", "trick=0:3C")),
    ]


@pytest.mark.parametrize(
    ("why", "text"), _unreachable_plays(), ids=[w for w, _ in _unreachable_plays()]
)
def test_neuf_positions_whose_plays_break_the_rules_are_refused(why: str, text: str) -> None:
    """NEUF-4.1 / 4.2 / 4.4: the first trick is led by the dealer's left, each later trick by
    the previous winner, play goes clockwise and follows suit; a position whose tricks
    could not have been played is no reachable state."""
    with pytest.raises(InvalidPositionError):
        neuf(dealer=2).state_from_position(text)


def test_neuf_position_refuses_play_after_a_house_rule_win() -> None:
    """NEUF-8.3 / N-7: once a trick winner's surplus takes them to zero the game is over, so
    a position that has play going on after that trick is no reachable state."""
    game = cardtable.make("neuf", players=3, dealer=0, tie_avoidance=True)
    for seed in range(200):
        state = game.new_state(seed=seed)
        assert isinstance(state, NeufState)
        state.playout(random.Random(seed))
        if not state.ledger.is_over:  # ended by the house rule, mid-deal
            break
    else:
        raise AssertionError("no house-rule finish in 200 games")
    text = state.position()
    assert game.state_from_position(text).is_over
    with pytest.raises(InvalidPositionError, match=r"NEUF-8\.3"):
        game.state_from_position(text.replace("phase=over", "phase=play"))
