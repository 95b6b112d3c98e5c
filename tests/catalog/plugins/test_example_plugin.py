"""The plugin distribution the developer guide shows (``docs/examples/plugin``) builds with
its own build backend, installs with pip (offline: ``--no-build-isolation --no-deps``, into a
folder put on ``PYTHONPATH``, as any installed distribution is found), passes ``check`` and
is certified in a dry run by the real command line, its Markdown read from the installed
package data."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # builds and installs the example plugin

SCAFFOLD = "interval_scheduling"
EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "plugin"


@pytest.fixture(scope="module")
def example_env(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], Path]:
    source = tmp_path_factory.mktemp("source") / "plugin"
    shutil.copytree(EXAMPLE, source)  # the build writes nothing into the docs
    site = tmp_path_factory.mktemp("site")
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-build-isolation",
            "--no-deps",
            "--no-index",
            "--quiet",
            "--target",
            str(site),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-2000:]
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERIFY_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH")) if p)
    return env, site


def test_the_example_distribution_installs_its_markdown_as_package_data(
    example_env: tuple[dict[str, str], Path],
) -> None:
    _, site = example_env
    (info,) = site.glob("interval_scaffolds-*.dist-info")
    entry_points = (info / "entry_points.txt").read_text(encoding="utf-8")
    assert "[verification.scaffolds]" in entry_points
    assert (site / "interval_scaffolds" / "interval_scheduling.md").is_file()


def test_the_example_plugin_is_checked_and_certified_in_a_dry_run(
    example_env: tuple[dict[str, str], Path], cli_several: Any, tmp_path: Path
) -> None:
    env, site = example_env
    out = tmp_path / "out"
    checked, done, listed = cli_several(
        env,
        tmp_path,
        ["check", "interval_scheduling", "--cases", "10"],
        [
            "verify",
            "interval_scheduling",
            "--provider",
            "reference",
            "--cases",
            "12",
            "--output",
            str(out),
        ],
        ["list", "--json"],
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "all checks passed" in checked.stdout
    # A copy of the example is where an author starts: it draws no warning to puzzle over
    # (hunt ff: no stress range, and no sentence on how its integer is written).
    assert "WARN" not in checked.stdout, checked.stdout
    assert done.returncode == 0, done.stdout + done.stderr
    assert "DRY RUN" in done.stdout and "CERTIFIED" in done.stdout
    summary = json.loads((out / "reports" / "summary.json").read_text(encoding="utf-8"))
    assert summary["dry_run"] is True
    assert summary["scaffolds"]["interval_scheduling"]["status"] == "CERTIFIED"
    (run,) = (out / "runs").iterdir()
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    markdown = Path(manifest["scaffolds"]["interval_scheduling"]["file"])
    assert markdown == site / "interval_scaffolds" / "interval_scheduling.md"
    (entry,) = (e for e in json.loads(listed.stdout)["scaffolds"] if e["name"] == SCAFFOLD)
    heading = markdown.read_text(encoding="utf-8").splitlines()[0]
    assert heading == f"# {entry['title']}"  # the title, from the Markdown's first heading
