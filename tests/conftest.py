"""Fixtures the browser tests share: each test module that asks for them gets its own server
and its own Chromium (module scope), so modules stay independent of one another. A module
that needs its server set up otherwise (a review level, a long grace) defines its own
``web_base``, which takes precedence over this one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser

import module_groups
from browser_pieces import launched, served


@pytest.fixture(scope="module")
def web_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the module, on a fresh SQLite file."""
    with served(tmp_path_factory.mktemp("server")) as base:
        yield base


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """One headless Chromium for the module."""
    with launched() as browser:
        yield browser


def _train_extra_installed() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(name) for name in ("torch", "sb3_contrib"))


def pytest_configure(config: pytest.Config) -> None:
    module_groups.name_the_file(config)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> module_groups.SharedModules:
    """Shared modules whole on one worker, the other tests wherever a worker is free
    (``module_groups``)."""
    return module_groups.SharedModules(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The modules sharing a module-scoped fixture first (``module_groups``).

    Tests marked ``train`` need the optional ``train`` extra: where it is not installed
    they are skipped with the reason, which ``-ra`` prints in the summary."""
    module_groups.order(config, items)
    if _train_extra_installed():
        return
    skip = pytest.mark.skip(
        reason="needs the train extra (PyTorch, sb3-contrib): pip install -e '.[train]'"
    )
    for item in items:
        if item.get_closest_marker("train") is not None:
            item.add_marker(skip)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the CPUs. Many tests spend much of their time
    waiting (on a browser, a server's timers, a database kept down on purpose), and a
    worker more keeps the CPUs busy meanwhile."""
    from cardtable.rl.vector import default_threads  # the CPUs this process may use

    return default_threads() + 1
