"""The core's determinizers equal the Python games' ``Knowledge`` (DESIGN.md "Bots":
knowledge, not state).

A seat's view crosses as JSON; the core samples full states from it. Every sample must be
a state the seat cannot tell from the real one: its ``view(seat)``, read back through the
Python engine, is the view it was built from, and the seat's legal actions are the same
(SPEC KOW-9, NEUF-9, KRYT-9). And the core's samples must follow the Python sampler's
distribution: for each unseen card, how often it lands in each hand (or in no hand) is
compared by a chi-square test of homogeneity, a test that is shown to fail on a biased
sampler.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from scipy.stats import chi2_contingency  # type: ignore[import-untyped]

import cardtable
from cardtable import compiled
from cardtable.core import Game, State

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("knockout-whist", {"players": 3}),
    ("knockout-whist", {"players": 5}),
    ("neuf", {"players": 3}),
    ("neuf", {"players": 4}),
    ("kryt-navalivat", {"players": 2}),
    ("kryt-navalivat", {"players": 4, "trump_mode": "permanent"}),
]
IDS = [f"{n}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for n, o in VARIANTS]
# Each check's bar: a p-value this small, after a Bonferroni correction over the cards.
ALPHA = 1e-4


def situations(game: Game, count: int, seed: int) -> list[State]:
    """States met along seeded random games, a seat to move in each, spread over the game."""
    found: list[State] = []
    rng = random.Random(seed)
    game_seed = seed
    while len(found) < count:
        state = game.new_state(seed=game_seed)
        game_seed += 1
        while not state.is_over:
            if rng.random() < 0.05:
                found.append(state.copy())
            state.apply_id(rng.choice(state.legal_action_ids()))
    return found[:count]


def core_samples(game: Game, state: State, count: int, seed: int) -> list[State]:
    seat = state.to_move
    assert seat is not None
    twin = compiled.core_game(game, always=True)
    assert twin is not None
    positions = twin.sample_positions(json.dumps(state.view(seat)), count, seed)
    return [game.state_from_position(p) for p in positions]


def placements(samples: list[State], players: int) -> dict[int, Counter[int]]:
    """For each card, how many samples put it in each seat's hand (``players`` for none)."""
    where: dict[int, Counter[int]] = {}
    for sample in samples:
        hands: list[int] = sample.hands  # type: ignore[attr-defined]
        for card in range(52):
            place = next((s for s in range(players) if hands[s] >> card & 1), players)
            where.setdefault(card, Counter())[place] += 1
    return where


def same_distribution(a: list[State], b: list[State], players: int) -> float:
    """The smallest per-card chi-square p-value, Bonferroni-corrected, of the hypothesis
    that ``a`` and ``b`` place the cards alike (1.0 where nothing varies)."""
    pa, pb = placements(a, players), placements(b, players)
    worst = 1.0
    varying = [c for c in pa if len(set(pa[c]) | set(pb.get(c, Counter()))) > 1]
    for card in varying:
        places = sorted(set(pa[card]) | set(pb[card]))
        table = [[pa[card][p] for p in places], [pb[card][p] for p in places]]
        p_value = chi2_contingency(table).pvalue
        worst = min(worst, p_value * len(varying))
    return worst


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_every_sample_is_a_state_the_seat_cannot_tell_from_the_real_one(
    name: str, options: dict[str, Any]
) -> None:
    game = cardtable.make(name, engine="python", **options)
    for index, state in enumerate(situations(game, 25, seed=3)):
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        for sample in core_samples(game, state, 8, seed=index):
            assert sample.view(seat) == view
            assert sample.legal_action_ids() == state.legal_action_ids()
            assert sample.to_move == seat


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_the_core_samples_as_the_python_knowledge_does(name: str, options: dict[str, Any]) -> None:
    game = cardtable.make(name, engine="python", **options)
    players = game.num_players
    for index, state in enumerate(situations(game, 3, seed=11)):
        seat = state.to_move
        assert seat is not None
        knowledge = game.knowledge(state.view(seat))
        rng = random.Random(index)
        python = [knowledge.sample(rng) for _ in range(1500)]
        core = core_samples(game, state, 1500, seed=100 * index)
        assert same_distribution(python, core, players) > ALPHA, state.position()


def test_the_distribution_check_catches_a_biased_sampler() -> None:
    """The check has teeth: samples that favour one arrangement (the Python sampler's, but
    every third sample replaced by a copy of the first) fail it."""
    game = cardtable.make("knockout-whist", engine="python", players=4)
    state = situations(game, 1, seed=5)[0]
    seat = state.to_move
    assert seat is not None
    knowledge = game.knowledge(state.view(seat))
    rng = random.Random(1)
    fair = [knowledge.sample(rng) for _ in range(1500)]
    other = [knowledge.sample(rng) for _ in range(1500)]
    biased = [other[0] if i % 3 == 0 else s for i, s in enumerate(other)]
    assert same_distribution(fair, other, 4) > ALPHA
    assert same_distribution(fair, biased, 4) < ALPHA


def test_a_view_that_is_no_view_is_refused() -> None:
    twin = compiled.core_game(
        cardtable.make("knockout-whist", engine="python", players=3), always=True
    )
    assert twin is not None
    with pytest.raises(cardtable.InvalidPositionError, match="JSON"):
        twin.sample_positions("{not json", 1, 0)
