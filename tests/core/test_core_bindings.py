"""``cardtable._core`` from Python: its errors, its batches, and the ``CARDTABLE_CORE``
switch (``docs/core.md``). Equality with the Python engine is
``tests/core/test_core_equality.py``'s business; these tests hold the boundary."""

from __future__ import annotations

import random

import numpy as np
import pytest

import cardtable
from cardtable import _core, compiled
from cardtable.differential import VARIANTS

GAMES = [
    ("knockout-whist", {"players": 4}),
    ("neuf", {"players": 3}),
    ("kryt-navalivat", {"players": 3}),
]


def twin(name: str, **options: object) -> compiled.CoreGame:
    game = compiled.core_game(cardtable.make(name, engine="python", **options), always=True)
    assert game is not None
    return game


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_an_illegal_action_is_refused_and_changes_nothing(
    name: str, options: dict[str, int]
) -> None:
    state = twin(name, **options).new_state(3)
    before = state.position()
    legal = state.legal_action_ids()
    illegal = next(a for a in range(200) if a not in legal)
    with pytest.raises(cardtable.IllegalActionError, match="not legal for seat"):
        state.apply(illegal)
    assert state.position() == before and state.legal_action_ids() == legal


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_finished_game_refuses_every_action(name: str, options: dict[str, int]) -> None:
    state = twin(name, **options).new_state(5)
    state.playout(11)
    assert state.is_over and state.to_move is None and state.legal_action_ids() == []
    returns = state.returns()
    assert returns is not None and abs(sum(returns)) < 1e-9
    with pytest.raises(cardtable.IllegalActionError, match="the game is over"):
        state.apply(0)


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_bad_position_names_its_field(name: str, options: dict[str, int]) -> None:
    core = twin(name, **options)
    good = core.new_state(1).position()
    _, _, rest = good.partition(" ")
    with pytest.raises(cardtable.InvalidPositionError, match="starts with"):
        core.state_from_position("chess/1 " + rest)
    with pytest.raises(cardtable.InvalidPositionError, match="seed"):
        core.state_from_position(good.replace(" seed=", " seed=x", 1))
    # Python refuses the same texts with the same class of error.
    with pytest.raises(cardtable.InvalidPositionError):
        cardtable.make(name, engine="python", **options).state_from_position(
            good.replace(" seed=", " seed=x", 1)
        )


@pytest.mark.parametrize(
    ("name", "options", "why"),
    [
        ("knockout-whist", {"players": 8}, "players"),
        ("neuf", {"players": 5}, "players"),
        ("kryt-navalivat", {"trump_mode": "sideways"}, "trump_mode"),
        ("neuf", {"colour": "red"}, "colour"),
    ],
)
def test_bad_options_are_refused_by_name(name: str, options: dict[str, object], why: str) -> None:
    cls = {"knockout-whist": _core.KnockoutWhist, "neuf": _core.Neuf}.get(name, _core.KrytNavalivat)
    with pytest.raises(cardtable.InvalidOptionError, match=why):
        cls(**options)


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_random_games_return_a_zero_sum_row_a_game_reproducibly(
    name: str, options: dict[str, object]
) -> None:
    """One call plays a batch: a row of returns a game, zero-sum as the Python results are,
    and the same seeds give the same games."""
    core = twin(name, **options)
    returns, decisions = core.random_games(range(20))
    players = cardtable.make(name, engine="python", **options).num_players
    assert returns.shape == (20, players) and returns.dtype == np.float64
    assert np.allclose(returns.sum(axis=1), 0.0)
    assert decisions > 20
    again, same = core.random_games(range(20))
    assert same == decisions and np.array_equal(returns, again)


def test_playouts_from_a_position_are_seeded_and_leave_it_alone() -> None:
    game = cardtable.make("knockout-whist", engine="python", players=3, dealer=0)
    state = game.new_state(seed=4)
    for number in state.legal_action_ids()[:1]:
        state.apply_id(number)
    core = twin("knockout-whist", players=3, dealer=0).state_from_position(state.position())
    one, decisions = core.playouts(50, 7)
    two, _ = core.playouts(50, 7)
    assert core.position() == state.position()
    assert one.shape == (50, 3) and np.array_equal(one, two) and decisions > 50
    # Each seat wins some playouts: they are 50 different games, not one.
    assert set(np.argmax(one, axis=1)) == {0, 1, 2}


def test_state_sizes_are_reported_for_every_game() -> None:
    sizes = dict(_core.state_sizes())
    assert set(sizes) == {"knockout-whist", "neuf", "kryt-navalivat"}
    assert all(0 < size < 4096 for size in sizes.values())
    assert _core.broken_rule() is False


def test_the_switch_chooses_the_path(monkeypatch: pytest.MonkeyPatch) -> None:
    game = cardtable.make("neuf", engine="python", players=3)
    monkeypatch.setenv("CARDTABLE_CORE", "python")
    assert not compiled.in_use() and compiled.core_game(game) is None
    state = game.new_state(seed=2)
    state.playout(random.Random(1))
    assert state.is_over
    monkeypatch.setenv("CARDTABLE_CORE", "rust")
    assert compiled.in_use() and compiled.core_game(game) is not None
    monkeypatch.setenv("CARDTABLE_CORE", "fortran")
    with pytest.raises(cardtable.CardtableError, match="auto, rust, python"):
        compiled.in_use()


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_core_playout_leaves_a_state_that_replays_from_its_record(
    name: str, options: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the core plays a Python state to its end, the state is the core's end: its
    history holds every action, its result is the core's returns, and its record replays
    through the checked Python path to the same position."""
    monkeypatch.setenv("CARDTABLE_CORE", "rust")
    game = cardtable.make(name, engine="python", **options)
    state = game.new_state(seed=21)
    state.apply_id(state.legal_action_ids()[-1])
    state.playout(random.Random(5))
    assert state.is_over and state.result is not None
    replayed = cardtable.replay(state.record())
    assert replayed.position() == state.position()
    assert replayed.history == state.history


@pytest.mark.parametrize(("name", "options"), VARIANTS[::3])
def test_a_record_replays_through_the_core(name: str, options: dict[str, object]) -> None:
    """A record read by the core: its chance (decks and reshuffles, as card indices)
    stacked and its actions, as text, replayed and checked there, lead to the position the
    Python replay reaches; the core's action texts are the record's."""
    game = cardtable.make(name, engine="python", **options)
    state = game.new_state(seed=8)
    rng = random.Random(8)
    while not state.is_over and len(state.history) < 150:
        state.apply_id(rng.choice(state.legal_action_ids()))
    record = state.record()
    core = twin(name, **options)
    replayed = core.replay(
        record.seed,
        record.options["dealer"],
        [[cardtable.Card.parse(c).index for c in deck] for deck in record.decks],
        [[cardtable.Card.parse(c).index for c in cards] for cards in record.reshuffles],
        record.actions,
    )
    assert replayed.position() == cardtable.replay(record).position()
    assert [core.action_text(a) for a in state.history] == record.actions
    # An action that does not replay is named, by its place in the record.
    wrong = [*record.actions[:3], record.actions[2]]
    with pytest.raises(cardtable.InvalidRecordError, match=r"action 3 \("):
        core.replay(record.seed, record.options["dealer"], actions=wrong)


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_action_notation_is_the_python_games(name: str, options: dict[str, int]) -> None:
    """Every action number's text is the Python game's, and reads back to the number; the
    spellings Python accepts (any case, T for ten, suit symbols) read the same; bad text is
    refused with InvalidActionError, as Python refuses it."""
    game = cardtable.make(name, engine="python", **options)
    core = twin(name, **options)
    for number, action in enumerate(game.actions):
        text = str(action)
        assert core.action_text(number) == text
        assert core.parse_action(text) == number
        assert core.parse_action("  " + text.upper().replace("10", "T") + " ") == number
    if name == "knockout-whist":
        # KOW's aliases: "lead" for play (the examples' LEAD(c)), suits as symbols.
        assert core.parse_action("lead 7♦") == game.number_of("play 7D")
        assert core.parse_action("trump ♥") == game.number_of("trump H")
    for bad in ("", "play", "fold", "play 7D now"):
        with pytest.raises(cardtable.InvalidActionError):
            game.parse_action(bad)
        with pytest.raises(cardtable.InvalidActionError):
            core.parse_action(bad)
    verb = str(game.actions[0]).split()[0]
    with pytest.raises(cardtable.InvalidCardError):
        game.parse_action(f"{verb} 1X")
    with pytest.raises(cardtable.InvalidCardError, match="unknown rank"):
        core.parse_action(f"{verb} 1X")
    with pytest.raises(cardtable.InvalidActionError, match="outside"):
        core.action_text(len(game.actions))


@pytest.mark.parametrize("core", ["rust", "python"])
@pytest.mark.parametrize(("name", "options"), GAMES)
def test_search_rollouts_give_the_returns_of_a_whole_random_game(
    name: str, options: dict[str, int], core: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``uniform_rollout`` (search's random rollout): zero-sum returns of a finished game,
    each seat winning some rollouts; in the core, the sampled state is left as it was."""
    from cardtable.bots.ismcts import uniform_rollout

    monkeypatch.setenv("CARDTABLE_CORE", core)
    state = cardtable.make(name, engine="python", **options).new_state(seed=12)
    before = state.position()
    best = set()
    for i in range(60):
        returns = uniform_rollout(state.copy(), random.Random(i))
        assert len(returns) == options["players"] and abs(sum(returns)) < 1e-9
        best.add(max(range(len(returns)), key=returns.__getitem__))
    assert len(best) > 1
    assert state.position() == before
    if core == "rust":
        assert compiled.playout_returns(state, random.Random(0)) is not None
        assert state.position() == before
