"""The code stays `ruff` and `mypy --strict` clean; the README's commands stay true."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint_is_clean() -> None:
    done = run("ruff", "check", "src", "tests", "benchmarks", "scripts")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_clean() -> None:
    done = run("ruff", "format", "--check", "src", "tests", "benchmarks", "scripts")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean() -> None:
    done = run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr


def test_readme_opens_with_the_two_commands_and_ci_runs_the_second() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    assert lines[0].startswith("# ") and lines[2] == "```sh", "README must open with the commands"
    block = re.search(r"```sh\n(.*?)```", readme, re.S)
    assert block is not None
    play, test = block.group(1).strip().splitlines()
    assert play.endswith("cardtable serve"), "the first command serves the web table"
    assert "pytest" in test
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # .ci/run takes the README's own line, so the two cannot drift apart.
    assert "README.md" in ci and "pytest" in ci
    assert re.search(r"^python3 .*pytest", test)


def test_the_core_stubs_match_the_compiled_module() -> None:
    """``src/cardtable/_core.pyi`` says what ``cardtable._core`` really offers: mypy's
    stubtest compares every class, method, parameter and default with the built module."""
    done = run("mypy.stubtest", "cardtable._core")
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_user_facing_doc_reaches_into_the_private_core_module() -> None:
    """The fast path has public names (docs/core.md, "The fast path"): the README, the docs
    and the examples never send a user to ``cardtable._core``."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    pages += sorted((ROOT / "examples").glob("**/*.py")) if (ROOT / "examples").exists() else []
    private = re.compile(r"cardtable\._core\b|from cardtable import _core|import _core\b")
    found = [
        f"{page.relative_to(ROOT)}:{number}: {line.strip()}"
        for page in pages
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if private.search(line)
    ]
    assert not found, "\n".join(found)
