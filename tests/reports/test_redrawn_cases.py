"""Cases two runs drew with other inputs (a generator or the seed changed between them) are
other questions under the same ids: no pair is made of them, and no verdict holds (hunt af:
after a generator's change, half of kmp's "shared" cases were, and compare read "A is
better, p = 0.0001"; the regression gate pairs its runs the same way)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verification.cli import main
from verification.reports.compare import compare_runs
from verification.store.summary_file import RunSummary

CASES = 40
CHANGED = range(0, 16, 2)
"""The kmp cases drawn otherwise, in journal order: 8 of 40."""


def _run(output: Path, *extra: str) -> Path:
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    argv = ["verify", "kmp", "--provider", "reference", "--cases", str(CASES), *extra]
    assert main([*argv, "--output", str(output)]) in (0, 1, 5)
    (run,) = set((output / "runs").iterdir()) - before
    return run


def _edit(output: Path, run: Path, edit: str) -> RunSummary:
    """Fail the :data:`CHANGED` cases, or give each another case's input (as an older
    generator drew them), then report the run again, as its own end would have."""
    journal = run / "results.jsonl"
    lines = [json.loads(line) for line in journal.read_text("utf-8").splitlines()]
    for position in CHANGED:
        if edit == "failed":
            lines[position].update(outcome="failed", level=3, reason="wrong answer")
        else:
            lines[position].update(input=lines[position + 1]["input"])
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    assert main(["report", run.name, "--output", str(output)]) in (0, 1, 5)
    return RunSummary.from_json((run / "reports" / "summary.json").read_bytes())


def test_the_gate_makes_no_pair_of_cases_drawn_otherwise(tmp_path: Path) -> None:
    older = _run(tmp_path)
    _edit(tmp_path, older, "redrawn")
    newer = _run(tmp_path)
    summary = _edit(tmp_path, newer, "failed")  # failed on the cases drawn otherwise only
    assert summary.previous_run_id == older.name
    assert summary.regressions == []
    gate = summary.regression_gate
    assert gate is not None
    assert f"{len(CHANGED)} case(s) were drawn with other inputs" in gate.withheld["kmp"]


def test_compare_makes_no_pair_of_two_seeds_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _run(tmp_path, "--seed", "1"), _run(tmp_path, "--seed", "2")
    pairing = compare_runs(tmp_path, a.name, b.name)
    (row,) = pairing.rows
    assert row.comparison.shared == 0 and pairing.redrawn["kmp"]
    assert row.withheld is not None and "drawn with other inputs" in row.withheld
    # The comparison page lists the cases both runs asked side by side: none of these.
    from verification.reports.compare_html import comparison_page_data

    assert comparison_page_data(pairing)["cases"] == []


def test_a_case_its_plugin_could_not_draw_is_no_case_drawn_otherwise() -> None:
    # Hunt ah: a case a plugin's generator failed on in one run (an infrastructure error with
    # no input) read as "drawn with other inputs", and was dropped from that run's losses.
    from types import SimpleNamespace

    from tests.support.records import attempt_record
    from verification.certify.answers import TestResult
    from verification.reports.regressions import redrawn_cases

    def run(*records: object) -> object:
        return SimpleNamespace(results=[TestResult.from_records(r, r) for r in records])

    drawn = attempt_record("kmp-edge-000", "passed", input={"text": "ab", "pattern": "b"})
    undrawn = attempt_record("kmp-edge-000", "infra_error", input={})
    other = attempt_record("kmp-edge-000", "passed", input={"text": "ba", "pattern": "b"})
    assert redrawn_cases({"kmp": run(undrawn)}, {"kmp": run(drawn)}) == {}
    assert redrawn_cases({"kmp": run(other)}, {"kmp": run(drawn)}) == {
        "kmp": frozenset({"kmp-edge-000"})
    }


def test_a_replayed_answer_to_another_input_is_not_scored(tmp_path: Path) -> None:
    # Hunt af: an old journal replayed after a generator's change scored its answers against
    # inputs they never answered (kmp read 40% where its own run had read 84%).
    from verification.store.journal import read_journal

    recorded = _run(tmp_path / "recorded")
    lines = [json.loads(line) for line in (recorded / "results.jsonl").read_text().splitlines()]
    lines[0]["input"] = lines[1]["input"]  # as an older generator drew the first case
    replay = tmp_path / "replay.jsonl"
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    argv = ["verify", "kmp", "--provider", "replay", "--replay-file", str(replay)]
    main([*argv, "--cases", str(CASES), "--output", str(tmp_path / "out")])
    (run,) = (tmp_path / "out" / "runs").iterdir()
    records = {r.case_id: r for r in read_journal(run / "results.jsonl")}
    first = records[lines[0]["case_id"]]
    assert first.outcome == "infra_error" and "recorded for another input" in first.reason
    assert all(r.outcome == "passed" for case, r in records.items() if case != first.case_id)


@pytest.mark.parametrize(("recorded", "drawn"), [(6.0, 6), (True, 1), ([1, 2], [2, 1])])
def test_an_input_of_another_json_text_is_another_input(recorded: object, drawn: object) -> None:
    # Hunt aj: the check compared with ==, which took 6.0 for 6 and true for 1 (their prompts
    # differ); key order alone is no difference.
    from verification.llm.dry_run import _same_input

    assert not _same_input({"target": recorded}, {"target": drawn})
    assert _same_input({"a": 1, "b": [drawn]}, {"b": [drawn], "a": 1})
