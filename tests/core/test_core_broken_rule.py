"""The differential tests have teeth: a core built with one rule broken on purpose (the
``broken-rule`` cargo feature lets a Knockout Whist dog knock on the last trick, against
W-3) is caught by :func:`cardtable.differential.compare_games`, which names the step.

The broken core is built here with cargo, in the debug profile and cargo's own target
folder (so it reuses what ``cargo test`` built before: only the crates the feature changes
are compiled again), copied aside, and loaded in a child process as ``cardtable._core``, so
the real core of this process is left alone.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHECK = textwrap.dedent(
    """
    import importlib.machinery, importlib.util, sys
    spec = importlib.util.spec_from_file_location(
        "cardtable._core", sys.argv[1],
        loader=importlib.machinery.ExtensionFileLoader("cardtable._core", sys.argv[1]),
    )
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    sys.modules["cardtable._core"] = core
    assert core.broken_rule()
    from cardtable.differential import DivergenceError, compare_games
    for players in (3, 4, 5):
        try:
            compare_games("knockout-whist", {"players": players}, range(60))
        except DivergenceError as exc:
            print("CAUGHT", exc)
            break
    else:
        print("MISSED")
    """
)


@pytest.fixture(scope="module")
def broken_core(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cargo = shutil.which("cargo")
    assert cargo is not None, "cargo builds the core; the README's test command needs it"
    build = ["build", "--quiet", "--message-format=json", "-p", "cardtable-python"]
    built = subprocess.run(
        [cargo, *build, "--features", "broken-rule"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    # The library this very build made (cargo's message names it), copied aside at once:
    # the file in the target folder is the next build's to replace.
    [library] = [
        name
        for line in built.stdout.splitlines()
        if (message := json.loads(line)).get("reason") == "compiler-artifact"
        and message["target"]["name"] == "_core"
        for name in message["filenames"]
        if name.endswith(".so")
    ]
    kept = tmp_path_factory.mktemp("broken-core") / "lib_core.so"
    shutil.copyfile(library, kept)
    return kept


def test_a_broken_rule_is_caught_and_the_step_named(broken_core: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK, str(broken_core)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("CAUGHT"), done.stdout
    # The report says where: the game, the seed and the step, and what differed.
    assert "knockout-whist" in done.stdout and ", step " in done.stdout
    assert "legal actions differ" in done.stdout or "positions differ" in done.stdout
