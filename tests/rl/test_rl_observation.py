"""The observation encoder of the research interfaces (cardtable.rl.observation).

It reads a seat's view only (DESIGN.md, "Views"; KOW-9, NEUF-9, KRYT-9): two states the
seat cannot tell apart (``resample_hidden``) must encode identically, while the seat's own
cards must show. The layout must match the tables the module documents.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable.cards import Card
from cardtable.core import Game, State
from cardtable.rl import observation
from cardtable.rl.observation import action_mask, encode, layout

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("knockout-whist", {"players": 2}),
    ("knockout-whist", {"players": 3}),
    ("knockout-whist", {"players": 5}),
    ("neuf", {"players": 3, "tie_avoidance": True}),
    ("neuf", {"players": 3, "dealer_exchanges_first": True, "trump_sequence": "HDCS"}),
    ("neuf", {"players": 4}),
    ("kryt-navalivat", {"players": 2}),
    ("kryt-navalivat", {"players": 3, "trump_mode": "permanent"}),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in options.items())}" for name, options in VARIANTS]


def random_states(game: Game, seed: int, limit: int = 400) -> Iterator[State]:
    """The states of one random game (at most ``limit`` actions), the last included."""
    play = random.Random(seed)
    state = game.new_state(seed=seed)
    yield state
    for _ in range(limit):
        if state.is_over:
            return
        state.apply_id(play.choice(state.legal_action_ids()))
        yield state


def hand_of(game: Game, view: dict[str, Any]) -> set[int]:
    """The seat's cards as positions in the game's pack."""
    pack = list(game.pack)
    return {pack.index(Card.parse(text).index) for text in view["hand"]}


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_seats_that_cannot_tell_states_apart_get_the_same_observation(
    name: str, options: dict[str, Any]
) -> None:
    """Re-dealing everything a seat cannot know leaves its observation as it was, at every
    step of a random game and for every seat; the seat's own cards show in ``hand``."""
    game = cardtable.make(name, **options)
    rng = random.Random(11)
    shape = layout(game)
    hand_block = shape.fields["hand"]
    changed = 0
    for state in random_states(game, seed=5):
        for seat in range(game.num_players):
            view = state.view(seat)
            seen = encode(game, view)
            other = state.resample_hidden(seat, rng)
            assert np.array_equal(encode(game, other.view(seat)), seen)
            assert set(np.flatnonzero(seen[hand_block])) == hand_of(game, view)
            # The test can fail: what another seat cannot know includes this seat's hand,
            # and a re-deal of it shows.
            watcher = (seat + 1) % game.num_players
            moved = state.resample_hidden(watcher, rng)
            if moved.view(seat)["hand"] != view["hand"]:
                assert not np.array_equal(encode(game, moved.view(seat)), seen)
                changed += 1
    assert changed > 0


FACTS_VARIANTS = [
    *VARIANTS,
    ("knockout-whist", {"players": 7}),
    ("neuf", {"players": 4, "trump_sequence": "HDCS"}),
    ("kryt-navalivat", {"players": 4}),
]


@pytest.mark.parametrize(("name", "options"), FACTS_VARIANTS)
def test_a_states_facts_encode_as_its_view(name: str, options: dict[str, Any]) -> None:
    """The environments encode ``state.facts(seat)`` (numbers from the rules layer) rather
    than the formatted view: at every step of random games, for every seat, the two give
    the same vector, so the facts carry what the view does, laid out as documented."""
    game = cardtable.make(name, **options)
    compared = 0
    for seed in range(4):
        for state in random_states(game, seed=seed, limit=600):
            for seat in range(game.num_players):
                from_facts = observation.encode_facts(game, state.facts(seat))
                assert from_facts.dtype == np.float32
                assert np.array_equal(from_facts, encode(game, state.view(seat))), (
                    seed,
                    len(state.history),
                    seat,
                )
                compared += 1
    assert compared > 200


@pytest.mark.parametrize(("name", "options"), FACTS_VARIANTS)
def test_seats_that_cannot_tell_states_apart_get_the_same_facts(
    name: str, options: dict[str, Any]
) -> None:
    """The re-deal test for facts (DESIGN.md, "Views"): a re-deal of what a seat cannot
    know leaves its facts as they were, and a re-deal of its own hand shows in them."""
    game = cardtable.make(name, **options)
    rng = random.Random(3)
    changed = 0
    for state in random_states(game, seed=8):
        for seat in range(game.num_players):
            facts = state.facts(seat)
            assert state.resample_hidden(seat, rng).facts(seat) == facts
            moved = state.resample_hidden((seat + 1) % game.num_players, rng)
            if moved.hands[seat] != state.hands[seat]:  # type: ignore[attr-defined]
                assert moved.facts(seat) != facts
                changed += 1
    assert changed > 0


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_values_lie_in_the_layout_bounds_and_the_mask_is_the_legal_actions(
    name: str, options: dict[str, Any]
) -> None:
    game = cardtable.make(name, **options)
    shape = layout(game)
    for state in random_states(game, seed=9):
        for seat in range(game.num_players):
            view = state.view(seat)
            vector = encode(game, view)
            assert vector.dtype == np.float32 and vector.shape == (shape.size,)
            assert shape.low <= vector.min() and vector.max() <= shape.high
            mask = action_mask(game, view)
            assert mask.dtype == np.int8 and mask.shape == (game.num_distinct_actions,)
            expected = state.legal_action_ids() if seat == state.to_move else []
            assert list(np.flatnonzero(mask)) == expected


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_seats_are_counted_from_the_observer(name: str, options: dict[str, Any]) -> None:
    """``to_move`` and ``dealer`` are one-hot at the seat's distance to the observer's left."""
    game = cardtable.make(name, **options)
    shape = layout(game)
    n = game.num_players
    for state in random_states(game, seed=3, limit=60):
        view0 = state.view(0)
        for seat in range(n):
            vector = encode(game, state.view(seat))
            dealer = np.flatnonzero(vector[shape.fields["dealer"]])
            assert list(dealer) == [(view0["dealer"] - seat) % n]
            mover = np.flatnonzero(vector[shape.fields["to_move"]])
            assert list(mover) == ([] if state.to_move is None else [(state.to_move - seat) % n])


def cards_in(game: Game, block: Any) -> set[str]:
    """The cards a card block of the vector marks, as text."""
    pack = list(game.pack)
    return {str(Card.from_index(pack[at])) for at in np.flatnonzero(block)}


def by_seat(block: Any, me: int, n: int) -> list[Any]:
    """A per-seat block's rows in seat order, row ``r`` being the seat ``r`` places to the
    observer's left."""
    width = len(block) // n
    return [block[(seat - me) % n * width : ((seat - me) % n + 1) * width] for seat in range(n)]


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_the_vector_reads_back_as_the_view(name: str, options: dict[str, Any]) -> None:
    """Each seat's card rows, the trick, the finished tricks and the counts decode to what
    its view says."""
    game = cardtable.make(name, **options)
    fields = layout(game).fields
    n = game.num_players
    scale = {"knockout-whist": 7, "neuf": 13, "kryt-navalivat": 36}[name]
    for state in random_states(game, seed=5, limit=150):
        for me in range(n):
            view = state.view(me)
            vector = encode(game, view)
            assert cards_in(game, vector[fields["hand"]]) == set(view["hand"])
            sizes = [float(size[0]) for size in by_seat(vector[fields["hand_sizes"]], me, n)]
            assert sizes == pytest.approx([count / scale for count in view["hand_sizes"]])
            if name == "kryt-navalivat":
                assert cards_in(game, vector[fields["pile"]]) == set(view["pile"])
                assert cards_in(game, vector[fields["would_take"]]) == set(view["would_take"])
                known = by_seat(vector[fields["known"]], me, n)
                assert [cards_in(game, row) for row in known] == [set(k) for k in view["known"]]
                continue
            trick = by_seat(vector[fields["trick"]], me, n)
            played = by_seat(vector[fields["played"]], me, n)
            for seat in range(n):
                in_trick = {text for who, text in view["trick"] if who == seat}
                done = {text for t in view["tricks"] for who, text in t["plays"] if who == seat}
                assert cards_in(game, trick[seat]) == in_trick - {"knock"}
                assert cards_in(game, played[seat]) == done - {"knock"}
            won = [float(count[0]) for count in by_seat(vector[fields["tricks_won"]], me, n)]
            assert won == pytest.approx([count / scale for count in view["tricks_won"]])


def documented_tables() -> dict[str, list[tuple[str, str]]]:
    """The module docstring's block tables: game -> [(block, width expression)]."""
    doc = observation.__doc__ or ""
    tables: dict[str, list[tuple[str, str]]] = {}
    titles = {
        "Knockout Whist": "knockout-whist",
        "Neuf": "neuf",
        "Kryt'-navalivat'": "kryt-navalivat",
    }
    current: str | None = None
    for line in doc.splitlines():
        for title, name in titles.items():
            if line.startswith(title):
                current = name
                tables[name] = []
        match = re.match(r"^([a-z_]+)\s+(\S+)\s+\S", line)
        if current is not None and match and match.group(1) != "block":
            tables[current].append((match.group(1), match.group(2)))
    return tables


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=IDS)
def test_the_layout_is_the_documented_one(name: str, options: dict[str, Any]) -> None:
    """Blocks follow each other in the documented order with the documented widths."""
    game = cardtable.make(name, **options)
    shape = layout(game)
    n = game.num_players
    symbols = {"P": len(game.pack), "n": n, "sides": 2 if (name, n) == ("neuf", 4) else n}
    documented = documented_tables()[name]
    assert [block for block, _ in documented] == list(shape.fields)
    start = 0
    for block, width in documented:
        span = shape.fields[block]
        expected = eval(width.replace("·", "*"), {}, symbols)  # widths like 2·n, n·P
        assert (span.start, span.stop) == (start, start + expected), block
        start = span.stop
    assert shape.size == start


def test_the_layout_depends_on_the_player_count_not_the_other_options() -> None:
    turned = layout(cardtable.make("kryt-navalivat", players=3))
    assert layout(cardtable.make("kryt-navalivat", players=3, trump_mode="permanent")) == turned
    assert layout(cardtable.make("kryt-navalivat", players=4)).size > turned.size


def test_a_spectator_view_or_another_games_view_is_refused() -> None:
    game = cardtable.make("neuf", players=3)
    state = game.new_state(seed=1)
    with pytest.raises(ValueError, match="spectator"):
        encode(game, state.view(None))
    with pytest.raises(ValueError, match="spectator"):
        action_mask(game, state.view(None))
    other = cardtable.make("neuf", players=4).new_state(seed=1)
    with pytest.raises(ValueError, match="4 players is not a view of neuf with 3"):
        encode(game, other.view(0))
    whist = cardtable.make("knockout-whist", players=3).new_state(seed=1)
    with pytest.raises(ValueError, match="'knockout-whist'"):
        encode(game, whist.view(0))


def test_importing_cardtable_loads_no_array_or_environment_library() -> None:
    """``import cardtable`` (and ``cardtable.rl``) stays light; the encoder loads numpy."""
    code = (
        "import sys, cardtable, cardtable.rl\n"
        "cardtable.make('neuf').new_state(seed=1).view(0)\n"
        "heavy = ('numpy', 'pettingzoo', 'gymnasium', 'pyspiel')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
        "cardtable.rl.encode\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines() == ["[]", "['numpy']"]


def test_an_unknown_name_in_the_package_is_an_attribute_error() -> None:
    import cardtable.rl

    with pytest.raises(AttributeError, match="no attribute 'encoder'"):
        cardtable.rl.encoder  # noqa: B018
