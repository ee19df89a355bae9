"""Knockout Whist worked examples: KOW-EX-1 … KOW-EX-11 of rules/EXAMPLES.md, Part 3.

Seats follow the examples: P1 … P5 are seats 0 … 4, clockwise; X, Y, Z are seats 0 … 2.
KOW-EX-1 … KOW-EX-6 are one continuous five-player game (dealer P1). It is played here
as a whole from one stacked deck per hand, and each hand is also played on its own from a
constructed state (the position notation) holding the hands of the example's table.

Decks written "…remainder in any order…" are completed with the remaining cards in index
order (clubs 2 … A, then diamonds, hearts, spades). Trick totals are read from the public
view; the view starts afresh when a hand ends, so a hand's totals are checked just before
its last trick, together with the winner the example gives for that trick, and the effects
of the totals (statuses, dog's life, chooser, cut) are checked after it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

import cardtable
from cardtable.cards import DECK_52
from cardtable.rules.knockout_whist.game import KnockoutWhist
from cardtable.rules.knockout_whist.position import compose_position
from cardtable.rules.knockout_whist.state import KnockoutWhistState

P1, P2, P3, P4, P5 = range(5)
X, Y, Z = range(3)
SEAT_NAMES = {"P1": P1, "P2": P2, "P3": P3, "P4": P4, "P5": P5, "X": X, "Y": Y, "Z": Z}

ALL_CARDS = [str(card) for card in DECK_52]
TRUMP_CHOICES = {"trump C", "trump D", "trump H", "trump S"}


# Readable pieces ------------------------------------------------------------------------------


def cards(text: str) -> list[str]:
    """``"AS 2H | 9C KD"`` -> ``["AS", "2H", "9C", "KD"]``; ``|`` only groups cards for the eye."""
    return text.replace("|", " ").split()


def complete_deck(top: str) -> list[str]:
    """A 52-card stacked deck: ``top`` first, then every other card in index order."""
    head = cards(top)
    return head + [c for c in ALL_CARDS if c not in head]


def plays(line: str) -> list[tuple[int, str]]:
    """``"P2 7C, P1 knock"`` -> ``[(1, "play 7C"), (0, "knock")]``, in playing order."""
    out = []
    for item in line.split(","):
        name, move = item.split()
        out.append((SEAT_NAMES[name], "knock" if move == "knock" else f"play {move}"))
    return out


def seat_cards(line: str) -> str:
    """A trick or cut line in the position notation's ``seat:card`` form (``x`` = knock)."""
    return ",".join(
        f"{seat}:{'x' if action == 'knock' else action.split()[1]}" for seat, action in plays(line)
    )


def position(
    *,
    players: int = 5,
    hand: int,
    dealer: int,
    status: str,
    hands: dict[int, str],
    phase: str = "play",
    trump: str | None = None,
    dog_used: bool = True,
    out: tuple[tuple[int, int], ...] = (),
    won: tuple[int, ...] | None = None,
    cuts: tuple[str, ...] = (),
    chooser: int | None = None,
    turned: str | None = None,
    done: tuple[str, ...] = (),
    trick: str = "",
    stacked: tuple[str, ...] = (),
) -> str:
    """Position text (``kow/1 …``, see position.py) built from the example's pieces.

    The undealt remainder is every card not held, played or cut, in index order.
    """
    return compose_position(
        hands=[hands.get(s, "") for s in range(players)],
        hand=hand,
        dealer=dealer,
        status=status,
        phase=phase,
        trump=trump,
        turned=turned,
        dog_used=dog_used,
        out=",".join(f"{s}@{h}" for s, h in out) or "-",
        won=won,
        cuts="/".join(seat_cards(line) for line in cuts) or "-",
        chooser=chooser,
        done="/".join(seat_cards(line) for line in done) or "-",
        trick=seat_cards(trick) if trick else "-",
        seed=5,
        stacked=[" ".join(complete_deck(deck)) for deck in stacked],
    )


def legal(state: KnockoutWhistState) -> set[str]:
    return {str(action) for action in state.legal_actions()}


def public(state: KnockoutWhistState) -> dict[str, Any]:
    return state.view(None)


def words(value: object) -> set[str]:
    """Every word of every text in a view, e.g. ``{"play", "7C", …}``."""
    if isinstance(value, str):
        return set(value.split())
    if isinstance(value, dict):
        return set().union(*(words(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(words(v) for v in value))
    return set()


def position_field(state: KnockoutWhistState, key: str) -> str:
    fields = dict(word.partition("=")[::2] for word in state.position().split()[1:])
    return fields[key]


# The continuous game of KOW-EX-1 … KOW-EX-6 ------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    line: str
    winner: int
    legal: dict[int, str] = field(default_factory=dict)  # seat -> legal actions stated


@dataclass(frozen=True)
class Hand:
    """One hand of the examples' game, as the example states it."""

    number: int
    deck: str
    dealer: int
    status: str  # at the deal, one letter a seat: A active, D dog, O out
    dog_used: bool
    out: tuple[tuple[int, int], ...]  # (seat, hand) knocked out before this hand
    hands: dict[int, str]
    cuts: tuple[str, ...]
    chooser: int | None
    trump: str
    leader: int
    tricks: tuple[Trick, ...]
    totals: tuple[int, ...]
    turned: str | None = None  # hand 1 only (KOW-3.1)


HAND_1 = Hand(
    number=1,
    deck="7C 9C 4C JD 10C 3H 8D 4H KH 2H 6S AS 3S 4S 5S 10S KS 7S 8S 9S QC 5C 6C 5H 8C 6H "
    "2S AH 7H 8H 3C QS 2C 9H KC | 3D | JC AC 2D 4D 5D 6D 7D 9D 10D QD KD AD 10H JH QH JS",
    dealer=P1,
    status="AAAAA",
    dog_used=False,
    out=(),
    hands={
        P1: "10C 2H 5S 9S 8C 8H KC",
        P2: "7C 3H 6S 10S QC 6H 3C",
        P3: "9C 8D AS KS 5C 2S QS",
        P4: "4C 4H 3S 7S 6C AH 2C",
        P5: "JD KH 4S 8S 5H 7H 9H",
    },
    cuts=(),
    chooser=None,
    trump="D",
    leader=P2,
    tricks=(
        Trick(
            "P2 7C, P3 9C, P4 4C, P5 JD, P1 10C",
            P5,
            {P5: "play JD, play 5H, play 7H, play 9H, play KH, play 4S, play 8S"},
        ),
        Trick(
            "P5 KH, P1 2H, P2 3H, P3 8D, P4 4H",
            P3,
            {
                P3: "play 5C, play 8D, play 2S, play QS, play KS, play AS",
                P4: "play 4H, play AH",
            },
        ),
        Trick("P3 AS, P4 3S, P5 4S, P1 5S, P2 6S", P3),
        Trick("P3 KS, P4 7S, P5 8S, P1 9S, P2 10S", P3),
        Trick("P3 5C, P4 6C, P5 5H, P1 8C, P2 QC", P2),
        Trick("P2 6H, P3 2S, P4 AH, P5 7H, P1 8H", P4),
        Trick("P4 2C, P5 9H, P1 KC, P2 3C, P3 QS", P1),
    ),
    totals=(1, 1, 3, 1, 1),
    turned="3D",
)

HAND_2 = Hand(
    number=2,
    deck="AH 2H 3H 4H 5H 2C AC 3C 4C 5C 5S AS 2S 3S 4S 9S KS 6S 7S 8S 5D AD 2D 3D 4D 9D 6D "
    "KD 7D 8D 6C 7C 8C 9C 10C JC QC KC 10D JD QD 6H 7H 8H 9H 10H JH QH KH 10S JS QS",
    dealer=P2,
    status="AAAAA",
    dog_used=False,
    out=(),
    hands={
        P3: "AH 2C 5S 9S 5D 9D",
        P4: "2H AC AS KS AD 6D",
        P5: "3H 3C 2S 6S 2D KD",
        P1: "4H 4C 3S 7S 3D 7D",
        P2: "5H 5C 4S 8S 4D 8D",
    },
    cuts=(),
    chooser=P3,
    trump="H",
    leader=P3,
    tricks=(
        Trick("P3 AH, P4 2H, P5 3H, P1 4H, P2 5H", P3),
        Trick("P3 2C, P4 AC, P5 3C, P1 4C, P2 5C", P4),
        Trick("P4 AS, P5 2S, P1 3S, P2 4S, P3 5S", P4),
        Trick("P4 KS, P5 6S, P1 7S, P2 8S, P3 9S", P4),
        Trick("P4 AD, P5 2D, P1 3D, P2 4D, P3 5D", P4),
        Trick("P4 6D, P5 KD, P1 7D, P2 8D, P3 9D", P5),
    ),
    totals=(0, 0, 1, 4, 1),
)

HAND_3 = Hand(
    number=3,
    deck="AH JH JC 2D 6H 3S 4S AS 5S 6S KS KH 4H 3H AC 7D 5C",
    dealer=P3,
    status="DDAAA",
    dog_used=True,
    out=(),
    hands={P4: "AH 3S 5S KH AC", P5: "JH 4S 6S 4H 7D", P1: "JC", P2: "2D", P3: "6H AS KS 3H 5C"},
    cuts=(),
    chooser=P4,
    trump="C",
    leader=P4,
    tricks=(
        Trick(
            "P4 AH, P5 JH, P1 JC, P2 knock, P3 6H",
            P1,
            {
                P1: "play JC, knock",
                P2: "play 2D, knock",
            },
        ),
        # P1 won with his only card: the lead passes to P2 (a dog), who knocks, then to P3,
        # who must lead (KOW-6.4, KOW-6.5).
        Trick(
            "P2 knock, P3 AS, P4 3S, P5 4S",
            P3,
            {
                P2: "play 2D, knock",
                P3: "play 3H, play 5C, play KS, play AS",
            },
        ),
        Trick("P3 KS, P4 5S, P5 6S, P2 knock", P3),
        Trick("P3 3H, P4 KH, P5 4H, P2 knock", P4),
        Trick("P4 AC, P5 7D, P2 2D, P3 5C", P4, {P2: "play 2D"}),  # W-3: no knock on the last
    ),
    totals=(1, 0, 2, 2, 0),
)

HAND_4 = Hand(
    number=4,
    deck="2H AH 3H 3C 2C AC 2S 3S AS 2D 3D KD | 5H QD",
    dealer=P4,
    status="AOAAO",
    dog_used=True,
    out=((P2, 3), (P5, 3)),
    hands={P1: "2H 3C 2S 2D", P3: "AH 2C 3S 3D", P4: "3H AC AS KD"},
    cuts=("P3 5H, P4 QD",),
    chooser=P4,
    trump="S",
    leader=P1,
    tricks=(
        Trick("P1 2H, P3 AH, P4 3H", P3),
        Trick("P3 2C, P4 AC, P1 3C", P4),
        Trick("P4 AS, P1 2S, P3 3S", P4),
        Trick("P4 KD, P1 2D, P3 3D", P4),
    ),
    totals=(0, 0, 1, 3, 0),
)

HAND_5 = Hand(
    number=5,
    deck="AC KC AS KS 2H AH",
    dealer=P1,
    status="OOAAO",
    dog_used=True,
    out=((P2, 3), (P5, 3), (P1, 4)),
    hands={P3: "AC AS 2H", P4: "KC KS AH"},
    cuts=(),
    chooser=P4,
    trump="D",
    leader=P3,
    tricks=(
        Trick("P3 AC, P4 KC", P3),
        Trick("P3 AS, P4 KS", P3),
        Trick("P3 2H, P4 AH", P4),
    ),
    totals=(0, 0, 2, 1, 0),
)

HAND_6 = Hand(
    number=6,
    deck="AH KH 2S AS",
    dealer=P3,
    status="OOAAO",
    dog_used=True,
    out=((P2, 3), (P5, 3), (P1, 4)),
    hands={P4: "AH 2S", P3: "KH AS"},
    cuts=(),
    chooser=P3,
    trump="C",
    leader=P4,
    tricks=(Trick("P4 AH, P3 KH", P4), Trick("P4 2S, P3 AS", P3)),
    totals=(0, 0, 1, 1, 0),
)

HAND_7 = Hand(
    number=7,
    deck="AS 2H | 9C KD",
    dealer=P4,
    status="OOAAO",
    dog_used=True,
    out=((P2, 3), (P5, 3), (P1, 4)),
    hands={P3: "AS", P4: "2H"},
    cuts=("P3 9C, P4 KD",),
    chooser=P4,
    trump="H",
    leader=P3,
    tricks=(Trick("P3 AS, P4 2H", P4, {P4: "play 2H"}),),
    totals=(0, 0, 0, 1, 0),
)

GAME = (HAND_1, HAND_2, HAND_3, HAND_4, HAND_5, HAND_6, HAND_7)


def check_deal(state: KnockoutWhistState, hand: Hand) -> None:
    """The public facts of ``hand`` at its deal, and each seat's cards (KOW-2, KOW-3, KOW-5.3)."""
    view = public(state)
    size = 8 - hand.number
    assert view["hand_number"] == hand.number
    assert view["dealer"] == hand.dealer
    assert "".join(s[0].upper() for s in view["statuses"]) == hand.status
    assert view["dog_used"] is hand.dog_used
    assert view["eliminated"] == [list(item) for item in hand.out]
    expected_sizes = [{"A": size, "D": 1, "O": 0}[letter] for letter in hand.status]
    assert view["hand_sizes"] == expected_sizes
    assert view["tricks_won"] == [0] * 5
    assert view["cuts"] == [[[s, a.split()[1]] for s, a in plays(line)] for line in hand.cuts]
    for seat in range(5):
        assert set(state.view(seat)["hand"]) == set(cards(hand.hands.get(seat, "")))
    assert view["turned"] == hand.turned
    if hand.number == 1:
        assert view["chooser"] is None
        assert view["trump"] == hand.trump
    else:
        assert view["phase"] == "trump"
        assert view["trump"] is None
        assert view["chooser"] == hand.chooser
        assert state.to_move == hand.chooser
        # KOW-3.2: any of the four suits, never no-trump.
        assert legal(state) == TRUMP_CHOICES


def open_play(state: KnockoutWhistState, hand: Hand) -> None:
    """Trumps named after the deal (W-1); then the leader of KOW-4.1 is to move."""
    if hand.number > 1:
        state.apply(f"trump {hand.trump}", seat=hand.chooser)
    view = public(state)
    assert view["phase"] == "play"
    assert view["trump"] == hand.trump
    assert state.to_move == hand.leader


def play_tricks(state: KnockoutWhistState, hand: Hand) -> None:
    """Plays the hand's tricks, checking whose turn it is at every step, the legal actions
    the example states, each trick's cards and winner (KOW-4), and the hand's totals."""
    tally = [0] * 5
    for number, trick in enumerate(hand.tricks, 1):
        last = number == len(hand.tricks)
        if last:
            assert public(state)["tricks_won"] == tally
            tally[trick.winner] += 1
            assert tuple(tally) == hand.totals
        for seat, action in plays(trick.line):
            assert state.to_move == seat, f"hand {hand.number} trick {number}: {action}"
            if seat in trick.legal:
                assert legal(state) == set(trick.legal[seat].split(", "))
            state.apply(action, seat=seat)
        if not last:
            tally[trick.winner] += 1
            view = public(state)
            assert len(view["tricks"]) == number
            taken = view["tricks"][-1]
            assert taken["winner"] == trick.winner
            assert taken["plays"] == [
                [s, "knock" if a == "knock" else a.split()[1]] for s, a in plays(trick.line)
            ]
            assert view["tricks_won"] == tally


def play_hand(state: KnockoutWhistState, hand: Hand) -> None:
    check_deal(state, hand)
    open_play(state, hand)
    play_tricks(state, hand)


def start_of_hand(hand: Hand, *later: Hand) -> KnockoutWhistState:
    """A constructed state at ``hand``'s trump choice, holding the example's hands table;
    ``later`` hands' decks are stacked for the deals to come."""
    text = position(
        hand=hand.number,
        dealer=hand.dealer,
        status=hand.status,
        hands=hand.hands,
        phase="trump",
        dog_used=hand.dog_used,
        out=hand.out,
        cuts=hand.cuts,
        chooser=hand.chooser,
        stacked=tuple(h.deck for h in later),
    )
    return new_game().state_from_position(text)


def before_last_card(hand: Hand, *later: Hand) -> KnockoutWhistState:
    """A constructed state in ``hand``'s last trick with one card left to play."""
    *earlier, final = hand.tricks
    played, _, last = final.line.rpartition(", ")
    last_seat, last_action = plays(last)[0]
    held = {last_seat: last_action.split()[1]}
    won = [0] * 5
    for trick in earlier:
        won[trick.winner] += 1
    text = position(
        hand=hand.number,
        dealer=hand.dealer,
        status=hand.status,
        hands=held,
        trump=hand.trump,
        turned=hand.turned,
        dog_used=hand.dog_used,
        out=hand.out,
        won=tuple(won),
        cuts=hand.cuts,
        chooser=hand.chooser,
        done=tuple(t.line for t in earlier),
        trick=played,
        stacked=tuple(h.deck for h in later),
    )
    return new_game().state_from_position(text)


def new_game(players: int = 5, dealer: int = P1) -> KnockoutWhist:
    game = cardtable.make("knockout-whist", players=players, dealer=dealer)
    assert isinstance(game, KnockoutWhist)
    return game


def assert_game_won_by_p4(state: KnockoutWhistState) -> None:
    """KOW-EX-6 expected: P4 wins after hand 7 (KOW-5.2, W-7); places follow KOW-7."""
    view = public(state)
    assert state.is_over
    assert view["phase"] == "over"
    assert state.legal_actions() == []
    assert view["winner"] == P4
    assert view["statuses"] == ["out", "out", "out", "active", "out"]
    assert view["eliminated"] == [[P2, 3], [P5, 3], [P1, 4], [P3, 7]]
    assert state.elimination_order() == [(3, [P2, P5]), (4, [P1]), (7, [P3])]
    result = state.result
    assert result is not None
    assert result.winners == (P4,)
    assert result.places == ((P4,), (P3,), (P1,), (P2, P5))


# KOW-EX-1 … KOW-EX-6 as one game -----------------------------------------------------------------


def test_kow_ex_1_to_6_the_whole_walkthrough_game() -> None:
    """KOW-EX-1 … KOW-EX-6 as one game, a stacked deck per hand: deal order (KOW-2.3),
    trumps (KOW-3), trick play (KOW-4), end of hand (KOW-5), dog's life (KOW-6), cuts (W-2),
    dealer and leader rotation (KOW-5.4, W-5), and the winner (KOW-5.2, W-7)."""
    state = new_game().new_state(seed=11, decks=[complete_deck(h.deck) for h in GAME])
    dealers, leaders, sizes = [], [], []
    for hand in GAME:
        check_deal(state, hand)
        dealers.append(public(state)["dealer"])
        sizes.append(public(state)["hand_size"])
        open_play(state, hand)
        leaders.append(state.to_move)
        play_tricks(state, hand)
    assert_game_won_by_p4(state)
    # KOW-EX-6 invariant check over the whole game.
    assert sizes == [7, 6, 5, 4, 3, 2, 1]
    assert dealers == [P1, P2, P3, P4, P1, P3, P4]
    assert leaders == [P2, P3, P4, P1, P3, P4, P3]


def test_kow_ex_1_to_6_record_replays_to_the_same_game() -> None:
    """KOW-EX-1 … KOW-EX-6: the game's record (decks and actions, §0.4 (3)) replays exactly."""
    state = new_game().new_state(seed=11, decks=[complete_deck(h.deck) for h in GAME])
    for hand in GAME:
        open_play(state, hand)
        for trick in hand.tricks:
            for seat, action in plays(trick.line):
                state.apply(action, seat=seat)
    record = state.record()
    assert record.decks == [complete_deck(h.deck) for h in GAME]
    again = cardtable.replay(record.to_json())
    assert again.position() == state.position()
    assert again.result == state.result


# KOW-EX-1 -------------------------------------------------------------------------------------


def test_kow_ex_1_turned_card_sets_trumps_and_dealers_left_leads() -> None:
    """KOW-EX-1, KOW-3.1, KOW-4.1: the top undealt card 3D is turned (diamonds trump) and
    belongs to nobody; P2, the dealer's left, leads; the deal gives the hands of the table."""
    state = new_game().new_state(seed=3, decks=[complete_deck(HAND_1.deck)])
    check_deal(state, HAND_1)
    view = public(state)
    assert view["turned"] == "3D"
    assert all("3D" not in state.view(seat)["hand"] for seat in range(5))
    assert state.to_move == P2
    assert legal(state) == {f"play {c}" for c in cards(HAND_1.hands[P2])}


def test_kow_ex_1_hand_one_tricks_totals_and_chooser() -> None:
    """KOW-EX-1: tricks P1 1, P2 1, P3 3, P4 1, P5 1; P5 may trump with JD, P3 with 8D, P4
    must follow hearts (KOW-4.2); nobody is knocked out, the dog's life stays unused
    (KOW-5.1); P3 chooses (KOW-5.3); P2 deals hand 2 of 6 cards and P3 leads (KOW-5.4)."""
    state = new_game().new_state(seed=3, decks=[complete_deck(h.deck) for h in (HAND_1, HAND_2)])
    play_hand(state, HAND_1)
    check_deal(state, HAND_2)
    assert public(state)["hand_size"] == 6
    open_play(state, HAND_2)


def _trick_winner(trick: list[tuple[int, str]], trump: str) -> int:
    """KOW-4.3, independently of the engine: highest trump, else highest of the suit led."""
    order = [str(r) for r in range(2, 11)] + ["J", "Q", "K", "A"]

    def strength(card: str) -> tuple[int, int]:
        suit, rank = card[-1], order.index(card[:-1])
        return (2 if suit == trump else 1 if suit == trick[0][1][-1] else 0, rank)

    return max(trick, key=lambda play: strength(play[1]))[0]


Completion = tuple[list[str], list[list[tuple[int, str]]]]


def _random_hand_one(rng: random.Random) -> Completion:
    """A random completion of KOW-EX-1's hand 1: its deck and its seven tricks."""
    while True:
        completion = _try_hand_one(rng)
        if completion is not None:
            return completion


def _try_hand_one(rng: random.Random) -> Completion | None:
    """One try at a random completion of KOW-EX-1's hand 1; ``None`` at a dead end.

    The trick winners come first: P5, P3, four drawn at random, then P1, kept only when
    everyone takes a trick and P3 strictly the most (the source's facts). The cards are then
    drawn trick by trick, each player following suit or, having none, never playing that
    suit again, until the trick goes to its winner; the hands are the cards so played.
    """
    while True:
        winners = [P5, P3, *(rng.randrange(5) for _ in range(4)), P1]
        totals = [winners.count(s) for s in range(5)]
        if min(totals) >= 1 and all(totals[P3] > totals[s] for s in range(5) if s != P3):
            break
    first = plays("P2 7C, P3 9C, P4 4C, P5 JD, P1 10C")
    tricks = [[(seat, action.split()[1]) for seat, action in first]]
    pool = [c for c in ALL_CARDS if c not in {card for _, card in tricks[0]} | {"KH", "8D"}]
    turned = rng.choice([c for c in pool if c[-1] == "D"])
    pool.remove(turned)
    void: dict[int, set[str]] = {P1: set(), P2: set(), P3: {"H"}, P4: set(), P5: {"C"}}
    for number in range(2, 8):
        leader = winners[number - 2]
        seats = [(leader + i) % 5 for i in range(5)]
        for _ in range(200):
            fixed = {P5: "KH", P3: "8D"} if number == 2 else {}
            if number == 2:
                fixed[P4] = rng.choice([c for c in pool if c[-1] == "H"])
            free = [c for c in pool if c not in fixed.values()]
            rng.shuffle(free)
            trick: list[tuple[int, str]] = []
            new_void: list[tuple[int, str]] = []
            for seat in seats:
                if seat in fixed:
                    card = fixed[seat]
                else:
                    led = trick[0][1][-1] if trick else None
                    allowed = [c for c in free if c[-1] not in void[seat]]
                    follow = [c for c in allowed if c[-1] == led]
                    other = [c for c in allowed if c[-1] != led]
                    if not allowed:
                        break
                    card = (follow if follow and (rng.random() < 0.7 or not other) else other)[0]
                    free.remove(card)
                if trick and card[-1] != trick[0][1][-1]:
                    new_void.append((seat, trick[0][1][-1]))
                trick.append((seat, card))
            if len(trick) == 5 and _trick_winner(trick, "D") == winners[number - 1]:
                break
        else:
            return None
        for seat, suit in new_void:
            void[seat].add(suit)
        pool = [c for c in pool if c not in {card for _, card in trick}]
        tricks.append(trick)
    held = {seat: [card for t in tricks for s, card in t if s == seat] for seat in range(5)}
    deck = [held[seat][i] for i in range(7) for seat in (P2, P3, P4, P5, P1)]
    return [*deck, turned, *pool], tricks


def test_kow_ex_1_every_completion_gives_p3_three_tricks_others_one() -> None:
    """KOW-EX-1 "every completion" (EXAMPLES.md appendix, 1): in random completions of
    hand 1 consistent with the source facts (trick 1 as narrated, trick 2 led KH and won by
    P3's 8D with P4 following suit, P1 taking the last trick, everyone a trick and P3 the
    most) the totals are P3 3 and everyone else 1. The engine accepts every card as legal
    (KOW-4.2), agrees on each trick's winner (KOW-4.3), and ends the hand with nobody
    knocked out, the dog's life unused and P3 choosing without a cut (KOW-5.1, KOW-5.3)."""
    rng = random.Random(20240601)
    game = new_game()
    for _ in range(25):
        deck, tricks = _random_hand_one(rng)
        winners = [_trick_winner(t, "D") for t in tricks]
        assert [winners.count(s) for s in range(5)] == [1, 1, 3, 1, 1]
        state = game.new_state(seed=1, decks=[deck])
        assert public(state)["trump"] == "D"
        for number, trick in enumerate(tricks, 1):
            if number == 7:
                assert public(state)["tricks_won"] == [0, 1, 3, 1, 1]
            for seat, card in trick:
                state.apply(f"play {card}", seat=seat)
            if number < 7:
                assert public(state)["tricks"][-1]["winner"] == winners[number - 1]
        view = public(state)
        assert view["hand_number"] == 2
        assert view["statuses"] == ["active"] * 5
        assert view["dog_used"] is False
        assert view["chooser"] == P3
        assert view["cuts"] == []


# KOW-EX-2 -------------------------------------------------------------------------------------


def test_kow_ex_2_two_players_take_the_dogs_life_at_once() -> None:
    """KOW-EX-2: P3 names hearts after the deal (W-1) and leads; tricks P3 1, P4 4, P5 1,
    P1 0, P2 0; P1 and P2 both become dogs and the dog's life is used (KOW-5.1, W-6);
    P4 chooses; P3 deals hand 3, giving the dogs one card and the others 5 (KOW-2.2)."""
    state = start_of_hand(HAND_2, HAND_3)
    play_hand(state, HAND_2)
    check_deal(state, HAND_3)
    assert public(state)["statuses"] == ["dog", "dog", "active", "active", "active"]


def test_kow_ex_2_deal_order_from_the_dealers_left() -> None:
    """KOW-EX-2, KOW-2.3: dealer P2 deals one card at a time starting with P3."""
    state = before_last_card(HAND_1, HAND_2)
    state.apply("play QS", seat=P3)
    check_deal(state, HAND_2)


# KOW-EX-3 -------------------------------------------------------------------------------------


def test_kow_ex_3_hand_three_with_two_dogs() -> None:
    """KOW-EX-3: P1 (dog) may play JC or knock and wins trick 1 with it; P2 (dog) may lead
    2D or knock at the start of trick 2, knocks, and P3 must lead (KOW-6.3 … KOW-6.5, W-4);
    P2 must play 2D on the last trick (W-3). Tricks P1 1, P2 0, P3 2, P4 2, P5 0."""
    state = start_of_hand(HAND_3, HAND_4)
    check_deal(state, HAND_3)
    open_play(state, HAND_3)
    play_tricks(state, HAND_3)


def test_kow_ex_3_knock_outs_tie_and_next_dealer() -> None:
    """KOW-EX-3 expected: P1 is active again, P2 and P5 are out because the dog's life is
    used (KOW-5.1, KOW-6.6, KOW-6.7); P3 and P4 tied, so they cut (KOW-5.3); P4 played
    hand 3 and deals hand 4 (KOW-5.4), and P1 leads because P5 is out (KOW-4.1)."""
    state = start_of_hand(HAND_3, HAND_4)
    play_hand(state, HAND_3)
    view = public(state)
    assert view["statuses"] == ["active", "out", "active", "active", "out"]
    assert view["eliminated"] == [[P2, 3], [P5, 3]]
    assert [seat for seat, _ in view["cuts"][0]] == [P3, P4]
    check_deal(state, HAND_4)
    open_play(state, HAND_4)


def test_kow_ex_3_a_knock_gives_no_second_turn_in_the_trick() -> None:
    """KOW-EX-3 trick 1, KOW-6.3, W-4: after P2 knocks, P3 plays and the trick is taken
    without P2 acting again."""
    state = start_of_hand(HAND_3)
    open_play(state, HAND_3)
    for seat, action in plays("P4 AH, P5 JH, P1 JC, P2 knock"):
        state.apply(action, seat=seat)
    assert state.to_move == P3
    state.apply("play 6H", seat=P3)
    view = public(state)
    assert view["tricks"] == [
        {"plays": [[P4, "AH"], [P5, "JH"], [P1, "JC"], [P2, "knock"], [P3, "6H"]], "winner": P1}
    ]
    assert view["hand_sizes"] == [0, 1, 4, 4, 4]
    assert state.to_move == P2


def test_kow_ex_3_an_active_player_cannot_knock() -> None:
    """KOW-EX-3, KOW-6.4: the knock is for dogs; P4 (active) must lead a card."""
    state = start_of_hand(HAND_3)
    open_play(state, HAND_3)
    assert "knock" not in legal(state)
    with pytest.raises(cardtable.IllegalActionError):
        state.apply("knock", seat=P4)


# KOW-EX-4 -------------------------------------------------------------------------------------


def test_kow_ex_4_the_cut_decides_the_chooser() -> None:
    """KOW-EX-4, KOW-5.3, W-2: after hand 4 is dealt, P3 then P4 (clockwise from the dealer's
    left) cut 5H and QD from the undealt remainder; ranks only, so P4 chooses. The cut cards
    are public, in no hand, and set aside."""
    state = before_last_card(HAND_3, HAND_4)
    state.apply("play 5C", seat=P3)
    check_deal(state, HAND_4)
    for seat in range(5):
        assert state.view(seat)["cuts"] == [[[P3, "5H"], [P4, "QD"]]]
    stock = position_field(state, "stock").split(",")
    assert "5H" not in stock and "QD" not in stock
    assert len(stock) == 52 - 12 - 2


def test_kow_ex_4_knocked_out_player_still_deals() -> None:
    """KOW-EX-4, KOW-5.4, KOW-6.7, KOW-8.2, W-5: P1 takes no trick in hand 4 and is out;
    P1 still deals hand 5 (P5 did not play hand 4 and is skipped); P3 leads hand 5."""
    state = before_last_card(HAND_3, HAND_4, HAND_5)
    state.apply("play 5C", seat=P3)
    play_hand(state, HAND_4)
    view = public(state)
    assert view["statuses"] == ["out", "out", "active", "active", "out"]
    assert view["eliminated"][-1] == [P1, 4]
    check_deal(state, HAND_5)
    open_play(state, HAND_5)


# KOW-EX-5 -------------------------------------------------------------------------------------


def test_kow_ex_5_hands_five_and_six() -> None:
    """KOW-EX-5: hand 5 dealt by P1 (out), led by P3; P3 takes 2 and chooses; P3 deals hand
    6, P4 leads; hand 6 ends 1-1, so P4 deals hand 7 after a cut (KOW-5.3, KOW-5.4)."""
    state = start_of_hand(HAND_5, HAND_6, HAND_7)
    play_hand(state, HAND_5)
    play_hand(state, HAND_6)
    check_deal(state, HAND_7)


# KOW-EX-6 -------------------------------------------------------------------------------------


def test_kow_ex_6_the_final_hand() -> None:
    """KOW-EX-6: P3 cuts 9C, P4 KD, so P4 names hearts; P3 leads AS, P4 has no spades and
    wins with 2H (KOW-4.3). Hand 7 ends the game: P4 wins (KOW-5.2, W-7); eliminated P2 and
    P5 (hand 3), P1 (hand 4), P3 (hand 7), and those of one hand share a place (KOW-7)."""
    state = before_last_card(HAND_6, HAND_7)
    state.apply("play AS", seat=P3)
    play_hand(state, HAND_7)
    assert_game_won_by_p4(state)


# KOW-EX-7 -------------------------------------------------------------------------------------


def test_kow_ex_7_recut_when_cut_ranks_tie() -> None:
    """KOW-EX-7, KOW-5.3, W-2: P3 and P4 tie hand 4 (P1 and P2 go out, dealer P1), so P2 deals
    hand 5. The remainder begins 9C 9D 4S JH: P3 9C and P4 9D tie on rank (suits are never
    compared), they cut again, P3 4S and P4 JH, and P4 chooses; four cut cards are public."""
    hand_5_deck = "AS KS QS JS 10S 9S | 9C 9D 4S JH"
    text = position(
        hand=4,
        dealer=P1,
        status="AAAAO",
        out=((P5, 3),),
        hands={P3: "6D"},
        trump="H",
        chooser=P2,
        won=(0, 0, 2, 1, 0),
        done=(
            "P2 2D, P3 AD, P4 7D, P1 2C",
            "P3 AC, P4 7C, P1 3C, P2 3D",
            "P3 6C, P4 AH, P1 4C, P2 4D",
        ),
        trick="P4 KH, P1 5C, P2 5D",
        stacked=(hand_5_deck,),
    )
    state = new_game().state_from_position(text)
    assert state.to_move == P3
    state.apply("play 6D", seat=P3)
    view = public(state)
    assert view["statuses"] == ["out", "out", "active", "active", "out"]
    assert view["dealer"] == P2
    assert view["cuts"] == [[[P3, "9C"], [P4, "9D"]], [[P3, "4S"], [P4, "JH"]]]
    assert view["chooser"] == P4
    assert state.to_move == P4
    assert set(state.view(P3)["hand"]) == {"AS", "QS", "10S"}
    assert set(state.view(P4)["hand"]) == {"KS", "JS", "9S"}
    stock = position_field(state, "stock").split(",")
    assert not {"9C", "9D", "4S", "JH"} & set(stock)
    assert len(stock) == 52 - 6 - 4
    for seat in range(5):
        assert state.view(seat)["cuts"] == view["cuts"]
    state.apply("trump S", seat=P4)
    assert state.to_move == P3


# KOW-EX-8 -------------------------------------------------------------------------------------


def test_kow_ex_8_seven_players_turn_card_49() -> None:
    """KOW-EX-8, KOW-3.1, KOW-2.3: with 7 players 49 cards are dealt from seat 1, card 49
    (5S) is turned and makes spades trumps; it is in no hand and public; the 2 cards below
    it (KS, AS here) are seen by nobody."""
    others = [c for c in ALL_CARDS if c != "5S"]
    deck = [*others[:49], "5S", *others[49:]]
    state = new_game(players=7, dealer=0).new_state(seed=2, decks=[deck])
    assert deck[49] == "5S" and deck[50:] == ["KS", "AS"]
    assert public(state)["trump"] == "S"
    assert public(state)["turned"] == "5S"
    assert public(state)["hand_sizes"] == [7] * 7
    assert state.to_move == 1
    for seat in range(7):
        view = state.view(seat)
        assert view["turned"] == "5S"
        assert "5S" not in view["hand"]
        assert set(view["hand"]) == set(deck[(seat - 1) % 7 : 49 : 7])
        assert not {"KS", "AS"} & words(view)


# KOW-EX-9 -------------------------------------------------------------------------------------


def kow_ex_9_start(stacked: tuple[str, ...] = ()) -> str:
    """KOW-EX-9's start: hand 6 of three players, dealer Z, X a dog with AD, clubs trump."""
    return position(
        players=3,
        hand=6,
        dealer=Z,
        status="DAA",
        hands={X: "AD", Y: "2C 3C", Z: "KC 4H"},
        trump="C",
        chooser=Y,
        stacked=stacked,
    )


def test_kow_ex_9_dog_declines_the_lead_and_must_play_last() -> None:
    """KOW-EX-9, KOW-6.3, KOW-6.4, W-3, W-4: X (dog, dealer's left) may lead AD or knock, and
    knocks; Y must lead; Z must follow with KC; X gets no further turn and Z wins. On the
    last trick X must play AD; Y trumps with 3C and wins. X is out (KOW-6.6)."""
    state = new_game(players=3, dealer=Z).state_from_position(kow_ex_9_start(("AS KD | QC 2H",)))
    assert state.to_move == X
    assert legal(state) == {"play AD", "knock"}
    state.apply("knock", seat=X)
    assert state.to_move == Y
    assert legal(state) == {"play 2C", "play 3C"}
    state.apply("play 2C", seat=Y)
    assert legal(state) == {"play KC"}
    state.apply("play KC", seat=Z)
    view = public(state)
    assert view["tricks"] == [{"plays": [[X, "knock"], [Y, "2C"], [Z, "KC"]], "winner": Z}]
    assert state.to_move == Z
    state.apply("play 4H", seat=Z)
    assert state.to_move == X
    assert legal(state) == {"play AD"}
    assert public(state)["tricks_won"] == [0, 0, 1]
    state.apply("play AD", seat=X)
    assert legal(state) == {"play 3C"}
    state.apply("play 3C", seat=Y)
    # Tricks X 0, Y 1, Z 1: X goes out; Y and Z play hand 7, dealt by X (KOW-5.4).
    view = public(state)
    assert view["hand_number"] == 7
    assert view["statuses"] == ["out", "active", "active"]
    assert view["eliminated"] == [[X, 6]]
    assert view["dealer"] == X
    assert view["hand_sizes"] == [0, 1, 1]
    assert view["cuts"] == [[[Y, "QC"], [Z, "2H"]]]  # the 1-1 tie is cut (KOW-5.3)
    assert view["chooser"] == Y


# KOW-EX-10 ------------------------------------------------------------------------------------


def test_kow_ex_10_dog_wins_and_the_lead_passes_to_the_next_holder() -> None:
    """KOW-EX-10, KOW-4.4, KOW-6.5 (variant of KOW-EX-3): P2 (dog) plays 2D in trick 1;
    P1 (dog) wins trick 2 with JC. P1 has no cards and neither has P2, the next seat, so
    the lead skips to P3."""
    state = start_of_hand(HAND_3)
    open_play(state, HAND_3)
    for seat, action in plays("P4 AH, P5 JH, P1 knock, P2 2D, P3 6H"):
        state.apply(action, seat=seat)
    assert public(state)["tricks"][-1]["winner"] == P4
    for seat, action in plays("P4 3S, P5 4S, P1 JC, P3 AS"):
        assert state.to_move == seat
        state.apply(action, seat=seat)
    view = public(state)
    assert view["tricks"][-1]["winner"] == P1
    assert view["hand_sizes"][P1] == 0 and view["hand_sizes"][P2] == 0
    assert state.to_move == P3
    assert legal(state) == {f"play {c}" for c in ("3H", "5C", "KS")}


def test_kow_ex_10_dog_wins_the_opening_lead_trick() -> None:
    """KOW-EX-10, KOW-6.4, KOW-6.5: a constructed hand 3 dealt by P5, so that P1 (dog) is
    first to lead. P1 leads AC (trump) and wins; P2 (dog) is then offered the lead and may
    knock; the next holder, P3, must lead."""
    text = position(
        hand=3,
        dealer=P5,
        status="DDAAA",
        phase="trump",
        hands={
            P1: "AC",
            P2: "2D",
            P3: "6H AS KS 3H 5C",
            P4: "AH 3S 5S KH JC",
            P5: "JH 4S 6S 4H 7D",
        },
        chooser=P4,
    )
    state = new_game().state_from_position(text)
    state.apply("trump C", seat=P4)
    assert state.to_move == P1
    assert legal(state) == {"play AC", "knock"}
    for seat, action in plays("P1 AC, P2 knock, P3 5C, P4 JC, P5 JH"):
        assert state.to_move == seat
        state.apply(action, seat=seat)
    assert public(state)["tricks"][-1]["winner"] == P1
    assert state.to_move == P2
    assert legal(state) == {"play 2D", "knock"}
    state.apply("knock", seat=P2)
    assert state.to_move == P3
    assert "knock" not in legal(state)


# KOW-EX-11 ------------------------------------------------------------------------------------


def _all_lines(state: KnockoutWhistState, free: set[int], actions: int) -> list[KnockoutWhistState]:
    """The states reached after ``actions`` actions (or earlier, at the game's end) when the
    seats in ``free`` try all their legal actions and the others take their first one."""
    if state.is_over or actions == 0:
        return [state]
    numbers = state.legal_action_ids()
    if state.to_move not in free:
        numbers = numbers[:1]
    out = []
    for number in numbers:
        child = state.copy()
        child.apply_id(number)
        out.extend(_all_lines(child, free, actions - 1))
    return out


def test_kow_ex_11_game_ends_before_hand_seven() -> None:
    """KOW-EX-11, KOW-5.2, KOW-7: with the dog's life used, Y holding AH KH QH JH 10H and
    hearts trump takes all 5 tricks whatever X and Z play; X and Z are out and Y wins after
    hand 3, with no hand 4 dealt."""
    text = position(
        players=3,
        hand=3,
        dealer=Z,
        status="AAA",
        phase="trump",
        hands={X: "9H AC AS AD 2C", Y: "AH KH QH JH 10H", Z: "8H KC KS KD 2S"},
        chooser=Y,
    )
    state = new_game(players=3, dealer=Z).state_from_position(text)
    state.apply("trump H", seat=Y)
    endings = _all_lines(state, {X, Z}, 15)  # hand 3: five tricks of three cards
    assert len(endings) > 500  # many different lines of play by X and Z
    for end in endings:
        assert end.is_over
        view = public(end)
        assert view["winner"] == Y
        assert view["hand_number"] == 3
        assert view["tricks_won"] == [0, 5, 0]
        assert view["statuses"] == ["out", "active", "out"]
        assert view["eliminated"] == [[X, 3], [Z, 3]]
        assert end.record().decks == []  # nothing dealt after hand 3
        result = end.result
        assert result is not None
        assert result.winners == (Y,)
        assert result.places == ((Y,), (X, Z))
