"""Scaffolds from installed plugins: a throwaway distribution (a ``*.dist-info`` with an
``entry_points.txt``, found on ``PYTHONPATH`` as importlib.metadata finds any installed
package) is listed, checked, shown and certified in a dry run by the real command line; a
broken one is skipped with a warning that names its distribution, and the rest keep working.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

RunSeveral = Callable[..., list[subprocess.CompletedProcess[str]]]


@pytest.fixture(scope="module")
def plugin_env(
    tmp_path_factory: pytest.TempPathFactory, install_plugin: Callable[..., dict[str, str]]
) -> dict[str, str]:
    root = tmp_path_factory.mktemp("site")
    return install_plugin(
        root,
        "largest_number = demo_scaffolds:SPEC\n"
        "broken = demo_scaffolds:NOT_A_SPEC\n"
        "lost_scaffold = demo_scaffolds:MISSING_MARKDOWN\n"
        "dijkstra = demo_scaffolds:SHADOW\n"
        "unimportable = demo_scaffolds_missing:SPEC\n",
    )


BROKEN = {
    "broken": "not a ScaffoldSpec",
    "lost_scaffold": "markdown file of 'lost_scaffold' is missing",
    "unimportable": "does not load",
}


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the runs below write, each in its own folder."""
    return tmp_path_factory.mktemp("runs")


@pytest.fixture(scope="module")
def runs(
    plugin_env: dict[str, str], cli_several: RunSeveral, output: Path
) -> dict[str, subprocess.CompletedProcess[str]]:
    """The commands the tests read, by name, run one after another, each forked (cli_several)
    (their outputs depend on the plugin alone; ``list`` first, so its standard error holds
    the plugins' load warnings)."""
    dry_run = ["--provider", "reference"]
    certified = ["--cases", "10", "--output", str(output / "certified")]
    known = ["--cases", "3", "--output", str(output / "known")]
    case = ["--case", "largest_number-standard-000", "--part", "system"]
    commands = {
        "list": ["list"],
        "certified": ["verify", "largest_number", *dry_run, *certified],
        "checked": ["check", "largest_number", "--cases", "10"],
        "shown": ["show-prompt", "largest_number", *case],
        "known": ["verify", "dijkstra", *dry_run, *known],
    }
    commands |= {name: ["verify", name, *dry_run] for name in BROKEN}
    done = cli_several(plugin_env, output, *commands.values())
    return dict(zip(commands, done, strict=True))


@pytest.fixture(scope="module")
def listed(
    runs: dict[str, subprocess.CompletedProcess[str]],
) -> subprocess.CompletedProcess[str]:
    """The ``list`` run, which the tests only read."""
    return runs["list"]


@pytest.mark.slow
def test_a_plugin_scaffold_is_certified_in_a_dry_run(
    runs: dict[str, subprocess.CompletedProcess[str]], output: Path
) -> None:
    done = runs["certified"]
    assert done.returncode == 0, done.stderr
    assert "largest_number" in done.stdout and "CERTIFIED" in done.stdout
    summary = json.loads((output / "certified" / "reports" / "summary.json").read_text())
    assert summary["dry_run"] is True
    assert summary["scaffolds"]["largest_number"]["pass_rate"] == 1.0
    manifest = json.loads(
        next((output / "certified" / "runs").iterdir()).joinpath("manifest.json").read_text()
    )
    assert manifest["scaffolds"]["largest_number"]["file"].endswith("largest_number.md")


@pytest.mark.slow
def test_a_plugin_scaffold_is_listed_checked_and_shown(
    runs: dict[str, subprocess.CompletedProcess[str]],
    listed: subprocess.CompletedProcess[str],
) -> None:
    assert listed.returncode == 0, listed.stderr
    assert "largest_number" in listed.stdout and "dijkstra" in listed.stdout
    checked, shown = runs["checked"], runs["shown"]
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "all checks passed" in checked.stdout
    assert shown.returncode == 0 and shown.stdout.startswith("# Largest Number")


@pytest.mark.slow
@pytest.mark.parametrize(("name", "reason"), list(BROKEN.items()))
def test_a_broken_plugin_is_skipped_with_its_reason(
    runs: dict[str, subprocess.CompletedProcess[str]],
    listed: subprocess.CompletedProcess[str],
    name: str,
    reason: str,
) -> None:
    assert "demo-scaffolds" in listed.stderr and reason in listed.stderr  # the warning
    asked = runs[name]
    assert asked.returncode == 2
    assert f"scaffold {name!r} from demo-scaffolds was skipped" in asked.stderr
    assert reason in asked.stderr


@pytest.mark.slow
def test_a_plugin_cannot_take_a_known_name(
    runs: dict[str, subprocess.CompletedProcess[str]],
    listed: subprocess.CompletedProcess[str],
) -> None:
    assert "already declared by verification.catalog.graph.dijkstra" in listed.stderr
    done = runs["known"]
    assert done.returncode == 0, done.stderr  # the catalog's own dijkstra, untouched
