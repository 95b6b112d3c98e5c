"""The run's page states a swept scaffold's size envelope as summary.json does (issue 23
item 3): in a real headless Chromium."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.conftest import Watched

pytestmark = pytest.mark.slow  # Chromium


def test_the_summary_row_states_the_size_envelope(watched: Watched, tmp_path: Path) -> None:
    output = tmp_path / "results"
    argv = ["kmp", "--provider", "reference", "--level", "quick", "--sizes", "8,16"]
    # A process of its own: Playwright's client keeps an event loop running in this one.
    done = subprocess.run(
        [sys.executable, "-m", "verification", "verify", *argv, "--output", str(output)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (run_dir,) = (output / "runs").iterdir()
    summary = json.loads((run_dir / "reports" / "summary.json").read_text())["scaffolds"]["kmp"]
    assert summary["envelope"] == "holds across the whole range tried (8 to 16 text length)"
    watched.open((run_dir / "reports" / "index.html").as_uri())
    status = watched.page.locator('#summary tbody tr[data-scaffold="kmp"] .status').inner_text()
    assert status == f"{summary['status']} (size envelope: {summary['envelope']})"
    assert not watched.errors and not watched.requests
