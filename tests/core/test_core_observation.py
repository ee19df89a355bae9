"""The core's observations equal the Python encoder's.

``cardtable.rl.observation`` encodes a seat's view as a float32 vector; the core writes the
same vector from its own state (``crates/core/src/<game>/observation.rs``), for the batch
environments. Along seeded random games of every variant of the differential tests, at
every step and for every seat, the core's vector must equal the Python encoder's byte for
byte: the core state stepped alongside the Python one, and (every few steps) the core
state read from the Python state's position. The core must read only what the seat may
see (KOW-9, NEUF-9, KRYT-9): every state sampled from the seat's view gives it the same
vector. Bad seats and buffers are refused, and the comparison is shown to catch a change
of a single entry.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import cardtable
from cardtable import compiled
from cardtable.core import Game, State
from cardtable.differential import VARIANTS
from cardtable.rl.observation import encode, encode_facts, layout
from twin_games import twin_steps

pytestmark = pytest.mark.skipif(not compiled.available(), reason="the core is not built")

GAMES_PER_VARIANT = 4
FROM_POSITION_EVERY = 3


def assert_same(game: Game, expected: npt.NDArray[Any], got: npt.NDArray[Any], where: str) -> None:
    """Equal dtype, shape and bytes; otherwise an ``AssertionError`` naming the blocks and
    entries that differ."""
    assert got.dtype == expected.dtype, f"{where}: dtype {got.dtype}, expected {expected.dtype}"
    assert got.shape == expected.shape, f"{where}: shape {got.shape}, expected {expected.shape}"
    if got.tobytes() == expected.tobytes():
        return
    differ = np.nonzero(got.view(np.uint32) != expected.view(np.uint32))[0]
    blocks = layout(game).fields
    named = [
        f"{name}[{int(i) - s.start}] {got[i]!r} != {expected[i]!r}"
        for i in differ[:8]
        for name, s in blocks.items()
        if s.start <= i < s.stop
    ]
    raise AssertionError(f"{where}: {len(differ)} entries differ: " + ", ".join(named))


def _check_step(
    game: Game, state: State, twin: Any, buffer: npt.NDArray[np.float32], where: str
) -> None:
    for seat in range(game.num_players):
        expected = encode(game, state.view(seat))
        at = f"{where}, seat {seat}"
        assert_same(game, expected, encode_facts(game, state.facts(seat)), at + " (facts)")
        assert_same(game, expected, twin.observation(seat), at)
        buffer.fill(np.nan)  # observe_into must write every entry
        twin.observe_into(seat, buffer)
        assert_same(game, expected, buffer, at + " (observe_into)")


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=[f"{n}-{o}" for n, o in VARIANTS])
def test_core_observations_equal_the_python_encoder(name: str, options: dict[str, Any]) -> None:
    game = cardtable.make(name, engine="python", **options)
    twin_game = compiled.core_game(game, always=True)
    assert twin_game is not None
    assert twin_game.observation_size == layout(game).size
    assert twin_game.observation_shape == (layout(game).size,)
    buffer = np.empty(twin_game.observation_shape, dtype=np.float32)
    steps = 0
    for where, _game, state, twin in twin_steps(
        name, options, GAMES_PER_VARIANT, FROM_POSITION_EVERY
    ):
        _check_step(game, state, twin, buffer, where)
        steps += 1
    assert steps > GAMES_PER_VARIANT * 10


@pytest.mark.parametrize(
    ("name", "options"),
    [("knockout-whist", {"players": 4}), ("neuf", {"players": 3}), ("neuf", {"players": 4})]
    + [("kryt-navalivat", {"players": 3, "trump_mode": m}) for m in ("turned", "permanent")],
)
def test_an_observation_shows_nothing_the_seat_cannot_see(
    name: str, options: dict[str, Any]
) -> None:
    """States sampled from a seat's view (every hidden card dealt anew) give that seat the
    same observation as the real state: the core reads no other seat's hidden cards."""
    game = cardtable.make(name, engine="python", **options)
    twin_game = compiled.core_game(game, always=True)
    assert twin_game is not None
    rng = random.Random(5)
    checked = 0
    differed = 0
    for seed in range(4):
        state = game.new_state(seed=seed)
        step = 0
        while not state.is_over:
            if step % 7 == 0:
                twin = compiled.core_state(state)
                assert twin is not None
                for seat in range(game.num_players):
                    view = json.dumps(state.view(seat))
                    real = twin.observation(seat)
                    samples = twin_game.sample_positions(view, 4, seed=step)
                    # Samples differ from the real state in what the seat cannot see.
                    differed += sum(text != twin.position() for text in samples)
                    for text in samples:
                        sample = twin_game.state_from_position(text)
                        assert_same(
                            game, real, sample.observation(seat), f"{name} seed {seed} step {step}"
                        )
                        checked += 1
            state.apply_id(rng.choice(state.legal_action_ids()))
            step += 1
    assert checked > 50
    assert differed > checked // 2  # the samples did deal the hidden cards anew


@pytest.fixture
def kow() -> tuple[Any, Any]:
    twin_game = compiled.core_game(
        cardtable.make("knockout-whist", engine="python", players=3), always=True
    )
    assert twin_game is not None
    return twin_game, twin_game.new_state(7)


@pytest.mark.parametrize("seat", [-1, 3, 10**6])
def test_a_seat_not_of_the_game_is_refused(kow: tuple[Any, Any], seat: int) -> None:
    twin_game, state = kow
    with pytest.raises(ValueError, match=f"seat {seat} is not a seat of this 3-player game"):
        state.observation(seat)
    out = np.zeros(twin_game.observation_shape, dtype=np.float32)
    with pytest.raises(ValueError, match="is not a seat"):
        state.observe_into(seat, out)
    assert not out.any()


def _read_only(size: int) -> npt.NDArray[np.float32]:
    out = np.zeros(size, dtype=np.float32)
    out.flags.writeable = False
    return out


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda size: np.zeros(size, dtype=np.float64), "not a float64 array of shape"),
        (lambda size: np.zeros(size + 1, dtype=np.float32), r"shape \[456\]"),
        (lambda size: np.zeros((1, size), dtype=np.float32), r"shape \[1, 455\]"),
        (lambda size: np.zeros(size, dtype=np.int8), "not a int8 array"),
        (lambda size: np.zeros(2 * size, dtype=np.float32)[::2], "not contiguous"),
        (_read_only, "read-only"),
        (lambda size: [0.0] * size, "not a list"),
    ],
    ids=["float64", "too-long", "2d", "int8", "strided", "read-only", "list"],
)
def test_a_wrong_buffer_is_refused(kow: tuple[Any, Any], make: Any, why: str) -> None:
    twin_game, state = kow
    assert twin_game.observation_size == 455
    out = make(twin_game.observation_size)
    before = np.array(out, copy=True)
    with pytest.raises(ValueError, match=why) as refused:
        state.observe_into(0, out)
    assert "float32 NumPy array of shape (455,)" in str(refused.value)
    assert np.array_equal(np.asarray(out), before)


def test_observing_leaves_the_state_as_it_was(kow: tuple[Any, Any]) -> None:
    _, state = kow
    before = state.position()
    first = state.observation(0)
    assert state.position() == before
    assert first.flags.writeable and first.flags.c_contiguous
    assert np.array_equal(first, state.observation(0))
    assert first is not state.observation(0)


@pytest.mark.parametrize("change", ["flip", "ulp"])
def test_the_comparison_catches_a_single_changed_entry(change: str) -> None:
    """The helper the equality test uses fails on a copy with one entry changed, naming
    the block: a one-hot entry flipped, or a fraction moved by one float32 ulp."""
    game = cardtable.make("neuf", engine="python", players=3)
    twin_game = compiled.core_game(game, always=True)
    assert twin_game is not None
    state = game.new_state(seed=3)
    got = twin_game.state_from_position(state.position()).observation(1)
    expected = encode(game, state.view(1))
    assert_same(game, expected, got, "unchanged")
    changed = got.copy()
    fields = layout(game).fields
    if change == "flip":
        at = fields["trump"].start
        changed[at] = 1.0 - changed[at]
        block = "trump[0]"
    else:
        at = fields["hand_sizes"].start
        changed[at] = np.nextafter(changed[at], np.float32(2.0))
        block = "hand_sizes[0]"
    with pytest.raises(AssertionError, match=rf"1 entries differ: {re.escape(block)}"):
        assert_same(game, expected, changed, "changed")
