"""A run folds the records it journalled from memory (issue 27 item 16): what it keeps is
what reading its journal back gives, and neither the run nor its reports read it again."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import verification.reports.generator as generator
import verification.runner as runner
from verification.config import load_settings
from verification.reports.generator import write_run_reports
from verification.runner import VerificationRunner
from verification.store.journal import read_journal
from verification.store.records import AttemptRecord


def test_a_run_keeps_what_it_journalled_and_reads_it_back_only_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[Path] = []

    def counted(path: Path) -> list[AttemptRecord]:
        reads.append(path)
        return read_journal(path)

    monkeypatch.setattr(runner, "read_journal", counted)
    monkeypatch.setattr(generator, "read_journal", counted)
    settings = load_settings(provider="reference", results_dir=tmp_path, seed=4, cases=6)
    result = asyncio.run(VerificationRunner(settings).run(["kmp", "bfs"]))
    assert reads == [result.paths.journal]  # once, before the run: a resumed run's lines
    assert result.records is not None
    assert result.records == read_journal(result.paths.journal)
    assert len(result.records) == 12
    write_run_reports(
        result.paths, result.manifest, result.results, costs=result.costs, records=result.records
    )
    assert reads == [result.paths.journal]
    assert (result.paths.run_dir / "reports" / "summary.md").is_file()


def test_a_run_folds_the_cases_it_drew_which_are_the_ones_its_journal_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from verification.registry import SPECS

    made: list[str] = []
    make = AttemptRecord._made_case

    def counted(record: AttemptRecord) -> Any:
        made.append(record.case_id)
        return make(record)

    monkeypatch.setattr(AttemptRecord, "_made_case", counted)
    settings = load_settings(provider="reference", results_dir=tmp_path, seed=5, cases=3)
    result = asyncio.run(VerificationRunner(settings).run(list(SPECS)))
    assert result.records is not None
    assert made == []  # the run folded and calibrated the cases it drew, not copies
    read_back = {record.case_id: record for record in read_journal(result.paths.journal)}
    for record in result.records:  # ... which are the cases its journal lines hold
        assert record.test_case() == read_back[record.case_id].test_case()
    # a record keeps no case but its own
    first, second = result.records[0], result.records[1]
    copy = first.model_copy()
    copy.keep_case(second.test_case())
    assert copy.test_case() == read_back[first.case_id].test_case()
