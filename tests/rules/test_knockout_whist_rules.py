"""Knockout Whist rules, one piece at a time (SPEC §3, KOW-1 … KOW-11, decisions W-1 … W-11).

Each test builds its situation from a stacked deck (SPEC §0.3: index 0 is dealt first)
or from a position (SPEC §0.4 (1)), and checks what the cited rule says must happen.
Whole-game walkthroughs are in the EXAMPLES scenario tests.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

import cardtable
from cardtable import DECK_52, Card, InvalidRecordError, State
from cardtable.rules.knockout_whist.position import compose_position

PACK = [str(c) for c in DECK_52]


def canon(cards: Iterable[str]) -> list[str]:
    return [str(Card.parse(c)) for c in cards]


def by_index(cards: Iterable[str]) -> list[str]:
    """Cards in index order, the order of hands in views and of legal actions."""
    return [str(c) for c in sorted(Card.parse(c) for c in cards)]


def words(text: str) -> list[str]:
    return text.split()


def rest_of_pack(*used: Iterable[str]) -> list[str]:
    """The pack in index order without the cards named."""
    seen = {c for group in used for c in canon(group)}
    return [c for c in PACK if c not in seen]


def kow_position(
    *,
    hand: int,
    dealer: int,
    trump: str,
    status: str,
    hands: Sequence[str],
    dog: str = "used",
    out: str = "-",
    won: str | None = None,
    cuts: str = "-",
    chooser: str = "-",
    done: str = "-",
    trick: str = "-",
    stacked: Sequence[str] | None = None,
) -> str:
    """A position (docs/knockout-whist.md) whose stock is the rest of the pack."""
    return compose_position(
        hands=hands,
        hand=hand,
        dealer=dealer,
        status=status,
        trump=trump,
        dog_used=dog == "used",
        out=out,
        won=None if won is None else [int(w) for w in won.split(",")],
        cuts=cuts,
        chooser=None if chooser == "-" else int(chooser),
        done=done,
        trick=trick,
        stacked=() if stacked is None else [" ".join(stacked)],
    )


def start(players: int, text: str) -> State:
    return cardtable.make("knockout-whist", players=players).state_from_position(text)


def public(state: State) -> dict[str, Any]:
    view: dict[str, Any] = state.view(None)
    return view


def hand_of(state: State, seat: int) -> list[str]:
    return list(state.view(seat)["hand"])


def legal(state: State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def play(state: State, *moves: str) -> None:
    """Apply moves given as `seat card`, `seat knock` or `seat trump X`, checking the seat."""
    for move in moves:
        seat, _, action = move.partition(" ")
        if action != "knock" and not action.startswith("trump"):
            action = "play " + action
        state.apply(action, seat=int(seat))


# KOW-2.3 The deal -------------------------------------------------------------------------


def test_kow_2_3_hand_one_is_dealt_one_at_a_time_from_the_dealers_left() -> None:
    """KOW-2.3 with dealer 2 of 4: deck cards go to seats 3, 0, 1, 2, 3, … seven rounds;
    then KOW-3.1: card 28 (4H) is turned for trumps. KOW-4.1: seat 3 leads."""
    state = cardtable.make("knockout-whist", players=4, dealer=2).new_state(seed=1, decks=[PACK])
    assert hand_of(state, 3) == ["2C", "6C", "10C", "AC", "5D", "9D", "KD"]
    assert hand_of(state, 0) == ["3C", "7C", "JC", "2D", "6D", "10D", "AD"]
    assert hand_of(state, 1) == ["4C", "8C", "QC", "3D", "7D", "JD", "2H"]
    assert hand_of(state, 2) == ["5C", "9C", "KC", "4D", "8D", "QD", "3H"]
    view = public(state)
    assert view["turned"] == "4H" and view["trump"] == "H"
    assert view["dealer"] == 2 and view["hand_number"] == 1 and view["hand_size"] == 7
    assert state.to_move == 3


# A stacked three-hand game, 4 players, first dealer seat 2. Hand 1 (trump S, turned 2S):
# seat 0 holds six top spades and takes six tricks, seat 2 takes the last with AH, seats 1
# and 3 take none (both get the dog's life, W-6).
HAND_ONE = {
    3: "2D 3D 4D 5D 6D 7D 8D",
    0: "AS KS QS JS 10S 9S 2H",
    1: "2C 3C 4C 5C 6C 7C 8C",
    2: "8H 9H 10H JH QH KH AH",
}
HAND_ONE_PLAY = [
    "3 2D", "0 AS", "1 2C", "2 8H",
    "0 KS", "1 3C", "2 9H", "3 3D",
    "0 QS", "1 4C", "2 10H", "3 4D",
    "0 JS", "1 5C", "2 JH", "3 5D",
    "0 10S", "1 6C", "2 QH", "3 6D",
    "0 9S", "1 7C", "2 KH", "3 7D",
    "0 2H", "1 8C", "2 AH", "3 8D",
]  # fmt: skip
# Hand 2, dealer 3 (KOW-5.4), order 0, 1, 2, 3: the dogs 1 and 3 take a card in the first
# round only, then seats 0 and 2 alternate (KOW-2.3).
HAND_TWO_DEAL = words("AH AC 2H 2D KH 3H QH 4H JH 5H 10H 6H 9H 7H")
# Hand 3, dealer 0, seats 2 and 3 out: seat 1, seat 0, seat 1, … (KOW-2.3).
HAND_THREE_DEAL = words("2C 3C 4C 5C 6C 7C 8C 9C 10C JC")


def deck_after(top: Sequence[str]) -> list[str]:
    return [*top, *rest_of_pack(top)]


def hand_one_deck() -> list[str]:
    order = [3, 0, 1, 2]
    dealt = [HAND_ONE[seat].split()[r] for r in range(7) for seat in order]
    return deck_after([*dealt, "2S"])


def stacked_game() -> State:
    game = cardtable.make("knockout-whist", players=4, dealer=2)
    decks = [hand_one_deck(), deck_after(HAND_TWO_DEAL), deck_after(HAND_THREE_DEAL)]
    return game.new_state(seed=8, decks=decks)


def after_hand_one() -> State:
    state = stacked_game()
    assert public(state)["trump"] == "S" and state.to_move == 3
    play(state, *HAND_ONE_PLAY)
    return state


def test_kow_5_1_w_6_everyone_without_a_trick_gets_the_dogs_life_at_once() -> None:
    """KOW-5.1 / W-6: seats 1 and 3 take no trick in hand 1, so both become DOG and the
    dog's life is used. KOW-3.2: seat 0 took most (6) and chooses. KOW-5.4: seat 3 deals."""
    state = after_hand_one()
    view = public(state)
    assert view["hand_number"] == 2
    assert view["statuses"] == ["active", "dog", "active", "dog"]
    assert view["dog_used"] is True
    assert view["eliminated"] == []
    assert view["dealer"] == 3
    assert view["chooser"] == 0 and view["cuts"] == []


def test_kow_2_3_dogs_take_a_card_in_the_first_round_only() -> None:
    """KOW-2.2 / KOW-2.3: hand 2 dealt by seat 3 from seat 0: round 1 gives seats 0, 1, 2, 3
    a card each; rounds 2-6 skip the dogs 1 and 3, so seats 0 and 2 alternate."""
    state = after_hand_one()
    assert hand_of(state, 0) == ["9H", "10H", "JH", "QH", "KH", "AH"]
    assert hand_of(state, 1) == ["AC"]
    assert hand_of(state, 2) == ["2H", "3H", "4H", "5H", "6H", "7H"]
    assert hand_of(state, 3) == ["2D"]
    assert public(state)["hand_sizes"] == [6, 1, 6, 1]


def test_w_1_trumps_are_named_after_the_deal_by_the_chooser() -> None:
    """KOW-3.2 / KOW-3.3 / W-1: the chooser sees the new hand, then names C, D, H or S
    (no no-trump); then KOW-4.1: the first seat after the dealer still in the game leads."""
    state = after_hand_one()
    view = state.view(0)
    assert view["phase"] == "trump" and view["trump"] is None
    assert len(view["hand"]) == 6
    assert state.to_move == 0
    assert legal(state) == ["trump C", "trump D", "trump H", "trump S"]
    assert state.view(1)["legal_actions"] == []
    play(state, "0 trump C")
    assert public(state)["trump"] == "C"
    assert public(state)["phase"] == "play"
    assert state.to_move == 0  # dealer 3, so seat 0 leads


def test_dog_rules_through_a_whole_hand() -> None:
    """Hand 2 of the stacked game, clubs trumps. KOW-6.3: a dog plays or knocks; a knock
    covers the trick (W-4); a dog who wins is back in (KOW-6.5), its lead passing on;
    on the last trick a dog must play (W-3)."""
    state = after_hand_one()
    play(state, "0 trump C", "0 AH")
    # Dog 1 may play AC even though it holds no heart; or knock.
    assert legal(state) == ["play AC", "knock"]
    play(state, "1 AC", "2 2H")
    assert legal(state) == ["play 2D", "knock"]
    play(state, "3 knock")
    # Dog 1 trumped and won; with no card left it passes the lead to seat 2 (KOW-6.5).
    view = public(state)
    assert view["tricks"][0] == {
        "plays": [[0, "AH"], [1, "AC"], [2, "2H"], [3, "knock"]],
        "winner": 1,
    }
    assert view["tricks_won"] == [0, 1, 0, 0]
    assert state.to_move == 2
    play(state, "2 3H")
    assert legal(state) == ["play 2D", "knock"]
    play(state, "3 knock", "0 KH")
    for high, low in [("QH", "4H"), ("JH", "5H"), ("10H", "6H")]:
        play(state, f"0 {high}", f"2 {low}")
        assert legal(state) == ["play 2D", "knock"]
        play(state, "3 knock")
    # W-4: every seat holding cards acts once per trick (seat 1 has none), then it is taken.
    orders = [[seat for seat, _ in trick["plays"]] for trick in public(state)["tricks"][1:]]
    assert orders == [[2, 3, 0], [0, 2, 3], [0, 2, 3], [0, 2, 3]]
    assert public(state)["tricks_won"] == [4, 1, 0, 0]
    # The last trick: seat 0 leads; the dog may no longer knock (W-3).
    play(state, "0 9H", "2 7H")
    assert state.to_move == 3
    assert legal(state) == ["play 2D"]
    before = state.position()
    with pytest.raises(cardtable.IllegalActionError, match="knock"):
        state.apply("knock")
    assert state.position() == before
    play(state, "3 2D")


def finish_hand_two(state: State) -> None:
    play(state, "0 trump C", "0 AH", "1 AC", "2 2H", "3 knock")
    play(state, "2 3H", "3 knock", "0 KH")
    for lead, low in [("QH", "4H"), ("JH", "5H"), ("10H", "6H")]:
        play(state, f"0 {lead}", f"2 {low}", "3 knock")
    play(state, "0 9H", "2 7H", "3 2D")


def test_kow_5_1_a_winning_dog_returns_a_failed_dog_goes_out_and_the_life_is_not_renewed() -> None:
    """KOW-5.1: dog 1 took a trick, so is ACTIVE again with a full share; dog 3 took none
    and is OUT (KOW-6.6); seat 2, never a dog, took none after the dog's life was used and
    is OUT at once (KOW-6.7, 5.1.4)."""
    state = after_hand_one()
    finish_hand_two(state)
    view = public(state)
    assert view["hand_number"] == 3
    assert view["statuses"] == ["active", "active", "out", "out"]
    assert view["eliminated"] == [[2, 2], [3, 2]]
    assert view["dog_used"] is True
    assert view["chooser"] == 0
    assert not state.is_over


def test_kow_2_3_out_players_are_skipped_in_the_deal() -> None:
    """KOW-2.3 / KOW-5.4: hand 3 is dealt by seat 0 (first seat after dealer 3 that played
    hand 2); seats 2 and 3 are OUT and get nothing, so seat 1 and seat 0 alternate, and
    seat 1, back from the dog's life, gets a full share of 5 (KOW-5.1)."""
    state = after_hand_one()
    finish_hand_two(state)
    view = public(state)
    assert view["dealer"] == 0
    assert hand_of(state, 1) == ["2C", "4C", "6C", "8C", "10C"]
    assert hand_of(state, 0) == ["3C", "5C", "7C", "9C", "JC"]
    assert hand_of(state, 2) == [] and hand_of(state, 3) == []
    assert view["hand_sizes"] == [5, 5, 0, 0]
    play(state, "0 trump D")
    assert state.to_move == 1  # KOW-4.1: the first seat after the dealer still in the game


# KOW-3.1 The turned trump ------------------------------------------------------------------


def test_kow_3_1_kow_ex_8_with_seven_players_card_49_is_turned() -> None:
    """KOW-EX-8: 7 players, dealer 0, 49 cards dealt; card 49 (5S) is turned, so spades are
    trumps, though the two cards below it are aces. The turned card is public and in no
    hand; the two cards left are seen by nobody."""
    deck = [c for c in PACK if c not in ("5S", "AH", "AD")]
    deck = [*deck, "5S", "AH", "AD"]
    state = cardtable.make("knockout-whist", players=7, dealer=0).new_state(seed=1, decks=[deck])
    for seat in [None, *range(7)]:
        view = state.view(seat)
        assert view["trump"] == "S" and view["turned"] == "5S"
        text = json.dumps(view)
        assert '"AH"' not in text and '"AD"' not in text
    held = [c for seat in range(7) for c in hand_of(state, seat)]
    assert len(held) == 49 and "5S" not in held
    assert hand_of(state, 1)[0] == "2C"  # seat 1, the dealer's left, got card 0
    assert state.to_move == 1


# KOW-4 Trick play ---------------------------------------------------------------------------


def three_players_hand_six(trump: str, hands: Sequence[str]) -> State:
    """Hand 6 (two tricks), dealer 2, so seat 0 leads (KOW-4.1)."""
    text = kow_position(hand=6, dealer=2, trump=trump, status="AAA", hands=hands, chooser="0")
    return start(3, text)


@pytest.mark.parametrize(
    ("rule", "trump", "hands", "plays", "winner"),
    [
        ("KOW-1.2: with clubs trumps 9C beats AH", "C", ["AH 2S", "9C 3S", "KH 4S"],
         ["AH", "9C", "KH"], 1),
        ("KOW-4.3: no trump in the trick, the highest of the suit led wins", "C",
         ["2D 2S", "AS 3S", "3D 4S"], ["2D", "AS", "3D"], 2),
        ("KOW-4.3: an off-suit ace that is not a trump never wins", "H",
         ["10S 2C", "AD 3C", "9S 4C"], ["10S", "AD", "9S"], 0),
        ("KOW-4.3: the highest trump wins an over-trumped trick", "H",
         ["KS 2C", "2H 3C", "3H 4C"], ["KS", "2H", "3H"], 2),
        ("KOW-4.3: a trump led is beaten only by a higher trump", "C",
         ["2C 2S", "AS 3S", "3C 4S"], ["2C", "AS", "3C"], 2),
        ("KOW-4.3: ranks within a suit, A high, 10 above 9", "D",
         ["9S 2C", "10S 3C", "2S 4C"], ["9S", "10S", "2S"], 1),
    ],
)  # fmt: skip
def test_trick_winner(
    rule: str, trump: str, hands: list[str], plays: list[str], winner: int
) -> None:
    """KOW-4.3 / KOW-1.2: the highest trump wins, else the highest card of the suit led."""
    state = three_players_hand_six(trump, hands)
    for seat, card in enumerate(plays):
        play(state, f"{seat} {card}")
    view = public(state)
    assert view["tricks"][0]["winner"] == winner, rule
    assert view["tricks_won"][winner] == 1, rule
    assert state.to_move == winner, "KOW-4.4: the winner leads next"


def test_kow_4_2_must_follow_suit_when_able() -> None:
    """KOW-4.2: an ACTIVE player holding the suit led may play only that suit."""
    state = three_players_hand_six("S", ["5H 2C", "9H 8C", "2S KD"])
    assert legal(state) == ["play 2C", "play 5H"]  # the leader may lead anything
    play(state, "0 5H")
    assert legal(state) == ["play 9H"]
    with pytest.raises(cardtable.IllegalActionError, match="legal: play 9H"):
        state.apply("play 8C")
    play(state, "1 9H")
    # Seat 2 has no heart: any card, trump or not.
    assert legal(state) == ["play KD", "play 2S"]


def test_kow_4_2_w_10_trumps_may_be_led_even_on_the_first_trick() -> None:
    """KOW-4.2: no rule against leading trumps (Wikipedia's first-trick and broken-trumps
    rules are not adopted, W-10). Hand 1, trump spades: seat 0 may lead its 6S."""
    state = seven_player_game()
    assert public(state)["trump"] == "S"
    assert state.to_move == 0
    assert legal(state) == ["play " + c for c in by_index(SEVEN_HANDS[0].split())]
    assert "play 6S" in legal(state)
    copy = state.copy()
    play(copy, "0 6S")
    assert public(copy)["trick"] == [[0, "6S"]]


# KOW-6 The dog's life: knocking and the lead ------------------------------------------------


def dogs_on_lead() -> State:
    """Hand 2 of 4, dealer 3, hearts trumps; seats 0 and 1 are dogs, so dog 0 is first to
    lead (KOW-4.1) and dog 1 comes next."""
    text = kow_position(
        hand=2,
        dealer=3,
        trump="H",
        status="DDAA",
        hands=["9C", "2D", "5C 6C 7C 8C 9D 10D", "2C 3C 4C AD KD QD"],
        chooser="2",
    )
    return start(4, text)


def test_kow_6_4_dogs_may_decline_the_lead_and_an_active_player_must_lead() -> None:
    """KOW-6.4: dog 0 knocks, the lead passes to dog 1, who knocks too; seat 2 (ACTIVE)
    must lead. W-4: the knocks cover the trick, so it ends after seats 2 and 3."""
    state = dogs_on_lead()
    assert state.to_move == 0
    assert legal(state) == ["play 9C", "knock"]
    play(state, "0 knock")
    assert state.to_move == 1
    assert legal(state) == ["play 2D", "knock"]
    play(state, "1 knock")
    assert state.to_move == 2
    assert "knock" not in legal(state)
    assert len(legal(state)) == 6
    play(state, "2 5C", "3 2C")
    view = public(state)
    assert view["trick"] == []
    assert view["tricks"][0]["plays"] == [[0, "knock"], [1, "knock"], [2, "5C"], [3, "2C"]]
    assert view["tricks"][0]["winner"] == 2
    assert view["hand_sizes"] == [1, 1, 5, 5]


def test_kow_6_3_a_dog_may_knock_though_it_holds_the_suit_led() -> None:
    """KOW-6.3: dog 0 holds 9C when clubs are led, and may still knock; the trick then
    goes on without it (W-4)."""
    state = dogs_on_lead()
    play(state, "0 knock", "1 knock", "2 5C", "3 2C")
    play(state, "2 6C", "3 3C")
    assert state.to_move == 0
    assert legal(state) == ["play 9C", "knock"]
    play(state, "0 knock", "1 knock")
    assert public(state)["trick"] == []
    assert public(state)["tricks"][-1]["winner"] == 2


def test_kow_ex_10_a_winning_dogs_lead_skips_seats_without_cards() -> None:
    """KOW-EX-10 variant / KOW-6.5: dog 1 leads AS and wins; dog 2 played its only card
    in that trick, so the lead goes past both to seat 3, the next seat holding cards.
    (An OUT seat there cannot happen: dogs exist only in the hand right after the dog's
    life was given, before anyone can be out.)"""
    text = kow_position(
        hand=3,
        dealer=0,
        trump="C",
        status="ADDA",
        hands=["4S 5D 6D 7D 8D", "AS", "2S", "3S 2H 3H 4H 5H"],
        chooser="0",
    )
    state = start(4, text)
    assert state.to_move == 1
    play(state, "1 AS", "2 2S", "3 3S", "0 4S")
    assert public(state)["tricks"][0]["winner"] == 1
    assert public(state)["hand_sizes"] == [4, 0, 0, 4]
    assert state.to_move == 3


def test_kow_6_5_dog_on_the_last_seat_wins_and_the_lead_wraps_round() -> None:
    """KOW-6.5 across the end of the table: dog 3 wins with a trump, seat 0 leads next."""
    text = kow_position(
        hand=4,
        dealer=0,
        trump="D",
        status="AAAD",
        hands=["2S 3S 4S 5S", "6S 7S 8S 9S", "10S JS QS KS", "2D"],
        chooser="2",
    )
    state = start(4, text)
    assert state.to_move == 1
    play(state, "1 9S", "2 KS", "3 2D", "0 5S")
    assert public(state)["tricks"][0]["winner"] == 3
    assert state.to_move == 0


# KOW-5.4 The next dealer -------------------------------------------------------------------


def test_kow_5_4_kow_8_2_a_player_knocked_out_still_deals_and_their_left_leads() -> None:
    """KOW-8.2 / KOW-EX-4: hand 4, dealer P4, P2 and P5 out since hand 3. P1 takes no trick
    and goes out, yet deals hand 5 (P5 is skipped, not having played hand 4); P3, the first
    seat after P1 still in the game, leads hand 5; P1 and the OUT seats get no cards."""
    hand_five = ["AC", "KC", "AS", "KS", "2H", "AH"]
    text = kow_position(
        hand=4,
        dealer=3,
        trump="S",
        status="AOAAO",
        out="1@3,4@3",
        hands=["2H 3C 2S 2D", "", "AH 2C 3S 3D", "3H AC AS KD", ""],
        cuts="2:5H,3:QD",
        chooser="3",
        stacked=deck_after(hand_five),
    )
    state = start(5, text)
    assert state.to_move == 0
    play(state, "0 2H", "2 AH", "3 3H")
    play(state, "2 2C", "3 AC", "0 3C")
    play(state, "3 AS", "0 2S", "2 3S")
    play(state, "3 KD", "0 2D", "2 3D")
    view = public(state)
    assert view["hand_number"] == 5
    assert view["statuses"] == ["out", "out", "active", "active", "out"]
    assert view["eliminated"] == [[1, 3], [4, 3], [0, 4]]
    assert view["dealer"] == 0
    assert view["chooser"] == 3
    assert hand_of(state, 2) == ["AC", "2H", "AS"]
    assert hand_of(state, 3) == ["KC", "AH", "KS"]
    assert view["hand_sizes"] == [0, 0, 3, 3, 0]
    play(state, "3 trump D")
    assert state.to_move == 2


# KOW-5.2 / KOW-7 The end of the game --------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_kow_ex_11_the_game_can_end_before_hand_7(seed: int) -> None:
    """KOW-EX-11: 3 players, dog's life used, hand 3; Y holds AH KH QH JH 10H with hearts
    trumps and takes all five tricks whatever X and Z play. X and Z are OUT and Y wins
    after hand 3: no hand 4 is dealt."""
    rng = random.Random(seed)
    others = rest_of_pack(words("AH KH QH JH 10H"))
    rng.shuffle(others)
    text = kow_position(
        hand=3,
        dealer=2,
        trump="H",
        status="AAA",
        hands=[" ".join(others[:5]), "AH KH QH JH 10H", " ".join(others[5:10])],
        chooser="1",
    )
    state = start(3, text)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    view = public(state)
    assert view["hand_number"] == 3
    assert view["tricks_won"] == [0, 5, 0]
    assert view["statuses"] == ["out", "active", "out"]
    assert view["winner"] == 1
    assert view["eliminated"] == [[0, 3], [2, 3]]
    assert state.record().decks == [], "no deck was drawn for a hand 4"
    result = state.result
    assert result is not None
    assert result.winners == (1,)
    assert result.places == ((1,), (0, 2))
    assert sum(result.returns) == pytest.approx(0)


def test_w_7_hand_7_ends_the_game_and_gives_no_dogs_life() -> None:
    """KOW-5.2 / W-7: hand 7's one trick decides the game, even with the dog's life still
    unused: the two losers are OUT (not DOG), eliminated in hand 7."""
    text = kow_position(
        hand=7,
        dealer=0,
        trump="H",
        dog="unused",
        status="AAA",
        hands=["KS", "AS", "2H"],
        chooser="2",
    )
    state = start(3, text)
    play(state, "1 AS", "2 2H", "0 KS")
    assert state.is_over and state.to_move is None
    view = public(state)
    assert view["statuses"] == ["out", "out", "active"]
    assert view["winner"] == 2
    assert view["eliminated"] == [[0, 7], [1, 7]]
    assert view["dog_used"] is False
    result = state.result
    assert result is not None and result.winners == (2,)
    assert state.legal_actions() == []


# KOW-5.3 / W-2 Cutting for the chooser ----------------------------------------------------


def hand_six_tie(hands: Sequence[str], plays: Sequence[str], hand_seven: Sequence[str]) -> State:
    """Hand 6 of 5 players, dealer P1 (seat 0), dog's life used; after its two tricks the
    two trick-winners are tied, the rest go out, and P2 (seat 1) deals hand 7 (KOW-5.4)."""
    text = kow_position(
        hand=6,
        dealer=0,
        trump="S",
        status="AAAAA",
        hands=hands,
        chooser="0",
        stacked=deck_after(hand_seven),
    )
    state = start(5, text)
    play(state, *plays)
    return state


def test_kow_ex_7_re_cut_when_cut_ranks_tie() -> None:
    """KOW-EX-7 / W-2: tie {P3, P4}, dealer P2; the remainder begins 9C 9D 4S JH. P3 9C and
    P4 9D tie on rank (suits never count), so they cut again: P3 4S, P4 JH, P4 chooses.
    All four cut cards are public."""
    state = hand_six_tie(
        hands=["5C 4D", "2C 5D", "AC 2D", "3C AD", "4C 3D"],
        plays=["1 2C", "2 AC", "3 3C", "4 4C", "0 5C", "2 2D", "3 AD", "4 3D", "0 4D", "1 5D"],
        hand_seven=["KS", "QS", "9C", "9D", "4S", "JH"],
    )
    view = public(state)
    assert view["hand_number"] == 7 and view["dealer"] == 1
    assert view["statuses"] == ["out", "out", "active", "active", "out"]
    assert hand_of(state, 2) == ["KS"] and hand_of(state, 3) == ["QS"]
    assert view["cuts"] == [[[2, "9C"], [3, "9D"]], [[2, "4S"], [3, "JH"]]]
    assert view["chooser"] == 3 and state.to_move == 3
    for seat in range(5):
        assert state.view(seat)["cuts"] == view["cuts"]
    # KOW-11.1: dealt + remainder + cut cards set aside = the whole pack.
    fields = dict(w.split("=", 1) for w in state.position().split()[1:])
    stock = fields["stock"].split(",")
    assert len(stock) == 52 - 2 - 4
    assert not {"9C", "9D", "4S", "JH", "KS", "QS"} & set(stock)


def test_w_2_cut_order_is_clockwise_from_the_new_dealers_left() -> None:
    """W-2: tie {P1, P4} with P2 dealing hand 7: P4 (seat 3) is first clockwise from the
    dealer's left, so P4 gets the deal's first card and cuts first, before P1 (seat 0)."""
    state = hand_six_tie(
        hands=["5C AD", "2C 4D", "3C 5D", "AC 2D", "4C 3D"],
        plays=["1 2C", "2 3C", "3 AC", "4 4C", "0 5C", "3 2D", "4 3D", "0 AD", "1 4D", "2 5D"],
        hand_seven=["KS", "QS", "9C", "9D", "4S", "JH"],
    )
    view = public(state)
    assert view["statuses"] == ["active", "out", "out", "active", "out"]
    assert hand_of(state, 3) == ["KS"] and hand_of(state, 0) == ["QS"]
    assert view["cuts"] == [[[3, "9C"], [0, "9D"]], [[3, "4S"], [0, "JH"]]]
    assert view["chooser"] == 0
    play(state, "0 trump S")
    assert state.to_move == 3  # KOW-4.1: the first seat after dealer P2 still in the game


# The cut runs out of cards: 7 players all tied after hand 1 -----------------------------------

# Dealer 6, so seat 0 leads; trumps spades (JS turned). Each seat takes exactly one trick:
# seats 0, 2, 4, 6 with the ace of the suit led, seats 1, 3, 5 by trumping when void.
SEVEN_HANDS = [
    "AC 8C 7D QD 5H 10H 6S",
    "2C 2S 2D KD 6H JH 7S",
    "3C 9C AD 8D 7H QH 8S",
    "4C 10C 3D 3S 2H KH 9S",
    "5C JC 4D 9D AH 8H 10S",
    "6C QC 5D 10D 3H 4S 5S",
    "7C KC 6D JD 4H 9H AS",
]
SEVEN_PLAY = [
    "0 AC", "1 2C", "2 3C", "3 4C", "4 5C", "5 6C", "6 7C",
    "0 8C", "1 2S", "2 9C", "3 10C", "4 JC", "5 QC", "6 KC",
    "1 2D", "2 AD", "3 3D", "4 4D", "5 5D", "6 6D", "0 7D",
    "2 8D", "3 3S", "4 9D", "5 10D", "6 JD", "0 QD", "1 KD",
    "3 2H", "4 AH", "5 3H", "6 4H", "0 5H", "1 6H", "2 7H",
    "4 8H", "5 4S", "6 9H", "0 10H", "1 JH", "2 QH", "3 KH",
    "5 5S", "6 AS", "0 6S", "1 7S", "2 8S", "3 9S", "4 10S",
]  # fmt: skip
# Hand 2 (dealer 0) deals 42 cards; the remainder's top seven are cut by seats 1 … 6, 0.
# Four aces tie (seats 1-4); only three cards remain, so the seven cut cards are shuffled
# in beneath them before the next round.
FIRST_CUT = ["AS", "AH", "AD", "AC", "2C", "3C", "4C"]
LAST_THREE = ["KS", "KH", "5C"]


def seven_player_game(seed: int = 3) -> State:
    dealt = [SEVEN_HANDS[seat].split()[r] for r in range(7) for seat in range(7)]
    hand_one = [*dealt, "JS", "QS", "KS"]
    hand_two = [*rest_of_pack(FIRST_CUT, LAST_THREE), *FIRST_CUT, *LAST_THREE]
    game = cardtable.make("knockout-whist", players=7, dealer=6)
    return game.new_state(seed=seed, decks=[hand_one, hand_two])


def all_tied() -> State:
    state = seven_player_game()
    play(state, *SEVEN_PLAY)
    return state


def test_all_seven_tie_and_cut_from_the_dealers_left() -> None:
    """KOW-5.3 / W-2: one trick each, so all seven cut, in the order 1 … 6, 0 (dealer 0);
    four aces tie and re-cut. Nobody took no trick, so nobody is a dog (KOW-5.1)."""
    state = all_tied()
    view = public(state)
    assert view["hand_number"] == 2 and view["dealer"] == 0
    assert view["statuses"] == ["active"] * 7 and view["dog_used"] is False
    assert view["cuts"][0] == [
        [s, c] for s, c in zip([1, 2, 3, 4, 5, 6, 0], FIRST_CUT, strict=True)
    ]
    assert [seat for seat, _ in view["cuts"][1]] == [1, 2, 3, 4]
    assert view["chooser"] in (1, 2, 3, 4)


def test_kow_5_3_when_the_remainder_runs_out_the_cut_cards_are_reshuffled_and_recorded() -> None:
    """KOW-5.3: 'if the remainder runs out, the cut cards are shuffled and used as the
    remainder'. The second round needs four cards and three remain: the seven set-aside
    cut cards go, shuffled, beneath KS KH 5C. The shuffle is recorded (`reshuffles`) and a
    replay reproduces it without the seed."""
    state = all_tied()
    record = state.record()
    assert len(record.reshuffles) == 1
    order = record.reshuffles[0]
    assert sorted(order) == sorted(FIRST_CUT)
    view = public(state)
    assert view["cuts"][1] == [[1, "KS"], [2, "KH"], [3, "5C"], [4, order[0]]]
    data = record.to_dict()
    data["seed"] += 1
    again = cardtable.replay(data)
    assert public(again) == view
    assert again.record().reshuffles == record.reshuffles


def test_a_recorded_reshuffle_decides_the_cut_on_replay() -> None:
    """With the reshuffle recorded as 4C 2C AC AS AH AD 3C: round 2 is 1:KS 2:KH 3:5C 4:4C,
    kings tie, round 3 is 1:2C 2:AC, so seat 2 chooses; AS AH AD 3C are left undealt."""
    data = all_tied().record().to_dict()
    data["reshuffles"] = [["4C", "2C", "AC", "AS", "AH", "AD", "3C"]]
    state = cardtable.replay(data)
    view = public(state)
    assert view["cuts"][1:] == [
        [[1, "KS"], [2, "KH"], [3, "5C"], [4, "4C"]],
        [[1, "2C"], [2, "AC"]],
    ]
    assert view["chooser"] == 2 and state.to_move == 2
    fields = dict(w.split("=", 1) for w in state.position().split()[1:])
    assert fields["stock"] == "AS,AH,AD,3C"
    assert state.record().reshuffles == data["reshuffles"]


def test_a_recorded_reshuffle_of_other_cards_does_not_replay() -> None:
    """KOW-5.3 / SPEC §0.4 (3): a recorded reshuffle must be an order of the set-aside cut cards."""
    data = all_tied().record().to_dict()
    data["reshuffles"] = [["AS", "AH", "AD", "AC", "2C", "3C", "5C"]]
    with pytest.raises(InvalidRecordError, match="cut cards"):
        cardtable.replay(data)


# KOW-9 Hidden information --------------------------------------------------------------------


def hidden_from(state: State, seat: int | None) -> set[str]:
    """Cards `seat` may not know: other hands and the undealt cards, less any card a cut
    has shown (after a reshuffle, cards cut face up can be back in the remainder)."""
    players = state.game.num_players
    fields = dict(w.split("=", 1) for w in state.position().split()[1:])
    stock = set(fields["stock"].split(",")) - {"-"}
    others = {c for s in range(players) if s != seat for c in hand_of(state, s)}
    shown = {c for cut in public(state)["cuts"] for _, c in cut}
    return (stock | others) - shown


@pytest.mark.parametrize("players", [2, 4, 7])
def test_kow_9_a_view_holds_its_own_hand_and_nothing_hidden(players: int) -> None:
    """KOW-9: a seat sees its own hand and public facts; no other hand and no undealt card
    appears anywhere in its view. The spectator sees no hand. SPEC §0.4 (4): re-dealing
    what a seat cannot see leaves its view unchanged."""
    rng = random.Random(players)
    game = cardtable.make("knockout-whist", players=players)
    state = game.new_state(seed=players)
    steps = 0
    while not state.is_over:
        if steps % 3 == 0:
            for seat in [None, *range(players)]:
                view = state.view(seat)
                # The finished hand's tricks name cards of the previous deal, not this one's.
                text = json.dumps({k: v for k, v in view.items() if k != "previous_hand"})
                leaked = [c for c in hidden_from(state, seat) if f'"{c}"' in text]
                assert leaked == [], (seat, leaked)
                if seat is None:
                    assert "hand" not in view and "legal_actions" not in view
                else:
                    own = view["hand"]
                    assert len(own) == public(state)["hand_sizes"][seat]
                    expected = legal(state) if seat == state.to_move else []
                    assert view["legal_actions"] == expected
                    redealt = state.resample_hidden(seat, random.Random(steps))
                    assert redealt.view(seat) == view
        state.apply(rng.choice(state.legal_actions()))
        steps += 1


def test_kow_9_the_turned_card_and_cuts_are_public() -> None:
    """KOW-9: the trump suit, the turned card and cut cards are in every view."""
    state = all_tied()
    cuts = public(state)["cuts"]
    assert cuts
    for seat in range(7):
        assert state.view(seat)["cuts"] == cuts
    first = seven_player_game()
    for seat in [None, *range(7)]:
        assert first.view(seat)["turned"] == "JS"
        assert first.view(seat)["trump"] == "S"


# KOW-EX-1's deck (EXAMPLES.md): dealer P1 = seat 0, diamonds turned.
EX_1_DECK = (
    "7C 9C 4C JD 10C 3H 8D 4H KH 2H 6S AS 3S 4S 5S 10S KS 7S 8S 9S QC 5C 6C 5H 8C 6H 2S AH "
    "7H 8H 3C QS 2C 9H KC 3D JC AC 2D 4D 5D 6D 7D 9D 10D QD KD AD 10H JH QH JS"
).split()
EX_1_TRICKS = (
    "7C 9C 4C JD 10C / KH 2H 3H 8D 4H / AS 3S 4S 5S 6S / KS 7S 8S 9S 10S / "
    "5C 6C 5H 8C QC / 6H 2S AH 7H 8H / 2C 9H KC 3C QS"
)


def test_kow_9_the_finished_hand_stays_on_view_after_the_next_deal() -> None:
    """KOW-9 (every card played and tricks won are public): once hand 1 of KOW-EX-1 ends
    and hand 2 is dealt, every view still shows hand 1's tricks, winners and totals, and
    the position notation carries them (round trip)."""
    game = cardtable.make("knockout-whist", players=5, dealer=0)
    state = game.new_state(seed=1, decks=[EX_1_DECK])
    assert state.view(None)["previous_hand"] is None
    for trick in EX_1_TRICKS.split("/"):
        for card in trick.split():
            state.apply(f"play {card}")
    assert state.view(None)["hand_number"] == 2
    for seat in (None, 0, 2):
        previous = state.view(seat)["previous_hand"]
        assert previous["hand_number"] == 1 and previous["trump"] == "D"
        assert previous["tricks_won"] == [1, 1, 3, 1, 1]
        assert [t["winner"] for t in previous["tricks"]] == [4, 2, 2, 2, 1, 3, 0]
        assert [c for _, c in previous["tricks"][-1]["plays"]] == ["2C", "9H", "KC", "3C", "QS"]
    again = game.state_from_position(state.position())
    assert again.position() == state.position()
    assert again.view(None)["previous_hand"] == state.view(None)["previous_hand"]
