"""``prune --keep N --delete-beyond M``: every run but the newest M is deleted whole, so a
results folder kept from night to night (the nightly workflow restores and uploads it
again) stops growing; the runs between are pruned as before. A run in use and the run
``<output>/reports`` shows are left alone, and M may not cut into the N kept whole."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from tests.reports.conftest import ScriptedRun
from verification.cli import main
from verification.reports.history import scan_runs
from verification.reports.publishing import publish_latest, published_run
from verification.store.journal import read_journal
from verification.store.paths import RunPaths


def _three_runs(output: Path, scripted_run: ScriptedRun) -> list[str]:
    return [scripted_run(output, {"kmp": 3}, 3)[1] for _ in range(3)]


def test_runs_past_the_horizon_are_deleted_and_the_rest_pruned(
    tmp_path: Path, scripted_run: ScriptedRun, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out"
    oldest, middle, newest = _three_runs(output, scripted_run)
    capsys.readouterr()
    argv = ["prune", "--keep", "1", "--delete-beyond", "2", "--output", str(output)]
    assert main(argv) == 0
    said = capsys.readouterr().out
    assert f"{oldest}: deleted: " in said and " freed" in said
    assert said.rstrip().endswith(
        "1 older run(s) pruned; the newest 1 kept whole; 1 run(s) past the newest 2 deleted"
    )
    assert not RunPaths(output, oldest).run_dir.exists()
    assert [entry.run_id for entry in scan_runs(output)] == [middle, newest]
    assert not any(r.raw_response for r in read_journal(RunPaths(output, middle).journal))
    assert all(r.raw_response for r in read_journal(RunPaths(output, newest).journal))
    assert oldest not in (output / "index.html").read_text()  # the index links what is there
    # Again: nothing is past the horizon now, and the middle run is pruned already.
    assert main(argv) == 0
    said = capsys.readouterr().out
    assert "deleted:" not in said and said.rstrip().endswith("0 run(s) past the newest 2 deleted")


def test_a_run_in_use_or_shown_is_not_deleted(
    tmp_path: Path, scripted_run: ScriptedRun, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out"
    oldest, middle, newest = _three_runs(output, scripted_run)
    # The oldest shown at <output>/reports (the newer ones' copies unpublished by hand).
    (output / "reports").unlink()
    publish_latest(RunPaths(output, oldest))
    assert published_run(output) == oldest
    capsys.readouterr()
    with RunPaths(output, middle).lock():  # another process holds it (a resume, say)
        argv = ["prune", "--keep", "1", "--delete-beyond", "1", "--output", str(output)]
        assert main(argv) == 0
    said = capsys.readouterr().out
    assert f"{oldest}: not deleted: {output / 'reports'} shows it" in said
    assert f"{oldest}: left alone" not in said  # its replies are pruned as an older run's
    assert f"{middle}: left alone: run" in said
    assert said.rstrip().endswith("0 run(s) past the newest 1 deleted")
    assert [entry.run_id for entry in scan_runs(output)] == [oldest, middle, newest]


def test_a_horizon_inside_the_runs_kept_whole_is_refused(
    tmp_path: Path, scripted_run: ScriptedRun, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out"
    runs = _three_runs(output, scripted_run)
    argv = ["prune", "--keep", "2", "--delete-beyond", "1", "--output", str(output)]
    assert main(argv) == 2
    assert "--delete-beyond 1 would delete runs --keep 2 keeps whole" in capsys.readouterr().err
    assert [entry.run_id for entry in scan_runs(output)] == runs


def test_a_run_that_cannot_be_removed_whole_leaves_the_history_at_once(
    tmp_path: Path,
    scripted_run: ScriptedRun,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Hunt y: a file that could not be removed (chattr +i, a read-only folder) left the run
    # half deleted, its manifest gone, its folder never seen or deleted again.
    output = tmp_path / "out"
    oldest, middle, newest = _three_runs(output, scripted_run)
    unlink = os.unlink

    def refused(path: Any, *args: Any, **kwargs: Any) -> None:
        if str(path).endswith("summary.md"):
            raise PermissionError(errno.EPERM, "Operation not permitted", str(path))
        unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", refused)
    capsys.readouterr()
    argv = ["prune", "--keep", "2", "--delete-beyond", "2", "--output", str(output)]
    assert main(argv) == 0
    said = capsys.readouterr().out
    partly = "deleted from the history, but its folder could not be removed whole ("
    assert f"{oldest}: {partly}" in said
    assert "summary.md (Operation not permitted)): the next prune removes what is left" in said
    assert not (output / "runs" / oldest).exists()
    assert [entry.run_id for entry in scan_runs(output)] == [middle, newest]
    monkeypatch.undo()
    assert main(argv) == 0  # the next prune removes what is left
    assert not (output / ".deleted-runs").exists()


def test_a_run_folder_that_is_a_link_is_neither_pruned_nor_deleted(
    tmp_path: Path, scripted_run: ScriptedRun, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt y: a link in runs/ named as an older run, to the newest run's folder, had prune
    # strip the newest run's replies and reports through it.
    output = tmp_path / "out"
    newest = scripted_run(output, {"kmp": 3}, 3)[1]
    alias = output / "runs" / "20200101T000000Z-aaaaaa"
    alias.symlink_to(output / "runs" / newest)
    capsys.readouterr()
    argv = ["prune", "--keep", "1", "--output", str(output)]
    for more in ([], ["--delete-beyond", "1"]):
        assert main([*argv, *more]) == 0
        said = capsys.readouterr().out
        assert f"{alias.name}: left alone: its folder is a symbolic link" in said
    assert all(r.raw_response for r in read_journal(RunPaths(output, newest).journal))
    assert (output / "runs" / newest / "reports" / "kmp.md").is_file() and alias.is_symlink()


def test_a_run_folder_whose_manifest_cannot_be_read_is_said_and_left(
    tmp_path: Path, scripted_run: ScriptedRun, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "out"
    oldest, middle, _ = _three_runs(output, scripted_run)
    (output / "runs" / oldest / "manifest.json").write_text("{damaged")
    capsys.readouterr()
    argv = ["prune", "--keep", "1", "--delete-beyond", "1", "--output", str(output)]
    assert main(argv) == 0
    said = capsys.readouterr().out
    assert f"{oldest}: left alone: no manifest could be read" in said
    assert (output / "runs" / oldest).is_dir() and not (output / "runs" / middle).exists()


def test_no_run_is_moved_into_a_trash_folder_that_is_a_link(
    tmp_path: Path, scripted_run: ScriptedRun, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt z: a link at <output>/.deleted-runs took the runs "deleted", whole, to its target.
    output = tmp_path / "out"
    runs = _three_runs(output, scripted_run)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (output / ".deleted-runs").symlink_to(elsewhere)
    capsys.readouterr()
    argv = ["prune", "--keep", "1", "--delete-beyond", "1", "--output", str(output)]
    assert main(argv) == 2
    assert "is no folder of its own (a symbolic link, or a file)" in capsys.readouterr().err
    assert [entry.run_id for entry in scan_runs(output)] == runs and not any(elsewhere.iterdir())
