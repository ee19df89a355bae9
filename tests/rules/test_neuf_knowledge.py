"""The Neuf determinizer (``game.knowledge(view)``, DESIGN.md "Bots") and the guided
playout of search.

Every sample must be a state the seat could not tell from the real one (NEUF-9): the
same view, the same legal moves, a position that parses back, a game that plays on. What
the seat knows is recomputed here from the real state, apart from the module: its hand,
the cards played, the hands it has held and where the exchanges took them (NEUF-3.2,
NEUF-3.3), the final spare once a game ends with its deal complete (N-5), and the suits a
seat showed it lacks by not following (NEUF-4.2).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable.bots.neuf_rollout import choose, guided_playout, rollout
from cardtable.errors import InvalidPositionError
from cardtable.rules.neuf import Neuf, NeufState
from cardtable.rules.neuf.invariants import check_state
from cardtable.rules.neuf.state import OVER

VARIANTS: list[dict[str, Any]] = [
    {"players": 3},
    {"players": 3, "dealer_exchanges_first": True, "trump_sequence": "HDCS"},
    {"players": 3, "tie_avoidance": True},
    {"players": 4},
    {"players": 4, "trump_sequence": "SHDC-NT"},
]
SUIT = [0x1FFF << 13 * s for s in range(4)]


def _game(options: dict[str, Any]) -> Neuf:
    game = cardtable.make("neuf", **options)
    assert isinstance(game, Neuf)
    return game


def _random_step(state: NeufState, rng: random.Random) -> None:
    state.apply_id(rng.choice(state.legal_action_ids()))


def _interesting(state: NeufState, first: bool) -> bool:
    """Early, middle and late states of the first deal, the states that open the second
    deal, a late state of every later deal, and the end of the game."""
    n = state.players
    done, trick = len(state.done), len(state.trick)
    if state.phase == OVER:
        return True
    if not first:
        return (done == 0 and trick == 0 and state.deal_number == 2) or (done == 10 and trick == 1)
    return (
        state.phase == "exchange"
        or (trick == 0 and done in (0, 1, 6, 12))
        or (done == 6 and trick == 1)
        or (done == 12 and trick == n - 1)
    )


def _states(options: dict[str, Any], seed: int) -> list[NeufState]:
    game = _game(options)
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    found = []
    while True:
        if _interesting(state, state.deal_number == 1):
            found.append(state.copy())
        if state.to_move is None:
            return found
        _random_step(state, rng)


CASES = [
    pytest.param(options, seed, id=f"{'-'.join(f'{k}={v}' for k, v in options.items())}-{seed}")
    for options in VARIANTS
    for seed in (1, 2)
]


# What the seat knows, recomputed from the real state ----------------------------------------


def _place(state: NeufState, card: int) -> str:
    for seat, hand in enumerate(state.hands):
        if hand >> card & 1:
            return f"seat {seat}"
    return "spare" if state.spare >> card & 1 else "played"


def _known_cards(real: NeufState, seat: int) -> int:
    """The cards whose place ``seat`` knows (NEUF-9): every hand it has held, wherever the
    exchanges took it; the cards played; the final spare of a finished game (N-5)."""
    played = 0
    for trick in [*real.done, real.trick]:
        for _, card in trick:
            played |= 1 << card
    known = played | real.hands[seat]
    if real.players == 3:
        hands, spare = real.piles[:3], real.piles[3]
        known |= hands[seat]
        for s, exchanged in real.acted_exchange:
            if exchanged:
                hands[s], spare = spare, hands[s]
                if s == seat:
                    known |= hands[s]
        if real.phase == OVER and real.ledger.is_over:
            known |= real.spare
    return known


def _voids(real: NeufState) -> list[int]:
    """Per seat, the suits it did not follow this deal, as a card mask (NEUF-4.2)."""
    shown = [0] * real.players
    for trick in [*real.done, real.trick]:
        for seat, card in trick[1:]:
            if card // 13 != trick[0][1] // 13:
                shown[seat] |= SUIT[trick[0][1] // 13]
    return shown


def _check_sample(game: Neuf, real: NeufState, seat: int, sample: NeufState) -> None:
    assert sample.view(seat) == real.view(seat)
    if real.to_move == seat:
        assert sample.legal_action_ids() == real.legal_action_ids()
    check_state(sample)
    position = sample.position()
    assert sample.start == position
    assert game.state_from_position(position).view(seat) == real.view(seat)
    assert sample.history == [] and sample.stacked_decks == []
    known = _known_cards(real, seat)
    for card in range(52):
        if known >> card & 1:
            assert _place(sample, card) == _place(real, card), f"card {card}"
    for hand, void in zip(sample.hands, _voids(real), strict=True):
        assert not hand & void, "NEUF-4.2: a seat that did not follow holds the suit"


def _play_on(game: Neuf, sample: NeufState, rng: random.Random) -> None:
    """Uniformly random play to the end, then the record must replay to the same game."""
    state = sample.copy()
    while state.to_move is not None:
        _random_step(state, rng)
    result = state.result
    assert result is not None and result.winners
    assert abs(sum(result.returns)) < 1e-9
    assert game.replay(state.record()).position() == state.position()


# Samples against the real state ------------------------------------------------------------


@pytest.mark.parametrize(("options", "seed"), CASES)
def test_every_sample_is_a_state_the_seat_cannot_tell_from_the_real_one(
    options: dict[str, Any], seed: int
) -> None:
    """NEUF-9: view, legal moves, known cards and revealed voids all hold in each sample."""
    game = _game(options)
    rng = random.Random(seed)
    states = _states(options, seed)
    assert states[0].phase == ("exchange" if game.num_players == 3 else "play")
    assert states[-1].phase == OVER
    assert any(s.deal_number == 2 and not s.done for s in states)
    voids_seen = False
    for real in states:
        voids_seen |= any(_voids(real))
        for seat in range(game.num_players):
            knowledge = game.knowledge(real.view(seat))
            assert knowledge.seat == seat
            for k in range(6):
                sample = knowledge.sample(rng)
                _check_sample(game, real, seat, sample)
                if k == 0 and seat == real.deal_number % game.num_players:
                    _play_on(game, sample, rng)
    assert voids_seen  # the void rule was exercised


def test_a_checked_playout_from_samples() -> None:
    """Every transition from a sample meets the NEUF-11 invariants."""
    rng = random.Random(5)
    for options in VARIANTS[::2]:
        game = _game(options)
        for real in _states(options, 3)[::4]:
            seat = len(real.history) % game.num_players
            state = game.knowledge(real.view(seat)).sample(rng)
            while state.to_move is not None:
                before = state.copy()
                number = rng.choice(state.legal_action_ids())
                state.apply_id(number)
                game.check_transition(before, number, state)


def test_samples_vary_where_the_seat_cannot_see() -> None:
    """A card the seat cannot place lands in more than one place, and not every sample
    is the real deal."""
    rng = random.Random(9)
    for options in VARIANTS:
        game = _game(options)
        real = game.new_state(seed=11)
        for _ in range(7):  # into the play, some exchanges made in the 3-player game
            _random_step(real, rng)
        for seat in range(game.num_players):
            unknown = ~_known_cards(real, seat) & (1 << 52) - 1
            assert unknown
            card = (unknown & -unknown).bit_length() - 1
            knowledge = game.knowledge(real.view(seat))
            samples = [knowledge.sample(rng) for _ in range(40)]
            assert len({_place(s, card) for s in samples}) > 1
            assert any(s.hands != real.hands or s.spare != real.spare for s in samples)


def test_a_hand_put_down_and_taken_is_known_to_be_in_the_takers_hand() -> None:
    """NEUF-3.2, NEUF-3.3, NEUF-9: the first to decide exchanges, the next exchanges
    too and so takes the first player's hand; the first knows that hand, card for card,
    less what its taker has played."""
    game = _game({"players": 3, "dealer": 2})
    state = game.new_state(seed=4)
    state.apply("exchange")  # seat 0 puts its dealt hand down, takes the original spare
    state.apply("exchange")  # seat 1 takes seat 0's dealt hand
    state.apply("keep")
    dealt_0 = state.piles[0]
    assert state.hands[1] == dealt_0
    rng = random.Random(2)
    for _ in range(4):
        _random_step(state, rng)
    knowledge = game.knowledge(state.view(0))
    for _ in range(30):
        sample = knowledge.sample(rng)
        assert sample.hands[1] == state.hands[1]
        assert sample.hands[0] == state.hands[0]
        assert sample.piles[0] == dealt_0 and sample.piles[3] == state.piles[3]
    # Seat 2 kept and never saw either hand: seat 1's cards vary for it.
    other = game.knowledge(state.view(2))
    assert len({other.sample(rng).hands[1] for _ in range(30)}) > 1


# Uniform among the layouts the view allows ---------------------------------------------------


def _layouts(real: NeufState, seat: int) -> set[tuple[int, ...]]:
    """Every way to put the cards ``seat`` cannot place into the places they could be, in
    the real sizes, meeting the voids: enumerated by brute force."""
    unknown = ~_known_cards(real, seat) & (1 << 52) - 1
    masks = [*real.hands, real.spare]
    barred = [*_voids(real), 0]
    sizes = [(m & unknown).bit_count() for m in masks]

    def fill(place: int, left: int) -> list[tuple[int, ...]]:
        if place == len(masks):
            return [()]
        found = []
        for chosen in itertools.combinations([c for c in range(52) if left >> c & 1], sizes[place]):
            mask = sum(1 << c for c in chosen)
            if not mask & barred[place]:
                found += [(mask, *rest) for rest in fill(place + 1, left & ~mask)]
        return found

    return set(fill(0, unknown))


def _void_case(players: int) -> tuple[NeufState, int]:
    """A late state where a void shown by a seat holding unseen cards leaves some of a
    suit's unseen cards more than one place to go, among at most a few hundred layouts."""
    tricks_left = 1 if players == 3 else 2  # few unseen cards, but for the spare
    for seed in range(300):
        rng = random.Random(seed)
        state = _game({"players": players}).new_state(seed=seed)
        while state.to_move is not None and len(state.done) < 13 - tricks_left:
            _random_step(state, rng)
        seat = state.to_move
        if seat is None or state.deal_number != 1:
            continue
        unknown = ~_known_cards(state, seat) & (1 << 52) - 1
        barred = 0
        for s, void in enumerate(_voids(state)):
            if s != seat and state.hands[s] & unknown:
                barred |= void
        if unknown.bit_count() > 16 or not barred & unknown:
            continue
        layouts = _layouts(state, seat)
        if not 4 <= len(layouts) <= 300:
            continue
        for card in range(52):
            if (barred & unknown) >> card & 1:
                places = {tuple(m >> card & 1 for m in layout) for layout in layouts}
                if len(places) > 1:
                    return state, seat
    raise AssertionError("no such state in the seeds tried")


@pytest.mark.parametrize("players", [3, 4])
def test_void_constrained_samples_are_uniform_over_the_allowed_layouts(players: int) -> None:
    """Only layouts that meet the voids come up, each card is in each place as often as
    the layouts say (all of them counted by brute force), and with few layouts, each
    layout comes up equally often."""
    real, seat = _void_case(players)
    layouts = _layouts(real, seat)
    knowledge = _game({"players": players}).knowledge(real.view(seat))
    rng = random.Random(3)
    unknown = ~_known_cards(real, seat) & (1 << 52) - 1
    runs = 12000
    counts = Counter(
        tuple(m & unknown for m in [*s.hands, s.spare])
        for s in (knowledge.sample(rng) for _ in range(runs))
    )
    assert set(counts) <= layouts
    for card in range(52):
        if unknown >> card & 1:
            for place in range(len(real.hands) + 1):
                p = sum(layout[place] >> card & 1 for layout in layouts) / len(layouts)
                seen = sum(n for layout, n in counts.items() if layout[place] >> card & 1)
                assert abs(seen - p * runs) <= 5 * (runs * p * (1 - p)) ** 0.5 + 1, (card, place)
    if len(layouts) <= 60:
        assert set(counts) == layouts
        per_layout = runs / len(layouts)
        spread = 5 * per_layout**0.5  # five standard deviations, near enough
        assert all(abs(c - per_layout) < spread for c in counts.values()), counts


def test_free_cards_fall_in_proportion_to_the_room_left() -> None:
    """With no void shown, an unseen card is in each unseen place as often as that place
    has room: the 3-player seat that kept sees two 13-card hands and the 13-card spare."""
    game = _game({"players": 3, "dealer": 2})
    real = game.new_state(seed=8)
    real.apply("keep")
    knowledge = game.knowledge(real.view(0))
    rng = random.Random(4)
    card = next(c for c in range(52) if not real.hands[0] >> c & 1)
    places = Counter(_place(knowledge.sample(rng), card) for _ in range(3000))
    assert set(places) == {"seat 1", "seat 2", "spare"}
    assert all(abs(n - 1000) < 150 for n in places.values()), places


# Bad input -------------------------------------------------------------------------------------


def test_views_that_are_not_a_seats_view_of_this_game_are_refused() -> None:
    game = _game({"players": 3})
    state = game.new_state(seed=1)
    rng = random.Random(1)
    for _ in range(9):
        _random_step(state, rng)
    with pytest.raises(InvalidPositionError):
        game.knowledge(state.view(None))  # a spectator has no hand to start from
    whist = cardtable.make("knockout-whist", players=3).new_state(seed=1)
    with pytest.raises(InvalidPositionError):
        game.knowledge(whist.view(0))
    with pytest.raises(InvalidPositionError):
        _game({"players": 4}).knowledge(state.view(0))
    with pytest.raises(InvalidPositionError):
        _game({"players": 3, "dealer_exchanges_first": True}).knowledge(state.view(0))
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    for key, value in [
        ("hand", view["hand"][1:]),
        ("hand_sizes", [13, 13, 13]),
        ("held", [view["hand"]]),
        ("scores", [1, 2, 3]),
        ("trump", "X"),
        ("tricks", "nonsense"),
        ("exchanges", [[0, "maybe"]]),
    ]:
        with pytest.raises(InvalidPositionError):
            game.knowledge(view | {key: value})
    with pytest.raises(InvalidPositionError):
        game.knowledge({k: v for k, v in view.items() if k != "trick"})
    with pytest.raises(InvalidPositionError):
        game.knowledge("neuf")  # type: ignore[arg-type]


# The guided playout ----------------------------------------------------------------------------


@pytest.mark.parametrize("options", VARIANTS)
def test_guided_playout_ends_games_with_valid_results(options: dict[str, Any]) -> None:
    game = _game(options)
    rng = random.Random(6)
    for seed in range(4):
        state = game.new_state(seed=seed)
        for _ in range(seed * 17):  # from the start and from some way in
            _random_step(state, rng)
        guided_playout(state, rng)
        result = state.result
        assert result is not None and result.winners
        assert abs(sum(result.returns)) < 1e-9
        # Every guided move was legal: the record replays, each action checked.
        assert game.replay(state.record()).position() == state.position()


@pytest.mark.parametrize("players", [3, 4])
def test_a_seat_playing_the_guided_policy_beats_uniform_random_play(players: int) -> None:
    """One guided seat against random ones wins far more than its share of games."""
    game = _game({"players": players})
    rng = random.Random(12)
    games, wins = 30, 0
    for seed in range(games):
        state = game.new_state(seed=seed)
        while state.to_move is not None:
            if state.to_move == 0:
                state.apply_id(choose(state, rng))
            else:
                _random_step(state, rng)
        assert state.result is not None
        wins += 0 in state.result.winners
    assert wins >= 0.8 * games  # 1/3 (3 players) or 1/2 (4) by chance alone


@pytest.mark.parametrize("options", VARIANTS)
def test_rollout_plays_to_the_end_of_the_deal_and_returns_zero_sum_estimates(
    options: dict[str, Any],
) -> None:
    """Search's rollout stops when the deal is scored (or the game ends, NEUF-6, 8.3);
    its returns add up to zero like a result's, and favour the side with the lower score."""
    game = _game(options)
    rng = random.Random(8)
    for seed in range(6):
        state = game.new_state(seed=seed)
        for _ in range(seed * 11):
            _random_step(state, rng)
        rows = len(state.ledger.rows)
        returns = rollout(state, rng)
        assert len(returns) == game.num_players
        assert abs(sum(returns)) < 1e-9
        if state.result is not None:
            assert tuple(returns) == state.result.returns
        else:
            assert len(state.ledger.rows) == rows + 1
            assert not state.done and not state.trick  # the next deal, not yet begun
            scores = state.ledger.scores
            side = [s if game.num_players == 3 else s % 2 for s in range(game.num_players)]
            for a in range(game.num_players):
                for b in range(game.num_players):
                    if scores[side[a]] < scores[side[b]]:
                        assert returns[a] > returns[b]
