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

RunCli = Callable[..., subprocess.CompletedProcess[str]]


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


@pytest.fixture(scope="module")
def listed(
    plugin_env: dict[str, str], cli: RunCli, tmp_path_factory: pytest.TempPathFactory
) -> subprocess.CompletedProcess[str]:
    """One ``list`` run, which the tests only read (its output depends on the plugin alone)."""
    return cli(plugin_env, tmp_path_factory.mktemp("cwd"), "list")


@pytest.mark.slow
def test_a_plugin_scaffold_is_certified_in_a_dry_run(
    plugin_env: dict[str, str], cli: RunCli, tmp_path: Path
) -> None:
    done = cli(
        plugin_env,
        tmp_path,
        "verify",
        "largest_number",
        "--provider",
        "reference",
        "--cases",
        "10",
        "--output",
        str(tmp_path / "out"),
    )
    assert done.returncode == 0, done.stderr
    assert "largest_number" in done.stdout and "CERTIFIED" in done.stdout
    summary = json.loads((tmp_path / "out" / "reports" / "summary.json").read_text())
    assert summary["dry_run"] is True
    assert summary["scaffolds"]["largest_number"]["pass_rate"] == 1.0
    manifest = json.loads(
        next((tmp_path / "out" / "runs").iterdir()).joinpath("manifest.json").read_text()
    )
    assert manifest["scaffolds"]["largest_number"]["file"].endswith("largest_number.md")


@pytest.mark.slow
def test_a_plugin_scaffold_is_listed_checked_and_shown(
    plugin_env: dict[str, str],
    cli_several: Callable[..., list[subprocess.CompletedProcess[str]]],
    tmp_path: Path,
    listed: subprocess.CompletedProcess[str],
) -> None:
    assert listed.returncode == 0, listed.stderr
    assert "largest_number" in listed.stdout and "dijkstra" in listed.stdout
    checked, shown = cli_several(
        plugin_env,
        tmp_path,
        ["check", "largest_number", "--cases", "10"],
        [
            "show-prompt",
            "largest_number",
            "--case",
            "largest_number-standard-000",
            "--part",
            "system",
        ],
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "all checks passed" in checked.stdout
    assert shown.returncode == 0 and shown.stdout.startswith("# Largest Number")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("broken", "not a ScaffoldSpec"),
        ("lost_scaffold", "markdown file of 'lost_scaffold' is missing"),
        ("unimportable", "does not load"),
    ],
)
def test_a_broken_plugin_is_skipped_with_its_reason(
    plugin_env: dict[str, str],
    cli: RunCli,
    tmp_path: Path,
    listed: subprocess.CompletedProcess[str],
    name: str,
    reason: str,
) -> None:
    assert "demo-scaffolds" in listed.stderr and reason in listed.stderr  # the warning
    asked = cli(plugin_env, tmp_path, "verify", name, "--provider", "reference")
    assert asked.returncode == 2
    assert f"scaffold {name!r} from demo-scaffolds was skipped" in asked.stderr
    assert reason in asked.stderr


@pytest.mark.slow
def test_a_plugin_cannot_take_a_known_name(
    plugin_env: dict[str, str],
    cli: RunCli,
    tmp_path: Path,
    listed: subprocess.CompletedProcess[str],
) -> None:
    assert "already declared by verification.catalog.graph.dijkstra" in listed.stderr
    done = cli(
        plugin_env,
        tmp_path,
        "verify",
        "dijkstra",
        "--provider",
        "reference",
        "--cases",
        "3",
        "--output",
        str(tmp_path / "out"),
    )
    assert done.returncode == 0, done.stderr  # the catalog's own dijkstra, untouched
