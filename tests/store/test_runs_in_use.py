"""Commands that read a run another process is still asking wait for it to end: ``report``
(whose fold of a journal cut short replaced the finished run's reports: a helper's hunt saw a
finished run of 40 cases reported at 37, and a run in progress published as the latest),
``merge`` of a shard still being asked (whose merged run's resume paid again for answers the
shard then held), and ``--rerun-failed`` of a run that has not failed all it will yet.
Each refuses with exit 2, naming the owner's process and what to do once it ends; the lock
is another open file's, as another process's would be (``flock`` locks belong to open
files, not processes)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from verification.cli import main
from verification.reports.pruning import ALREADY_PRUNED
from verification.store.locks import RunLock

DRY = ["--provider", "reference", "--cases", "4"]


def _run(output: Path, *argv: str) -> Path:
    assert main(["verify", "kmp", *DRY, *argv, "--output", str(output)]) in (0, 1)
    return max((output / "runs").iterdir(), key=lambda run: run.stat().st_mtime_ns)


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], then: str) -> None:
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"is in use by process {os.getpid()}" in err and f"then {then}" in err, err


def test_report_waits_for_the_run_s_owner_and_writes_nothing_meanwhile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _run(tmp_path)
    summary = run / "reports" / "summary.json"
    written = summary.read_bytes()
    summary.unlink()
    with RunLock(run, run.name):
        _refused(capsys, ["report", run.name, "--output", str(tmp_path)], "report it")
        assert not summary.exists(), "a report of a run in progress was written"
    assert main(["report", run.name, "--output", str(tmp_path)]) == 0  # once it has ended
    status = [
        json.loads(text)["scaffolds"]["kmp"]["status"] for text in (written, summary.read_bytes())
    ]
    assert status[0] == status[1] == "CERTIFIED"


def test_merge_refuses_a_shard_still_being_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shards = [_run(tmp_path / f"shard{i}", "--shard", f"{i}/2") for i in (1, 2)]
    merged = tmp_path / "merged"
    argv = ["merge", *map(str, shards), "--output", str(merged)]
    with RunLock(shards[1], shards[1].name):
        _refused(capsys, argv, "merge")
    assert not (merged / "runs").exists() or not any((merged / "runs").iterdir())
    assert main(argv) == 0  # once it has ended


def test_rerun_failed_refuses_a_run_still_being_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _run(tmp_path)
    argv = ["verify", "--rerun-failed", run.name, "--provider", "reference"]
    with RunLock(run, run.name):
        _refused(capsys, [*argv, "--output", str(tmp_path)], "rerun its failures")
    assert main([*argv, "--output", str(tmp_path)]) == 0  # nothing failed: nothing asked


def test_prune_leaves_a_run_in_use_saying_to_prune_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = _run(tmp_path)
    _run(tmp_path, "--seed", "3")
    capsys.readouterr()
    with RunLock(older, older.name):
        assert main(["prune", "--keep", "1", "--output", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"{older.name}: left alone:" in out and "then prune again" in out, out


def test_prune_drops_the_replies_of_a_pruned_run_s_published_reports(tmp_path: Path) -> None:
    # A helper's hunt: <output>/reports can show an older run (a newer one stopped before
    # its reports), and prune of that run left its published copy quoting the raw replies
    # prune removes.
    from verification.reports.publishing import publish_latest, published_run
    from verification.store.paths import RunPaths

    older = _run(tmp_path)
    _run(tmp_path, "--seed", "3")
    shown = tmp_path / "reports"
    shown.unlink()  # as a newer run stopped before its reports: the older one is shown
    publish_latest(RunPaths(tmp_path, older.name))
    assert published_run(tmp_path) == older.name and (shown / "kmp.md").is_file()
    assert main(["prune", "--keep", "1", "--output", str(tmp_path)]) == 0
    assert not (older / "reports" / "kmp.md").exists()
    assert published_run(tmp_path) == older.name
    assert not (shown / "kmp.md").exists(), "the published copy still quotes the replies"
    assert (shown / "summary.json").is_file()


def test_a_second_prune_counts_only_the_runs_it_pruned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A helper's hunt: a second prune said "4 older run(s) pruned" of runs an earlier one
    # had pruned, where it pruned one.
    for seed in ("1", "2"):
        _run(tmp_path, "--seed", seed)
    prune = ["prune", "--keep", "1", "--output", str(tmp_path)]
    assert main(prune) == 0
    assert "1 older run(s) pruned" in capsys.readouterr().out
    newest = _run(tmp_path, "--seed", "3")
    capsys.readouterr()
    assert main(prune) == 0
    out = capsys.readouterr().out
    assert "already pruned: nothing left to remove" in out and newest.name not in out
    assert "1 older run(s) pruned" in out, out


def test_the_in_use_check_of_a_run_writes_nothing_into_it(tmp_path: Path) -> None:
    # Hunt w: merge and --rerun-failed wrote a lock file into every shard they checked.
    from verification.store.locks import check_not_in_use

    run = _run(tmp_path)
    (run / "lock").unlink()
    check_not_in_use(run, run.name, then="merge")
    assert not (run / "lock").exists()


def test_an_older_run_that_finishes_last_leaves_the_newer_run_s_reports_shown(
    tmp_path: Path,
) -> None:
    # Hunt u: runs that overlapped left <output>/reports on whichever finished last, where
    # report, history and prune count the newest created as the latest.
    from verification.reports.publishing import publish_latest, published_run
    from verification.store.paths import RunPaths

    older = _run(tmp_path)
    newer = _run(tmp_path, "--seed", "3")
    assert published_run(tmp_path) == newer.name
    assert publish_latest(RunPaths(tmp_path, older.name)) is None  # finishing last
    assert published_run(tmp_path) == newer.name
    assert main(["report", "--output", str(tmp_path)]) == 0  # the latest: the newer
    assert published_run(tmp_path) == newer.name
    assert main(["report", older.name, "--output", str(tmp_path)]) == 0
    assert published_run(tmp_path) == newer.name


@pytest.mark.parametrize("target", [".published/..-1a2b3c4d", ".published/nothing", "/etc"])
def test_a_planted_reports_link_never_stops_a_run_s_publication(
    tmp_path: Path, target: str
) -> None:
    # A link at <output>/reports whose target names no run (or a run id that is a path) is
    # replaced by the run's reports, not read as the newest run's.
    from verification.reports.publishing import published_run

    (tmp_path / "runs").mkdir(parents=True)
    (tmp_path / "reports").symlink_to(target)
    run = _run(tmp_path)
    assert published_run(tmp_path) == run.name


def test_a_run_whose_lock_has_another_name_is_still_in_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt y: a backup taken with cp -al while a shard was asked gave its lock a second
    # name, and the in-use check, refusing to open such a file, read the shard as free.
    shards = [_run(tmp_path / f"shard{i}", "--shard", f"{i}/2") for i in (1, 2)]
    argv = ["merge", *map(str, shards), "--output", str(tmp_path / "merged")]
    with RunLock(shards[1], shards[1].name):
        os.link(shards[1] / "lock", tmp_path / "backup-lock")
        _refused(capsys, argv, "merge")


def test_prune_leaves_no_link_to_a_report_it_removed_nor_a_comparison_quoting_replies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt pp: the kept summary.md still linked the kmp.md prune removed, and the pair's
    # comparison page kept both runs' replies.
    older = _run(tmp_path)
    newer = _run(tmp_path, "--seed", "3")
    assert main(["compare", older.name, newer.name, "--html", "--output", str(tmp_path)]) == 0
    page = tmp_path / "comparisons" / f"{older.name}-vs-{newer.name}" / "index.html"
    summary = older / "reports" / "summary.md"
    assert page.is_file() and "](kmp.md)" in summary.read_text("utf-8")
    capsys.readouterr()
    assert main(["prune", "--keep", "1", "--output", str(tmp_path)]) == 0
    assert "1 comparison page(s) quoting them" in capsys.readouterr().out
    assert not (older / "reports" / "kmp.md").exists() and not page.exists()
    text = summary.read_text("utf-8")
    assert "](kmp.md)" not in text and "| kmp | **" in text
    assert "](kmp.md)" in (newer / "reports" / "summary.md").read_text("utf-8")
    # Written again after the prune, the page quotes no pruned reply: a later prune keeps it
    # and has nothing to do (hunt rr: removed each time, and the run "pruned" again).
    assert main(["compare", older.name, newer.name, "--html", "--output", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["prune", "--keep", "1", "--output", str(tmp_path)]) == 0
    assert page.is_file() and ALREADY_PRUNED in capsys.readouterr().out
