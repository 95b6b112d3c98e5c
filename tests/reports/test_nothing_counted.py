"""A scaffold with nothing counted has no pass rate, and no view gives it one (hunts ag and
ah: "0.0%" of no answer read as every answer wrong, in history, the reports, the terminal
and compare)."""

from __future__ import annotations

from pathlib import Path

import pytest

from verification.cli import main
from verification.reports.compare import compare_runs, render_pairing


def test_no_view_gives_a_rate_to_nothing_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = tmp_path / "replay.jsonl"
    replay.write_text("", encoding="utf-8")  # no case answered: each an infrastructure error
    argv = ["verify", "kmp", "--provider", "replay", "--replay-file", str(replay)]
    junit = tmp_path / "junit.xml"
    assert (
        main(
            [
                *argv,
                "--level",
                "quick",
                "--output",
                str(tmp_path / "out"),
                "--junit-xml",
                str(junit),
            ]
        )
        == 3
    )
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("kmp ")]
    assert line.split()[:3] == ["kmp", "INCOMPLETE", "-"] and "(n=0," in line
    (run,) = (tmp_path / "out" / "runs").iterdir()
    summary = (run / "reports" / "summary.md").read_text(encoding="utf-8")
    (row,) = [row for row in summary.splitlines() if row.startswith("| [kmp](kmp.md)")]
    assert row.split("|")[3].strip() == "-" and "0.0%" not in row.split("|")[3]
    report = (run / "reports" / "kmp.md").read_text(encoding="utf-8")
    assert "| Pass rate (first attempt) | - (nothing counted) (0/0)" in report
    assert "pass rate -" in junit.read_text(encoding="utf-8")


def test_compare_gives_no_rate_on_no_shared_case(tmp_path: Path) -> None:
    for seed in ("1", "2"):  # two seeds: the same ids, other inputs, so no case shared
        argv = ["verify", "kmp", "--provider", "reference", "--cases", "6", "--seed", seed]
        assert main([*argv, "--output", str(tmp_path)]) == 0
    a, b = sorted(path.name for path in (tmp_path / "runs").iterdir())
    (row,) = [
        line
        for line in render_pairing(compare_runs(tmp_path, a, b)).splitlines()
        if line.startswith("kmp ")
    ]
    assert row.split()[:8] == ["kmp", "0", "0", "0", "1.0000", "1.0000", "-", "-"]


def test_the_rest_of_a_report_gives_no_rate_to_nothing_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt aj: the rate after repair, the several-model table, the envelope search's table
    # and the pass-rate chart still gave "0.0%" of nothing.
    replay = tmp_path / "replay.jsonl"
    replay.write_text("", encoding="utf-8")
    argv = [
        "verify",
        "kmp",
        "--provider",
        "replay",
        "--replay-file",
        str(replay),
        "--level",
        "quick",
    ]
    assert main([*argv, "--output", str(tmp_path / "out")]) == 3
    (run,) = (tmp_path / "out" / "runs").iterdir()
    report = (run / "reports" / "kmp.md").read_text(encoding="utf-8")
    assert "| Pass rate after repair | - (0/0) |" in report
    summary = (run / "reports" / "summary.md").read_text(encoding="utf-8")
    (row,) = [row for row in summary.splitlines() if row.startswith("| [kmp](kmp.md)")]
    assert row.split("|")[6].strip() == "-"
    assert not (run / "reports" / "summary-pass-rates.svg").exists()
    capsys.readouterr()


def test_a_run_that_counted_nothing_is_no_point_of_the_trend(tmp_path: Path) -> None:
    # Hunt al: summary-trend.svg drew "this run" at 0% (n=0), joined to the run before it.
    output = tmp_path / "out"
    recorded = tmp_path / "recorded"
    argv = ["verify", "kmp"]
    assert main([*argv, "--provider", "reference", "--output", str(recorded)]) == 0
    (journal,) = recorded.glob("runs/*/results.jsonl")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    replayed = [*argv, "--provider", "replay", "--output", str(output)]
    assert main([*replayed, "--replay-file", str(journal)]) == 0
    assert main([*replayed, "--replay-file", str(empty)]) == 3
    newest = max((output / "runs").iterdir(), key=lambda run: run.name)
    trend = newest / "reports" / "summary-trend.svg"
    assert not trend.exists() or "this run" not in trend.read_text(encoding="utf-8")
