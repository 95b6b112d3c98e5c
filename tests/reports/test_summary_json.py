"""``summary.json`` has a schema: written from a run, read back by :class:`RunSummary`,
tolerant of fields a newer harness adds, strict about what is not a summary."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from verification.config import load_settings
from verification.reports.generator import write_run_reports
from verification.reports.summary import build_summary
from verification.runner import VerificationRunner
from verification.store.summary_file import MAX_SUMMARY_BYTES, SUMMARY_SCHEMA, RunSummary


@pytest.fixture(scope="module")
def summary_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    output = tmp_path_factory.mktemp("out")
    settings = load_settings(results_dir=output, cases=3, provider="reference")
    run = asyncio.run(VerificationRunner(settings).run(["kmp", "bfs"]))
    write_run_reports(run.paths, run.manifest, run.results)
    return (run.paths.reports / "summary.json").read_text(encoding="utf-8")


def test_a_written_summary_states_its_schema_and_reads_back(summary_text: str) -> None:
    data = json.loads(summary_text)
    assert data["schema_version"] == SUMMARY_SCHEMA == 2
    summary = RunSummary.from_json(summary_text)
    assert summary.model_dump(mode="json") == data
    assert set(summary.scaffolds) == {"kmp", "bfs"}
    assert summary.scaffolds["kmp"].n == 3 and summary.dry_run


def test_fields_a_newer_harness_adds_are_ignored(summary_text: str) -> None:
    data = json.loads(summary_text)
    data["cost"] = {"usd": 1.5}
    data["scaffolds"]["kmp"]["a_later_figure"] = [1, 2]
    summary = RunSummary.from_json(json.dumps(data))
    assert summary.scaffolds["kmp"].status == data["scaffolds"]["kmp"]["status"]


def test_an_older_summary_without_a_version_loads_as_one(summary_text: str) -> None:
    data = json.loads(summary_text)
    del data["schema_version"], data["previous_run_id"], data["status_changes"]
    assert RunSummary.from_json(json.dumps(data)).run_id == data["run_id"]


@pytest.mark.parametrize(
    "text",
    ["[]", '{"run_id": "x"}', '{"run_id": 1, "dry_run": "maybe", "seed": []}', "not json"],
)
def test_what_is_not_a_summary_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        RunSummary.from_json(text)


def test_an_oversized_file_is_refused_before_parsing() -> None:
    with pytest.raises(ValueError, match="larger than"):
        RunSummary.from_json(" " * (MAX_SUMMARY_BYTES + 1))


def test_only_a_model_s_run_of_the_whole_suite_above_quick_certifies(tmp_path: Path) -> None:
    settings = load_settings(results_dir=tmp_path, cases=3, provider="reference")
    run = asyncio.run(VerificationRunner(settings).run(["kmp"]))
    results = list(run.results.values())
    live = run.manifest.model_copy(update={"dry_run": False, "run_label": None})
    assert build_summary(live, results).certifies
    assert not build_summary(run.manifest, results).certifies  # the dry run itself
    for narrowed in (
        {"level": "quick"},
        {"tiers": ["simple"]},
        {"case_filter": ["kmp-simple-000"]},
    ):
        assert not build_summary(live.model_copy(update=narrowed), results).certifies, narrowed
