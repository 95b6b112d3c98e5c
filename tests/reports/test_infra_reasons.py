"""A replay file that lacks a scaffold's cases (issue 27 item 5): the terminal says why once,
and the scaffold's report gives the reason once with the cases it took, not once a case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verification.cli import main
from verification.registry import get_spec
from verification.runner import plan_cases

pytestmark = pytest.mark.slow  # two runs of the catalog's checks, seconds

SEED, CASES = 11, 6


def test_a_replay_file_missing_a_scaffolds_cases_says_why_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    planned = plan_cases(["kmp", "lcs"], seed=SEED, cases=CASES)
    replay = tmp_path / "replay.jsonl"
    replay.write_text(
        "".join(
            json.dumps(
                {"case_id": case.id, "raw_response": get_spec("kmp").render_answer(case.expected)}
            )
            + "\n"
            for case in planned["kmp"]
        ),
        "utf-8",
    )
    argv = ["verify", "kmp", "lcs", "--provider", "replay", "--replay-file", str(replay)]
    output = tmp_path / "out"
    assert main([*argv, "--cases", str(CASES), "--seed", str(SEED), "--output", str(output)]) == 3
    printed = capsys.readouterr().out
    lost = [case.id for case in planned["lcs"]]
    (line,) = [line for line in printed.splitlines() if "infrastructure error" in line]
    assert line.startswith(f"lcs: {len(lost)} infrastructure error(s)")
    assert "no recorded response" in line and replay.name in line
    (run,) = (output / "runs").iterdir()
    report = (run / "reports" / "lcs.md").read_text("utf-8")
    # Said in the reasons table (with one example) and once in the list of these errors,
    # however many cases the file lacks; no failure section per case repeats it.
    assert report.count("no recorded response") <= 3 < len(lost)
    assert ": infra_error" not in report
    assert f"- {len(lost)} case(s): no recorded response" in report
    assert all(f"`{case_id}`" in report for case_id in lost)


def test_the_section_counts_the_errors_it_lists(tmp_path: Path) -> None:
    # Hunt bb: a swept size's errors are listed under "Infrastructure errors", but the
    # heading gave the level's count: "(0, not counted)" above 31 cases.
    import dataclasses

    from tests.support.records import attempt_record
    from verification.certify.results import ScaffoldResults
    from verification.reports.generator import ReportGenerator

    records = [
        attempt_record(f"kmp-simple-{k:03d}", "infra_error" if k < 3 else "passed")
        for k in range(10)
    ]
    results = ScaffoldResults.from_records("kmp", records, planned=10)
    assert results.infra_errors == 3
    swept = dataclasses.replace(results, infra_errors=0)  # the three a swept size's
    text = ReportGenerator(tmp_path).render_scaffold_report(swept)
    assert "## Infrastructure errors (3, not counted)" in text
    assert "- 3 case(s):" in text


def test_a_case_s_samples_lost_are_its_answers_and_it_is_listed_once(tmp_path: Path) -> None:
    # Hunt ag: with --samples 3 "7 case(s)" listed kmp-simple-001 three times, of 3 cases.
    from tests.support.records import attempt_record
    from verification.certify.results import ScaffoldResults
    from verification.reports.generator import ReportGenerator

    lost = {"kmp-simple-001": 3, "kmp-simple-002": 1}
    records = [
        attempt_record(case, "infra_error", epoch=epoch)
        for case, samples in lost.items()
        for epoch in range(samples)
    ] + [attempt_record("kmp-simple-003", "passed", epoch=epoch) for epoch in range(3)]
    results = ScaffoldResults.from_records("kmp", records, planned=9, samples=3)
    text = ReportGenerator(tmp_path).render_scaffold_report(results)
    answers = sum(lost.values())
    assert f"## Infrastructure errors ({answers}, not counted)" in text
    (line,) = [line for line in text.splitlines() if line.startswith(f"- {answers} answer(s)")]
    assert line.startswith(f"- {answers} answer(s) in {len(lost)} case(s):")
    assert all(line.count(f"`{case}`") == 1 for case in lost)
