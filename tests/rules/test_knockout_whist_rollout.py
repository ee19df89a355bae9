"""Knockout Whist's search rollout: the fast hand simulation against the engine.

``rollout`` plays the rest of the hand on local ints; ``rollout_through_engine`` plays it
with the same policy through ``state.apply_id``. From the same state and the same draws
they must make the same choices and return the same tuple: the statuses after the hand
follow KOW-5.1 (the dog's life, W-6 several dogs at once, KOW-6.7 out once it is used), the
game ends with one player left (KOW-5.2) or after hand 7 (W-7), and trick play follows
KOW-4 and KOW-6 (follow suit, trumps, a dog's knock, the last trick forcing its card W-3,
a winner with no cards passing the lead KOW-4.4 / KOW-6.5).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter

import pytest

from cardtable.bots.knockout_whist_rollout import choose, rollout, rollout_through_engine
from cardtable.rules.knockout_whist.game import KnockoutWhist
from cardtable.rules.knockout_whist.state import (
    DOG,
    HANDS,
    KNOCKED,
    OVER,
    TRUMP,
    KnockoutWhistState,
)
from cardtable.rules.tricks import trick_winner

PLAYERS = range(2, 8)
GAMES = 14  # seeded games a player count
DRAWS = 2  # rng seeds a state
SAMPLED_EVERY = 5  # every so many states, a determinized sample from the mover's view too


@functools.cache
def states(players: int) -> tuple[KnockoutWhistState, ...]:
    """Every state with someone to move in seeded games where each action is the rollout
    policy's or uniformly random, half and half (the policy alone rarely knocks or plays
    a poor card), plus states sampled from the mover's view, as search gets them."""
    game = KnockoutWhist(players=players)
    rng = random.Random(1000 + players)
    found: list[KnockoutWhistState] = []
    for seed in range(GAMES):
        state = game.new_state(seed=seed)
        while state.to_move is not None:
            found.append(state.copy())
            if len(found) % SAMPLED_EVERY == 0:
                view = state.view(state.to_move)
                found.append(game.knowledge(view).sample(rng))
            if rng.random() < 0.5:
                state.apply_id(choose(state, rng.random))
            else:
                legal = state.legal_action_ids()
                state.apply_id(legal[int(rng.random() * len(legal))])
    return tuple(found)


def hand_tricks(
    after: KnockoutWhistState, before: KnockoutWhistState
) -> tuple[int, list[list[tuple[int, int]]]]:
    """The trump and the tricks the engine played in the rollout, from its state after
    the hand: the hand's tricks are still ``done`` if the game ended, else ``previous``."""
    if after.phase == OVER:
        trump, tricks = after.trump, after.done
    else:
        assert after.previous is not None
        trump, tricks = after.previous
    assert trump is not None
    return trump, tricks[len(before.done) :]


def compare(state: KnockoutWhistState, seed: int, seen: Counter[str]) -> None:
    """The fast rollout and the engine's agree from ``state`` with draws from ``seed``."""
    before = state.position()
    fast_rng, engine_rng = random.Random(seed), random.Random(seed)
    fast = rollout(state, fast_rng)
    assert state.position() == before, "the fast rollout must leave the state as it was"
    engine_state = state.copy()
    expected = rollout_through_engine(engine_state, engine_rng)
    assert fast == expected, (state.position(), seed)
    # The same number of draws: the choices consumed the same randomness.
    assert fast_rng.random() == engine_rng.random(), (state.position(), seed)
    # What the case covered, for test_cases_cover_every_situation.
    seen["pairs"] += 1
    seen["trump phase" if state.phase == TRUMP else "play phase"] += 1
    if state.trick:
        seen["mid-trick"] += 1
    if any(card == KNOCKED for _, card in state.trick):
        seen["knock in the trick"] += 1
    if DOG in state.status:
        seen["dogs"] += 1
    if state.status.count(DOG) >= 2:
        seen["several dogs (W-6)"] += 1
    if len(state.done) == HANDS - state.hand_no and state.phase != TRUMP:
        seen["last trick"] += 1
    if state.hand_no == HANDS:
        seen["hand 7"] += 1
    seen["game ends in the hand" if engine_state.phase == OVER else "estimate"] += 1
    if engine_state.phase != OVER and DOG in engine_state.status and DOG not in state.status:
        seen["dog's life awarded"] += 1
    if engine_state.phase != OVER and len(engine_state.eliminated) > len(state.eliminated):
        seen["knocked out, game goes on"] += 1
    trump, tricks = hand_tricks(engine_state, state)
    for earlier, later in itertools.pairwise(tricks):
        if later[0][0] != trick_winner(earlier, trump):
            seen["lead passed on (KOW-4.4, KOW-6.5)"] += 1
    if tricks and any(card == KNOCKED for trick in tricks for _, card in trick):
        seen["knocks in the rollout"] += 1


@functools.cache
def compared(players: int) -> Counter[str]:
    """Compare every state of :func:`states` under :data:`DRAWS` seeds; what was covered."""
    seen: Counter[str] = Counter()
    for state in states(players):
        for seed in range(DRAWS):
            compare(state.copy(), 7919 * seed + players, seen)
    return seen


@pytest.mark.parametrize("players", PLAYERS)
def test_fast_rollout_matches_the_engine(players: int) -> None:
    assert compared(players)["pairs"] >= 300


def test_cases_cover_every_situation() -> None:
    seen: Counter[str] = sum((compared(players) for players in PLAYERS), Counter())
    assert seen["pairs"] >= 5000, seen
    for situation in (
        "trump phase",
        "play phase",
        "mid-trick",
        "knock in the trick",
        "dogs",
        "several dogs (W-6)",
        "last trick",
        "hand 7",
        "game ends in the hand",
        "estimate",
        "dog's life awarded",
        "knocked out, game goes on",
        "lead passed on (KOW-4.4, KOW-6.5)",
        "knocks in the rollout",
    ):
        assert seen[situation] >= 5, (situation, seen)


def test_terminal_state_returns_the_result() -> None:
    game = KnockoutWhist(players=3)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while state.to_move is not None:
        state.apply_id(choose(state, rng.random))
    result = state.result
    assert result is not None
    assert rollout(state, random.Random(0)) == result.returns
    assert sorted(result.returns) == [-0.5, -0.5, 1.0]


def test_hand_seven_returns_the_game_result() -> None:
    """W-7: from hand 7 the rollout's returns are the game's: +1 to the trick's winner and
    -1/(n-1) to everyone else, whoever is a dog."""
    for players in PLAYERS:
        for state in states(players):
            if state.hand_no != HANDS:
                continue
            returns = rollout(state.copy(), random.Random(players))
            loss = -1.0 / (players - 1)
            assert sorted(returns) == [loss] * (players - 1) + [1.0]
            winner = returns.index(1.0)
            assert state.hands[winner] or any(s == winner for s, _ in state.trick)
