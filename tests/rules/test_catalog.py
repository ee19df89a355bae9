"""Each game's descriptor (``cardtable.rules.catalog``): what it names exists and is that
game's, ``import cardtable`` loads none of it, and the code around the rules asks the
descriptors rather than comparing a game's name."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import cardtable
from cardtable import compiled
from cardtable.parts import has_part, part
from cardtable.refusals import GAME_OVER, NOT_LEGAL, NOT_YOUR_TURN
from cardtable.rules.catalog import DESCRIPTORS, descriptor
from cardtable.rules.descriptor import Descriptor, load

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "cardtable"

# Where a game's name may stand as a literal: its own rules, notation and tutorial script,
# the catalog, and the compiled core's face (its table of the core's classes is the lead's
# to replace with the descriptors' ``core``).
OWN = (
    "rules/knockout_whist/",
    "rules/kryt_navalivat/",
    "rules/neuf/",
    "rules/catalog.py",
    "tutorial/knockout_whist.py",
    "tutorial/kryt_navalivat.py",
    "tutorial/neuf.py",
    "compiled.py",
)


@pytest.mark.parametrize("name", sorted(DESCRIPTORS))
def test_what_a_descriptor_names_is_its_game(name: str) -> None:
    known = descriptor(name)
    game = cardtable.make(name, players=3)
    assert isinstance(game, known.game_class())
    assert game.name == name
    codes = {str(code) for code in known.reason_codes()}
    assert {NOT_YOUR_TURN, GAME_OVER, NOT_LEGAL} <= codes
    # Each layer's part of the game, found by its rules package's name (cardtable.parts).
    assert known.package == name.replace("-", "_")
    assert callable(part("bots", name, "_rollout").rollout)
    assert callable(part("hints", name).reason)
    assert callable(getattr(part("bots", name).HEURISTIC(), "choose", None))
    assert callable(getattr(part("terminal", name).SCREEN(), "table", None))
    assert part("tutorial", name).TUTORIAL.game == name
    low, high = known.return_range(game.num_players)
    assert low < 0 < high
    if compiled.available():
        assert hasattr(load("cardtable._core"), known.core)


def test_the_catalog_is_what_cardtable_knows() -> None:
    assert cardtable.games() == sorted(DESCRIPTORS) == list(DESCRIPTORS)
    assert all(isinstance(d, Descriptor) for d in cardtable.GAMES.values())
    with pytest.raises(cardtable.UnknownGameError, match="unknown game 'chess'"):
        descriptor("chess")


def test_returns_and_the_next_dealer_follow_the_descriptor() -> None:
    kow, neuf, kryt = (descriptor(n) for n in ("knockout-whist", "neuf", "kryt-navalivat"))
    assert kow.return_range(5) == (-0.25, 1.0)
    assert neuf.return_range(3) == (-0.5, 1.0)
    assert neuf.return_range(4) == (-1.0, 1.0)  # partners
    assert kryt.return_range(3) == (-1.0, 0.5)
    assert kow.dealer_after(3, 4, None) == 0
    assert kryt.dealer_after(3, 4, 1) == 1  # the fool deals
    assert kryt.dealer_after(3, 4, None) == 3  # a draw: the same dealer
    assert kryt.solver_model_for(2) == "max-n"
    assert kryt.solver_model_for(3) == "paranoid"


def test_importing_cardtable_loads_no_game() -> None:
    code = "import json, sys, cardtable\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert {"cardtable.rules.catalog", "cardtable.rules.descriptor"} <= loaded
    games = {m for m in loaded if m.startswith(("cardtable.rules.", "cardtable.bots"))}
    assert games == {"cardtable.rules.catalog", "cardtable.rules.descriptor"}


NOT_GAMES = "# layouts' names, not games'"
"""Marks a table whose keys are other names that happen to be spelled as a game's is."""


def name_checks(source: str, names: set[str]) -> list[int]:
    """The lines that compare a value with a game's name, or key a table by one (unless
    the line says :data:`NOT_GAMES`)."""
    tree = ast.parse(source)

    def is_name(node: ast.AST) -> bool:
        return isinstance(node, ast.Constant) and node.value in names

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for side in list(sides):
                if isinstance(side, ast.Tuple | ast.List | ast.Set):
                    sides.extend(side.elts)
            if any(is_name(side) for side in sides):
                found.append(node.lineno)
        elif isinstance(node, ast.Dict) and any(k is not None and is_name(k) for k in node.keys):
            found.append(node.lineno)
    lines = source.splitlines()
    return [line for line in found if NOT_GAMES not in lines[line - 1]]


def test_no_code_outside_the_games_compares_a_games_name() -> None:
    names = set(DESCRIPTORS)
    found = {
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if not str(path.relative_to(PACKAGE)).startswith(OWN)
        for line in name_checks(path.read_text(), names)
    }
    assert not found, f"ask the game's descriptor instead: {sorted(found)}"


def test_the_name_check_finder_sees_each_form() -> None:
    code = (
        'if game == "neuf": pass\n'
        'if name != "kryt-navalivat": pass\n'
        'ok = game in ("neuf", "other")\n'
        'TABLE = {"knockout-whist": 1}\n'
        'fine = {"other": "neuf"}\n'
    )
    assert name_checks(code, set(DESCRIPTORS)) == [1, 2, 3, 4]


# The packages of cardtable above the rules: a module of the rules names none of them, not
# even in a string (a layer finds its own part of a game, cardtable.parts).
ABOVE_THE_RULES = ("arena", "bots", "cli", "hints", "rl", "server", "terminal", "tutorial", "web")


def test_no_module_of_the_rules_names_a_layer_above_them() -> None:
    above = [f"cardtable.{layer}" for layer in ABOVE_THE_RULES]
    found = sorted(
        f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
        for path in (PACKAGE / "rules").rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if any(name in line for name in above)
    )
    assert not found, f"the rules name a layer above them: {found}"


def test_a_layer_without_a_part_for_a_game_says_so() -> None:
    assert not has_part("bots", "neuf", "_nothing")
    with pytest.raises(ModuleNotFoundError) as missing:
        part("terminal", "neuf", "_nothing")
    assert missing.value.name == "cardtable.terminal.neuf_nothing"
    with pytest.raises(cardtable.UnknownGameError):
        part("bots", "chess")
