"""Files of a run folder the harness writes under fixed names, planted beforehand as a
symbolic link or a FIFO (hunt o, 28 November): the run's lock, its manifest's temporary
file and ``prune``'s temporary journal were opened through a link, so a resume or a prune
truncated or overwrote a file outside the results folder (and left ``results.jsonl`` a link
to it); a FIFO there hung ``--resume`` and ``prune`` for ever. Nothing is written through a
link now, and nothing waits on a FIFO."""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import pytest

from verification.cli import main
from verification.errors import JournalError
from verification.reports.pruning import prune_runs
from verification.store.locks import RunLock

OUTSIDE = "outside the results folder\n"


def _dry_run(output: Path) -> Path:
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "2", "--output", str(output)]
    assert main(argv) == 0
    (run,) = set((output / "runs").iterdir()) - before
    return run


def _plant(path: Path, kind: str, outside: Path) -> None:
    path.unlink(missing_ok=True)
    if kind == "symlink":
        path.symlink_to(outside)
    elif kind == "hardlink":
        os.link(outside, path)
    else:
        os.mkfifo(path)


@pytest.mark.parametrize("kind", ["symlink", "fifo", "hardlink"])
def test_a_planted_lock_is_refused_naming_it(tmp_path: Path, kind: str) -> None:
    outside = tmp_path / "victim.txt"
    outside.write_text(OUTSIDE)
    run = tmp_path / "run"
    run.mkdir()
    _plant(run / "lock", kind, outside)
    refused = r"lock.*(symbolic link|not a regular file|has 2 hard links)"
    with pytest.raises(JournalError, match=refused):
        RunLock(run, "20261128T000000Z-abcdef")
    assert outside.read_text() == OUTSIDE


def test_a_resume_appends_to_no_journal_with_other_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A run folder backed up with hard links (cp -al), or a journal linked to another
    # run's: appending to it would change the backup (or the other run) too.
    results = tmp_path / "results"
    run = _dry_run(results)
    journal = run / "results.jsonl"
    backup = tmp_path / "backup.jsonl"
    os.link(journal, backup)
    kept = backup.read_bytes()
    manifest = (run / "manifest.json").read_text()
    argv = ["verify", "--resume", run.name, "--output", str(results)]
    assert main(argv) == 2
    said = capsys.readouterr().err
    assert f"{journal} has 2 hard links" in said and f"cp -p {journal} {journal}.own" in said
    assert backup.read_bytes() == kept and (run / "manifest.json").read_text() == manifest
    # the commands the message gives, run as printed, make it the run's own; the resume goes on
    commands = said.split("of its own (")[1].split(") and try again")[0]
    copy, move = (shlex.split(part) for part in commands.split(" && "))
    assert copy[:2] == ["cp", "-p"] and move[0] == "mv"  # done here as cp and mv do them
    shutil.copy2(copy[2], copy[3])
    os.replace(move[1], move[2])
    assert main(argv) == 0
    assert backup.read_bytes() == kept


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_a_resume_writes_its_manifest_through_nothing_planted(tmp_path: Path, kind: str) -> None:
    outside = tmp_path / "victim.txt"
    outside.write_text(OUTSIDE)
    run = _dry_run(tmp_path / "results")
    _plant(run / "manifest.json.tmp", kind, outside)  # the name it was written through
    assert main(["verify", "--resume", run.name, "--output", str(tmp_path / "results")]) == 0
    assert outside.read_text() == OUTSIDE
    assert (run / "manifest.json").is_file() and not (run / "manifest.json").is_symlink()


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_prune_rewrites_a_journal_through_nothing_planted(tmp_path: Path, kind: str) -> None:
    outside = tmp_path / "victim.txt"
    outside.write_text(OUTSIDE)
    output = tmp_path / "results"
    runs = [_dry_run(output), _dry_run(output)]
    for run in runs:
        _plant(run / "results.jsonl.tmp", kind, outside)
    assert main(["prune", "--keep", "1", "--output", str(output)]) == 0
    assert outside.read_text() == OUTSIDE
    journals = [run / "results.jsonl" for run in runs]
    assert all(j.is_file() and not j.is_symlink() for j in journals)
    stripped = ['"raw_response":null' in j.read_text().replace(" ", "") for j in journals]
    assert stripped.count(True) == 1  # the older run's replies are gone, the newer's kept


def test_a_lock_that_cannot_be_written_names_its_file(tmp_path: Path) -> None:
    # Hunt o: a disk with a few KiB free gave "error: No space left on device", no file named.
    import resource
    import signal

    run = tmp_path / "run"
    run.mkdir()
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    before = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))  # no file may grow: a full disk
    try:
        with pytest.raises(JournalError, match=rf"cannot write {run / 'lock'}: File too large"):
            RunLock(run, "20261128T000000Z-abcdef")
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, before)


def test_prune_says_which_file_stopped_it_in_words(tmp_path: Path) -> None:
    # Hunt o: prune printed Python's "[Errno 28] No space left on device".
    output = tmp_path / "results"
    _dry_run(output)
    _dry_run(output)
    for run in (output / "runs").iterdir():
        (run / "lock").unlink()
        (run / "lock").mkdir()  # a lock that cannot be opened
    done = dict(prune_runs(output, keep=1))
    (said,) = done.values()
    assert said.startswith("left alone: Is a directory (") and "[Errno" not in said
    assert said.endswith("lock)")


@pytest.mark.parametrize("name", ["calls.jsonl", "batches.jsonl"])
def test_a_resume_refuses_a_run_file_with_other_names_before_changing_anything(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt y: a hard-linked calls.jsonl was refused only after the resume had rewritten its
    # manifest (an interrupted run then read as finished), and batches.jsonl was appended
    # through a link or onto a backup's file.
    outside = tmp_path / "victim.txt"
    outside.write_text(OUTSIDE)
    results = tmp_path / "results"
    run = _dry_run(results)
    manifest = (run / "manifest.json").read_bytes()
    _plant(run / name, "hardlink", outside)
    assert main(["verify", "--resume", run.name, "--output", str(results)]) == 2
    assert f"{run / name} has 2 hard links" in capsys.readouterr().err
    assert (run / "manifest.json").read_bytes() == manifest and outside.read_text() == OUTSIDE


@pytest.mark.parametrize("kind", ["symlink", "hardlink"])
def test_the_batch_log_is_appended_through_nothing_planted(tmp_path: Path, kind: str) -> None:
    from verification.errors import StoredFileError
    from verification.run.batch_log import BATCH_FILE, BatchLine, BatchLog

    outside = tmp_path / "victim.txt"
    outside.write_text(OUTSIDE)
    log = tmp_path / BATCH_FILE
    _plant(log, kind, outside)
    with pytest.raises(StoredFileError, match=r"symbolic link|hard links"):
        BatchLog(log).append(BatchLine(event="intent", intent="a" * 10, at="now"))
    assert outside.read_text() == OUTSIDE
