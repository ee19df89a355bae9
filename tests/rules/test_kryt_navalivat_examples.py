"""Kryt'-navalivat' worked examples: KRYT-EX-1 … KRYT-EX-9 of rules/EXAMPLES.md, Part 2.

Seats A, B, C are 0, 1, 2, clockwise. KRYT-EX-1 is dealt from its stacked deck; the other
scenarios start from constructed states written in the ``kryt/1`` position notation with
``compose_position`` (``position.py``). Where a scenario gives only the top of the pile
("[…, JH]") or leaves the rest of the pack unplaced, the unused cards fill the place
marked ``…``, in pack order (clubs 6 … A, then diamonds, hearts, spades), so every
constructed state holds the 36-card pack once (KRYT-11.1). Expected facts come from
EXAMPLES.md and SPEC.md §2, not from the engine's own output. The engine is two-step
(KRYT-4.6): ``BEAT(b, c)`` is ``beat b`` then ``cover c`` by the same player.
"""

from __future__ import annotations

import pytest

import cardtable
from cardtable.cards import Card
from cardtable.errors import GameOverError
from cardtable.rules.kryt_navalivat import KrytNavalivat
from cardtable.rules.kryt_navalivat.beating import PERMANENT_ANTI, PERMANENT_TRUMP, beats
from cardtable.rules.kryt_navalivat.state import KrytNavalivatState
from cardtable.session import Session
from kryt_navalivat_pieces import (
    EX_1_DECK,
    FILL,
    PACK,
    assert_conserved,
    cards,
    compose_position,
    hand,
    legal,
    pile,
    position_state,
    refused,
)

A, B, C = 0, 1, 2


# Readable pieces ------------------------------------------------------------------------------


# KRYT-EX-1 ------------------------------------------------------------------------------------


# (actions, A, B, C, pile bottom first, stock count, next seat, next mode), EX-1's table
# with the unchanged hands written out.
EX_1_STEPS: list[tuple[list[str], str, str, str, str, int, int, str]] = [
    ([], "7D 9S 10D", "KD 10S 6H", "9C 8S KC", "", 27, A, "lead"),
    (["lead 7D"], "9S 10D QS", "KD 10S 6H", "9C 8S KC", "7D", 26, B, "respond"),
    (["beat KD", "cover 10S"], "9S 10D QS", "6H 7H 8H", "9C 8S KC", "7D KD 10S", 24, C, "respond"),
    (
        ["beat 9C", "cover 8S"],
        "9S 10D QS",
        "6H 7H 8H",
        "KC 9H 10H",
        "7D KD 10S 9C 8S",
        22,
        A,
        "respond",
    ),
    (
        ["beat 9S", "cover 10D"],
        "QS 7C JH",
        "6H 7H 8H",
        "KC 9H 10H",
        "7D KD 10S 9C 8S 9S 10D",
        20,
        B,
        "respond",
    ),
    (["take"], "QS 7C JH", "6H 7H 8H 10D", "KC 9H 10H", "7D KD 10S 9C 8S 9S", 20, C, "respond"),
    (["take"], "QS 7C JH", "6H 7H 8H 10D", "KC 9H 10H 9S", "7D KD 10S 9C 8S", 20, A, "respond"),
    (
        ["beat QS", "cover 7C"],
        "JH QH KH",
        "6H 7H 8H 10D",
        "KC 9H 10H 9S",
        "7D KD 10S 9C 8S QS 7C",
        18,
        B,
        "respond",
    ),
    (
        ["take"],
        "JH QH KH",
        "6H 7H 8H 10D 8S QS 7C",
        "KC 9H 10H 9S",
        "7D KD 10S 9C",
        18,
        C,
        "respond",
    ),
    (
        ["beat KC", "cover 9S"],
        "JH QH KH",
        "6H 7H 8H 10D 8S QS 7C",
        "9H 10H AH",
        "7D KD 10S 9C KC 9S",
        17,
        A,
        "respond",
    ),
]

# Legal actions the scenario lists, before the step of that number (1-based); the two-step
# engine lists C's BEAT(KC, x) of step 6 as "beat KC" (its covers are checked below).
EX_1_LEGAL = {
    1: {"lead 7D", "lead 9S", "lead 10D"},  # KRYT-4.1: any card on an empty pile
    5: {"take"},
    6: {"beat KC", "take"},
    8: {"take"},
    9: {"beat KC", "take"},
}


def ex_1_state() -> KrytNavalivatState:
    game = KrytNavalivat(players=3, dealer=C)
    return game.new_state(seed=1, decks=[EX_1_DECK.replace("|", " ").split()])


def assert_step(state: KrytNavalivatState, step: int) -> None:
    _, a, b, c, pile_text, stock, seat, mode = EX_1_STEPS[step]
    assert [hand(state, s) for s in (A, B, C)] == [set(cards(x)) for x in (a, b, c)], step
    assert pile(state) == cards(pile_text), step
    assert state.stock_count == stock == state.view(None)["stock"], step
    assert (state.to_move, state.mode) == (seat, mode), step
    assert_conserved(state)


def test_kryt_navalivat_ex_1_the_deal_gives_the_listed_hands_trump_card_and_stock() -> None:
    """KRYT-EX-1 step 0, KRYT-2.3-2.5, K-15: dealer C deals A, B, C three rounds; 8C is
    turned, so clubs are trumps; the stock is 27 with the turned card; A moves first."""
    state = ex_1_state()
    assert_step(state, 0)
    public = state.view(None)
    assert (public["trump"], public["trump_card"], public["dealer"]) == ("C", "8C", C)
    assert legal(state) == EX_1_LEGAL[1]


def test_kryt_navalivat_ex_1_the_three_player_example_step_by_step() -> None:
    """KRYT-EX-1 steps 1-9: hands, pile, stock count and next player after every turn; the
    legal actions the scenario lists; no draw between a beat and its cover (K-1)."""
    state = ex_1_state()
    for step in range(1, len(EX_1_STEPS)):
        actions = EX_1_STEPS[step][0]
        if step in EX_1_LEGAL:
            assert legal(state) == EX_1_LEGAL[step], step
        stock_before = state.stock_count
        for action in actions:
            mover = state.to_move
            state.apply(action)
            if action.startswith("beat"):
                # K-1: the cover is due from the same player and nothing was drawn yet.
                assert (state.to_move, state.mode) == (mover, "cover")
                assert state.stock_count == stock_before
        assert_step(state, step)


def test_kryt_navalivat_ex_1_step_6_c_may_beat_with_kc_and_any_cover_but_picks_up() -> None:
    """KRYT-EX-1 step 6, K-5: C could BEAT(KC, x) for each of his other cards, and picking up
    the beatable 9S is legal too."""
    state = ex_1_state()
    for actions, *_ in EX_1_STEPS[1:6]:
        for action in actions:
            state.apply(action)
    assert hand(state, C) == {"KC", "9H", "10H"} and pile(state)[-1] == "9S"
    beaten = state.copy()
    beaten.apply("beat KC")
    assert legal(beaten) == {"cover 9H", "cover 10H"}
    state.apply("take")
    assert hand(state, C) == {"KC", "9H", "10H", "9S"}


def test_kryt_navalivat_ex_1_step_8_three_cards_move_and_step_9_draws_one() -> None:
    """KRYT-EX-1 steps 8-9: the non-ace trump 7C on top makes B take exactly 3 cards
    (KRYT-5); C, holding four, plays two and draws only one (KRYT-4.4)."""
    state = ex_1_state()
    for actions, *_ in EX_1_STEPS[1:8]:
        for action in actions:
            state.apply(action)
    assert state.view(B)["would_take"] == ["8S", "QS", "7C"]
    sizes = state.view(None)["hand_sizes"]
    state.apply("take")
    assert state.view(None)["hand_sizes"] == [sizes[A], sizes[B] + 3, sizes[C]]
    assert len(hand(state, C)) == 4
    stock = state.stock_count
    state.apply("beat KC")
    state.apply("cover 9S")
    assert stock - state.stock_count == 1
    assert len(hand(state, C)) == 3


def test_kryt_navalivat_ex_1_after_step_9_a_can_only_pick_up_the_9s() -> None:
    """KRYT-EX-1 final check: A (JH QH KH) faces 9S with trumps clubs: PICK_UP only."""
    state = ex_1_state()
    for actions, *_ in EX_1_STEPS[1:]:
        for action in actions:
            state.apply(action)
    assert (state.to_move, pile(state)[-1]) == (A, "9S")
    assert legal(state) == {"take"}


# KRYT-EX-2 and KRYT-EX-3 --------------------------------------------------------------------


@pytest.mark.parametrize("trumps", ["C", "D", "H", "S"])
def test_kryt_navalivat_ex_2_beat_and_cover_with_the_last_cards_is_a_draw_for_any_trump(
    trumps: str,
) -> None:
    """KRYT-EX-2, KRYT-7.3, K-7: A beats 9H with JH and covers with 8C; B's only card KC
    beats 8C, so the hand is drawn at once, with no action from B."""
    state = position_state(compose_position(["JH 8C", "KC"], pile=f"{FILL} 9H", trumps=trumps))
    # JH beats 9H whatever the trumps; 8C does too when clubs are trumps (KRYT-3.1).
    assert legal(state) == {"beat JH", "take"} | ({"beat 8C"} if trumps == "C" else set())
    state.apply("beat JH")
    assert legal(state) == {"cover 8C"}
    state.apply("cover 8C")
    assert state.is_out(A) and state.view(None)["out"] == [A]
    assert state.is_over and state.mode == "over" and state.legal_action_ids() == []
    assert state.loser is None and state.drawn and state.view(None)["draw"] is True
    result = state.result
    assert result is not None and result.winners == () and result.places == ((A, B),)
    assert hand(state, B) == {"KC"}
    refused(state, "beat KC", GameOverError)


def with_hand(
    session: Session[KrytNavalivatState], state: KrytNavalivatState
) -> Session[KrytNavalivatState]:
    """``session`` with ``state`` in place of its dealt hand: a constructed hand's result
    decides the next dealer (KRYT-2.1, KRYT-7.5)."""
    session.hands[-1] = state
    return session


def test_kryt_navalivat_ex_2_in_a_session_the_drawn_hands_dealer_deals_again() -> None:
    """KRYT-EX-2, KRYT-7.5, K-8: after the draw, the next dealer is the dealer of the drawn
    hand, not the seat that went out first."""
    state = position_state(
        compose_position(["JH 8C", "KC"], pile=f"{FILL} 9H", trumps="H", dealer=B)
    )
    state.apply("beat JH")
    state.apply("cover 8C")
    session = with_hand(
        Session(cardtable.make("kryt-navalivat", players=2, dealer=B), seed=3), state
    )
    assert session.next_dealer == B
    following = session.next_hand()
    assert (following.dealer, following.to_move) == (B, A)
    assert session.tally == {"hands": 1, "losses": [0, 0], "draws": 1}


def ex_3_state() -> KrytNavalivatState:
    return position_state(compose_position(["JH 8C AC", "KC"], pile=f"{FILL} 9H", trumps="D"))


def test_kryt_navalivat_ex_3_a_beats_with_the_last_card_so_a_loses_though_ac_beats_kc() -> None:
    """KRYT-EX-3, KRYT-7.3: A BEAT(JH, 8C); B's legal actions are BEAT(KC) with no cover and
    PICK_UP; B beats with his last card and is out; A is the fool, although AC beats KC."""
    state = ex_3_state()
    state.apply("beat JH")
    state.apply("cover 8C")
    assert pile(state)[-3:] == ["9H", "JH", "8C"]
    assert (state.to_move, state.mode) == (B, "respond")
    assert legal(state) == {"beat KC", "take"}
    state.apply("beat KC")  # B's last card: no cover is due (KRYT-4.2a)
    assert state.is_out(B) and state.is_over
    assert state.loser == A and not state.drawn
    assert hand(state, A) == {"AC"} and pile(state)[-1] == "KC"
    assert beats(Card("AC").index, Card("KC").index, trump=1)  # diamonds: AC is higher
    result = state.result
    assert result is not None and result.winners == (B,) and result.places == ((B,), (A,))


def test_kryt_navalivat_ex_3_in_a_session_the_fool_deals_next() -> None:
    """KRYT-EX-3, KRYT-2.1: A, the fool, deals the next hand; B moves first in it."""
    state = ex_3_state()
    for action in ("beat JH", "cover 8C", "beat KC"):
        state.apply(action)
    session = with_hand(
        Session(cardtable.make("kryt-navalivat", players=2, dealer=B), seed=3), state
    )
    following = session.next_hand()
    assert (following.dealer, following.to_move) == (A, B)
    assert session.tally == {"hands": 1, "losses": [1, 0], "draws": 0}


# KRYT-EX-4 ------------------------------------------------------------------------------------


def test_kryt_navalivat_ex_4_determinate_part_for_any_cards_below_9h() -> None:
    """KRYT-EX-4 steps 1-2 (K-12), which hold whatever lies below 9H: A BEAT(JH, AC); B can
    only pick up (KC is lower, no diamond); B takes 1 card; A faces his own JH and can only
    pick up (8C is neither a higher heart nor a trump)."""
    state = ex_3_state()
    state.apply("beat JH")
    state.apply("cover AC")
    assert legal(state) == {"take"}
    state.apply("take")
    assert hand(state, B) == {"KC", "AC"} and hand(state, A) == {"8C"}
    assert pile(state)[-2:] == ["9H", "JH"]
    assert (state.to_move, state.mode) == (A, "respond")
    assert legal(state) == {"take"}


def test_kryt_navalivat_ex_4_completion_assuming_the_pile_is_exactly_9h_b_loses() -> None:
    """KRYT-EX-4's completion under its stated assumption, the pile exactly [9H]: then B has
    one legal action at each of his turns and ends the fool with 4 cards (KRYT-7.3).

    With the pile exactly [9H] the other 31 cards of the pack lie nowhere, so no ``kryt/1``
    position (which holds the pack once, KRYT-11.1) describes it: the test takes those cards
    off the bottom of a constructed pile and plays on."""
    state = ex_3_state()
    del state.pile[:-1]
    assert pile(state) == ["9H"]
    state.apply("beat JH")  # step 1
    state.apply("cover AC")
    assert state.to_move == B and legal(state) == {"take"}
    state.apply("take")  # step 2
    state.apply("take")  # step 3: A takes JH
    assert hand(state, A) == {"8C", "JH"} and pile(state) == ["9H"]
    assert state.to_move == B and legal(state) == {"take"}
    state.apply("take")  # step 4
    assert pile(state) == [] and hand(state, B) == {"KC", "AC", "9H"}
    assert (state.to_move, state.mode) == (A, "lead")
    state.apply("lead JH")  # step 5
    assert state.to_move == B and legal(state) == {"take"}
    state.apply("take")  # step 6
    assert pile(state) == [] and (state.to_move, state.mode) == (A, "lead")
    assert hand(state, A) == {"8C"}
    state.apply("lead 8C")  # step 7
    assert hand(state, B) == {"KC", "AC", "9H", "JH"}
    assert state.is_out(A) and state.loser == B and not state.drawn


# KRYT-EX-5 ------------------------------------------------------------------------------------

# (case, trumps, pile before, cards taken, pile after, next mode)
EX_5_ROWS = [
    ("a non-trump on top", "H", "6S 7S KS", "KS", "6S 7S", "respond"),
    ("b non-ace trump, pile over 3", "H", "6C 7C 8C 9C 10H", "8C 9C 10H", "6C 7C", "respond"),
    ("c non-ace trump, pile of 3 or fewer", "H", "9C QH", "9C QH", "", "lead"),
    ("d ace of trumps", "H", "6S 7S 8S 9S AH", "6S 7S 8S 9S AH", "", "lead"),
    ("e permanent, AS on top", "permanent", "6H 7D AS", "AS", "6H 7D", "respond"),
]


@pytest.mark.parametrize(
    ("case", "trumps", "before", "taken", "after", "mode"),
    EX_5_ROWS,
    ids=[row[0].split()[0] for row in EX_5_ROWS],
)
def test_kryt_navalivat_ex_5_how_many_cards_a_pick_up_takes(
    case: str, trumps: str, before: str, taken: str, after: str, mode: str
) -> None:
    """KRYT-EX-5, KRYT-5, KRYT-8.3: the cards taken go to the taker's hand, in public; the
    next player faces the new top card, or leads on an empty pile (KRYT-4.5)."""
    permanent = trumps == "permanent"
    text = compose_position(
        ["JD QD KD", "JC QC KC"],
        pile=before,
        stock=FILL,
        faceup="" if permanent else "7H",
        trumps=trumps,
    )
    state = position_state(text, "permanent" if permanent else "turned")
    stock = state.stock_count
    assert state.view(A)["would_take"] == cards(taken)
    state.apply("take")
    assert hand(state, A) == {"JD", "QD", "KD", *cards(taken)}
    assert set(state.view(B)["known"][A]) == set(cards(taken))
    assert pile(state) == cards(after)
    assert (state.to_move, state.mode) == (B, mode)
    assert state.stock_count == stock  # 4 or more cards after a pick-up: no draw (KRYT-4.4)


# KRYT-EX-6 ------------------------------------------------------------------------------------


def test_kryt_navalivat_ex_6_three_players_the_next_player_gets_the_free_card() -> None:
    """KRYT-EX-6, KRYT-4.3, K-6: A beats the cover JH with his only card QH and is out; B and
    C remain, so B is not obliged to beat: lead 7S, lead 8S or pick up; C then responds."""
    state = position_state(compose_position(["QH", "7S 8S", "9D 10D"], pile=f"{FILL} JH"))
    state.apply("beat QH")
    assert state.is_out(A) and not state.is_over
    assert (state.to_move, state.mode) == (B, "free")
    assert legal(state) == {"lead 7S", "lead 8S", "take"}
    state.apply("lead 7S")
    assert pile(state)[-3:] == ["JH", "QH", "7S"]
    assert (state.to_move, state.mode) == (C, "respond")
    assert legal(state) == {"take"}


def test_kryt_navalivat_ex_6_two_players_no_free_card_b_is_the_fool_at_once() -> None:
    """KRYT-EX-6, KRYT-4.3, KRYT-7.3: with one other player left there is no FREE mode: A
    goes out by beating, so B loses at once."""
    state = position_state(compose_position(["QH", "7S 8S"], pile=f"{FILL} JH"))
    state.apply("beat QH")
    assert state.is_over and state.loser == B and not state.drawn
    assert state.is_out(A) and hand(state, B) == {"7S", "8S"}


# KRYT-EX-7 ------------------------------------------------------------------------------------

EX_7_STOCK = "9C 10C JC QC KC"  # five face-down cards, top first


def ex_7_state(**changes: str) -> KrytNavalivatState:
    """KRYT-EX-7: trumps spades, 10S turned under five face-down cards; A holds 6S 7H 8D and
    leads; B holds the rest of the pack."""
    pieces = {"hand": "6S 7H 8D", "faceup": "10S", "trumps": "S"} | changes
    text = compose_position(
        [pieces["hand"], FILL],
        stock=EX_7_STOCK,
        faceup=pieces["faceup"],
        trumps=pieces["trumps"],
        turn="lead",
    )
    return position_state(text, "permanent" if pieces["trumps"] == "permanent" else "turned")


def test_kryt_navalivat_ex_7_swap_the_six_lead_and_the_six_is_drawn_last() -> None:
    """KRYT-EX-7 steps 1-3, KRYT-6.1, K-9, KRYT-2.5: the swap puts 10S in A's hand and 6S
    under the stock, stock count and trumps unchanged, still A's turn; the lead draws one
    face-down card; the last card drawn from the stock is the 6S."""
    state = ex_7_state()
    assert "swap" in legal(state) and state.can_swap(A)
    state.apply("swap")
    assert hand(state, A) == {"10S", "7H", "8D"}
    public = state.view(None)
    assert (public["trump_card"], public["stock"], public["trump"]) == ("6S", 6, "S")
    assert public["known"][A] == ["10S"]
    assert (state.to_move, state.mode) == (A, "lead") and "swap" not in legal(state)
    state.apply("lead 7H")
    assert hand(state, A) == {"10S", "8D", "9C"} and state.stock_count == 5
    drawn = []
    while state.stock_count:
        assert state.to_move == B
        state.apply("take")  # B takes the single card led; A leads on an empty pile
        assert (state.to_move, state.mode) == (A, "lead")
        before = hand(state, A)
        state.apply(sorted(legal(state))[0])
        drawn += sorted(hand(state, A) - before)
    assert drawn == ["10C", "JC", "QC", "KC", "6S"]
    assert "6S" in state.view(B)["known"][A]  # drawn in everybody's sight


def test_kryt_navalivat_ex_7_i_no_swap_for_a_player_without_the_six() -> None:
    """KRYT-EX-7 (i): B holds no 6S, so SWAP6 is not legal on his turn."""
    state = ex_7_state()
    state.apply("lead 7H")
    assert state.to_move == B and "6S" not in hand(state, B)
    assert "swap" not in legal(state) and not state.can_swap(B)
    refused(state, "swap")


def test_kryt_navalivat_ex_7_ii_no_swap_once_the_turned_card_is_drawn() -> None:
    """KRYT-EX-7 (ii), KRYT-6.2, K-9: A keeps the 6S while drawing the stock; the swap stays
    legal while the turned card is there, even as the stock's only card, and is gone once
    A has drawn it."""
    state = ex_7_state()
    while state.stock_count:
        if state.to_move == B:
            state.apply("take")  # B takes the single card led; A leads again
            continue
        assert "swap" in legal(state)
        leads = sorted(a for a in legal(state) if a.startswith("lead") and a != "lead 6S")
        state.apply(leads[0])
    assert state.view(None)["trump_card"] is None and "10S" in hand(state, A)
    state.apply("take")
    assert state.to_move == A and "6S" in hand(state, A)
    assert "swap" not in legal(state) and not state.can_swap(A)
    refused(state, "swap")


def test_kryt_navalivat_ex_7_iii_no_swap_when_the_turned_card_is_the_six() -> None:
    """KRYT-EX-7 (iii), KRYT-6.2: with the 6S itself turned, no swap is legal for anyone."""
    state = ex_7_state(hand="10S 7H 8D", faceup="6S")
    assert "swap" not in legal(state)
    assert not state.can_swap(A) and not state.can_swap(B)
    refused(state, "swap")


def test_kryt_navalivat_ex_7_iv_no_swap_in_the_permanent_trump_variant() -> None:
    """KRYT-EX-7 (iv), KRYT-8.1: nothing is turned, so the six of trumps (6D) has nothing to
    be swapped for."""
    state = ex_7_state(hand="6D 7H 8D", faceup="", trumps="permanent")
    assert state.stock_count == 5 and "6D" in hand(state, A)
    assert "swap" not in legal(state) and not state.can_swap(A)
    refused(state, "swap")


def test_kryt_navalivat_ex_7_v_no_swap_between_beat_and_cover() -> None:
    """KRYT-EX-7 (v), K-9, KRYT-4.6: the swap comes before the main action; between the
    beating card and its cover only a cover is legal."""
    text = compose_position(
        ["6S 8H 8D", FILL], pile="7H", stock=EX_7_STOCK, faceup="10S", trumps="S"
    )
    state = position_state(text)
    assert "swap" in legal(state)  # before the main action
    state.apply("beat 8H")
    assert state.mode == "cover" and legal(state) == {"cover 6S", "cover 8D"}
    assert "swap" not in legal(state)
    refused(state, "swap")


# KRYT-EX-8 ------------------------------------------------------------------------------------

# (top card, candidate or "any", beats?), the unit table of KRYT-8.2.
EX_8_TABLE = [
    ("9S", "10S", True),
    ("9S", "AD", False),
    ("9H", "6D", True),
    ("9H", "AS", False),
    ("9H", "10H", True),
    ("AS", "any", False),
    ("AD", "any", False),
    ("7D", "8D", True),
]


@pytest.mark.parametrize(("top", "candidate", "expected"), EX_8_TABLE)
def test_kryt_navalivat_ex_8_permanent_trump_beat_table(
    top: str, candidate: str, expected: bool
) -> None:
    """KRYT-EX-8, KRYT-8.2: diamonds trump plain suits, never spades; only a higher spade
    beats a spade; AS and AD beat nothing's way. Checked on the beat relation and on the
    legal actions of a constructed permanent-mode state."""
    others = [c for c in PACK if c != top] if candidate == "any" else [candidate]
    for card in others:
        assert beats(Card(card).index, Card(top).index, PERMANENT_TRUMP, PERMANENT_ANTI) is (
            expected
        ), card
    # A holds the candidates (for "any", every card but one that B keeps) and faces ``top``.
    held = [c for c in others if c != others[-1]] if candidate == "any" else others
    text = compose_position([" ".join(held), FILL], pile=top, trumps="permanent")
    state = position_state(text, "permanent")
    beating = {a for a in legal(state) if a.startswith("beat")}
    assert beating == ({f"beat {c}" for c in held} if expected else set())


def test_kryt_navalivat_ex_8_deal_check_three_each_nothing_turned_stock_of_30() -> None:
    """KRYT-EX-8 deal check, KRYT-8.1: 2 players get 3 cards each, no card is turned, the
    stock is the other 30 cards and the first draw takes the 7th card of the deck."""
    deck = PACK[::-1]  # AS KS QS ... : dealt A, B, A, B, A, B from the top
    game = KrytNavalivat(players=2, dealer=B, trump_mode="permanent")
    state = game.new_state(seed=2, decks=[deck])
    assert hand(state, A) == {"AS", "QS", "10S"} and hand(state, B) == {"KS", "JS", "9S"}
    public = state.view(None)
    assert public["trump_card"] is None and public["stock"] == 30
    assert (public["trump"], public["anti_trump"]) == ("D", "S")
    assert "swap" not in legal(state)
    state.apply("lead AS")
    assert hand(state, A) == {"QS", "10S", deck[6]}


def test_kryt_navalivat_ex_8_picking_up_the_ace_of_diamonds_empties_the_pile() -> None:
    """KRYT-EX-8, KRYT-8.3: AD on top, the pick-up takes the whole pile."""
    text = compose_position(
        ["JC QC KC", "JH QH KH"], pile="6H 7S 9S 8D AD", stock=FILL, trumps="permanent"
    )
    state = position_state(text, "permanent")
    state.apply("take")
    assert pile(state) == [] and (state.to_move, state.mode) == (B, "lead")
    assert hand(state, A) == set(cards("JC QC KC 6H 7S 9S 8D AD"))


# KRYT-EX-9 ------------------------------------------------------------------------------------


def test_kryt_navalivat_ex_9_the_honourable_win_ace_of_trumps_as_the_last_card() -> None:
    """KRYT-EX-9, KRYT-7.6, K-13: A beats B's cover JH with QH and covers with AD, his last
    card; B holds 3 cards and is the fool at once, with no ceremonial pick-up; the pile holds
    the other 33 cards, so B's 3 + the pile = 36 (KRYT-11.1)."""
    state = position_state(compose_position(["QH AD", "7C 8C 9S"], pile=f"{FILL} JH", trumps="D"))
    assert len(pile(state)) == 31
    state.apply("beat QH")
    state.apply("cover AD")
    assert state.is_out(A) and state.is_over
    assert state.loser == B and not state.drawn
    assert state.legal_action_ids() == [] and state.to_move is None
    assert len(pile(state)) == 33 and pile(state)[-2:] == ["QH", "AD"]
    assert len(hand(state, B)) == 3 and len(pile(state)) + 3 == 36
    assert_conserved(state)
    refused(state, "take", GameOverError)
