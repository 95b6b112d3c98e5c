"""Files of a run folder the harness writes under fixed names, planted beforehand as a
symbolic link or a FIFO (hunt o, 28 November): the run's lock, its manifest's temporary
file and ``prune``'s temporary journal were opened through a link, so a resume or a prune
truncated or overwrote a file outside the results folder (and left ``results.jsonl`` a link
to it); a FIFO there hung ``--resume`` and ``prune`` for ever. Nothing is written through a
link now, and nothing waits on a FIFO."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from verification.cli import main
from verification.errors import JournalError
from verification.reports.history import prune_runs
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
    else:
        os.mkfifo(path)


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_a_planted_lock_is_refused_naming_it(tmp_path: Path, kind: str) -> None:
    outside = tmp_path / "victim.txt"
    outside.write_text(OUTSIDE)
    run = tmp_path / "run"
    run.mkdir()
    _plant(run / "lock", kind, outside)
    with pytest.raises(JournalError, match=r"lock.*(symbolic link|not a regular file)"):
        RunLock(run, "20261128T000000Z-abcdef")
    assert outside.read_text() == OUTSIDE


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
