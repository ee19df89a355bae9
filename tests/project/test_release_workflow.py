"""The release workflow (``.github/workflows/release.yml``) for a hosted CI, which cannot run
here: it reads as YAML, builds the abi3 wheel on every platform it promises with maturin's
action and the same features as ``scripts/build-wheels``, builds the sdist, and publishes
only from a version tag, after every build."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
MATURIN = "PyO3/maturin-action@v1"


def workflow() -> dict[Any, Any]:
    loaded = yaml.safe_load(WORKFLOW.read_text())
    assert isinstance(loaded, dict)
    return loaded


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return list(job["steps"])


def maturin_steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return [step for step in steps(job) if step.get("uses") == MATURIN]


def test_it_is_triggered_by_a_version_tag_or_by_hand() -> None:
    # YAML 1.1 reads the key ``on`` as true.
    triggers = workflow()[True]
    assert triggers["push"]["tags"] == ["v*"] and "workflow_dispatch" in triggers


def test_every_platform_builds_the_abi3_wheel_with_the_scripts_features() -> None:
    flow = workflow()
    script = (ROOT / "scripts" / "build-wheels").read_text()
    script_features = re.search(r"--features (pyo3/\S+)", script)
    assert script_features is not None
    assert flow["env"]["FEATURES"] == script_features.group(1)
    assert "abi3-py311" in flow["env"]["FEATURES"]
    jobs = flow["jobs"]
    built: set[tuple[str, str]] = set()
    for name in ("linux", "macos", "windows"):
        job = jobs[name]
        [build] = maturin_steps(job)
        assert "--release" in build["with"]["args"]
        assert "--features ${{ env.FEATURES }}" in build["with"]["args"]
        matrix = job.get("strategy", {}).get("matrix", {})
        targets = matrix.get("target") or [row["target"] for row in matrix.get("include", [])]
        targets = targets or [build["with"]["target"]]
        built |= {(name, target) for target in targets}
        assert any("cardtable --help" in step.get("run", "") for step in steps(job)), name
    assert built == {
        ("linux", "x86_64"),
        ("linux", "aarch64"),
        ("macos", "x86_64"),
        ("macos", "aarch64"),
        ("windows", "x64"),
    }
    assert jobs["linux"]["steps"][2]["with"]["manylinux"] == "2014"


def test_the_sdist_is_built_and_publishing_waits_for_every_build() -> None:
    jobs = workflow()["jobs"]
    [sdist] = maturin_steps(jobs["sdist"])
    assert sdist["with"]["command"] == "sdist"
    publish = jobs["publish"]
    assert set(publish["needs"]) == {"linux", "macos", "windows", "sdist"}
    assert publish["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert publish["permissions"] == {"id-token": "write"}
    assert steps(publish)[-1]["uses"].startswith("pypa/gh-action-pypi-publish@")
