"""``verify --baseline none`` writes both runs' reports from the journals the runs hold,
and they are what ``report`` writes from the journals on disk, byte for byte."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest

from verification.cli import main
from verification.compose import baseline
from verification.reports import generator
from verification.store.journal import read_journal


def _reports(output: Path) -> dict[Path, bytes]:
    return {
        path.relative_to(output): path.read_bytes()
        for path in (output / "runs").rglob("*")
        if path.is_file() and "reports" in path.relative_to(output).parts
    }


def test_the_pair_s_reports_are_written_from_memory_as_report_writes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_back: list[Path] = []

    def counted(path: Path, *args: Any, **kwargs: Any) -> Any:
        read_back.append(path)
        return read_journal(path, *args, **kwargs)

    argv = ["verify", "dijkstra", "--provider", "reference", "--cases", "3"]
    with monkeypatch.context() as patch, contextlib.redirect_stdout(io.StringIO()):
        patch.setattr(generator, "read_journal", counted)
        patch.setattr(baseline, "read_journal", counted)
        assert main([*argv, "--baseline", "none", "--output", str(tmp_path)]) == 0
    assert read_back == []  # the reports and the lift read no journal back
    written = _reports(tmp_path)
    runs = sorted(path.name for path in (tmp_path / "runs").iterdir())
    assert len(runs) == 2 and {path.parts[1] for path in written} == set(runs)
    for run in runs:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["report", run, "--output", str(tmp_path)]) == 0
    assert _reports(tmp_path) == written
