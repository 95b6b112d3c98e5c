"""A dry run made once per process and copied for each test that damages one: the store tests
edit an earlier run's files by hand, and each made the same dry run of its own first. And
files that need not reach the disk (tests/support/disk.py), but in test_journal.py."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.disk import no_fsync  # noqa: F401
from verification.cli import main

MadeRuns = Callable[..., list[Path]]

_MADE: dict[tuple[str, ...], Path] = {}
"""The results folder that holds the runs of each command line, made once per process."""


def _copy_runs(source: Path, output: Path) -> list[Path]:
    """Each run folder of the results folder ``source``, copied into ``output`` as a run made
    there writes it: the manifest names its results folder (settings.results_dir), and
    nothing else a dry run writes holds the folder's path."""
    copied = []
    for run in sorted((source / "runs").iterdir()):
        target = output / "runs" / run.name
        shutil.copytree(run, target)
        manifest = target / "manifest.json"
        text = manifest.read_text(encoding="utf-8")
        old, new = (json.dumps(str(folder)) for folder in (source, output))
        assert text.count(old) == 1, "the manifest names its results folder once"
        manifest.write_text(text.replace(old, new), encoding="utf-8")
        copied.append(target)
    return copied


@pytest.fixture
def made_runs(
    capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory
) -> MadeRuns:
    """``made_runs(output, *argv)``: the run folders ``verify *argv --output output`` leaves
    in an empty ``output`` (one per command line in ``argv``, a tuple each), as a list. The
    first test to ask runs them, the process keeps a copy, and each later test gets a copy
    of that: what a test edits is its own, and a dry run's files depend on nothing but its
    command line and its results folder."""

    def make(output: Path, *command_lines: tuple[str, ...]) -> list[Path]:
        key = tuple(part for line in command_lines for part in (*line, "\n"))
        if key not in _MADE:
            made = Path(tempfile.mkdtemp(prefix="made-runs-", dir=tmp_path_factory.getbasetemp()))
            for argv in command_lines:
                code = main(["verify", *argv, "--output", str(made)])
                _, err = capsys.readouterr()
                assert code == 0, err
            _MADE[key] = made
        return _copy_runs(_MADE[key], output)

    return make
