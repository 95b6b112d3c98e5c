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


def test_junit_failure_bodies_are_cut_as_their_messages_are(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Before: a failure's body held the whole reason (a plugin validator's 2 MB message gave
    # a 45 MB file for 6 cases); only the message attribute was cut.
    import json
    import xml.etree.ElementTree as ET

    output = tmp_path / "results"
    for shard in ("1/2", "2/2"):
        assert main([*DRY_RUN, "--shard", shard, "--output", str(output)]) == 0
    shards = sorted((output / "runs").iterdir())
    journal = shards[0] / "results.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines()
    huge = "vertex " + "v" * 2_000_000 + " is not in the graph"
    for number, line in enumerate(lines):
        data = json.loads(line)
        data.update(outcome="failed", level=3, reason=huge)
        lines[number] = json.dumps(data)
    journal.write_text("\n".join(lines) + "\n", encoding="utf-8")
    target = tmp_path / "junit.xml"
    code = main(["merge", "--output", str(output), "--junit-xml", str(target), *map(str, shards)])
    assert code == 0, capsys.readouterr().err  # the quick level certifies nothing: exit 0
    # Each failed case's line in its scaffold's system-out is cut as a message attribute is,
    # and a failing scaffold's failure as before.
    root = ET.parse(target).getroot()
    for failure in root.findall(".//failure"):
        assert len(failure.get("message") or "") <= 1000 and len(failure.text or "") <= 10_000
    shown = [
        line
        for out in root.iter("system-out")
        for line in (out.text or "").splitlines()
        if "is not in the graph" in line or line.endswith("v...")
    ]
    assert len(shown) == len(lines)
    assert all(len(line) <= 1000 and line.endswith("...") for line in shown)
    assert target.stat().st_size < 20_000 * len(lines) + 100_000
