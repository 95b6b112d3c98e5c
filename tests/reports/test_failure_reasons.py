"""A scaffold's report says first what to fix: failures grouped by level and reason, with
counts and one example each, before the list of cases (issue 27 item 8)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tests.reports.conftest import ScriptedRun
from verification.certify.answers import TestResult
from verification.reports.reasons import failure_groups, reason_kind
from verification.store.journal import read_journal
from verification.store.paths import RunPaths


def _results(output: Path, run_id: str) -> list[TestResult]:
    """The run's answers in the reports' order (by case id), as the journal holds them."""
    records = read_journal(RunPaths(output, run_id).journal)
    results = [TestResult.from_records(record, record) for record in records]
    return sorted(results, key=lambda result: (result.test_case.id, result.epoch))


def test_the_report_groups_failures_by_reason_before_listing_them(
    tmp_path: Path, scripted_run: ScriptedRun
) -> None:
    output = tmp_path / "out"
    _, run_id = scripted_run(output, {"kmp": range(0, 20, 2)}, 20)
    results = _results(output, run_id)
    failed = [r for r in results if not r.passed]
    report = (output / "runs" / run_id / "reports" / "kmp.md").read_text(encoding="utf-8")

    _, groups_and_list = report.split("## What to fix first: failures by reason", 1)
    section, listing = groups_and_list.split("## Failures (", 1)
    (group,) = failure_groups(results)
    assert group.count == len(failed) and group.example == failed[0]
    row = next(line for line in section.splitlines() if "| 2 contract |" in line)
    assert f"| {group.count} |" in row and f"`{failed[0].test_case.id}`" in row
    assert f"### `{failed[0].test_case.id}`" in listing


def test_a_report_without_failures_has_no_groups(tmp_path: Path, scripted_run: ScriptedRun) -> None:
    output = tmp_path / "out"
    _, run_id = scripted_run(output, {"kmp": 20}, 20)
    report = (output / "runs" / run_id / "reports" / "kmp.md").read_text(encoding="utf-8")
    assert "What to fix first" not in report
    assert "## Failures (0)" in report


def test_answers_wrong_in_one_field_share_a_reason_whatever_the_key(
    tmp_path: Path, scripted_run: ScriptedRun
) -> None:
    output = tmp_path / "out"
    _, run_id = scripted_run(output, {"dijkstra": 0}, 2)
    one, two = _results(output, run_id)
    at_a = dataclasses.replace(one, level=3, validation_message="$.distances.A: expected 0, got 1")
    at_d = dataclasses.replace(two, level=3, validation_message="$.distances.D: expected 3, got 9")
    rule = 'the Output Format asks "in ascending order": $.positions[0]: expected 1, got 4'
    form = dataclasses.replace(one, level=2, validation_message=rule)
    assert reason_kind(at_a) == reason_kind(at_d)
    assert "$.distances" in reason_kind(at_a)
    assert '"in ascending order"' in reason_kind(form)

    groups = failure_groups([at_a, form, at_d])
    assert [(g.level, g.count) for g in groups] == [(3, 2), (2, 1)]
    assert groups[0].example is at_a


def test_a_dry_run_s_failures_are_laid_on_the_spec_not_the_output_format(
    tmp_path: Path, scripted_run: ScriptedRun
) -> None:
    # A helper adding a scaffold: a reference whose answers broke its own schema read, in a
    # dry run, as "a formatting bug in the scaffold's Output Format". Every answer of a dry
    # run is the reference's: a failure there is the spec's defect.
    import asyncio

    from verification.catalog import Catalog, default_catalog
    from verification.config import load_settings
    from verification.reports.generator import write_run_reports
    from verification.runner import VerificationRunner

    broken = dataclasses.replace(
        default_catalog()["kmp"], render_answer=lambda answer: '```json\n{"x": 1}\n```'
    )
    settings = load_settings(provider="reference", results_dir=tmp_path / "dry", cases=4)
    run = asyncio.run(VerificationRunner(settings, catalog=Catalog([broken])).run(["kmp"]))
    write_run_reports(run.paths, run.manifest, run.results)
    report = (run.paths.reports / "kmp.md").read_text(encoding="utf-8")
    assert "a failure at any level is a defect of the spec" in report
    assert "formatting bug in the scaffold's Output Format" not in report
    # A run of a model (scripted) keeps the levels' reading.
    output = tmp_path / "out"
    _, run_id = scripted_run(output, {"kmp": range(0, 20, 2)}, 20)
    scripted = (output / "runs" / run_id / "reports" / "kmp.md").read_text(encoding="utf-8")
    assert "formatting bug in the scaffold's Output Format" in scripted
