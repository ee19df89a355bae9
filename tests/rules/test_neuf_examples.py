"""EXAMPLES.md Part 1, played through the engine: NEUF-EX-4, 5, 6 and 8.

Seats A, B, C are 0, 1, 2 (B is A's left). The ledger-level scenarios (NEUF-EX-1, 2, 3,
7) are in ``tests/rules/test_neuf_ledger.py``. Expected facts come from EXAMPLES.md and SPEC.md
§1, not from the engine's own output.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.cards import Card
from cardtable.errors import GameOverError, IllegalActionError, OutOfTurnError
from cardtable.rules.neuf.state import NeufState
from cardtable.rules.tricks import trick_winner

A, B, C = 0, 1, 2

# NEUF-EX-5's stacked deck, top first, dealt to A, B, C, spare in turn (dealer C).
EX_5_DECK = (
    "2H 2C 3C 4C 3H 5C 6C 7C 4H 8C 9C 10C 5H JC QC KC 6H AC 2D 3D 7H 4D 5D 6D "
    "8H 7D 8D 9D 9H 10D JD QD 10H KD AD 2S JH 3S 4S 5S QH 6S 7S 8S KH 9S 10S JS "
    "AH QS KS AS"
).split()
HEARTS = {f"{rank}H" for rank in "2 3 4 5 6 7 8 9 10 J Q K A".split()}
B_DEALT = set("2C 5C 8C JC AC 4D 7D 10D KD 3S 6S 9S QS".split())
C_DEALT = set("3C 6C 9C QC 2D 5D 8D JD AD 4S 7S 10S KS".split())
SPARE_DEALT = set("4C 7C 10C KC 3D 6D 9D QD 2S 5S 8S JS AS".split())


def cards(text: str) -> set[str]:
    return set(text.split())


def hand(state: NeufState, seat: int) -> set[str]:
    return set(state.view(seat)["hand"])


def spare(state: NeufState) -> set[str]:
    return {str(Card.from_index(i)) for i in range(52) if state.spare >> i & 1}


def cards_in(value: Any) -> set[str]:
    """Every card text anywhere in a view."""
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    if isinstance(value, str):
        try:
            return {str(Card.parse(value))}
        except ValueError:
            return set()
    return set()


def ex_5_state(**options: Any) -> NeufState:
    game = cardtable.make("neuf", players=3, dealer=C, **options)
    state = game.new_state(seed=5, decks=[EX_5_DECK])
    assert isinstance(state, NeufState)
    return state


# NEUF-EX-4 --------------------------------------------------------------------------------

# Start-of-hand scores A 3, B 1, C 1 after 22 deals (total 27 - 22 = 5): A takes a fifth
# trick in six deals, B and C in eight each, spread so nobody reaches 0 on the way.
EX_4_TAKERS = [A, B, C] * 6 + [B, C, B, C]
EX_4_LEDGER = "/".join(",".join("5" if s == t else "4" for s in (A, B, C)) for t in EX_4_TAKERS)
# Trump S on deal 23 needs the sequence H, D, S, C, NT (NEUF-8.1): deal 23 is its 3rd entry.
# First dealer B makes C the dealer of deal 23, so A leads trick 1.
EX_4_SEQUENCE = "HDSC-NT"
EX_4_FIRST_DEALER = B

# The hands of the example at trick 10.
EX_4_HANDS = {A: "4C 5C 2H 3H", B: "2S 3S 2C 3C", C: "AS 2D 3D 4D"}
# Nine finished tricks, each led by the previous winner and followed in suit by everyone,
# so the play is legal; winners A, B, B, C, C, B, B, C, C: A 1, B 4, C 4, C won trick 9.
EX_4_DONE = [
    [(A, "AH"), (B, "6H"), (C, "7H")],
    [(A, "6C"), (B, "AC"), (C, "7C")],
    [(B, "AD"), (C, "6D"), (A, "7D")],
    [(B, "8H"), (C, "KH"), (A, "9H")],
    [(C, "KC"), (A, "8C"), (B, "9C")],
    [(C, "8D"), (A, "9D"), (B, "KD")],
    [(B, "QH"), (C, "10H"), (A, "JH")],
    [(B, "10C"), (C, "QC"), (A, "JC")],
    [(C, "QD"), (A, "10D"), (B, "JD")],
]
EX_4_SPARE = "4S 5S 6S 7S 8S 9S 10S JS QS KS 4H 5H 5D"


def ex_4_position() -> str:
    """NEUF-EX-4's constructed state in the ``neuf/1`` notation: every player kept, so the
    piles as dealt are each hand plus the cards that seat played."""
    piles = []
    for seat in (A, B, C):
        played = [card for trick in EX_4_DONE for s, card in trick if s == seat]
        piles.append(",".join([*EX_4_HANDS[seat].split(), *played]))
    piles.append(",".join(EX_4_SPARE.split()))
    done = "/".join(",".join(f"{s}:{card}" for s, card in trick) for trick in EX_4_DONE)
    return " ".join(
        [
            f"neuf/1 players=3 sequence={EX_4_SEQUENCE} first={EX_4_FIRST_DEALER}",
            f"ledger={EX_4_LEDGER} phase=play exchanges=0:k,1:k,2:k",
            f"piles={'/'.join(piles)} done={done} trick=- seed=0 chance=23",
        ]
    )


def ex_4_state(tie_avoidance: bool) -> NeufState:
    game = cardtable.make(
        "neuf", players=3, trump_sequence=EX_4_SEQUENCE, tie_avoidance=tie_avoidance
    )
    state = game.state_from_position(ex_4_position())
    assert isinstance(state, NeufState)
    return state


@pytest.mark.parametrize("tie_avoidance", [False, True], ids=["rule-off", "rule-on"])
def test_neuf_ex_4_constructed_state_matches_the_example(tie_avoidance: bool) -> None:
    """NEUF-EX-4's starting facts: scores 3/1/1, trump S, tricks A 1, B 4, C 4, C to lead
    trick 10, the four-card hands as listed."""
    state = ex_4_state(tie_avoidance)
    view = state.view(None)
    assert view["scores"] == [3, 1, 1]
    assert (view["deal_number"], view["trump"], view["dealer"]) == (23, "S", C)
    assert view["tricks_won"] == [1, 4, 4]
    assert view["to_move"] == C
    assert view["trick"] == []
    for seat, text in EX_4_HANDS.items():
        assert hand(state, seat) == cards(text)


def play_ex_4_trick_10(state: NeufState) -> None:
    """Trick 10: C AS, A 2H (no spades), B 2S (must follow)."""
    state.apply("play AS", seat=C)
    assert set(state.view(A)["legal_actions"]) == {"play 4C", "play 5C", "play 2H", "play 3H"}
    state.apply("play 2H", seat=A)
    assert set(state.view(B)["legal_actions"]) == {"play 2S", "play 3S"}
    with pytest.raises(IllegalActionError):
        state.apply("play 2C", seat=B)
    state.apply("play 2S", seat=B)


def test_neuf_ex_4_house_rule_on_c_wins_after_trick_10() -> None:
    """NEUF-EX-4, NEUF-8.3 ON, decision N-7: C's fifth trick takes C from 1 to 0, so C wins
    at once; A and B keep 3 and 1 (A's shortfall is not scored mid-hand); no ledger row;
    tricks 11-13 are not played."""
    state = ex_4_state(tie_avoidance=True)
    play_ex_4_trick_10(state)
    assert state.is_over
    assert state.winners == (C,)
    assert state.final_scores == (3, 1, 0)
    result = state.result
    assert result is not None and result.winners == (C,)
    view = state.view(None)
    assert view["scores"] == [3, 1, 0]
    assert view["winners"] == [C]
    assert len(view["ledger"]) == 22
    assert len(state.ledger.rows) == 22
    assert state.legal_actions() == []
    for seat in (A, B, C):
        assert state.view(seat)["legal_actions"] == []
    with pytest.raises(GameOverError):
        state.apply("play 2D")


def test_neuf_ex_4_house_rule_off_all_tricks_and_a_shared_win() -> None:
    """NEUF-EX-4 with NEUF-8.3 OFF (the default): all four tricks are played; tricks
    A 3, B 5, C 5, scores 4/0/0, total 4: B and C share the win (NEUF-6.3, N-6)."""
    state = ex_4_state(tie_avoidance=False)
    play_ex_4_trick_10(state)
    assert not state.is_over
    assert state.to_move == C  # C won trick 10 with the ace of trumps
    # Trick 11: C 2D, A 3H (no diamonds), B 3S (no diamonds: trumps) -> B.
    state.apply("play 2D", seat=C)
    assert set(state.view(A)["legal_actions"]) == {"play 4C", "play 5C", "play 3H"}
    state.apply("play 3H", seat=A)
    assert set(state.view(B)["legal_actions"]) == {"play 3S", "play 2C", "play 3C"}
    state.apply("play 3S", seat=B)
    assert state.to_move == B
    # Trick 12: B 2C, C 3D (no clubs), A 4C -> A.
    for seat, card in ((B, "2C"), (C, "3D"), (A, "4C")):
        state.apply(f"play {card}", seat=seat)
    assert state.to_move == A
    # Trick 13: A 5C, B 3C, C 4D -> A.
    for seat, card in ((A, "5C"), (B, "3C"), (C, "4D")):
        state.apply(f"play {card}", seat=seat)
    assert state.is_over
    row = state.ledger.rows[-1]
    assert (row.deal, row.tricks, row.scores, row.total) == (23, (3, 5, 5), (4, 0, 0), 4)
    assert state.final_scores == (4, 0, 0)
    assert state.winners == (B, C)
    result = state.result
    assert result is not None and set(result.winners) == {B, C}
    assert state.legal_actions() == []


# NEUF-EX-5 --------------------------------------------------------------------------------


def test_neuf_ex_5_the_deal() -> None:
    """NEUF-EX-5 (NEUF-2.3): dealer C, so card i goes to [A, B, C, spare][i mod 4]; trump H
    on deal 1 (N-2); the exchange is offered to A, B, then C (NEUF-3.1)."""
    state = ex_5_state()
    assert hand(state, A) == HEARTS
    assert hand(state, B) == B_DEALT
    assert hand(state, C) == C_DEALT
    assert spare(state) == SPARE_DEALT
    view = state.view(None)
    assert (view["deal_number"], view["dealer"], view["trump"]) == (1, C, "H")
    assert view["exchange_order"] == [A, B, C]
    assert view["phase"] == "exchange"
    assert state.to_move == A


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_neuf_ex_5_a_takes_all_13_tricks_whatever_b_and_c_play(seed: int) -> None:
    """NEUF-EX-5 (NEUF-4, NEUF-5.2, NEUF-6.5): all keep; A holds all 13 trumps and takes
    every trick, whatever B and C play; A 0, B 13, C 13, total 26; A wins after one deal.
    On each of A's leads B and C, holding no hearts, may play any card (NEUF-4.2), and A
    may lead any card it holds."""
    rng = random.Random(seed)
    state = ex_5_state()
    for seat in (A, B, C):
        state.apply("keep", seat=seat)
    for trick in range(13):
        assert state.to_move == A, f"A leads trick {trick + 1}"
        assert {str(a) for a in state.legal_actions()} == {f"play {c}" for c in hand(state, A)}
        lead = rng.choice(state.legal_actions())
        state.apply(lead, seat=A)
        for seat in (B, C):
            held = hand(state, seat)
            assert held and not held & HEARTS
            assert {str(a) for a in state.legal_actions()} == {f"play {c}" for c in held}
            state.apply(rng.choice(state.legal_actions()), seat=seat)
        assert state.tricks_won[A] == trick + 1
    assert state.is_over
    row = state.ledger.rows[0]
    assert (row.tricks, row.scores, row.total) == ((13, 0, 0), (0, 13, 13), 26)
    assert len(state.ledger.rows) == 1
    assert state.winners == (A,)
    assert state.final_scores == (0, 13, 13)
    assert state.legal_actions() == []


# NEUF-EX-6 --------------------------------------------------------------------------------


def exchange_chain(dealer_first: bool) -> NeufState:
    """NEUF-EX-6's decisions: A and B exchange, C keeps, in either order (NEUF-8.2)."""
    state = ex_5_state(dealer_exchanges_first=dealer_first)
    script = (
        [(C, "keep"), (A, "exchange"), (B, "exchange")]
        if dealer_first
        else [(A, "exchange"), (B, "exchange"), (C, "keep")]
    )
    for seat, decision in script:
        assert state.to_move == seat
        state.apply(decision, seat=seat)
    return state


def test_neuf_ex_6_the_exchange_chain() -> None:
    """NEUF-EX-6 (NEUF-3.2, NEUF-3.3): A takes the spare and puts the hearts down; B takes
    the hearts; C keeps. Final spare: B's dealt hand."""
    state = ex_5_state()
    state.apply("exchange", seat=A)
    assert hand(state, A) == SPARE_DEALT
    assert spare(state) == HEARTS
    # NEUF-3.1: one decision each; A cannot exchange again, neither now nor later.
    with pytest.raises(OutOfTurnError):
        state.apply("exchange", seat=A)
    state.apply("exchange", seat=B)
    assert hand(state, B) == HEARTS
    assert spare(state) == B_DEALT
    state.apply("keep", seat=C)
    assert hand(state, A) == SPARE_DEALT
    assert hand(state, C) == C_DEALT
    assert spare(state) == B_DEALT
    assert state.view(None)["phase"] == "play"
    assert state.to_move == A  # NEUF-4.1: dealer C, so A leads
    with pytest.raises(IllegalActionError):
        state.apply("exchange", seat=A)
    assert state.view(None)["exchanges"] == [[A, "exchange"], [B, "exchange"], [C, "keep"]]


def test_neuf_ex_6_views_show_held_hands_and_hide_the_spare() -> None:
    """NEUF-EX-6, NEUF-9, NEUF-3.4: A's view holds the hearts it put down; C's view holds
    neither the final spare nor B's cards; the spectator sees no hand at all."""
    state = exchange_chain(dealer_first=False)
    held_by_a = [set(h) for h in state.view(A)["held"]]
    assert held_by_a == [HEARTS, SPARE_DEALT]
    assert [set(h) for h in state.view(B)["held"]] == [B_DEALT, HEARTS]
    c_view = state.view(C)
    assert [set(h) for h in c_view["held"]] == [C_DEALT]
    assert not cards_in(c_view) & (B_DEALT | HEARTS)
    assert cards_in(c_view) == C_DEALT
    assert cards_in(state.view(None)) == set()
    # A legitimately knows B's hand (it put the hearts down), but never the final spare.
    assert not cards_in(state.view(A)) & B_DEALT


@pytest.mark.parametrize("seed", [0, 1])
def test_neuf_ex_6_b_takes_every_trick_and_wins(seed: int) -> None:
    """NEUF-EX-6's play: A leads trick 1; B holds all 13 trumps and takes every trick:
    A 13, B 0, C 13; B wins. The final spare is shown once the deal is over (N-5)."""
    rng = random.Random(seed)
    state = exchange_chain(dealer_first=False)
    assert state.to_move == A
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert state.ledger.rows[0].tricks == (0, 13, 0)
    assert state.final_scores == (13, 0, 13)
    assert state.winners == (B,)
    previous = state.view(C)["previous_deal"]
    assert previous is not None and set(previous["spare"]) == B_DEALT


def test_neuf_ex_6_dealer_first_variant_same_final_position() -> None:
    """NEUF-EX-6 with NEUF-8.2: the order is C, A, B; the first prompt goes to C; C keeps,
    A and B exchange, and the hands and spare end as in the default order."""
    state = ex_5_state(dealer_exchanges_first=True)
    assert state.to_move == C
    assert state.view(None)["exchange_order"] == [C, A, B]
    assert state.view(C)["legal_actions"] == ["exchange", "keep"]
    assert state.view(A)["legal_actions"] == []
    first = exchange_chain(dealer_first=True)
    default = exchange_chain(dealer_first=False)
    for seat in (A, B, C):
        assert hand(first, seat) == hand(default, seat)
    assert spare(first) == spare(default) == B_DEALT
    assert first.to_move == default.to_move == A
    assert first.view(None)["exchanges"] == [[C, "keep"], [A, "exchange"], [B, "exchange"]]


# NEUF-EX-7 --------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_neuf_ex_7_partnership_deal_has_no_exchange(dealer: int) -> None:
    """NEUF-EX-7 (NEUF-8.4): four hands of 13, no spare and no exchange; the first action
    after the deal is a card played by the dealer's left; EXCHANGE and KEEP are illegal."""
    game = cardtable.make("neuf", players=4, dealer=dealer)
    state = game.new_state(seed=dealer)
    view = state.view(None)
    assert view["phase"] == "play"
    assert view["hand_sizes"] == [13, 13, 13, 13]
    assert view["exchange_order"] == []
    assert view["scores"] == [9, 9]
    assert view["quota"] == 6
    leader = (dealer + 1) % 4
    assert state.to_move == leader
    assert {str(a) for a in state.legal_actions()} == {
        f"play {c}" for c in state.view(leader)["hand"]
    }
    for decision in ("exchange", "keep"):
        with pytest.raises(IllegalActionError):
            state.apply(decision)


# NEUF-EX-8 --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trump", "played", "winner"),
    [
        ("H", "KS 2S AS", "AS"),
        ("H", "KS 2H AS", "2H"),
        ("H", "KS 2H 3H", "3H"),
        ("NT", "KS AH 2S", "KS"),
        ("D", "5C AC 2D", "2D"),
    ],
)
def test_neuf_ex_8_trick_resolution(trump: str, played: str, winner: str) -> None:
    """NEUF-EX-8 (NEUF-4.3, NEUF-11 (6)): highest trump, else highest of the suit led;
    in NT an off-suit card never wins."""
    cards_played = played.split()
    plays = [(seat, Card.parse(card).index) for seat, card in enumerate(cards_played)]
    trump_suit = -1 if trump == "NT" else "CDHS".index(trump)
    assert trick_winner(plays, trump_suit) == cards_played.index(winner)
    # The same, led by another seat: the winner is found by card, not by seat.
    rotated = [((seat + 1) % 3, card) for seat, card in plays]
    assert trick_winner(rotated, trump_suit) == (cards_played.index(winner) + 1) % 3


def test_neuf_ex_8_follow_suit_in_a_real_state() -> None:
    """NEUF-EX-8's legality case (NEUF-4.2): B holds 3S, so after the KS lead AH is
    illegal; C, with no spades, may play AH."""
    # Dealer C, all keep, A leads KS; B holds 3S and AH, C holds hearts and AC.
    ex_8 = " ".join(
        [
            "neuf/1 players=3 sequence=HDCS-NT first=2 ledger=- phase=play",
            "exchanges=0:k,1:k,2:k",
            "piles=KS,2C,3C,4C,5C,6C,7C,8C,9C,10C,JC,QC,KC"
            "/3S,AH,2D,3D,4D,5D,6D,7D,8D,9D,10D,JD,QD"
            "/2H,3H,4H,5H,6H,7H,8H,9H,10H,JH,QH,KH,AC"
            "/KD,AD,2S,4S,5S,6S,7S,8S,9S,10S,JS,QS,AS",
            "done=- trick=0:KS seed=0 chance=1",
        ]
    )
    game = cardtable.make("neuf", players=3)
    state = game.state_from_position(ex_8)
    assert state.to_move == B
    assert not state.is_legal(Card.parse("AH").index)
    assert [str(a) for a in state.legal_actions()] == ["play 3S"]
    with pytest.raises(IllegalActionError):
        state.apply("play AH", seat=B)
    state.apply("play 3S", seat=B)
    assert "play AC" in [str(a) for a in state.legal_actions()]
    assert len(state.legal_actions()) == 13  # C has no spade: any of its 13 cards
