"""CI outputs and charts of scripted replay runs, read back by real parsers: JUnit XML by
junitparser, SVG by xml.etree, the job summary as the Markdown GitHub shows."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from junitparser import Error, Failure, JUnitXml, Skipped

from verification.certify.results import THRESHOLDS, wilson_interval
from verification.reports.charts import ChartMark, render_chart
from verification.reports.xmltext import xml_text
from verification.store.journal import read_journal
from verification.store.paths import RunPaths
from verification.store.summary_file import RunSummary

ScriptedRun = Callable[..., tuple[int, str]]  # the scripted_run fixture (conftest.py)
SVG = "{http://www.w3.org/2000/svg}"


def _properties(case: ET.Element) -> dict[str, str]:
    return {p.get("name", ""): p.get("value", "") for p in case.iter("property")}


def test_junit_has_one_testcase_per_scaffold_failing_as_its_status_does(
    tmp_path: Path, scripted_run: ScriptedRun
) -> None:
    output, junit = tmp_path / "out", tmp_path / "ci" / "junit.xml"
    _, run_id = scripted_run(output, {"kmp": 4, "bfs": 6}, 6, "--junit-xml", str(junit))
    records = [r for r in read_journal(RunPaths(output, run_id).journal) if r.attempt == 1]
    summary = RunSummary.from_json((RunPaths(output, run_id).reports / "summary.json").read_text())
    xml = JUnitXml.fromfile(str(junit))
    (suite,) = xml
    assert suite.name == "none (REPLAY)"  # a run that asked no model: named by what answered
    cases = {case.name: case for case in suite}
    assert list(cases) == list(summary.scaffolds)
    for name, figures in summary.scaffolds.items():
        results = cases[name].result
        if figures.status in ("PARTIAL", "FAILED"):
            (failure,) = results
            assert isinstance(failure, Failure) and not isinstance(failure, Error | Skipped)
            assert failure.message.startswith(f"{figures.status}: pass rate ")
        else:
            assert results == []  # bfs: every case right
    assert summary.scaffolds["kmp"].status == "PARTIAL"  # 4 of 6: some wrong, still a test
    assert (suite.tests, suite.failures) == (2, 1)
    root = ET.parse(junit).getroot()
    for record in records:
        (case,) = [c for c in root.iter("testcase") if c.get("name") == record.scaffold]
        verdict = _properties(case)[record.case_id]
        out = case.findtext("system-out") or ""
        if record.outcome == "passed":
            assert verdict == "passed" and record.case_id not in out
        else:
            assert verdict == f"{record.outcome} at level {record.level}"
            assert f"{record.case_id}: {verdict}: {record.reason[:100]}" in out


def test_junit_cases_writes_each_case_in_a_second_file_on_request(
    tmp_path: Path, scripted_run: ScriptedRun
) -> None:
    # Issue 27 item 9: the scaffolds' file keeps one test case per scaffold; each case's
    # result goes in a second file, a test case per case failing as the case did.
    output, junit, cases = tmp_path / "out", tmp_path / "junit.xml", tmp_path / "ci" / "cases.xml"
    argv = ("--junit-xml", str(junit), "--junit-cases", str(cases))
    _, run_id = scripted_run(output, {"kmp": 4, "bfs": 6}, 6, *argv)
    records = [r for r in read_journal(RunPaths(output, run_id).journal) if r.attempt == 1]
    assert [len(suite) for suite in JUnitXml.fromfile(str(junit))] == [2]  # one per scaffold
    suites = {suite.name: suite for suite in JUnitXml.fromfile(str(cases))}
    assert list(suites) == ["none (REPLAY): kmp", "none (REPLAY): bfs"]
    for name, suite in suites.items():
        scaffold = name.split(": ")[-1]
        mine = {r.case_id: r for r in records if r.scaffold == scaffold}
        assert {case.name for case in suite} == set(mine)
        for case in suite:
            record = mine[case.name]
            if record.outcome == "passed":
                assert case.result == []
            else:
                (failure,) = case.result
                assert isinstance(failure, Failure) and not isinstance(failure, Error | Skipped)
                assert failure.message.startswith(f"{record.outcome} at level {record.level}: ")
        failed = sum(r.outcome != "passed" for r in mine.values())
        assert (suite.tests, suite.failures, suite.errors) == (len(mine), failed, 0)
    assert suites["none (REPLAY): kmp"].failures == 2


def test_junit_cases_is_refused_where_the_scaffolds_file_goes(tmp_path: Path) -> None:
    from verification.cli import main

    junit = str(tmp_path / "junit.xml")
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "1"]
    assert main([*argv, "--junit-xml", junit, "--junit-cases", junit]) == 2
    assert not (tmp_path / "junit.xml").exists()


def test_junit_fails_a_scaffold_that_regressed(tmp_path: Path, scripted_run: ScriptedRun) -> None:
    output, junit = tmp_path / "out", tmp_path / "junit.xml"
    _, first = scripted_run(output, {"kmp": 19}, 40)
    _, second = scripted_run(output, {"kmp": 0}, 40, "--junit-xml", str(junit))
    summary = RunSummary.from_json((RunPaths(output, second).reports / "summary.json").read_text())
    assert summary.regressions == ["kmp"]
    ((case,),) = JUnitXml.fromfile(str(junit))
    (failure,) = case.result
    assert isinstance(failure, Failure)
    assert failure.message.endswith(f"; a significant drop against run {first}")


def test_junit_text_drops_what_xml_forbids_and_infra_errors_are_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from verification.cli import main
    from verification.registry import DEFAULT_SEED
    from verification.runner import plan_cases

    monkeypatch.setenv("VERIFY_MAX_RETRIES", "1")
    monkeypatch.setenv("VERIFY_RETRY_INITIAL_WAIT", "0")
    first, second = plan_cases(["kmp"], seed=DEFAULT_SEED, cases=2)["kmp"]
    replay = tmp_path / "replay.jsonl"
    hostile = '```json\n{"positions": [1, "\\u0007\\ud800 </failure>]]><x>"]}\n```'
    lines = [
        {"case_id": first.id, "raw_response": hostile},
        {"case_id": second.id, "error": "transient"},
    ]
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    junit = tmp_path / "junit.xml"
    argv = ["verify", "kmp", "--provider", "replay", "--replay-file", str(replay)]
    main([*argv, "--cases", "2", "--output", str(tmp_path / "out"), "--junit-xml", str(junit)])
    root = ET.parse(junit).getroot()  # well-formed XML
    (case,) = root.iter("testcase")
    (record,) = [
        r
        for r in read_journal(next((tmp_path / "out" / "runs").iterdir()) / "results.jsonl")
        if r.case_id == first.id
    ]
    verdict = f"{record.outcome} at level {record.level}"
    assert _properties(case)[first.id] == verdict
    assert xml_text(f"{first.id}: {verdict}: {record.reason}") in (
        case.findtext("system-out") or ""
    )
    # One answer of two lost to an infrastructure error: INCOMPLETE, an error, not a failure.
    assert _properties(case)[second.id] == "infrastructure error"
    (error,) = case.findall("error")
    assert error.get("type") == "INCOMPLETE" and not case.findall("failure")


def test_a_job_summary_is_appended_where_github_asks(
    tmp_path: Path, scripted_run: ScriptedRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    step_summary = tmp_path / "step-summary.md"
    step_summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    output = tmp_path / "out"
    scripted_run(output, {"kmp": 6}, 6)
    _, run_id = scripted_run(output, {"kmp": 0}, 6)
    text = step_summary.read_text()
    assert text.startswith("earlier step\n") and text.count("| Scaffold | Status |") == 2
    assert f"Run `{run_id}`" in text and "| kmp | **FAILED** | 0.0% | 6 |" in text
    assert "- kmp: CERTIFIED -> FAILED (regression)" in text
    # Hunt v: a night with no baseline read like a quiet one, and a quiet one said nothing
    # of the gate's power.
    first, second = text.split("## Scaffold certification")[1:]
    assert "No earlier comparable run: the regression gate compared nothing." in first
    (power,) = [line for line in second.splitlines() if line.startswith("- Regression gate:")]
    assert "1 scaffold(s) compared on their shared cases" in power
    monkeypatch.delenv("GITHUB_STEP_SUMMARY")
    scripted_run(output, {"kmp": 6}, 6)
    assert step_summary.read_text() == text  # no variable, nothing written


def _marks(svg: Path) -> dict[str, dict[str, str]]:
    root = ET.parse(svg).getroot()
    assert root.tag == f"{SVG}svg"
    return {g.attrib["data-label"]: g.attrib for g in root.iter(f"{SVG}g")}


def test_charts_parse_and_hold_the_runs_figures(tmp_path: Path, scripted_run: ScriptedRun) -> None:
    output = tmp_path / "out"
    _, first = scripted_run(output, {"kmp": 6, "bfs": 3}, 6)
    _, second = scripted_run(output, {"kmp": 5, "bfs": 6}, 6)
    reports = RunPaths(output, second).reports
    summary = RunSummary.from_json((reports / "summary.json").read_text())
    marks = _marks(reports / "summary-pass-rates.svg")
    assert marks.keys() == summary.scaffolds.keys()
    for name, scaffold in summary.scaffolds.items():
        assert float(marks[name]["data-rate"]) == pytest.approx(scaffold.pass_rate, abs=1e-6)
        low, high = scaffold.interval_95
        assert float(marks[name]["data-low"]) == pytest.approx(low, abs=1e-6)
        assert float(marks[name]["data-high"]) == pytest.approx(high, abs=1e-6)
    root = ET.parse(reports / "summary-pass-rates.svg").getroot()
    thresholds = {
        float(line.attrib["data-value"])
        for line in root.iter(f"{SVG}line")
        if line.attrib.get("class") == "threshold"
    }
    assert thresholds == set(THRESHOLDS.values())
    trend = _marks(reports / "summary-trend.svg")
    earlier = RunSummary.from_json((RunPaths(output, first).reports / "summary.json").read_text())
    for mark, run in zip(trend.values(), (earlier, summary), strict=True):
        score, n = (
            sum(s.score for s in run.scaffolds.values()),
            sum(s.n for s in run.scaffolds.values()),
        )
        assert (float(mark["data-rate"]), int(mark["data-n"])) == (pytest.approx(score / n), n)
        assert float(mark["data-low"]) == pytest.approx(wilson_interval(score, n)[0], abs=1e-6)
    markdown = (reports / "summary.md").read_text()
    assert "![summary-pass-rates.svg](summary-pass-rates.svg)" in markdown
    assert "![summary-trend.svg](summary-trend.svg)" in markdown
    assert not (RunPaths(output, first).reports / "summary-trend.svg").exists()  # no history


def test_a_chart_keeps_hostile_names_as_text() -> None:
    name = '<script>&"\x07'
    svg = render_chart("t <&>", [ChartMark(name, 0.5, 0.2, 0.8, 10)], horizontal=False)
    root = ET.fromstring(svg)
    (mark,) = [g for g in root.iter(f"{SVG}g")]
    assert mark.attrib["data-label"] == '<script>&"?[U+0007]'
    assert not list(root.iter("script")) and not list(root.iter(f"{SVG}script"))


def test_the_size_curve_holds_the_sweep_the_summary_states(tmp_path: Path) -> None:
    from verification.cli import main

    sweep = ["--sizes", "8,16", "--output", str(tmp_path / "dry")]
    assert main(["verify", "kmp", "--provider", "reference", *sweep]) == 0
    (dry_run,) = (tmp_path / "dry" / "runs").iterdir()
    replay = tmp_path / "replay.jsonl"
    lines = [
        {
            "case_id": r.case_id,
            "raw_response": "{}" if "-s16-" in r.case_id else r.raw_response,
        }
        for r in read_journal(dry_run / "results.jsonl")
    ]
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    output = tmp_path / "out"
    argv = ["verify", "kmp", "--provider", "replay", "--replay-file", str(replay)]
    main([*argv, "--sizes", "8,16", "--output", str(output)])
    (run_dir,) = (output / "runs").iterdir()
    reports = run_dir / "reports"
    scaffold = RunSummary.from_json((reports / "summary.json").read_text()).scaffolds["kmp"]
    assert scaffold.certified_up_to == 8  # size 16 answered wrong throughout
    marks = _marks(reports / "kmp-sizes.svg")
    assert list(marks) == [str(point.size) for point in scaffold.sweep] == ["8", "16"]
    for point in scaffold.sweep:
        mark = marks[str(point.size)]
        assert float(mark["data-rate"]) == pytest.approx(point.pass_rate, abs=1e-6)
        assert float(mark["data-low"]) == pytest.approx(point.interval_95[0], abs=1e-6)
        assert int(mark["data-n"]) == point.n
    assert [float(marks[s]["data-rate"]) for s in ("8", "16")] == [1.0, 0.0]
    assert "![pass rate by size](kmp-sizes.svg)" in (reports / "kmp.md").read_text()


def test_a_size_nothing_was_counted_at_is_no_point_of_the_curve(tmp_path: Path) -> None:
    # Hunt bb: a budget stopped a run before any case of its largest size; the curve drew
    # it at 0% and the table said 0.0%, a collapse the data does not have.
    import dataclasses

    from verification.certify.envelope import SizePoint
    from verification.certify.results import ScaffoldResults
    from verification.reports.charts import _size_marks
    from verification.reports.generator import ReportGenerator

    def point(size: int, n: int) -> SizePoint:
        return SizePoint(
            size,
            float(n),
            n,
            n,
            0,
            0,
            wilson_interval(n, n),
            "CERTIFIED" if n else "INCOMPLETE",
            False,
        )

    results = ScaffoldResults.from_records("dijkstra", [], planned=0)
    results = dataclasses.replace(results, size_points=(point(16, 30), point(32, 30), point(64, 0)))
    assert [mark.label for mark in _size_marks(results)] == ["16", "32"]
    text = ReportGenerator(tmp_path).render_scaffold_report(results)
    assert "| 64 | 0 | - | - | INCOMPLETE |" in text
    assert "| 16 | 30 | 100.0% |" in text
