"""The run's reports do each piece of work once (issue 27 item 16: the harness's CPU per
answer): the summary is folded once for every reporter that shows it, each scaffold's
program section reads the programs alone, and what a faster path writes is what the slower
one it replaces writes."""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import gc
from collections import OrderedDict
from pathlib import Path
from typing import Any, Literal

import pytest

from tests.support.records import attempt_record
from verification.cases import printable, program_id
from verification.certify.results import ScaffoldResults
from verification.config import load_settings
from verification.reports import history as history_module
from verification.reports import summary as summary_module
from verification.reports.base import ReportContext
from verification.reports.generator import write_run_reports
from verification.reports.history import (
    by_scaffold,
    entry_results,
    read_entry,
    read_summary,
    summaries_remembered,
)
from verification.reports.html import (
    SHOWN_REPLY_CHARS,
    page_data,
    page_text,
    render_page,
    shown_text,
)
from verification.reports.programs import program_records, programs_html, programs_markdown
from verification.reports.summary import summary_of, summary_with_changes
from verification.runner import RunResult, VerificationRunner
from verification.store.records import AttemptRecord, CaseRun, ProgramRun
from verification.store.stored_files import read_stored_json

OUTCOMES: tuple[Literal["passed", "failed"], ...] = ("passed", "failed", "passed")


def _dry_run(output: Path) -> RunResult:
    settings = load_settings(results_dir=output, cases=3, provider="reference")
    return asyncio.run(VerificationRunner(settings).run(["kmp", "bfs"]))


def _journal(run: RunResult) -> list[AttemptRecord]:
    assert run.records is not None  # an in-process run holds its journal
    return run.records


def _context(run: RunResult) -> ReportContext:
    return ReportContext(
        manifest=run.manifest,
        results=run.results,
        output_dir=run.paths.reports,
        costs=run.costs,
        records=_journal(run),
    )


def test_the_summary_is_folded_once_per_run_for_every_reporter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _dry_run(tmp_path / "out")
    folds = []

    def counted(*args: object, **kwargs: object) -> object:
        folds.append(args)
        return summary_with_changes(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(summary_module, "summary_with_changes", counted)
    write_run_reports(run.paths, run.manifest, run.results, costs=run.costs, records=run.records)
    assert len(folds) == 1  # summary.json and the page read the same summary


def test_a_shared_summary_is_the_one_a_fresh_context_folds(tmp_path: Path) -> None:
    run = _dry_run(tmp_path / "out")
    context = _context(run)
    first = summary_of(context)
    assert summary_of(context) is first
    fresh = summary_of(_context(run))
    assert fresh is not first
    assert fresh.model_dump(mode="json") == first.model_dump(mode="json")
    # A context made from another (other results, say) folds its own summary.
    other = dataclasses.replace(context, results={"kmp": run.results["kmp"]})
    assert list(summary_of(other).scaffolds) == ["kmp"]
    assert list(first.scaffolds) == ["kmp", "bfs"]


def test_a_scaffold_s_programs_read_from_the_programs_alone_are_the_same_section() -> None:
    cases = [
        CaseRun(
            case_id=f"dijkstra-standard-{k:03d}",
            tier="standard",
            size=10,
            outcome=outcome,
            level=None if outcome == "passed" else 2,
            reason="" if outcome == "passed" else "wrong",
            seconds=0.01,
            reference_seconds=0.002,
        )
        for k, outcome in enumerate(OUTCOMES)
    ]
    journal = []
    for index in range(3):
        journal.append(attempt_record(f"bfs-standard-{index:03d}", "passed"))
        journal.append(
            attempt_record(
                program_id("dijkstra", index),
                "failed" if index == 1 else "passed",
                tier="program",
                program=ProgramRun(source=f"def solve(i):\n    return {index}\n", cases=cases),
            )
        )
        journal.append(attempt_record(f"dijkstra-standard-{index:03d}", "passed"))
    programs = [record for record in journal if record.is_program]
    assert len(programs) == 3
    for scaffold in ("dijkstra", "bfs"):
        assert programs_markdown(programs, scaffold) == programs_markdown(journal, scaffold)
    assert "## Programs (code mode)" in programs_markdown(programs, "dijkstra")


class _Level(enum.IntEnum):
    LOW = 1


def _circular() -> list[object]:
    value: list[object] = [1]
    value.append(value)
    return value


def _deep(levels: int) -> object:
    value: object = [1]
    for _ in range(levels):
        value = {"next": value}
    return value


HOSTILE_VALUES: list[dict[str, Any]] = [
    {"graph": {1: "a", "1": "b"}},  # one key twice once written: the last one is shown
    {"k": {2: [1.5, -0.0, 1e300], 2.5: None, True: "t"}},  # keys no strings, none twice
    {"rate": float("nan")},
    {"rates": [float("inf")], "name": "x"},
    {"pair": (1, 2), "set": {3}, "bytes": b"\x00", "level": _Level.LOW},
    {"ordered": OrderedDict(b=1, a=2), "big": 10**40},
    {"text": "</script><!-- \u2028 \u202e \x00 \ud800 & > \u00e9"},
    {"deep": _deep(40)},
    {"shallow": _deep(5), "empty": {}, "none": [], "lists": [[], [[]], [1, [2, [3]]]]},
    {"cycle": _circular(), "shared": [[1, 2]] * 3},
]


def test_the_page_written_at_once_is_the_page_of_its_data(tmp_path: Path) -> None:
    run = _dry_run(tmp_path / "out")
    summary = summary_of(_context(run))
    journal = _journal(run)
    programs = programs_html(journal)
    assert page_text(run.manifest, run.results, journal, summary, programs) == render_page(
        page_data(run.manifest, run.results, journal, summary), programs
    )
    records = [
        attempt_record(
            f"kmp-standard-{k:03d}",
            "failed",
            input=value,
            expected=HOSTILE_VALUES[-1 - k],
            answer=value,
            raw_response=str(value),
        )
        for k, value in enumerate(HOSTILE_VALUES)
    ]
    results = {"kmp": ScaffoldResults.from_records("kmp", records, planned=len(records))}
    slow = render_page(page_data(run.manifest, results, records, summary))
    assert page_text(run.manifest, results, records, summary) == slow
    assert '"graph":{"1":"b"}' in slow  # the case a plain copy would get wrong
    assert "{'rate': nan}" in slow


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n\n",
        'Work shown here.\n\n```json\n{"a": [1, 2]}\n```',
        "tab\there\r\nand a carriage return",
        "a\u202eb\x00c\n" + "x" * 30_000,
        "lone \ud800 surrogate\nnext line \x1b[31m",
        "é ü 漢字\n\u2028 line separator",
        "y" * 30_000 + "\n\x00",
    ],
)
def test_a_reply_shown_at_once_is_the_reply_shown_line_by_line(text: str) -> None:
    cut = text[:SHOWN_REPLY_CHARS]
    assert shown_text(text) == "\n".join(printable(line) for line in cut.split("\n"))


def test_the_journal_s_programs_are_picked_once_for_every_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _dry_run(tmp_path / "out")
    journal = _journal(run)
    asked = []
    is_program = AttemptRecord.is_program

    def counted(record: AttemptRecord) -> bool:
        asked.append(record.case_id)
        return bool(is_program.fget(record))  # type: ignore[attr-defined]

    monkeypatch.setattr(AttemptRecord, "is_program", property(counted))
    write_run_reports(run.paths, run.manifest, run.results, costs=run.costs, records=journal)
    assert sorted(asked) == sorted(r.case_id for r in journal)  # each record asked once
    context = _context(run)
    picked = program_records(context)
    assert picked == [r for r in journal if r.is_program] == []
    picked.append(journal[0])  # the caller's own list: the shared one is left as it was
    assert program_records(context) == []


class _Probe:
    """A reporter that notes whether the heap made before is set aside while it writes."""

    name = "probe"

    def __init__(self) -> None:
        self.frozen: list[int] = []

    def write(self, context: ReportContext) -> list[Path]:
        self.frozen.append(gc.get_freeze_count())
        context.output_dir.mkdir(parents=True, exist_ok=True)
        return []


def test_the_objects_made_before_the_reports_are_set_aside_from_the_collector(
    tmp_path: Path,
) -> None:
    run = _dry_run(tmp_path / "out")
    before = gc.get_freeze_count()
    probe = _Probe()
    write_run_reports(run.paths, run.manifest, run.results, reporters=(probe,), records=run.records)
    assert probe.frozen[0] > 0  # a full collection meanwhile walks none of them
    assert gc.get_freeze_count() == before  # and they are the collector's again after
    gc.freeze()  # a heap the caller set aside stays so
    try:
        write_run_reports(run.paths, run.manifest, run.results, reporters=(probe,))
        assert probe.frozen[1] > 0 and gc.get_freeze_count() > 0  # not unfrozen by them
    finally:
        gc.unfreeze()


def test_a_run_folded_scaffold_by_scaffold_is_the_run_folded_from_its_whole_journal(
    tmp_path: Path,
) -> None:
    run = _dry_run(tmp_path / "out")
    write_run_reports(run.paths, run.manifest, run.results, costs=run.costs, records=run.records)
    entry = read_entry(run.paths.run_dir)
    journal = entry.records()
    whole = {
        name: ScaffoldResults.from_records(name, journal, planned=len(scaffold.case_ids))
        for name, scaffold in entry.manifest.scaffolds.items()
    }
    assert entry_results(entry) == whole
    grouped = by_scaffold(journal)
    assert list(grouped) == ["kmp", "bfs"]
    assert [r for name in grouped for r in grouped[name]] == sorted(
        journal, key=lambda r: r.scaffold != "kmp"
    )


def test_a_summary_unchanged_is_read_once_while_reports_are_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    output = tmp_path / "out"
    for _ in range(2):
        earlier = _dry_run(output)
        write_run_reports(earlier.paths, earlier.manifest, earlier.results, records=earlier.records)
    run = _dry_run(output)
    read: list[str] = []
    reading = read_stored_json

    def counted(path: Path, **limits: Any) -> Any:
        read.append(str(path.relative_to(output)))
        return reading(path, **limits)

    monkeypatch.setattr(history_module, "read_stored_json", counted)
    write_run_reports(run.paths, run.manifest, run.results, records=run.records)
    summaries = sorted(output.glob("runs/*/reports/summary.json"))
    assert len(summaries) == 3
    new = str((run.paths.reports / "summary.json").relative_to(output))
    # Each earlier summary read once for the history and the index (twice before), the new
    # one looked for by the history before it was written, then read for the index.
    assert sorted(read) == sorted([new, *(str(p.relative_to(output)) for p in summaries)])
    first = summaries[0].parent.parent
    with summaries_remembered():
        summary = read_summary(first)
        assert summary is not None and read_summary(first) is summary
        text = summaries[0].read_text(encoding="utf-8")
        summaries[0].write_text(text.replace(summary.run_id, summary.run_id, 1), "utf-8")
        again = read_summary(first)  # written again (same bytes): read again
        assert again is not summary and again == summary
        summaries[0].write_text("{", encoding="utf-8")
        caplog.clear()
        assert read_summary(first) is None and read_summary(first) is None
        assert len([r for r in caplog.records if "earlier summary skipped" in r.message]) == 2
    assert read_summary(first) is None  # outside: read as before
    summaries[0].write_text(text, encoding="utf-8")
    assert read_summary(first) is not read_summary(first)
