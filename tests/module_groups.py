"""How the test workers share the run (``pytest -n``): a module whose tests share a
module-scoped fixture (a server, a Chromium, a played game, a built wheel) runs whole on
one worker, which makes that fixture once rather than once a worker; every other test goes
to whichever worker is free. The shared modules go first: they are the largest units of
work, and one left to the end would keep a worker busy while the others wait.

Only the workers see the fixtures: each writes the modules it found to a file the
controller named (in an environment variable the workers inherit), and the controller's
scheduler reads it once every worker has collected. (pytest-xdist's own ``xdist_group``
marks do the same by renaming each test, which pytest 9's test ids no longer allow.)
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]  # no py.typed

FILE = "CARDTABLE_TEST_SHARED_MODULES"


def name_the_file(config: pytest.Config) -> None:
    """In the controller, before the workers start: where they will write."""
    if hasattr(config, "workerinput") or FILE in os.environ:
        return
    handle, name = tempfile.mkstemp(prefix="cardtable-shared-modules-", suffix=".json")
    os.close(handle)
    os.environ[FILE] = name
    config.add_cleanup(lambda: Path(name).unlink(missing_ok=True))


def _shares_a_module_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:  # a doctest
        return False
    return any(
        definition.scope == "module"
        for definitions in info.name2fixturedefs.values()
        for definition in definitions
    )


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def order(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The shared modules first (a stable sort: the collection's order within each part),
    and, in a worker, their names written for the controller."""
    shared = {_module(item.nodeid) for item in items if _shares_a_module_fixture(item)}
    items.sort(key=lambda item: _module(item.nodeid) not in shared)
    if hasattr(config, "workerinput") and FILE in os.environ:
        # Every worker collects the same tests and writes the same list; each replaces
        # the file whole, so the controller never reads half of one.
        target = Path(os.environ[FILE])
        written = target.with_name(f"{target.name}.{os.getpid()}")
        written.write_text(json.dumps(sorted(shared)))
        os.replace(written, target)


class SharedModules(LoadScopeScheduling):  # type: ignore[misc]  # an untyped base
    """pytest-xdist's scope scheduling with a shared module as one scope and every other
    test as its own."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        self._shared: frozenset[str] | None = None

    def _split_scope(self, nodeid: str) -> str:
        if self._shared is None:
            self._shared = frozenset(json.loads(Path(os.environ[FILE]).read_text() or "[]"))
        module = _module(nodeid)
        return module if module in self._shared else nodeid
