"""CI outputs given hostile paths, through the real command line: ``--junit-xml`` and
``GITHUB_STEP_SUMMARY`` naming a folder or a FIFO are refused before the run asks anything
(exit 2, naming the option or setting); a write that fails names it too. Before, a folder
ended a finished run with a bare 'Is a directory' and a FIFO hung the process.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from verification.cli import main

DRY_RUN = ("verify", "bfs", "--provider", "reference", "--level", "quick")


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def _folder(tmp_path: Path) -> Path:
    path = tmp_path / "folder"
    path.mkdir()
    return path


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")
@pytest.mark.parametrize("make", [_fifo, _folder], ids=["fifo", "folder"])
@pytest.mark.parametrize("where", ["--junit-xml", "GITHUB_STEP_SUMMARY"])
def test_a_ci_output_that_is_no_file_is_refused_before_the_run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    make: Callable[[Path], Path],
    where: str,
) -> None:
    target = make(tmp_path)
    output = tmp_path / "results"
    argv = [*DRY_RUN, "--output", str(output)]
    if where == "--junit-xml":
        argv += ["--junit-xml", str(target)]
    else:
        monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(target))
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"{where} {target}: not a regular file" in err
    assert not (output / "runs").exists()  # refused before the run started


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc, where mkdir fails")
def test_a_junit_file_that_cannot_be_written_names_the_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = Path("/proc/no-such-process/junit.xml")
    code = main([*DRY_RUN, "--output", str(tmp_path / "results"), "--junit-xml", str(target)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"--junit-xml {target}: cannot be written" in err
