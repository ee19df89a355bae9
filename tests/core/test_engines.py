"""The run-time engine (``cardtable.engines``): games from ``cardtable.make`` keep their
states in the compiled core, and through the public protocol they are the Python
reference's games, step for step: legal actions, positions, every seat's view, refusals,
results and records. Chance from elsewhere (a table's fair deals) and recorded reshuffles
are dealt as the reference deals them (SPEC §0.4: a record replays exactly)."""

from __future__ import annotations

import inspect
import os
import pickle
import random
import subprocess
import sys
from typing import Any

import pytest

import cardtable
from cardtable.cards import card_text, parse_cards
from cardtable.chance import shuffled
from cardtable.core import Record, State
from cardtable.engines import CoreBacked, engine_of
from cardtable.errors import (
    CardtableError,
    IllegalActionError,
    InvalidOptionError,
    OutOfTurnError,
)
from cardtable.testing import run_conformance

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("knockout-whist", {"players": 2}),
    ("knockout-whist", {"players": 5}),
    ("knockout-whist", {"players": 7}),
    ("neuf", {"players": 3}),
    ("neuf", {"players": 4}),
    ("kryt-navalivat", {"players": 2}),
    ("kryt-navalivat", {"players": 4}),
]
IDS = [f"{name}-{options['players']}" for name, options in VARIANTS]


def both(name: str, options: dict[str, Any]) -> tuple[cardtable.Game, cardtable.Game]:
    return (
        cardtable.make(name, engine="core", **options),
        cardtable.make(name, engine="python", **options),
    )


def assert_same(core: State, python: State) -> None:
    assert isinstance(core, CoreBacked) and not isinstance(python, CoreBacked)
    assert core.position() == python.position()
    assert core.to_move == python.to_move
    assert core.legal_actions() == python.legal_actions()
    for seat in [None, *range(core.game.num_players)]:
        assert core.view(seat) == python.view(seat)


def record_chances(state: State) -> tuple[list[list[int]], list[list[int]]]:
    """The decks and reshuffles of ``state``'s record, as card indices."""
    record = state.record()
    return (
        [[card.index for card in parse_cards(deck)] for deck in record.decks],
        [[card.index for card in parse_cards(cards)] for cards in record.reshuffles],
    )


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_the_chances_are_the_records_at_every_step(name: str, options: dict[str, Any]) -> None:
    """``chances()``, the decks and reshuffles a table publishes after each step, are the
    record's on either engine (a deal of Neuf or Knockout Whist adds a deck)."""
    for game in both(name, options):
        state = game.new_state(seed=8)
        rng = random.Random(8)
        while not state.is_over:
            assert state.chances() == record_chances(state)
            state.apply_id(rng.choice(state.legal_action_ids()))
        assert state.chances() == record_chances(state) and state.chances()[0]


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_a_core_game_is_the_reference_game_step_for_step(
    name: str, options: dict[str, Any]
) -> None:
    core_game, python_game = both(name, options)
    assert engine_of(core_game) == "core" and engine_of(python_game) == "python"
    assert isinstance(core_game, type(python_game))  # the game's class still holds
    for seed in range(3):
        core, python = core_game.new_state(seed=seed), python_game.new_state(seed=seed)
        assert isinstance(core, python_game.state_class)
        rng = random.Random(seed)
        while not python.is_over:
            assert_same(core, python)
            action = rng.choice(python.legal_actions())
            before, their_before = core.copy(), python.copy()
            assert core.apply(action) == python.apply(action)
            # What the step did: who took the trick it finished (KOW-4.3, NEUF-4.3).
            assert core.trick_taken(before) == python.trick_taken(their_before)
        assert_same(core, python)
        assert core.result == python.result
        assert core.record().to_dict() == python.record().to_dict()
        assert cardtable.replay(core.record()).position() == python.position()


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_a_refused_action_is_refused_for_the_same_reason_and_changes_nothing(
    name: str, options: dict[str, Any]
) -> None:
    core_game, python_game = both(name, options)
    core, python = core_game.new_state(seed=11), python_game.new_state(seed=11)
    refused = [n for n in range(python_game.num_distinct_actions) if not python.is_legal(n)]
    assert refused
    for number in refused[:: max(1, len(refused) // 12)]:
        before = core.position()
        with pytest.raises(IllegalActionError) as theirs:
            python.apply(number)
        with pytest.raises(IllegalActionError) as ours:
            core.apply(number)
        assert (ours.value.reason, ours.value.details) == (
            theirs.value.reason,
            theirs.value.details,
        )
        assert str(ours.value) == str(theirs.value)
        # The game's own Action object takes the native base's path first.
        with pytest.raises(IllegalActionError) as native:
            core.apply(core_game.actions[number])
        assert str(native.value) == str(theirs.value)
        assert core.position() == before and core.history == python.history


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_the_hot_calls_are_the_native_bases_and_hand_the_rest_to_python(
    name: str, options: dict[str, Any]
) -> None:
    """legal_actions, apply, apply_id and is_over are the core's own methods (no Python
    frame); a legal action for another seat, or given as text, still gets the protocol's
    answer, and the game's own objects come back from apply."""
    core_game, python_game = both(name, options)
    state = core_game.new_state(seed=4)
    public = type(state.core).public  # type: ignore[attr-defined]
    for call in ("legal_actions", "legal_action_ids", "apply", "apply_id", "is_over"):
        assert inspect.getattr_static(type(state), call) is public.__dict__[call], call
    python = python_game.new_state(seed=4)
    mover = state.to_move
    assert mover is not None
    action = state.legal_actions()[0]
    other = (mover + 1) % core_game.num_players
    with pytest.raises(OutOfTurnError) as ours:
        state.apply(action, seat=other)
    with pytest.raises(OutOfTurnError) as theirs:
        python.apply(python_game.actions[core_game.numbers_by_id[id(action)]], seat=other)
    assert (str(ours.value), ours.value.details) == (str(theirs.value), theirs.value.details)
    assert state.apply(action, seat=mover) is action
    text = str(state.legal_actions()[0])
    played = state.apply(text)
    assert played is core_game.actions[state.history[-1]] and str(played) == text


def test_an_actions_own_text_is_played_by_the_native_base(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a page sends (an action's own text, ``play 7D``) is read and played in the core,
    with no Python frame; another spelling, and a refused action, are the Python side's."""
    core_game, python_game = both("knockout-whist", {"players": 3})
    state, python = core_game.new_state(seed=4), python_game.new_state(seed=4)
    handed: list[object] = []
    original = CoreBacked._apply_checked

    def counted(self: CoreBacked, action: Any, seat: int | None) -> Any:
        handed.append(action)
        return original(self, action, seat)

    monkeypatch.setattr(CoreBacked, "_apply_checked", counted)
    for _ in range(6):
        text = str(python.legal_actions()[-1])
        assert state.apply(text) is core_game.actions[core_game.number_of(text)]
        python.apply(text)
    assert handed == [] and state.position() == python.position()
    spelled = str(python.legal_actions()[0]).upper().replace("10", "T")
    state.apply(spelled)
    python.apply(spelled)
    assert handed == [spelled] and state.position() == python.position()
    refused = next(a for a in core_game.actions if not state.is_legal(core_game.number_of(a)))
    with pytest.raises(IllegalActionError) as ours:
        state.apply(str(refused))
    with pytest.raises(IllegalActionError) as theirs:
        python.apply(str(refused))
    assert str(ours.value) == str(theirs.value) and handed[-1] == str(refused)


def table_shuffler(asked: list[str], seed: int) -> Any:
    """A table's source of decks, as the web table's fair deals: every deck and reshuffle
    labelled as the rules label it, the labels asked kept in ``asked``."""

    def shuffle(label: str, cards: list[int]) -> list[int]:
        asked.append(label)
        return shuffled(seed, f"table {label}", cards)

    return shuffle


@pytest.mark.parametrize(
    ("name", "options"),
    [("knockout-whist", {"players": 7, "dealer": 0}), ("neuf", {"players": 3, "dealer": 0})],
    ids=["knockout-whist-7", "neuf-3"],
)
def test_a_tables_own_decks_are_dealt_by_the_core_as_the_reference_deals_them(
    name: str, options: dict[str, Any]
) -> None:
    """The web table's fair deals: every deck comes from the shuffler, labelled as the
    reference labels it (KOW-2.3, NEUF-2.3), and the record holds them. The core deals
    them from its stacks: no reference is built or stepped beside it."""
    core_game, python_game = both(name, options)
    asked: dict[str, list[str]] = {"core": [], "python": []}
    first = [card_text(c) for c in shuffled(99, "table hand 1", list(core_game.pack))]
    core, python = (
        core_game.new_state(seed=5, decks=[first]),
        python_game.new_state(seed=5, decks=[first]),
    )
    assert isinstance(core, CoreBacked)
    core.shuffler = table_shuffler(asked["core"], 99)
    python.shuffler = table_shuffler(asked["python"], 99)
    rng = random.Random(3)
    taken = 0
    while not python.is_over:
        action = rng.choice(python.legal_actions())
        before, their_before = core.copy(), python.copy()
        core.apply(action)
        python.apply(action)
        assert core.position() == python.position()
        won = core.trick_taken(before)
        assert won == python.trick_taken(their_before)
        taken += won is not None
        for seat in [None, *range(core_game.num_players)]:
            assert core.view(seat) == python.view(seat)
        if len(python.history) % 10 == 0:
            # A copy, given the shuffler again, deals on as the table's state does.
            twin, their_twin = core.copy(), python.copy()
            twin.shuffler = table_shuffler([], 7)
            their_twin.shuffler = table_shuffler([], 7)
            for number in twin.legal_action_ids()[:1]:
                twin.apply_id(number)
                their_twin.apply_id(number)
                assert twin.view(None) == their_twin.view(None)
                assert twin.chances() == their_twin.chances()
            assert core.position() == python.position()
        # A table publishes what each step drew from the chances alone, not the record.
        assert core.chances() == python.chances() == record_chances(python)
        assert core._reference is None  # one engine: the core's
    assert asked["core"] == asked["python"] and asked["core"][0] == "hand 2"
    assert len(core.chances()[0]) > 1  # the table's decks, hand after hand
    assert taken > 13  # tricks taken across the hands, the last of each hand's included
    assert core.result == python.result
    assert core.record().to_dict() == python.record().to_dict()
    # Nothing of the seed was dealt after the first hand: the record is the table's decks.
    assert cardtable.replay(core.record()).position() == python.position()


def test_a_reshuffle_from_a_tables_shuffler_is_the_references() -> None:
    """KOW-5.3: a cut that runs the remainder out reshuffles the set-aside cut cards under
    it; at a table, that reshuffle comes from the shuffler too. The first of the seeds
    whose random playout reshuffles is played again with the table's decks as the seed
    dealt them, on both engines."""
    core_game, python_game = both("knockout-whist", {"players": 7, "dealer": 0})
    seed = next(s for s in range(50_000) if _reshuffles(core_game.new_state(seed=s), s))
    actions = core_game.new_state(seed=seed).core.playout(seed)  # type: ignore[attr-defined]

    def as_the_seed(asked: list[str]) -> Any:
        def shuffle(label: str, cards: list[int]) -> list[int]:
            asked.append(label)
            kind, number = label.split()
            return shuffled(
                seed, f"deck {int(number) - 1}" if kind == "hand" else f"cut {number}", cards
            )

        return shuffle

    asked: dict[str, list[str]] = {"core": [], "python": []}
    first = [card_text(c) for c in shuffled(seed, "deck 0", list(core_game.pack))]
    core = core_game.new_state(seed=1, decks=[first])
    python = python_game.new_state(seed=1, decks=[first])
    core.shuffler, python.shuffler = as_the_seed(asked["core"]), as_the_seed(asked["python"])
    for number in actions:
        before, their_before = core.copy(), python.copy()
        core.apply_id(number)
        python.apply_id(number)
        assert core.position() == python.position()
        assert core.chances() == python.chances()
        assert core.trick_taken(before) == python.trick_taken(their_before)
    assert "reshuffle 0" in asked["core"] and asked["core"] == asked["python"]
    assert core.is_over and core.record().to_dict() == python.record().to_dict()
    # Replayed from its record, whose reshuffles the reference deals and checks, the game
    # still tells who took each trick, the hand's last trick before a reshuffle included.
    record = python.record()
    dealt = Record(record.game, record.options, record.seed, [], record.decks, record.reshuffles)
    core, python = core_game.replay(dealt), python_game.replay(dealt)
    assert isinstance(core, CoreBacked) and core._synced
    for text in record.actions:
        before, their_before = core.copy(), python.copy()
        core.apply(text)
        python.apply(text)
        assert core.trick_taken(before) == python.trick_taken(their_before)
    assert core.position() == python.position()


def _reshuffles(state: State, seed: int) -> bool:
    core = state.core.copy()  # type: ignore[attr-defined]
    core.playout(seed)
    return bool(core.chances_drawn()[1])


def test_a_game_field_reads_the_reference_and_cannot_be_written() -> None:
    state = cardtable.make("knockout-whist", players=3, dealer=0).new_state(seed=2)
    python = cardtable.make("knockout-whist", engine="python", players=3, dealer=0).new_state(
        seed=2
    )
    assert state.hands == python.hands  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        state.hands = [0, 0, 0]  # type: ignore[attr-defined]


def test_a_copy_is_independent_and_a_playout_replays() -> None:
    game = cardtable.make("neuf", players=3)
    state = game.new_state(seed=4)
    copy = state.copy()
    copy.apply(copy.legal_action_ids()[0])
    assert copy.position() != state.position() and copy.history != state.history
    state.playout(random.Random(1))
    assert state.is_over and state.result is not None
    assert cardtable.replay(state.record()).position() == state.position()


def test_resampled_hidden_cards_keep_the_seats_view() -> None:
    state = cardtable.make("kryt-navalivat", players=3).new_state(seed=8)
    for _ in range(10):
        state.apply(state.legal_action_ids()[0])
    seat = state.to_move
    other = state.resample_hidden(seat, random.Random(0))
    assert isinstance(other, CoreBacked)
    assert other.view(seat) == state.view(seat)


def test_the_engine_is_chosen_by_argument_or_environment() -> None:
    with pytest.raises(InvalidOptionError, match="engine 'rust-ish' is not an engine"):
        cardtable.make("neuf", engine="rust-ish")
    python = subprocess.run(
        [
            sys.executable,
            "-c",
            "import cardtable; from cardtable.engines import engine_of;"
            " print(engine_of(cardtable.make('neuf')))",
        ],
        env={**os.environ, "CARDTABLE_CORE": "python"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert python.stdout.strip() == "python"
    assert engine_of(cardtable.make("neuf")) == "core"
    with pytest.raises(CardtableError):
        cardtable.make("neuf", engine="python").new_state(seed=1).apply("nonsense")


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_the_conformance_suite_accepts_the_run_time_engine(
    name: str, options: dict[str, Any]
) -> None:
    """The protocol's contract (``cardtable.testing``: legal actions, refusals, views, copies,
    redeals, position round trips, replays, the game's invariants across every step) holds
    on the run-time engine as on the reference."""
    game = cardtable.make(name, engine="core", **options)
    report = run_conformance(game, games=4, seed=21)
    assert report.games == 4 and report.actions > 0


def test_a_core_game_and_state_pickle_as_their_options_and_record() -> None:
    """A core state does not pickle itself; it pickles as its record, which replays to it
    (what process pools and Ray send between workers)."""
    game = cardtable.make("knockout-whist", players=4)
    state = game.new_state(seed=6)
    for _ in range(30):
        state.apply_id(state.legal_action_ids()[-1])
    again = pickle.loads(pickle.dumps(state))
    assert isinstance(again, CoreBacked) and again.position() == state.position()
    assert again.record().to_dict() == state.record().to_dict()
    remade = pickle.loads(pickle.dumps(game))
    assert engine_of(remade) == "core" and remade.options == game.options
