"""Neuf rules, one piece at a time (SPEC §1, NEUF-1 … NEUF-11, decisions N-1 … N-9).

Each test builds its situation from a stacked deck (SPEC §0.3: index 0 is dealt first)
or from a position (docs/neuf.md), and checks what the cited rule says must happen.
Expected values come from the SPEC's formulas worked out here, not from the engine.
Whole-game walkthroughs are the EXAMPLES scenario tests.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

import cardtable
from cardtable import (
    Card,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidOptionError,
    OutOfTurnError,
)
from cardtable.rules.neuf.state import NeufState

SUITS = "CDHS"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
PACK = [r + s for s in SUITS for r in RANKS]  # index order: 2C … AC, 2D … AS
# NEUF-8.1 and N-1, written out from the SPEC.
SEQUENCES = {
    "HDCS-NT": ["H", "D", "C", "S", "NT"],
    "SHDC-NT": ["S", "H", "D", "C", "NT"],
    "HDSC-NT": ["H", "D", "S", "C", "NT"],
    "HCDS-NT": ["H", "C", "D", "S", "NT"],
    "HDCS": ["H", "D", "C", "S"],
}


def rank(card: str) -> int:
    return RANKS.index(card[:-1])


def suit(card: str) -> str:
    return card[-1]


def by_index(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=PACK.index)


def winner_of(plays: Sequence[Sequence[Any]], trump: str) -> int:
    """NEUF-4.3, written independently: the highest trump, else the highest of the suit led."""
    led = suit(plays[0][1])
    trumps = [p for p in plays if suit(p[1]) == trump]
    pool = trumps or [p for p in plays if suit(p[1]) == led]
    return int(max(pool, key=lambda p: rank(p[1]))[0])


def neuf(**options: Any) -> cardtable.Game:
    return cardtable.make("neuf", **options)


def neuf_state(game: cardtable.Game, **kwargs: Any) -> NeufState:
    state = game.new_state(**kwargs)
    assert isinstance(state, NeufState)
    return state


def from_position(game: cardtable.Game, text: str) -> NeufState:
    state = game.state_from_position(text)
    assert isinstance(state, NeufState)
    return state


def cards_of(mask: int) -> list[str]:
    return [str(Card.from_index(i)) for i in range(52) if mask >> i & 1]


def play(state: NeufState, *moves: str) -> None:
    """Apply moves written `seat card`, checking the seat."""
    for move in moves:
        seat, _, card = move.partition(" ")
        state.apply(f"play {card}", seat=int(seat))


def random_play(state: NeufState, rng: random.Random, steps: int | None = None) -> None:
    done = 0
    while not state.is_over and (steps is None or done < steps):
        state.apply(rng.choice(state.legal_actions()))
        done += 1


def constructed(
    *,
    players: int,
    ledger: Sequence[Sequence[int]],
    hands: Sequence[Sequence[str]],
    winners: Sequence[int],
    trick: Sequence[tuple[int, str]] = (),
    first: int = 0,
    sequence: str = "HDCS-NT",
) -> str:
    """A `neuf/1` position late in a deal, written by hand (docs/neuf.md).

    ``ledger`` gives the completed deals' trick counts, so the scores, deal number, dealer
    and trump follow from it; everyone kept (3 players). ``hands`` are the cards each seat
    holds now. The finished tricks are filled in from the other cards, one suit per trick
    (so every card follows suit), taking suits C, D, H, S in turn; trick ``k`` is won by
    ``winners[k]`` (it gets the highest card) and each trick is led by the previous winner,
    the first by the dealer's left (NEUF-4.1, 4.4). With 3 players, the cards left over are
    the spare.
    """
    deal = len(ledger) + 1
    dealer = (first + deal - 1) % players
    held = {c for h in hands for c in h} | {c for _, c in trick}
    filler = {s: [c for c in PACK if suit(c) == s and c not in held] for s in SUITS}
    played: list[list[str]] = [[] for _ in range(players)]
    tricks = []
    leader = (dealer + 1) % players
    for winner in winners:
        s = next(s for s in SUITS if len(filler[s]) >= players)
        cards, filler[s] = filler[s][:players], filler[s][players:]
        order = [(leader + k) % players for k in range(players)]
        losers = [seat for seat in order if seat != winner]
        owner = {winner: cards[-1], **dict(zip(losers, cards[:-1], strict=True))}
        tricks.append([(seat, owner[seat]) for seat in order])
        for seat in order:
            played[seat].append(owner[seat])
        leader = winner
    for seat, card in trick:
        played[seat].append(card)
    piles = [by_index([*hands[s], *played[s]]) for s in range(players)]
    if players == 3:
        piles.append([c for s in SUITS for c in filler[s]])
        order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
        exchanges = ",".join(f"{s}:k" for s in order)
    else:
        exchanges = "-"
    assert all(len(p) == 13 for p in piles), [len(p) for p in piles]
    fields = {
        "players": players,
        "sequence": sequence,
        "first": first,
        "ledger": "/".join(",".join(map(str, row)) for row in ledger) or "-",
        "phase": "play",
        "exchanges": exchanges,
        "piles": "/".join(",".join(p) for p in piles),
        "done": "/".join(",".join(f"{s}:{c}" for s, c in t) for t in tricks) or "-",
        "trick": ",".join(f"{s}:{c}" for s, c in trick) or "-",
        "seed": 1,
        "chance": deal,
    }
    return "neuf/1 " + " ".join(f"{k}={v}" for k, v in fields.items())


# Scores 3 / 1 / 1 after 22 deals (total 27 - 22 = 5, NEUF-5.4), nobody at or below 0 on
# the way: A is 6 under 9, B and C 8 each. Deal 23 of HDCS-NT is C (index 22 mod 5 = 2),
# dealt by seat (0 + 22) mod 3 = 1, so seat 2 leads trick 1.
LEDGER_3_1_1 = [[5, 4, 4]] * 6 + [[4, 5, 4]] * 8 + [[4, 4, 5]] * 8


# NEUF-2 The deal ----------------------------------------------------------------------------


def test_neuf_2_3_card_i_goes_to_r_i_mod_4_with_the_spare_fourth() -> None:
    """NEUF-2.3 with dealer 1: R = [dealer+1, dealer+2, dealer, SPARE] = [2, 0, 1, spare],
    so card i of the deck goes to R[i mod 4]; each pile has 13 cards."""
    state = neuf_state(neuf(dealer=1), seed=5, decks=[PACK])
    assert state.view(2)["hand"] == PACK[0::4]
    assert state.view(0)["hand"] == PACK[1::4]
    assert state.view(1)["hand"] == PACK[2::4]
    assert cards_of(state.spare) == PACK[3::4]
    assert state.view(None)["hand_sizes"] == [13, 13, 13]
    piles = dict(w.split("=", 1) for w in state.position().split()[1:])["piles"].split("/")
    assert [p.split(",") for p in piles] == [PACK[1::4], PACK[2::4], PACK[0::4], PACK[3::4]]


def test_neuf_8_4_four_players_get_13_each_from_the_dealers_left_with_no_spare() -> None:
    """NEUF-8.4 with dealer 3: one card at a time clockwise from dealer+1 = seat 0; no spare
    and no exchange: the first action is a play by the dealer's left."""
    state = neuf_state(neuf(players=4, dealer=3), seed=5, decks=[PACK])
    for seat in range(4):
        assert state.view(seat)["hand"] == PACK[seat::4]
    view = state.view(None)
    assert view["phase"] == "play" and view["exchange_order"] == []
    assert state.to_move == 0
    assert state.spare == 0
    assert all(str(a).startswith("play ") for a in state.legal_actions())
    with pytest.raises(IllegalActionError):
        state.apply("exchange")


def _long_game(game: cardtable.Game, deals: int) -> NeufState:
    """A random game that lasts at least ``deals`` deals (the first seed that does)."""
    for seed in range(200):
        state = neuf_state(game, seed=seed)
        random_play(state, random.Random(seed))
        if len(state.ledger.rows) >= deals:
            return state
    raise AssertionError(f"no random game of {deals} deals in 200 seeds")


@pytest.mark.parametrize("name", sorted(SEQUENCES))
@pytest.mark.parametrize("players", [3, 4])
def test_neuf_2_1_2_2_trump_and_dealer_rotate_each_deal(name: str, players: int) -> None:
    """NEUF-2.1 / N-1 / N-2: deal n is played in seq[(n-1) mod len(seq)], the first deal in
    the sequence's first entry; NEUF-2.2: the dealer passes left each deal. Checked on
    every ledger row of a random game of more deals than the cycle, and live at each deal."""
    first = 1
    game = neuf(players=players, dealer=first, trump_sequence=name)
    state = _long_game(game, len(SEQUENCES[name]) + 1)
    expected = SEQUENCES[name]
    rows = state.view(None)["ledger"]
    for n, row in enumerate(rows, start=1):
        assert row["deal"] == n
        assert row["trump"] == expected[(n - 1) % len(expected)]
        assert row["dealer"] == (first + n - 1) % players
    # The same seeds again, looking at each deal as it starts.
    again = neuf_state(game, seed=state.seed)
    rng = random.Random(state.seed)
    seen = []
    while not again.is_over:
        view = again.view(None)
        if view["tricks"] == [] and view["trick"] == [] and view["exchanges"] == []:
            n = view["deal_number"]
            if n not in seen:
                seen.append(n)
                assert view["trump"] == expected[(n - 1) % len(expected)]
                assert view["dealer"] == (first + n - 1) % players
        again.apply(rng.choice(again.legal_actions()))
    assert seen == list(range(1, len(rows) + 1))


# NEUF-3 Exchange --------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
@pytest.mark.parametrize("dealer_first", [False, True])
def test_neuf_3_1_and_8_2_exchange_order(dealer: int, dealer_first: bool) -> None:
    """NEUF-3.1: dealer+1, dealer+2, then the dealer; NEUF-8.2: the dealer, dealer+1,
    dealer+2. One decision each; then NEUF-4.1: dealer+1 leads in both variants."""
    game = neuf(dealer=dealer, dealer_exchanges_first=dealer_first)
    state = neuf_state(game, seed=3)
    if dealer_first:
        order = [dealer, (dealer + 1) % 3, (dealer + 2) % 3]
    else:
        order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
    assert state.view(None)["exchange_order"] == order
    for k, seat in enumerate(order):
        assert state.to_move == seat and state.view(None)["phase"] == "exchange"
        assert [str(a) for a in state.legal_actions()] == ["exchange", "keep"]
        state.apply("keep" if k % 2 else "exchange", seat=seat)
    view = state.view(None)
    assert view["exchanges"] == [[order[0], "exchange"], [order[1], "keep"], [order[2], "exchange"]]
    assert view["phase"] == "play"
    assert state.to_move == (dealer + 1) % 3


def test_neuf_3_2_3_3_exchange_swaps_with_the_current_spare() -> None:
    """NEUF-3.2: EXCHANGE swaps the whole hand for the spare, the old hand becoming the
    spare; NEUF-3.3: a later exchange takes that current spare, not the original one.
    Dealer 1: seat 2 holds PACK[0::4], seat 0 PACK[1::4], seat 1 PACK[2::4], spare PACK[3::4]."""
    state = neuf_state(neuf(dealer=1), seed=5, decks=[PACK])
    state.apply("exchange", seat=2)
    assert state.view(2)["hand"] == PACK[3::4]
    assert cards_of(state.spare) == PACK[0::4]
    state.apply("exchange", seat=0)
    assert state.view(0)["hand"] == PACK[0::4]  # the hand seat 2 put down
    assert cards_of(state.spare) == PACK[1::4]
    state.apply("keep", seat=1)
    assert state.view(1)["hand"] == PACK[2::4]
    assert cards_of(state.spare) == PACK[1::4]
    # NEUF-9: every hand a seat has held this deal, in order.
    assert state.view(2)["held"] == [PACK[0::4], PACK[3::4]]
    assert state.view(0)["held"] == [PACK[1::4], PACK[0::4]]
    assert state.view(1)["held"] == [PACK[2::4]]


def test_neuf_3_4_final_spare_hidden_in_play_and_shown_after_the_deal() -> None:
    """NEUF-3.4 / N-5: the final spare appears in no view during the hand (not even the
    spectator's); once the deal is over, previous_deal shows it to everyone. Seat 1, who
    never held it, is the one checked during play; seat 0 put it down, so it may know it."""
    state = neuf_state(neuf(dealer=1), seed=5, decks=[PACK])
    for move in ("exchange", "exchange", "keep"):
        state.apply(move)
    final_spare = PACK[1::4]
    rng = random.Random(4)
    while state.view(None)["deal_number"] == 1:
        for seat in (None, 1, 2):
            text = json.dumps(state.view(seat))
            assert [c for c in final_spare if f'"{c}"' in text] == [], seat
        assert state.view(None)["previous_deal"] is None
        state.apply(rng.choice(state.legal_actions()))
    for seat in (None, 0, 1, 2):
        previous = state.view(seat)["previous_deal"]
        assert previous["spare"] == final_spare
        assert len(previous["tricks"]) == 13


# NEUF-4 Play --------------------------------------------------------------------------------


# (trump deal: completed deals before it, trump, three plays, the winner): NEUF-4.3 cases.
TRICK_CASES = [
    (0, "H", ["KS", "2S", "AS"], 2),  # no trump in it: highest spade
    (0, "H", ["KS", "2H", "AS"], 1),  # the only trump
    (0, "H", ["KS", "2H", "3H"], 2),  # the higher trump
    (4, "NT", ["KS", "AH", "2S"], 0),  # no trump deal: an off-suit ace cannot win
    (1, "D", ["5C", "AC", "2D"], 2),  # a low trump beats the ace of the suit led
]


@pytest.mark.parametrize(("rows", "trump", "cards", "winner"), TRICK_CASES)
def test_neuf_4_3_trick_winner(rows: int, trump: str, cards: list[str], winner: int) -> None:
    """NEUF-4.3: the highest trump wins, else the highest card of the suit led; in an NT
    deal (deal 5 of HDCS-NT) nothing is trump. NEUF-4.4: the winner leads next."""
    assert winner_of(list(enumerate(cards)), trump) == winner  # the table agrees with 4.3
    extra = ["10H", "JH", "QH"] if suit(cards[0]) == "C" else ["10D", "JD", "QD"]
    hands = [[cards[s], extra[s]] for s in range(3)]
    before = [1, 2, 0] * 3 + [1, 0]
    text = constructed(players=3, ledger=[[5, 4, 4]] * rows, hands=hands, winners=before)
    state = from_position(neuf(), text)
    assert state.view(None)["trump"] == trump
    assert state.to_move == 0
    play(state, *(f"{s} {c}" for s, c in enumerate(cards)))
    view = state.view(None)
    assert view["tricks"][-1]["winner"] == winner
    assert view["tricks_won"][winner] == before.count(winner) + 1
    assert state.to_move == winner


def test_neuf_4_2_must_follow_suit_and_may_play_anything_when_void() -> None:
    """NEUF-4.2: the leader may play any card; a player holding the suit led must follow
    (holding 3S, with KS led, AH is illegal); a player void in it may play any card."""
    hands = [["KS", "2C"], ["3S", "AH"], ["4H", "5D"]]
    text = constructed(players=3, ledger=[], hands=hands, winners=[1, 2, 0] * 3 + [1, 0])
    state = from_position(neuf(), text)
    assert [str(a) for a in state.legal_actions()] == ["play 2C", "play KS"]
    play(state, "0 KS")
    assert [str(a) for a in state.legal_actions()] == ["play 3S"]
    assert not state.is_legal(Card.parse("AH").index)
    play(state, "1 3S")
    assert [str(a) for a in state.legal_actions()] == ["play 5D", "play 4H"]


# NEUF-5 Scoring, checked on random deals ---------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_neuf_5_2_and_8_4_each_deal_scores_tricks_against_the_quota(players: int) -> None:
    """NEUF-5.2: a player taking t tricks changes score by -(t - 4); NEUF-8.4: a team (seats
    0+2, 1+3) by -(t - 6). NEUF-4.4: each trick is led by the previous winner. NEUF-5.4 /
    NEUF-11.7: the total is 27 - n (18 - n) after deal n. Trick winners are recomputed here
    from the plays (NEUF-4.3) for every deal of random games."""
    quota = 4 if players == 3 else 6
    start = 27 if players == 3 else 18
    for seed in range(3):
        state = neuf_state(neuf(players=players), seed=seed)
        rng = random.Random(seed)
        scores = [9] * (3 if players == 3 else 2)
        while not state.is_over:
            deal = state.view(None)["deal_number"]
            trump = state.view(None)["trump"]
            while not state.is_over and state.view(None)["deal_number"] == deal:
                state.apply(rng.choice(state.legal_actions()))
            previous = state.view(None)["previous_deal"]
            tricks = [[(s, c) for s, c in t["plays"]] for t in previous["tricks"]]
            assert len(tricks) == 13 and all(len(t) == players for t in tricks)
            won = [0] * players
            leader = (state.view(None)["ledger"][deal - 1]["dealer"] + 1) % players
            for t in tricks:
                assert t[0][0] == leader
                leader = winner_of(t, trump)
                won[leader] += 1
            side = won if players == 3 else [won[0] + won[2], won[1] + won[3]]
            scores = [s - (t - quota) for s, t in zip(scores, side, strict=True)]
            row = state.view(None)["ledger"][deal - 1]
            assert row["tricks"] == side
            assert row["scores"] == scores
            assert row["total"] == start - deal
        assert state.view(None)["scores"] == scores


# NEUF-6 End of game, from constructed last tricks ------------------------------------------


def test_neuf_6_3_two_at_zero_with_equal_scores_share_the_win() -> None:
    """NEUF-6.3: scores 3/1/1 at the start of deal 23; after 12 tricks A 3, B 5, C 4. C takes
    the last trick: tricks 3/5/5 give 3+1, 1-1, 1-1 = 4/0/0, total 4; B and C share the win.
    Returns: +1 to each winner, -2 to A, summing to zero."""
    winners = [1, 2, 0] * 3 + [1, 1, 2]  # A 3, B 5, C 4; C won trick 12 and leads
    hands = [["2S"], ["3S"], ["AS"]]
    state = from_position(
        neuf(), constructed(players=3, ledger=LEDGER_3_1_1, hands=hands, winners=winners)
    )
    assert state.to_move == 2
    play(state, "2 AS", "0 2S", "1 3S")
    assert state.is_over and state.to_move is None and state.legal_actions() == []
    view = state.view(None)
    assert view["scores"] == [4, 0, 0]
    assert view["winners"] == [1, 2]
    assert view["ledger"][-1]["total"] == 4 and len(view["ledger"]) == 23
    result = state.result
    assert result is not None
    assert result.winners == (1, 2)
    assert result.returns == pytest.approx((-2.0, 1.0, 1.0))
    with pytest.raises(GameOverError):
        state.apply("play 2S")


def test_neuf_6_3_the_lower_of_two_scores_at_zero_wins_alone() -> None:
    """NEUF-6.2/6.3: from 3/1/1, tricks 2/6/5 give 5/-1/0: both B and C are at or below zero;
    B, further below, wins alone. Returns +1 to B and -1/2 to each of the others."""
    winners = [1, 2, 0, 1, 2, 0, 1, 2, 1, 2, 2, 1]  # A 2, B 5, C 5; B won trick 12
    hands = [["2S"], ["AS"], ["3S"]]
    state = from_position(
        neuf(), constructed(players=3, ledger=LEDGER_3_1_1, hands=hands, winners=winners)
    )
    assert state.to_move == 1
    play(state, "1 AS", "2 3S", "0 2S")
    view = state.view(None)
    assert view["scores"] == [5, -1, 0]
    assert view["winners"] == [1]
    result = state.result
    assert result is not None and result.winners == (1,)
    assert result.returns == pytest.approx((-0.5, 1.0, -0.5))
    assert sum(result.returns) == pytest.approx(0.0)


def test_neuf_6_1_nobody_at_zero_the_next_deal_starts() -> None:
    """NEUF-6.1 / NEUF-7: from 3/1/1, tricks 5/4/4 give 2/1/1: nobody at or below zero, so
    deal 24 starts with the dealer one to the left (seat 2) and the next trump (HDCS-NT
    index 23 mod 5 = 3: S), everyone back to 13 cards."""
    winners = [1, 2, 0] * 4  # A 4, B 4, C 4; A won trick 12 and leads
    hands = [["AS"], ["2S"], ["3S"]]
    state = from_position(
        neuf(), constructed(players=3, ledger=LEDGER_3_1_1, hands=hands, winners=winners)
    )
    play(state, "0 AS", "1 2S", "2 3S")
    view = state.view(None)
    assert not state.is_over
    assert view["scores"] == [2, 1, 1]
    assert view["deal_number"] == 24 and view["dealer"] == 2 and view["trump"] == "S"
    assert view["hand_sizes"] == [13, 13, 13] and view["phase"] == "exchange"
    assert state.to_move == 0


# NEUF-8.3 The house rule -----------------------------------------------------------------


def _house_rule_position() -> str:
    """Scores 3/1/1 at the start of deal 23 (trump C); 9 tricks won A 1, B 4, C 4, C last.
    Trick 10: C leads 2H, A must play AH, B must follow with 5H: A wins (2 tricks).
    Trick 11: A leads 2D, B has no diamond and trumps with KC: B's fifth trick."""
    hands = [["AH", "2D", "3D", "4D"], ["KC", "5H", "6H", "7H"], ["2H", "3H", "4H", "8D"]]
    winners = [1, 1, 2, 2, 1, 2, 1, 0, 2]
    return constructed(players=3, ledger=LEDGER_3_1_1, hands=hands, winners=winners)


def test_neuf_8_3_a_fifth_trick_ends_the_game_at_once_and_shortfalls_wait() -> None:
    """NEUF-8.3 / N-7, house rule on: B at 1 with 4 tricks has not won (no surplus yet);
    A taking trick 10 is still short of quota and A's score is not raised mid-hand; B's
    fifth trick gives 1 - 1 = 0 and B wins at once: no more plays, no ledger row, reported
    scores B 0, A and C keep 3 and 1."""
    state = from_position(neuf(tie_avoidance=True), _house_rule_position())
    assert not state.is_over and state.view(None)["tricks_won"] == [1, 4, 4]
    play(state, "2 2H", "0 AH", "1 5H")
    assert not state.is_over
    view = state.view(None)
    assert view["tricks_won"] == [2, 4, 4] and view["scores"] == [3, 1, 1]
    assert state.to_move == 0
    play(state, "0 2D", "1 KC", "2 8D")
    assert state.is_over and state.legal_actions() == []
    view = state.view(None)
    assert view["scores"] == [3, 0, 1]
    assert view["winners"] == [1]
    assert len(view["ledger"]) == 22
    result = state.result
    assert result is not None and result.winners == (1,)
    with pytest.raises(GameOverError):
        state.apply("play 3D")


def test_neuf_8_3_off_by_default_the_deal_is_played_out() -> None:
    """NEUF-8.3 is off by default: the same fifth trick does not end the game; all 13
    tricks are played and scored by NEUF-5.2."""
    state = from_position(neuf(), _house_rule_position())
    play(state, "2 2H", "0 AH", "1 5H", "0 2D", "1 KC", "2 8D")
    assert not state.is_over and state.to_move == 1
    assert state.view(None)["tricks_won"] == [2, 5, 4]
    # Trick 12: B leads 6H, C follows 3H, A has no heart. Trick 13: B 7H, C 4H, A 4D.
    play(state, "1 6H", "2 3H", "0 3D", "1 7H", "2 4H", "0 4D")
    view = state.view(None)
    # Tricks 2/7/4: A 3 + 2 = 5, B 1 - 3 = -2, C 1 + 0 = 1; B wins.
    assert view["ledger"][-1]["tricks"] == [2, 7, 4]
    assert view["scores"] == [5, -2, 1] and view["winners"] == [1]


# NEUF-8.4 Four players in partnership -------------------------------------------------------

# Team scores 1 / 9 after 8 deals of 7 / 6 (total 18 - 8 = 10). Deal 9 of HDCS-NT is S,
# dealt by seat 0, so seat 1 leads trick 1.
LEDGER_TEAMS = [[7, 6]] * 8


@pytest.mark.parametrize(("spade", "team_wins"), [(2, True), (3, False)])
def test_neuf_8_4_team_tricks_score_together_and_a_team_wins(spade: int, team_wins: bool) -> None:
    """NEUF-8.4: after 12 tricks each team has 6. The seat holding the last spade (trump)
    takes trick 13. Seat 2: team 0 (seats 0, 2) has 7, 1 - 1 = 0, and wins: both its seats
    are winners, +1 each, -1 each for the others. Seat 3: team 1 has 7 (9 - 1 = 8), team 0
    has 6 (stays 1); nobody is at zero, so deal 10 starts (dealer 1, trump NT)."""
    winners = [0, 1, 2, 3] * 3  # team 0 has 6, team 1 has 6; seat 3 won trick 12 and leads
    others = iter(["2C", "2D", "2H"])
    hands = [["AS"] if s == spade else [next(others)] for s in range(4)]
    text = constructed(players=4, ledger=LEDGER_TEAMS, hands=hands, winners=winners)
    state = from_position(neuf(players=4), text)
    assert state.view(None)["trump"] == "S" and state.view(None)["scores"] == [1, 9]
    assert state.to_move == 3
    for k in range(4):
        seat = (3 + k) % 4
        state.apply(f"play {hands[seat][0]}", seat=seat)
    view = state.view(None)
    if team_wins:
        assert view["ledger"][-1]["tricks"] == [7, 6]
        assert view["scores"] == [0, 9] and view["winners"] == [0, 2]
        result = state.result
        assert result is not None and result.winners == (0, 2)
        assert result.returns == pytest.approx((1.0, -1.0, 1.0, -1.0))
    else:
        assert view["ledger"][-1]["tricks"] == [6, 7]
        assert view["scores"] == [1, 8] and view["winners"] == []
        assert view["deal_number"] == 10 and view["dealer"] == 1 and view["trump"] == "NT"
        assert state.to_move == 2
    assert view["ledger"][-1]["total"] == 18 - 9


# NEUF-9 Hidden information --------------------------------------------------------------------


def hidden_from(state: NeufState, seat: int | None) -> set[str]:
    """Cards ``seat`` may not know now: other seats' hands and the spare, less the cards of
    every hand it has held this deal (NEUF-9)."""
    hidden = set(cards_of(state.spare))
    for other in range(state.players):
        if other != seat:
            hidden |= set(cards_of(state.hands[other]))
    if seat is not None:
        for held in state.held_hands(seat):
            hidden -= set(cards_of(held))
    return hidden


@pytest.mark.parametrize(
    "options",
    [{}, {"dealer_exchanges_first": True, "tie_avoidance": True}, {"players": 4}],
    ids=["3p", "3p-variants", "4p"],
)
def test_neuf_9_a_view_holds_its_own_hands_and_nothing_hidden(options: dict[str, Any]) -> None:
    """NEUF-9: a seat's view holds its hand and the hands it has held; no other hand and no
    spare card appears anywhere in it (the previous deal's cards aside: they are public
    history). The spectator sees no hand. SPEC §0.4 (4): re-dealing what a seat cannot see
    leaves its view unchanged."""
    game = neuf(**options)
    state = neuf_state(game, seed=11)
    rng = random.Random(11)
    players = state.players
    steps = 0
    while not state.is_over and steps < 400:
        if steps % 7 == 0 or state.view(None)["phase"] == "exchange":
            for seat in [None, *range(players)]:
                view = state.view(seat)
                text = json.dumps({k: v for k, v in view.items() if k != "previous_deal"})
                leaked = [c for c in hidden_from(state, seat) if f'"{c}"' in text]
                assert leaked == [], (seat, leaked)
                if seat is None:
                    assert not {"hand", "held", "legal_actions"} & set(view)
                    continue
                assert view["hand"] == cards_of(state.hands[seat])
                if players == 3:
                    assert view["held"] == [cards_of(h) for h in state.held_hands(seat)]
                    assert view["held"][0] == cards_of(state.piles[seat])
                else:
                    assert "held" not in view
                expected = [str(a) for a in state.legal_actions()] if seat == state.to_move else []
                assert view["legal_actions"] == expected
                assert state.resample_hidden(seat, random.Random(steps)).view(seat) == view
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    assert steps > 100


# Bad input: a specific error, and the state as it was --------------------------------------


def _refused(state: NeufState, error: type[Exception], action: str, seat: int | None = None) -> str:
    before = state.position()
    with pytest.raises(error) as caught:
        state.apply(action, seat=seat)
    assert state.position() == before
    return str(caught.value)


def test_neuf_3_1_an_exchange_decision_out_of_turn_or_twice_is_refused() -> None:
    """NEUF-3.1 / NEUF-11.3: one decision each, in order. Seat 0 cannot decide before seat 2
    (dealer 1's left); seat 2 cannot decide a second time; nobody can exchange once play
    has begun or play a card during the exchange."""
    state = neuf_state(neuf(dealer=1), seed=2)
    message = _refused(state, OutOfTurnError, "exchange", seat=0)
    assert "seat 0" in message and "seat 2" in message
    state.apply("exchange", seat=2)
    _refused(state, OutOfTurnError, "keep", seat=2)
    _refused(state, IllegalActionError, f"play {state.view(0)['hand'][0]}")
    state.apply("keep", seat=0)
    state.apply("keep", seat=1)
    assert state.view(None)["phase"] == "play"
    _refused(state, IllegalActionError, "exchange")
    _refused(state, IllegalActionError, "keep", seat=2)


def test_neuf_4_2_a_card_not_held_and_a_revoke_are_refused() -> None:
    """NEUF-4.2: only a held card can be played, and a player holding the suit led must
    follow it (a revoke is refused) ; the refusal names the legal actions."""
    hands = [["KS", "2C"], ["3S", "AH"], ["4H", "5D"]]
    state = from_position(
        neuf(), constructed(players=3, ledger=[], hands=hands, winners=[1, 2, 0] * 3 + [1, 0])
    )
    _refused(state, IllegalActionError, "play 4H", seat=0)
    play(state, "0 KS")
    message = _refused(state, IllegalActionError, "play AH", seat=1)
    assert "play 3S" in message
    _refused(state, OutOfTurnError, "play 4H", seat=2)


def test_neuf_bad_action_text_is_refused() -> None:
    """Text that names no Neuf action is an InvalidActionError (or InvalidCardError for a
    card that does not exist), the state unchanged."""
    state = neuf_state(neuf(), seed=1)
    for text in ("", "pass", "play", "exchange now", "keep 7C", "bid 3"):
        _refused(state, InvalidActionError, text)
    for text in ("play 1H", "play 7X", "play ZZ"):
        _refused(state, InvalidCardError, text)


def test_neuf_8_1_an_unknown_trump_sequence_names_the_presets() -> None:
    """NEUF-8.1: only the presets (N-1) are accepted; the error lists them."""
    for bad in ("CDHS-NT", "hdcs-nt", "", 5, None):
        with pytest.raises(InvalidOptionError) as caught:
            neuf(trump_sequence=bad)
        for name in SEQUENCES:
            assert name in str(caught.value)


@pytest.mark.parametrize("flag", ["dealer_exchanges_first", "tie_avoidance"])
def test_neuf_8_4_three_player_rules_are_refused_with_four(flag: str) -> None:
    """NEUF-8.4: the partnership game has no exchange (so no NEUF-8.2) and cannot tie (so no
    NEUF-8.3): asking for either with 4 players is an InvalidOptionError."""
    with pytest.raises(InvalidOptionError, match=flag):
        neuf(players=4, **{flag: True})
    assert neuf(players=4, **{flag: False}).num_players == 4


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 5},
        {"players": "3"},
        {"players": 3.0},
        {"players": True},
        {"dealer": 3},
        {"dealer": -1},
        {"dealer": "0"},
        {"players": 4, "dealer": 4},
        {"dealer_exchanges_first": "yes"},
        {"tie_avoidance": 1},
        {"trumps": "HDCS"},
    ],
)
def test_neuf_1_1_bad_options_are_refused(options: dict[str, Any]) -> None:
    """NEUF-1.1 / NEUF-8.4: 3 or 4 players only; the dealer is a seat; the flags are
    booleans; unknown options are refused. Each is an InvalidOptionError."""
    with pytest.raises(InvalidOptionError):
        neuf(**options)


def test_neuf_9_a_redeal_keeps_the_voids_play_has_shown() -> None:
    """NEUF-4.2 / NEUF-9: a seat that did not follow the suit led has none of it, which
    every player saw; re-dealing the hidden cards must respect that, or the re-dealt state
    could not have been reached (and its position would not read back)."""
    game = cardtable.make("neuf", players=3, dealer=0)
    checked = 0
    for seed in range(60):
        state = game.new_state(seed=seed)
        assert isinstance(state, NeufState)
        rng = random.Random(seed)
        while state.to_move is not None and state.deal_number == 1:
            voids = state.voids()
            if any(voids) and state.phase == "play":
                for observer in (None, 0, 1, 2):
                    other = state.resample_hidden(observer, rng)
                    for s in range(3):
                        assert other.hands[s] & voids[s] == 0, (seed, s)
                    assert game.state_from_position(other.position()).position() == (
                        other.position()
                    )
                checked += 1
            state.apply_id(rng.choice(state.legal_action_ids()))
    assert checked > 100
