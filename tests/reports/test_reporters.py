"""Report outputs are reporters: another one is added without touching the runner or the
others, and publishing ``<output>/reports`` is one atomic swap after all of them ran."""

from __future__ import annotations

import asyncio
import errno
import os
from pathlib import Path

import pytest

from verification.config import load_settings
from verification.reports.base import ReportContext
from verification.reports.generator import DEFAULT_REPORTERS, ReportGenerator, write_run_reports
from verification.runner import RunResult, VerificationRunner


class ScaffoldListReporter:
    """A third output: one line per scaffold, written where the command line says."""

    name = "scaffold-list"

    def __init__(self) -> None:
        self.contexts: list[ReportContext] = []

    def write(self, context: ReportContext) -> list[Path]:
        self.contexts.append(context)
        path = Path(context.options["list_path"])
        lines = [f"{name} {r.status}\n" for name, r in context.results.items()]
        path.write_text("".join(lines), encoding="utf-8")
        return [path]


def _dry_run(output: Path) -> RunResult:
    settings = load_settings(results_dir=output, cases=3, provider="reference")
    return asyncio.run(VerificationRunner(settings).run(["kmp", "bfs"]))


def test_an_added_reporter_writes_beside_the_others(tmp_path: Path) -> None:
    run = _dry_run(tmp_path / "out")
    extra = ScaffoldListReporter()
    outside = tmp_path / "elsewhere.txt"
    write_run_reports(
        run.paths,
        run.manifest,
        run.results,
        reporters=[*DEFAULT_REPORTERS, extra],
        options={"list_path": str(outside)},
    )
    assert outside.read_text() == "kmp CERTIFIED\nbfs CERTIFIED\n"
    (context,) = extra.contexts
    assert context.manifest is run.manifest and context.output_dir == run.paths.reports
    latest = tmp_path / "out" / "reports"
    assert {p.name for p in latest.iterdir()} >= {"kmp.md", "bfs.md", "summary.md", "summary.json"}


def test_the_latest_reports_are_swapped_in_one_step(tmp_path: Path) -> None:
    output = tmp_path / "out"
    old_copy = output / "reports"
    old_copy.mkdir(parents=True)
    (old_copy / ".verification-reports").write_text("an older harness wrote this\n")
    (old_copy / "stale.md").write_text("old\n")
    first = _dry_run(output)
    write_run_reports(first.paths, first.manifest, first.results)
    latest = output / "reports"
    assert latest.is_symlink() and not (latest / "stale.md").exists()
    target = latest.resolve()
    second = _dry_run(output)
    write_run_reports(second.paths, second.manifest, second.results)
    assert latest.resolve() != target and not target.exists()  # the old copy is removed
    summary = (latest / "summary.md").read_text()
    assert second.run_id in summary


def test_a_report_written_again_leaves_the_published_one_as_it_was(tmp_path: Path) -> None:
    output = tmp_path / "out"
    run = _dry_run(output)
    write_run_reports(run.paths, run.manifest, run.results)
    latest, own = output / "reports", run.paths.reports
    published = {p.name: p.read_bytes() for p in latest.iterdir()}
    # Published by hard links to the run's own files (a tenth of a copy's system time)...
    assert (latest / "summary.md").stat().st_ino == (own / "summary.md").stat().st_ino
    # ...so every writer of reports writes a new file, never in place: the old API's too.
    ReportGenerator(own).generate_summary_report(list(run.results.values()))
    ReportGenerator(own).generate_scaffold_report(run.results["kmp"])
    assert (own / "summary.md").read_bytes() != published["summary.md"]  # written again
    assert {p.name: p.read_bytes() for p in latest.iterdir()} == published
    write_run_reports(run.paths, run.manifest, run.results, publish=False)  # re-rendered
    assert {p.name: p.read_bytes() for p in latest.iterdir()} == published


def test_where_files_cannot_be_linked_the_reports_are_copied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(source: str, target: str) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", no_links)  # another file system, or one without links
    run = _dry_run(tmp_path / "out")
    write_run_reports(run.paths, run.manifest, run.results)
    latest, own = tmp_path / "out" / "reports", run.paths.reports
    assert (latest / "summary.md").read_bytes() == (own / "summary.md").read_bytes()
    assert (latest / "summary.md").stat().st_ino != (own / "summary.md").stat().st_ino
