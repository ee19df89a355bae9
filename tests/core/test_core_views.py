"""The core writes each seat's view, equal to the Python engine's.

A core-backed state's ``view(seat)`` is written by the compiled core
(``crates/core/src/<game>/view.rs`` and ``knowledge.rs``), not read from the Python
reference. Along seeded random games of every variant of the differential tests, at every
step and for every seat and the spectator, the core's view must equal the Python engine's as
JSON (so that ``true`` is not ``1``): the core state stepped alongside the Python one, and
(every few steps) read from the Python state's position (KOW-9, NEUF-9, KRYT-9). Reading
views builds no reference state; a seat the game has not is refused.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardtable
from cardtable import compiled
from cardtable.differential import VARIANTS
from cardtable.engines import CoreBacked
from twin_games import twin_steps

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the core is not built")

GAMES_PER_VARIANT = 2


def as_json(view: object) -> str:
    return json.dumps(view, sort_keys=True)


def first_difference(expected: dict[str, Any], got: dict[str, Any]) -> str:
    """The keys whose values differ (or that one view lacks), with both values."""
    keys = sorted(set(expected) | set(got))
    differ = [
        k
        for k in keys
        if as_json(expected.get(k, "<absent>")) != as_json(got.get(k, "<absent>"))
        or expected.get(k) != got.get(k)
    ]
    return "; ".join(
        f"{k}: {expected.get(k, '<absent>')!r} != {got.get(k, '<absent>')!r}" for k in differ[:4]
    )


def assert_same_views(state: Any, twin: Any, seats: int, where: str) -> None:
    for seat in [None, *range(seats)]:
        expected, got = state.view(seat), twin.view(seat)
        # As JSON, so that true is not 1; as Python, so that a tuple is not a list.
        assert as_json(got) == as_json(expected) and got == expected, (
            f"{where}, seat {seat}: {first_difference(expected, got)}"
        )
        assert list(got) == list(expected), f"{where}, seat {seat}: the keys' order"
        # The text a table sends: the same view, in the same order, with no spaces.
        text = twin.view_text(seat)
        assert json.loads(text) == expected and text == json.dumps(got, separators=(",", ":"))


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=[f"{n}-{o}" for n, o in VARIANTS])
def test_core_views_equal_the_python_engines(name: str, options: dict[str, Any]) -> None:
    steps = 0
    for where, game, state, twin in twin_steps(name, options, GAMES_PER_VARIANT, 3):
        assert_same_views(state, twin, game.num_players, where)
        steps += 1
    assert steps > GAMES_PER_VARIANT * 10


@pytest.mark.parametrize("name", ["knockout-whist", "neuf", "kryt-navalivat"])
def test_a_game_from_make_views_without_a_reference(name: str) -> None:
    """Viewing every seat at every step of a game from ``make`` builds no Python reference
    state, and the views are the Python engine's."""
    state = cardtable.make(name).new_state(seed=4)
    reference = cardtable.make(name, engine="python").new_state(seed=4)
    assert isinstance(state, CoreBacked)
    rng = random.Random(4)
    while not state.is_over:
        assert_same_views(reference, state, state.game.num_players, f"{name} {state.position()}")
        action = rng.choice(state.legal_action_ids())
        state.apply_id(action)
        reference.apply_id(action)
        assert state._reference is None
    assert as_json(state.view(None)) == as_json(reference.view(None))


@pytest.mark.parametrize("seat", [-1, 3, 10**6])
def test_a_seat_not_of_the_game_is_refused(seat: int) -> None:
    state = cardtable.make("neuf", players=3).new_state(seed=2)
    before = state.position()
    with pytest.raises(ValueError, match=f"seat {seat} is not a seat of this 3-player game"):
        state.view(seat)
    with pytest.raises(ValueError, match=f"seat {seat} is not a seat of this 3-player game"):
        state.view_text(seat)
    assert state.position() == before


def test_the_comparison_catches_a_changed_field() -> None:
    """The helper the equality test uses fails on a view with one nested value changed,
    naming the field, on a boolean written as a number, and on a list written as a
    tuple."""
    state = cardtable.make("knockout-whist", engine="python", players=3).new_state(seed=1)

    class Changed:
        def __init__(self, change: Any) -> None:
            self.change = change

        def view(self, seat: int | None) -> dict[str, Any]:
            view = state.view(seat)
            self.change(view)
            return view

    def hand_sizes(view: dict[str, Any]) -> None:
        view["hand_sizes"][0] += 1

    def dog_used(view: dict[str, Any]) -> None:
        view["dog_used"] = int(view["dog_used"])

    def trick(view: dict[str, Any]) -> None:
        view["cuts"] = [[tuple(play) for play in cut] for cut in view["cuts"]] or [(0, "2C")]

    changes = [(hand_sizes, "hand_sizes"), (dog_used, "dog_used"), (trick, "cuts")]
    for change, field in changes:
        with pytest.raises(AssertionError, match=f"seat None: {field}"):
            assert_same_views(state, Changed(change), 3, "changed")
