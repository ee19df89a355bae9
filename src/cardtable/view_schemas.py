"""JSON Schemas of the games' views, for the web page: generated from each game's
``TypedDict`` (``cardtable.rules.<game>.view``), the one schema of a view, and committed
under ``src/cardtable/web/views/<game>.schema.json``.

Regenerate them after changing a view: ``python -m cardtable.view_schemas``; ``--check``
writes nothing and exits 1 when a committed file differs from what would be written
(tests/rules/test_view_schema.py checks the same).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from cardtable.rules.catalog import DESCRIPTORS
from cardtable.rules.descriptor import load

VIEWS: dict[str, Any] = {name: load(d.view) for name, d in DESCRIPTORS.items()}
"""Each game's view type, by the game's name (its descriptor's ``view``)."""

DIRECTORY = Path(__file__).parent / "web" / "views"


def adapter(game: str) -> TypeAdapter[Any]:
    """The validator of ``game``'s views (strict in use: ``validate_json(..., strict=True)``;
    the view types are closed, so an unknown field is refused)."""
    return TypeAdapter(VIEWS[game])


def schema(game: str) -> dict[str, Any]:
    """``game``'s view as a JSON Schema (draft 2020-12, as pydantic writes it)."""
    found = adapter(game).json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"views/{game}.schema.json",
        **found,
    }


def path(game: str) -> Path:
    return DIRECTORY / f"{game}.schema.json"


def text(game: str) -> str:
    """The file's text: the schema as indented JSON, keys sorted, one newline at the end."""
    return json.dumps(schema(game), indent=2, sort_keys=True) + "\n"


def stale() -> list[str]:
    """The games whose committed schema file is missing or differs from the generated."""
    return [
        game for game in VIEWS if not path(game).exists() or path(game).read_text() != text(game)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardtable.view_schemas", description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    if args.check:
        for game in stale():
            print(f"{path(game)} is stale: run python -m cardtable.view_schemas", file=sys.stderr)
        return 1 if stale() else 0
    DIRECTORY.mkdir(parents=True, exist_ok=True)
    for game in VIEWS:
        path(game).write_text(text(game))
        print(path(game))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
