"""Which earlier run a regression gate compares with: never one that did not ask its whole
plan (a helper's hunt blinded the gate with a two-case ``-k`` smoke run between a good run
and a bad one), nor one of another ``--cases`` or ``--samples``."""

from __future__ import annotations

from pathlib import Path

import pytest

from verification.cli import main
from verification.reports.history import previous_comparable
from verification.store.paths import RunPaths


def _run(output: Path, *extra: str) -> str:
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    argv = ["verify", "dijkstra", "--provider", "reference", "--output", str(output)]
    assert main([*argv, *extra]) == 0
    (run,) = set((output / "runs").iterdir()) - before
    return run.name


@pytest.mark.parametrize(
    "between",
    [
        ["--cases", "6", "-k", "simple-000 or standard-000"],
        ["--cases", "6", "--case", "dijkstra-simple-000"],
        ["--cases", "6", "--tier", "simple"],
        ["--cases", "2"],
        ["--cases", "6", "--samples", "2"],
    ],
)
def test_a_run_of_another_plan_between_is_skipped_for_the_whole_one_before(
    tmp_path: Path, between: list[str]
) -> None:
    whole = _run(tmp_path, "--cases", "6")
    _run(tmp_path, *between)
    latest = _run(tmp_path, "--cases", "6")
    manifest = RunPaths(tmp_path, latest).read_manifest()
    found = previous_comparable(tmp_path, manifest)
    assert found is not None and found.run_id == whole
