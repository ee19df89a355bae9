"""The Kryt'-navalivat' determinizer (``knowledge.py``) and the guided playout of search
(``bots/kryt_navalivat_rollout.py``), DESIGN.md "Bots".

A sample must be a state the seat could not tell from the real one (KRYT-9, K-10): the same
view, the same legal actions, a position that parses, a hand that plays on to its end, and
the cards the seat knows another seat holds (picked up from the pile, KRYT-5; the turned
card taken by the six swap, KRYT-6, or drawn last, KRYT-2.5) where it knows they are. The
game has no voids to honour: a pick-up is always allowed (KRYT-4.2b), so declining to beat
reveals nothing. What the seat cannot see must really be random.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

import cardtable
from cardtable.bots.kryt_navalivat_rollout import (
    _weakest,
    _weakest_first,
    guided_action,
    guided_playout,
)
from cardtable.core import State
from cardtable.errors import InvalidPositionError
from cardtable.rules.kryt_navalivat.beating import PACK_36
from cardtable.rules.kryt_navalivat.game import KrytNavalivat
from cardtable.rules.kryt_navalivat.invariants import check_state
from cardtable.rules.kryt_navalivat.state import (
    COVERING,
    FREE,
    NUMBER,
    OVER,
    SWAP,
    TAKE,
    KrytNavalivatState,
)
from cardtable.testing import check_replay, check_result

GAME = "kryt-navalivat"
TURN_CAP = 5000  # KRYT-7.7: a harness safeguard, not a rule
CONFIGS = [(n, mode) for n in range(2, 7) for mode in ("turned", "permanent")]
SAMPLES = 6


def make(players: int, mode: str) -> KrytNavalivat:
    game = cardtable.make(GAME, players=players, trump_mode=mode)
    assert isinstance(game, KrytNavalivat)
    return game


@dataclass
class Snapshot:
    """A state of a random game and, per seat, the cards everybody saw it take (KRYT-9),
    worked out from the game's own history."""

    label: str
    state: KrytNavalivatState
    known: list[set[int]]


def random_game(game: KrytNavalivat, seed: int) -> list[Snapshot]:
    """Snapshots of one seeded random hand: right after the deal, early, after a pick-up,
    after a six swap, between a beat and its cover, the free card of KRYT-4.3, with the
    stock just empty, late, and the end. Known cards are tracked from the actions alone:
    a pick-up takes the pile's top cards (KRYT-5), a swap or the last draw takes the
    turned card (KRYT-6.1, KRYT-2.5), and a card played or swapped away leaves the hand."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    known: list[set[int]] = [set() for _ in range(game.num_players)]
    shots = [Snapshot("deal", state.copy(), [set()] * game.num_players)]
    wanted = {"take", "swap", COVERING, FREE, "stock empty"}
    states: list[Snapshot] = []
    while state.to_move is not None and len(state.history) < TURN_CAP:
        before = state.copy()
        p = state.to_move
        number = rng.choice(state.legal_action_ids())
        state.apply_id(number)
        if number < TAKE:
            known[p].discard(PACK_36[number % 36])
        elif number == TAKE:
            known[p].update(before.pile[len(state.pile) :])
        else:  # the swap puts the six of trumps under the stock, face up
            known[p].discard(state.faceup)
        if before.faceup >= 0 and state.faceup != before.faceup:
            known[p].add(before.faceup)  # the swap, or the last card of the stock drawn
        shot = Snapshot("", state.copy(), [set(k) for k in known])
        states.append(shot)
        tags = {
            "take": number == TAKE,
            "swap": number == SWAP,
            COVERING: state.mode == COVERING,
            FREE: state.mode == FREE,
            "stock empty": not state.stock and state.faceup < 0,
        }
        for tag, hit in tags.items():
            if hit and tag in wanted:
                wanted.discard(tag)
                shots.append(Snapshot(tag, shot.state, shot.known))
    assert state.to_move is None, "a random hand ran past the turn cap (KRYT-7.7)"
    for label, at in (("early", 4), ("middle", len(states) // 2), ("late", -3), ("end", -1)):
        shots.append(Snapshot(label, states[at].state, states[at].known))
    return shots


SNAPSHOTS = [
    (f"{n}p-{mode}-seed{seed}-{shot.label}", shot)
    for n, mode in CONFIGS
    for seed in (n, 10 + n)
    for shot in random_game(make(n, mode), seed)
]


def play_to_end(state: State, rng: random.Random) -> None:
    """Uniformly random play to the end, every transition checked (KRYT-11)."""
    game = state.game
    while state.to_move is not None and len(state.history) < TURN_CAP:
        before = state.copy()
        number = rng.choice(state.legal_action_ids())
        state.apply_id(number)
        game.check_transition(before, number, state)
    check_result(state)


@pytest.mark.parametrize(("name", "shot"), SNAPSHOTS, ids=[name for name, _ in SNAPSHOTS])
def test_samples_are_consistent_with_the_view(name: str, shot: Snapshot) -> None:
    """KRYT-9: every sample shows the seat exactly its view, offers it the same actions,
    writes a position that parses back and a record that replays, keeps the invariants of
    KRYT-11, plays on to a valid end and holds every card the seat saw another take."""
    real = shot.state
    game = real.game
    rng = random.Random(name)
    for s, cards in enumerate(shot.known):
        assert all(real.hands[s] >> c & 1 for c in cards), "the tracking itself is wrong"
    for seat in range(game.num_players):
        view = real.view(seat)
        knowledge = game.knowledge(view)
        assert knowledge.seat == seat
        for i in range(SAMPLES):
            sample = knowledge.sample(rng)
            assert isinstance(sample, KrytNavalivatState)
            assert sample.view(seat) == view
            if seat == real.to_move:
                assert sample.legal_action_ids() == real.legal_action_ids()
            check_state(sample)
            assert sample.history == [] and sample.deck is None
            assert sample.start == sample.position()
            assert game.state_from_position(sample.position()).position() == sample.position()
            for s, cards in enumerate(shot.known):
                held = {c for c in PACK_36 if sample.hands[s] >> c & 1}
                assert cards <= held, f"seat {s} is known to hold {sorted(cards - held)}"
            if i == 0 and seat == len(real.history) % game.num_players:
                play_to_end(sample, rng)
                check_replay(sample, views=False)


def unseen_places(
    state: KrytNavalivatState, seat: int, sample: KrytNavalivatState
) -> dict[int, str]:
    """Where each card ``seat`` cannot see lies in ``sample``: a seat number or the stock."""
    places = {}
    for c in sample.stock:
        places[c] = "stock"
    for s in range(state.players):
        if s != seat:
            for c in PACK_36:
                if sample.hands[s] >> c & 1 and not state.known[s] >> c & 1:
                    places[c] = str(s)
    return places


@pytest.mark.parametrize(("players", "mode"), CONFIGS)
def test_samples_vary(players: int, mode: str) -> None:
    """The unseen cards move between the places they could be, and a sample is not always
    the real state."""
    game = make(players, mode)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    for _ in range(6):
        state.apply_id(rng.choice(state.legal_action_ids()))
    for seat in range(players):
        knowledge = game.knowledge(state.view(seat))
        samples = [knowledge.sample(rng) for _ in range(30)]
        where: dict[int, set[str]] = {}
        for sample in samples:
            for card, place in unseen_places(state, seat, sample).items():
                where.setdefault(card, set()).add(place)
        assert any(len(places) > 1 for places in where.values())
        real = state.position().rsplit(" seed=", 1)[0]
        assert any(s.position().rsplit(" seed=", 1)[0] != real for s in samples)
        assert len({s.seed for s in samples}) == len(samples)


def test_unseen_cards_are_dealt_uniformly() -> None:
    """Right after a two-player deal seat 0 sees its 3 cards and the turned card: each of
    the other 32 lies in the opponent's hand with chance 3/32 and on top of the stock (the
    next card drawn) with chance 1/32. The counts stay within five standard deviations."""
    game = make(2, "turned")
    state = game.new_state(seed=11)
    knowledge = game.knowledge(state.view(0))
    rng = random.Random(11)
    draws = 3200
    in_hand: Counter[int] = Counter()
    on_top: Counter[int] = Counter()
    for _ in range(draws):
        sample = knowledge.sample(rng)
        in_hand.update(c for c in PACK_36 if sample.hands[1] >> c & 1)
        on_top[sample.stock[-1]] += 1
    unseen = [c for c in PACK_36 if not state.hands[0] >> c & 1 and c != state.faceup]
    assert len(unseen) == 32 and set(in_hand) | set(on_top) <= set(unseen)
    for counts, chance in ((in_hand, 3 / 32), (on_top, 1 / 32)):
        mean = draws * chance
        spread = 5 * (draws * chance * (1 - chance)) ** 0.5
        for card in unseen:
            assert abs(counts[card] - mean) < spread, (card, counts[card], mean)


def test_two_players_with_the_stock_empty_know_everything() -> None:
    """KRYT-9: with two players and the stock gone, every card not in one's hand or on the
    pile is in the other hand, so every sample is the real state."""
    game = make(2, "turned")
    state = game.new_state(seed=5)
    rng = random.Random(5)
    while state.stock or state.faceup >= 0:
        state.apply_id(rng.choice(state.legal_action_ids()))
    assert state.to_move is not None
    knowledge = game.knowledge(state.view(0))
    for _ in range(5):
        assert knowledge.sample(rng).hands == state.hands


def test_bad_views_are_refused() -> None:
    """A spectator's view, another game's view, a view of other options and a view whose
    cards do not add up are not a seat's knowledge of this game."""
    game = make(3, "turned")
    state = game.new_state(seed=2)
    with pytest.raises(InvalidPositionError):
        game.knowledge(state.view(None))
    other = cardtable.make("knockout-whist", players=3).new_state(seed=2)
    with pytest.raises(InvalidPositionError):
        game.knowledge(other.view(0))
    with pytest.raises(InvalidPositionError):
        make(2, "turned").knowledge(state.view(0))
    with pytest.raises(InvalidPositionError):
        make(3, "permanent").knowledge(state.view(0))
    good = state.view(1)
    tampered = [
        good | {"seat": 3},
        good | {"seat": True},
        good | {"hand_sizes": [3, 3, 4]},
        good | {"stock": good["stock"] + 1},
        good | {"known": [good["hand"][:1], [], []]},  # seat 1's card in seat 0's hand
        good | {"pile": [good["hand"][0]]},
        good | {"hand": [*good["hand"][:2], "2C"]},
        good | {"trump_card": None},
        good | {"to_move": 1},  # seat 1 to lead, yet it has no legal actions
    ]
    for view in tampered:
        with pytest.raises(InvalidPositionError):
            game.knowledge(view)
    with pytest.raises(InvalidPositionError):
        game.knowledge({k: v for k, v in good.items() if k != "pile"})


@pytest.mark.parametrize(("players", "mode"), CONFIGS)
def test_guided_playout_ends_hands(players: int, mode: str) -> None:
    """The guided playout ends every hand with a valid result, every action legal (the
    record replays through the checked path), far sooner than random play's hundreds of
    turns (KRYT-7.7), from a new deal and from a sample of a seat's view."""
    game = make(players, mode)
    rng = random.Random(players)
    lengths = []
    for seed in range(8):
        state = game.new_state(seed=seed)
        guided_playout(state, rng)
        check_result(state)
        assert state.mode == OVER
        check_replay(state, views=False)
        lengths.append(len(state.history))
    assert sum(lengths) / len(lengths) < 300
    state = game.new_state(seed=99)
    for _ in range(9):
        state.apply_id(rng.choice(state.legal_action_ids()))
    sample = game.knowledge(state.view(1)).sample(rng)
    guided_playout(sample, rng)
    check_result(sample)
    check_replay(sample, views=False)


@pytest.mark.parametrize("mode", ["turned", "permanent"])
def test_the_playouts_weakest_card_is_the_one_of_least_strength(mode: str) -> None:
    """The playout's weakest card of a hand is the card of least strength, the cards it
    beats less the cards that beat it under the hand's beating table (ties: the lower
    rank, then the pack's order), for hands of every size under every trump."""
    game = make(2, mode)
    rng = random.Random(5)
    checked = 0
    pack = [c for c in range(52) if c % 13 >= 4]
    for seed in range(12):  # deals with each trump suit
        state = game.new_state(seed=seed)
        beaters = state.beaters
        strength = {
            card: (
                sum(1 for other in pack if beaters[other] >> card & 1) - beaters[card].bit_count(),
                card % 13,
                card,  # equal cards of two suits: the pack's order, clubs first
            )
            for card in pack
        }
        order = _weakest_first(state)
        for size in (1, 2, 5, 12, 36):
            cards = rng.sample(pack, size)
            weakest = min(cards, key=strength.__getitem__)
            mask = sum(1 << c for c in cards)
            assert _weakest(mask, order) == NUMBER[weakest]
            checked += 1
    assert checked == 60


@pytest.mark.parametrize("players", [2, 3])
def test_guided_policy_beats_random_play(players: int) -> None:
    """A seat playing the guided policy against random players is the fool far less often
    than its even share (KRYT-7.2)."""
    game = make(players, "turned")
    rng = random.Random(players)
    fools = 0
    games = 60
    for seed in range(games):
        state = game.new_state(seed=1000 + seed)
        while state.to_move is not None:
            if state.to_move == 0:
                state.apply_id(guided_action(state, rng))
            else:
                state.apply_id(rng.choice(state.legal_action_ids()))
        fools += state.loser == 0
    assert fools / games < 0.5 / players
