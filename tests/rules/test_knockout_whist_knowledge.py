"""Knockout Whist's determinizer and rollout policy (KOW-9, DESIGN.md "Bots").

``game.knowledge(view)`` samples full states from one seat's view. Every sample must be
a state the seat could not tell from the real one (KOW-9): the same view, the same legal
actions, its own hand, the public cards (the turned card of KOW-3.1, the cut cards of
W-2, every card played) and the voids play has shown (KOW-4.2), while the cards it
cannot see move about. The voids are worked out here from the real state's tricks, not
by the module under test.
"""

from __future__ import annotations

import functools
import random

import pytest

import cardtable
from cardtable.bots.knockout_whist_rollout import choose, guided_playout
from cardtable.errors import InvalidPositionError
from cardtable.rules.knockout_whist.game import KnockoutWhist
from cardtable.rules.knockout_whist.invariants import check_state
from cardtable.rules.knockout_whist.state import KNOCKED, KnockoutWhistState
from cardtable.testing import check_result

PLAYERS = range(2, 8)
SUIT = [0x1FFF << 13 * s for s in range(4)]
SAMPLES = 12
PLAYED_ON = 3  # of the samples, how many are also written, parsed and played to the end


def kow(players: int) -> KnockoutWhist:
    return KnockoutWhist(players=players)


@functools.cache
def situations(players: int) -> tuple[tuple[str, KnockoutWhistState], ...]:
    """States from seeded uniformly random games: each game's start, a few actions in,
    each state whose next action ends a hand (and deals the next), the first state of
    each new hand, the middle of a hand, and the end of the game."""
    game = kow(players)
    rng = random.Random(players)
    found: list[tuple[str, KnockoutWhistState]] = []
    for seed in range(3):
        state = game.new_state(seed=100 * players + seed)
        found.append(("start", state.copy()))
        step = 0
        while state.to_move is not None:
            before = state.copy()
            legal = state.legal_action_ids()
            state.apply_id(legal[int(rng.random() * len(legal))])
            step += 1
            if step == 4 or step == 25:
                found.append((f"action {step}", state.copy()))
            if state.hand_no != before.hand_no or state.to_move is None:
                found.append((f"last action of hand {before.hand_no}", before))
                if state.to_move is not None:
                    found.append((f"new deal, hand {state.hand_no}", state.copy()))
        found.append(("game over", state))
    return tuple(found)


def all_cases() -> list[tuple[int, int]]:
    return [(n, i) for n in PLAYERS for i in range(len(situations(n)))]


def voids(state: KnockoutWhistState) -> list[int]:
    """KOW-4.2: per seat, the suits it has shown it lacks by not following the suit led
    in a trick of the current hand (a dog's knock shows nothing)."""
    shown = [0] * state.players
    for trick in [*state.done, state.trick]:
        cards = [(s, c) for s, c in trick if c != KNOCKED]
        if not cards:
            continue
        led = cards[0][1] // 13
        for seat, card in cards:
            if card // 13 != led:
                shown[seat] |= SUIT[led]
    return shown


def hidden(state: KnockoutWhistState, seat: int) -> int:
    """The cards ``seat`` cannot see: the other hands and the stock, less the cut cards
    that went back into it (W-2: those were shown face up)."""
    mask = 0
    for s in range(state.players):
        if s != seat:
            mask |= state.hands[s]
    for c in state.stock:
        mask |= 1 << c
    for round_ in state.cuts:
        for _, c in round_:
            mask &= ~(1 << c)
    return mask


def stock_mask(state: KnockoutWhistState) -> int:
    mask = 0
    for c in state.stock:
        mask |= 1 << c
    return mask


def check_sample(real: KnockoutWhistState, seat: int, sample: KnockoutWhistState) -> None:
    """Everything the seat knows holds in ``sample`` (KOW-9)."""
    assert sample.view(seat) == real.view(seat)
    if real.to_move == seat:
        assert sample.legal_action_ids() == real.legal_action_ids()
    check_state(sample)
    assert sample.hands[seat] == real.hands[seat]
    assert sample.turned == real.turned and sample.cuts == real.cuts
    assert sample.done == real.done and sample.trick == real.trick
    assert [h.bit_count() for h in sample.hands] == [h.bit_count() for h in real.hands]
    assert len(sample.stock) == len(real.stock)
    # The unseen cards are the same set, shuffled among the same places, and the cut
    # cards that went back into the stock are still there.
    assert hidden(sample, seat) == hidden(real, seat)
    known_stock = stock_mask(real) & ~hidden(real, seat)
    assert stock_mask(sample) & known_stock == known_stock
    for s, barred in enumerate(voids(real)):
        assert not sample.hands[s] & barred, f"seat {s} was dealt a suit it showed void in"
    assert sample.history == [] and sample.stacked_decks == []


@pytest.mark.parametrize(("players", "index"), all_cases())
def test_kow_9_samples_are_states_the_seat_cannot_tell_from_the_real_one(
    players: int, index: int
) -> None:
    label, real = situations(players)[index]
    game = kow(players)
    rng = random.Random(index)
    for seat in range(players):
        knowledge = game.knowledge(real.view(seat))
        assert knowledge.seat == seat
        for i in range(SAMPLES):
            sample = knowledge.sample(rng)
            check_sample(real, seat, sample)
            if i < PLAYED_ON:
                text = sample.position()
                assert game.state_from_position(text).position() == text, label
                sample.playout(rng)
                check_result(sample)


@pytest.mark.parametrize("players", PLAYERS)
def test_samples_vary_where_the_seat_cannot_see(players: int) -> None:
    """KOW-9: another hand's cards and the stock are hidden, so across samples an unseen
    card turns up in more than one place, and the samples are not just the real deal."""
    rng = random.Random(players)
    for label, real in situations(players):
        seat = real.to_move
        if seat is None or not any(real.hands[s] for s in range(players) if s != seat):
            continue
        knowledge = kow(players).knowledge(real.view(seat))
        places: dict[int, set[int]] = {}
        differs = False
        for _ in range(40):
            sample = knowledge.sample(rng)
            differs |= sample.hands != real.hands
            for s in range(players):
                for c in range(52):
                    if sample.hands[s] >> c & 1 and s != seat:
                        places.setdefault(c, set()).add(s)
            for c in sample.stock:
                places.setdefault(c, set()).add(-1)
        assert differs, label
        assert any(len(where) > 1 for where in places.values()), label


def _void_position() -> KnockoutWhistState:
    return kow(3).state_from_position(
        "kow/1 players=3 hand=3 dealer=2 phase=play trump=S turned=- dog=unused status=AAA "
        "out=- won=1,0,1 cuts=- chooser=0 "
        "hands=9C,10C,7H/2D,6D,3S/3C,4C,AH "
        f"stock={','.join(_rest())} "
        "done=0:AC,1:2H,2:2C/0:4D,1:AD,2:2S trick=- seed=5 chance=3,0"
    )


def test_kow_4_2_a_seat_that_did_not_follow_is_never_dealt_the_suit_led() -> None:
    """KOW-4.2: seat 1 threw a heart on a club lead and seat 2 trumped a diamond lead, so
    no sample gives seat 1 a club or seat 2 a diamond; every other hidden card still
    reaches each hand that may hold it."""
    real = _void_position()
    assert voids(real) == [0, SUIT[0], SUIT[1]]
    knowledge = kow(3).knowledge(real.view(0))
    rng = random.Random(1)
    reached = [0, 0, 0]
    for _ in range(300):
        sample = knowledge.sample(rng)
        check_sample(real, 0, sample)
        assert not sample.hands[1] & SUIT[0] and not sample.hands[2] & SUIT[1]
        reached = [r | h for r, h in zip(reached, sample.hands, strict=True)]
    unseen = hidden(real, 0)
    assert reached[1] == unseen & ~SUIT[0]
    assert reached[2] == unseen & ~SUIT[1]


def test_with_one_seat_void_every_consistent_deal_is_as_likely() -> None:
    """From seat 2's side of the position above only seat 1 has shown a void (clubs, KOW-4.2):
    each of the 34 hidden non-clubs is in seat 1's three cards about 3/34 of the time, and
    each of the 9 hidden clubs is in seat 0's three cards about 3/40 of the time (seat 0
    and the 37-card stock share them)."""
    real = _void_position()
    knowledge = kow(3).knowledge(real.view(2))
    rng = random.Random(5)
    runs = 4000
    counts = [[0] * 52 for _ in range(3)]
    for _ in range(runs):
        sample = knowledge.sample(rng)
        for s in (0, 1):
            for c in range(52):
                counts[s][c] += sample.hands[s] >> c & 1
    unseen = hidden(real, 2)
    clubs = [c for c in range(13) if unseen >> c & 1]
    others = [c for c in range(13, 52) if unseen >> c & 1]
    assert (len(clubs), len(others)) == (9, 34)
    for c in others:
        assert abs(counts[1][c] / runs - 3 / 34) < 0.02
    for c in clubs:
        assert counts[1][c] == 0
        assert abs(counts[0][c] / runs - 3 / 40) < 0.02


def _rest() -> list[str]:
    """The stock of the position above: every card not in a hand or a trick."""
    used = "9C 10C 7H 2D 6D 3S 3C 4C AH AC 2H 2C 4D AD 2S".split()
    return [str(c) for c in cardtable.DECK_52 if str(c) not in used]


# W-2: seven players tie after hand 1; the cut runs out of cards and the seven cut cards are
# shuffled in as the remainder; four of them are cut again, so 2C AS AH AD 3C 4C are known
# to be the whole stock.
RESHUFFLED = (
    "kow/1 players=7 hand=2 dealer=0 phase=trump trump=- turned=- dog=unused status=AAAAAAA "
    "out=- won=0,0,0,0,0,0,0 cuts=1:AS,2:AH,3:AD,4:AC,5:2C,6:3C,0:4C/1:KS,2:KH,3:5C,4:AC "
    "chooser=4 hands=QC,7D,2H,9H,5S,QS/6C,KC,8D,3H,10H,6S/7C,2D,9D,4H,JH,7S/"
    "8C,3D,10D,5H,QH,8S/9C,4D,JD,6H,2S,9S/10C,5D,QD,7H,3S,10S/JC,6D,KD,8H,4S,JS "
    "stock=2C,AS,AH,AD,3C,4C done=- trick=- seed=3 chance=2,1 "
    "previous=S:0:AC,1:2C,2:3C,3:4C,4:5C,5:6C,6:7C/0:8C,1:2S,2:9C,3:10C,4:JC,5:QC,6:KC/"
    "1:2D,2:AD,3:3D,4:4D,5:5D,6:6D,0:7D/2:8D,3:3S,4:9D,5:10D,6:JD,0:QD,1:KD/"
    "3:2H,4:AH,5:3H,6:4H,0:5H,1:6H,2:7H/4:8H,5:4S,6:9H,0:10H,1:JH,2:QH,3:KH/"
    "5:5S,6:AS,0:6S,1:7S,2:8S,3:9S,4:10S"
)


def test_w_2_cut_cards_reshuffled_into_the_remainder_stay_in_the_stock() -> None:
    game = kow(7)
    real = game.state_from_position(RESHUFFLED)
    rng = random.Random(2)
    for seat in range(7):
        knowledge = game.knowledge(real.view(seat))
        for _ in range(20):
            sample = knowledge.sample(rng)
            check_sample(real, seat, sample)
            assert sorted(sample.stock) == sorted(real.stock)
            assert sample.reshuffles_drawn >= 1  # KOW-11.1 allows cut cards in the stock


def test_a_sample_gets_a_fresh_seed_and_replays_once_given_its_position() -> None:
    """The sample's future deals come from its own seed; with ``start`` set to its own
    position, its record replays to the same state."""
    real = kow(4).new_state(seed=9)
    knowledge = kow(4).knowledge(real.view(1))
    rng = random.Random(3)
    samples = [knowledge.sample(rng) for _ in range(5)]
    assert len({s.seed for s in samples}) == 5
    sample = samples[0]
    sample.start = sample.position()
    guided_playout(sample, rng)
    again = cardtable.replay(sample.record().to_dict())
    assert again.position() == sample.position()


def test_bad_views_are_refused() -> None:
    game = kow(3)
    state = game.new_state(seed=4)
    with pytest.raises(InvalidPositionError):
        game.knowledge(state.view(None))  # a spectator knows no hand to build on
    with pytest.raises(InvalidPositionError):
        kow(4).knowledge(state.view(0))  # a view of another player count
    neuf = cardtable.make("neuf")
    with pytest.raises(InvalidPositionError):
        game.knowledge(neuf.new_state(seed=4).view(0))
    with pytest.raises(InvalidPositionError):
        neuf.knowledge(state.view(0))
    twice = state.view(0)
    twice["turned"] = twice["hand"][0]  # the turned card cannot also be in the hand
    with pytest.raises(InvalidPositionError):
        game.knowledge(twice)
    short = state.view(0)
    short["hand_sizes"] = [7, 7, 6]
    with pytest.raises(InvalidPositionError):
        game.knowledge(short)


@pytest.mark.parametrize("players", PLAYERS)
def test_guided_playout_ends_games_legally(players: int) -> None:
    """Every action the policy picks is legal and keeps the KOW-11 invariants; every game
    ends with a valid result, from the start and from the middle of a game."""
    game = kow(players)
    rng = random.Random(players)
    for seed in range(4):
        state = game.new_state(seed=seed)
        while state.to_move is not None:
            number = choose(state, rng.random)
            assert state.is_legal(number), (state.position(), number)
            before = state.copy()
            state.apply_id(number)
            game.check_transition(before, number, state)
        check_result(state)
    for _, real in situations(players):
        state = real.copy()
        guided_playout(state, rng)
        check_result(state)


def test_guided_playout_beats_uniform_random_play() -> None:
    """The policy is much better than random: one guided seat against two random ones
    wins well over the third of the games chance would give it."""
    game = kow(3)
    rng = random.Random(0)
    wins = 0
    games = 300
    for seed in range(games):
        state = game.new_state(seed=seed)
        while state.to_move is not None:
            if state.to_move == seed % 3:
                state.apply_id(choose(state, rng.random))
            else:
                legal = state.legal_action_ids()
                state.apply_id(legal[int(rng.random() * len(legal))])
        result = state.result
        assert result is not None
        wins += result.winners == (seed % 3,)
    assert wins > 0.55 * games
