"""Code mode's reports give the harness's own time per case of each program (issue 26 item
7): the Markdown report, the page and summary.json, read from the journal's records."""

from __future__ import annotations

from verification.cases import program_id
from verification.reports.programs import programs_html, programs_markdown, programs_summary
from verification.store.records import AttemptRecord, CaseRun, ProgramRun

OUTCOMES = ("passed", "passed", "failed", "not_run")


def _record(index: int, run: ProgramRun, outcome: str = "failed") -> AttemptRecord:
    return AttemptRecord(
        scaffold="dijkstra", case_id=program_id("dijkstra", index), index=index, epoch=0,
        attempt=1, tier="program", input={}, expected={}, outcome=outcome, level=2,
        reason="r", leniency=[], answer=None, raw_response=None, raw_response_chars=0,
        raw_response_sha256=None, stop_reason=None, usage={}, latency_s=0.0, model=None,
        finished_at="2026-11-26T00:00:00+00:00", program=run,
    )  # fmt: skip


def _runs() -> tuple[ProgramRun, ProgramRun]:
    cases = [
        CaseRun(
            case_id=f"dijkstra-standard-{k:03d}",
            tier="standard",
            size=10,
            outcome=outcome,
            level=None,
            reason="",
            seconds=None if outcome == "not_run" else 0.01,
            reference_seconds=0.001,
        )
        for k, outcome in enumerate(OUTCOMES)
    ]
    first = ProgramRun(source="def solve(i):\n    return {}\n", cases=cases, harness_seconds=0.0123)
    shared = ProgramRun(source=None, cases=[], shared_with=program_id("dijkstra", 0))
    return first, shared


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def test_each_program_s_own_time_per_case_is_reported() -> None:
    first, shared = _runs()
    records = [_record(0, first), _record(1, shared)]
    ran = sum(c.outcome != "not_run" for c in first.cases)
    per_case = first.harness_seconds / ran
    markdown = programs_markdown(records, "dijkstra")
    assert "| harness per case |" in markdown
    row = next(line for line in markdown.splitlines() if line.startswith("| dijkstra-program-000"))
    assert row.endswith(f"| {_ms(per_case)} |")
    shared_row = next(
        line for line in markdown.splitlines() if line.startswith("| dijkstra-program-001")
    )
    assert shared_row.endswith("| - |")  # its run is the first one's: no time of its own
    assert f"The harness's own time per case: {_ms(per_case)}" in str(programs_html(records))
    summary = programs_summary(records, "dijkstra")
    assert summary is not None
    assert summary.harness_seconds_per_case == {program_id("dijkstra", 0): round(per_case, 9)}
    again = type(summary).model_validate_json(summary.model_dump_json())
    assert again.harness_seconds_per_case == summary.harness_seconds_per_case


def test_a_summary_written_before_the_field_reads_back() -> None:
    from verification.store.summary_file import ProgramsSummary

    old = ProgramsSummary.model_validate({"programs": 1, "passing": 0})
    assert old.harness_seconds_per_case == {}


def test_a_program_s_text_reaches_the_page_with_no_control_character() -> None:
    from verification.store.records import ProgramFailure

    first, _ = _runs()
    hostile = "\x1b[2J\x07\x00\r\x08\x9b31m"
    failure = ProgramFailure(
        case_id="dijkstra-standard-002",
        level=3,
        reason=f"wrong {hostile}",
        input=f"in {hostile}",
        expected="{}",
        actual=f"out {hostile}",
    )
    run = first.model_copy(
        update={"source": f"def solve(i):\n\treturn {{}}  # {hostile}\n", "first_failure": failure}
    )
    page = str(programs_html([_record(0, run)]))
    assert "\\x1b[2J" in page and "wrong " in page and "\treturn" in page
    assert not any(char in page for char in "\x1b\x07\x00\r\x08\x9b")
