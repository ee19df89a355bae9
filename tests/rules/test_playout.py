"""``state.playout(rng)``: the rollout search uses plays uniformly random legal actions.

Three paths play it: the compiled core (``State.playout`` when ``CARDTABLE_CORE`` lets it),
the Knockout Whist override of ``playout_python``, which draws straight from its bitmasks
instead of listing legal actions, and the generic ``State.playout_python``; these tests hold
all three to the same contract.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

import cardtable
from cardtable.core import State
from cardtable.rules.knockout_whist.state import DOG, KNOCK, TRUMP, KnockoutWhistState


def _find(predicate: Callable[[KnockoutWhistState], bool]) -> KnockoutWhistState:
    """The first state of a seeded random 5-player game that satisfies ``predicate``."""
    game = cardtable.make("knockout-whist", players=5, dealer=0)
    for seed in range(500):
        state = game.new_state(seed=seed)
        assert isinstance(state, KnockoutWhistState)
        rng = random.Random(seed)
        while state.to_move is not None:
            if predicate(state):
                return state
            state.apply_id(rng.choice(state.legal_action_ids()))
    raise AssertionError("no such state in 500 games")


def _first_choices(state: State, playout: Callable[[State, random.Random], None]) -> Counter[int]:
    start = len(state.history)
    counts: Counter[int] = Counter()
    for i in range(4000):
        copy = state.copy()
        playout(copy, random.Random(i))
        assert copy.is_over and copy.result is not None
        counts[copy.history[start]] += 1
    return counts


def _assert_uniform(counts: Counter[int], legal: list[int]) -> None:
    assert set(counts) == set(legal)
    total = sum(counts.values())
    expected = total / len(legal)
    sigma = (expected * (1 - 1 / len(legal))) ** 0.5
    for number in legal:
        assert abs(counts[number] - expected) < 5 * sigma, (counts, legal)


SITUATIONS: dict[str, Callable[[KnockoutWhistState], bool]] = {
    # KOW-4.2: a leader may lead any card of a full hand.
    "lead from seven cards": lambda s: s.hand_no == 1 and not s.done and not s.trick,
    # KOW-4.2: a follower must follow suit when it can.
    "follow suit": lambda s: (
        len(s.trick) == 1
        and len(s.legal_action_ids()) >= 2
        and s.trick[0][1] // 13 == s.legal_action_ids()[0] // 13
    ),
    # KOW-6.3: a dog may play its card or knock.
    "dog, play or knock": lambda s: (
        s.status[s.to_move or 0] == DOG and KNOCK in s.legal_action_ids()
    ),
    # KOW-3.2: the chooser names one of four suits.
    "name trumps": lambda s: s.phase == TRUMP,
}


@pytest.mark.parametrize("situation", SITUATIONS)
@pytest.mark.parametrize("path", ["core", "game", "generic"])
def test_playout_draws_every_legal_action_equally_often(
    situation: str, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first action of 4,000 playouts from one state: each legal action about equally
    often (within five standard deviations), for the compiled core's playout, Knockout
    Whist's own Python playout and the generic one in ``cardtable.core.State``."""
    monkeypatch.setenv("CARDTABLE_CORE", "rust" if path == "core" else "python")
    state = _find(SITUATIONS[situation])
    legal = state.legal_action_ids()
    assert len(legal) >= 2

    def generic(s: State, rng: random.Random) -> None:
        State.playout_python(s, rng)

    def own(s: State, rng: random.Random) -> None:
        s.playout(rng)

    _assert_uniform(_first_choices(state, generic if path == "generic" else own), legal)


@pytest.mark.parametrize("core", ["rust", "python"])
def test_playout_is_reproducible_and_only_plays_legal_actions(
    core: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same seed, same rollout; and the rollout's actions replay through the checked path."""
    monkeypatch.setenv("CARDTABLE_CORE", core)
    state = _find(lambda s: s.hand_no == 2)
    one, two = state.copy(), state.copy()
    one.playout(random.Random(9))
    two.playout(random.Random(9))
    assert one.position() == two.position()
    assert cardtable.replay(one.record()).position() == one.position()
