"""Each game's view has one schema, held equal in its three forms: the ``TypedDict`` of
``cardtable.rules.<game>.view`` (the one schema), the JSON Schema for the web page generated
from it (``src/cardtable/web/views/<game>.schema.json``) and the core's serde struct
(``crates/core/src/<game>/view.rs``) that the determinizers, search and judge read a view
with.

(a) Every view of random games (every seat and the spectator, several variants and player
counts) validates strictly against its ``TypedDict``: the JSON the core is handed, no
field unknown, none missing, each of its type. (b) The committed schema files are the ones
the generator writes. (c) The core's struct reads every one of those views and refuses a
view with a field unknown or missing; and the field names serde knows for the struct
(``_core.view_fields``, asked of serde's derived code itself) are the ``TypedDict``'s, path
by path, in order.
"""

from __future__ import annotations

import json
import random
import types
from functools import cache
from typing import Any, Union, get_args, get_origin, get_type_hints

import pytest
from pydantic import ValidationError
from typing_extensions import is_typeddict

import cardtable
from cardtable import _core, compiled
from cardtable.errors import InvalidOptionError, InvalidPositionError
from cardtable.view_schemas import VIEWS, adapter, path, stale, text

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("knockout-whist", {"players": 2}),
    ("knockout-whist", {"players": 4}),
    ("knockout-whist", {"players": 7}),
    ("neuf", {"players": 3}),
    (
        "neuf",
        {
            "players": 3,
            "trump_sequence": "HDCS",
            "tie_avoidance": True,
            "dealer_exchanges_first": True,
        },
    ),
    ("neuf", {"players": 4, "trump_sequence": "SHDC-NT"}),
    ("kryt-navalivat", {"players": 2}),
    ("kryt-navalivat", {"players": 3, "trump_mode": "permanent"}),
    ("kryt-navalivat", {"players": 4}),
]
GAMES_PER_VARIANT = 3
# Every view of a game is checked until this many actions, then every tenth, and the last.
EVERY_VIEW_UNTIL = 60

Seat = int | None


@cache
def views_of(name: str) -> list[tuple[Seat, dict[str, Any]]]:
    """Views of random games of every variant of ``name``: at each step checked, every
    seat's and the spectator's."""
    found: list[tuple[Seat, dict[str, Any]]] = []
    for index, (game_name, options) in enumerate(VARIANTS):
        if game_name != name:
            continue
        game = cardtable.make(game_name, **options)
        for k in range(GAMES_PER_VARIANT):
            seed = 1000 * index + k
            rng = random.Random(seed)
            state = game.new_state(seed=seed)
            step = 0
            while True:
                if step < EVERY_VIEW_UNTIL or step % 10 == 0 or state.is_over:
                    seats: list[Seat] = [*range(game.num_players), None]
                    found.extend((seat, state.view(seat)) for seat in seats)
                if state.is_over:
                    break
                state.apply_id(rng.choice(state.legal_action_ids()))
                step += 1
    return found


def field_paths(typed: Any, where: str = "") -> dict[str, list[str]]:
    """A ``TypedDict``'s field names and those of every ``TypedDict`` in it, by path, as
    ``_core.view_fields`` writes them: ``"tricks[]"`` each item of ``tricks``; an optional
    value adds nothing to the path."""
    hints = get_type_hints(typed)
    found = {where: list(hints)}
    for name, hint in hints.items():
        found.update(_nested(hint, f"{where}.{name}" if where else name))
    return found


def _nested(hint: Any, where: str) -> dict[str, list[str]]:
    if is_typeddict(hint):
        return field_paths(hint, where)
    found: dict[str, list[str]] = {}
    origin = get_origin(hint)
    if origin in (list, tuple):
        for arg in get_args(hint):
            found.update(_nested(arg, f"{where}[]"))
    elif origin in (Union, types.UnionType):
        for arg in get_args(hint):
            found.update(_nested(arg, where))
    return found


def seat_view(name: str) -> dict[str, Any]:
    """A seat's view part-way through a game of ``name``."""
    return next(view for seat, view in views_of(name)[40:] if seat is not None)


@pytest.mark.parametrize("name", list(VIEWS))
def test_every_view_validates_strictly_against_its_typed_dict(name: str) -> None:
    """(a) Every view, as the JSON the core is handed, is the ``TypedDict``'s: strict
    (no number for a flag, no text for a number), closed (no field unknown)."""
    check = adapter(name)
    views = views_of(name)
    assert {seat for seat, _ in views} >= {0, 1, None}
    for seat, view in views:
        check.validate_json(json.dumps(view), strict=True)
        assert view["seat"] == seat


@pytest.mark.parametrize("name", list(VIEWS))
def test_the_typed_dict_refuses_a_field_unknown_missing_or_mistyped(name: str) -> None:
    """The strict check can fail: a field unknown, one missing or one of another type."""
    check = adapter(name)
    view = seat_view(name)
    for bad in (
        view | {"bid": 1},
        {key: value for key, value in view.items() if key != "dealer"},
        view | {"players": str(view["players"])},
    ):
        with pytest.raises(ValidationError):
            check.validate_json(json.dumps(bad), strict=True)


def test_the_committed_schemas_are_the_generated_ones() -> None:
    """(b) ``src/cardtable/web/views/<game>.schema.json`` is what ``python -m
    cardtable.view_schemas`` writes from the ``TypedDict``s."""
    for name in VIEWS:
        assert path(name).read_text() == text(name), "run python -m cardtable.view_schemas"
    assert stale() == []


@pytest.mark.parametrize("name", list(VIEWS))
def test_the_core_struct_knows_the_typed_dicts_fields(name: str) -> None:
    """(c) The field names serde knows for the core's view struct, path by path and in
    order, are the ``TypedDict``'s: neither side has a field the other lacks."""
    assert _core.view_fields(name) == field_paths(VIEWS[name])


def test_the_core_knows_a_view_struct_for_each_game_and_no_other_name() -> None:
    """The bindings pair each game's name with its struct; another name is refused."""
    assert all(_core.view_fields(name)[""] for name in VIEWS)
    for ask in (lambda: _core.view_fields("whist"), lambda: _core.check_view("whist", "{}")):
        with pytest.raises(InvalidOptionError, match='no game is named "whist"'):
            ask()


@pytest.mark.parametrize("name", list(VIEWS))
def test_the_core_struct_reads_every_view(name: str) -> None:
    """(c) The core's struct reads every view of the random games, and the core's
    determinizer takes a seat's view whole."""
    for _, view in views_of(name):
        _core.check_view(name, json.dumps(view))
    game = cardtable.make(name, **next(o for n, o in VARIANTS if n == name))
    twin = compiled.core_game(game, always=True)
    assert twin is not None
    state = game.new_state(seed=3)
    for seat in range(game.num_players):
        assert len(twin.sample_positions(json.dumps(state.view(seat)), 2, 0)) == 2


@pytest.mark.parametrize("name", list(VIEWS))
def test_the_core_refuses_a_field_unknown_or_missing(name: str) -> None:
    """(c) A view with a field no view has, or without one every view has, is refused by
    the struct and by the determinizer that reads it, the field named."""
    view = seat_view(name)
    game = cardtable.make(name, **view["options"])
    twin = compiled.core_game(game, always=True)
    assert twin is not None
    unknown = view | {"bid": 1}
    with pytest.raises(InvalidPositionError, match="unknown field `bid`"):
        _core.check_view(name, json.dumps(unknown))
    with pytest.raises(InvalidPositionError, match="unknown field `bid`"):
        twin.sample_positions(json.dumps(unknown), 1, 0)
    required = [key for key in view if key not in ("hand", "held", "legal_actions")]
    for key in required:
        missing = {k: v for k, v in view.items() if k != key}
        with pytest.raises(InvalidPositionError, match=f"missing field `{key}`"):
            _core.check_view(name, json.dumps(missing))
    missing = {k: v for k, v in view.items() if k != "dealer"}
    with pytest.raises(InvalidPositionError, match="missing field `dealer`"):
        twin.sample_positions(json.dumps(missing), 1, 0)
