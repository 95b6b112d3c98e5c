"""Runs that certify nothing because of what they asked (the quick level, chosen cases or
tiers, one shard) show no status word that reads as a verdict: UNCERTIFIED, and why, on the
terminal, in ``history``, the summary and the job summary. A model answers (the fake
server): a dry run or a replay keeps its status words under its banner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from verification.cli import main
from verification.runner import plan_cases
from verification.store.paths import RunPaths

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

SEED = 5
VERDICTS = ("CERTIFIED", "PARTIAL", "FAILED")


def _words(line: str) -> set[str]:
    return set(line.replace("(", " ").replace(")", " ").replace("*", " ").split())


def _run(output: Path, *extra: str) -> int:
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", "claude-test-model"]
    return main([*argv, "--seed", str(SEED), "--output", str(output), "--no-cache", *extra])


def test_a_run_of_chosen_cases_reads_uncertified_everywhere(
    anthropic_env: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    replies = anthropic_env.right_kmp_replies(SEED, 8)
    chosen = [case.id for case in plan_cases(["kmp"], seed=SEED, cases=8)["kmp"][:3]]

    def answer(sent: RecordedRequest) -> Reply:
        return anthropic_env.message(replies[sent.json["messages"][0]["content"]])

    anthropic_env.script([answer] * len(chosen))
    step_summary = tmp_path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step_summary))
    output = tmp_path / "out"
    junit = tmp_path / "junit.xml"
    options = [arg for case in chosen for arg in ("--case", case)]
    assert _run(output, *options, "--junit-xml", str(junit)) == 0  # every answer right
    printed = capsys.readouterr().out
    assert "NOT CERTIFIED: only the cases named with --case were asked" in printed
    (line,) = [line for line in printed.splitlines() if line.startswith("kmp ")]
    assert "UNCERTIFIED" in _words(line) and not _words(line) & set(VERDICTS)
    (run_dir,) = (output / "runs").iterdir()
    summary = json.loads((RunPaths(output, run_dir.name).reports / "summary.json").read_text())
    kmp = summary["scaffolds"]["kmp"]
    assert (kmp["status"], kmp["rate_status"], summary["certifies"]) == (
        "UNCERTIFIED",
        "CERTIFIED",
        False,
    )
    assert kmp["uncertified"] == "only the cases named with --case were asked"
    assert not kmp["borderline"]
    reports = RunPaths(output, run_dir.name).reports
    markdown = (reports / "summary.md").read_text()
    assert "| **UNCERTIFIED** |" in markdown and "**CERTIFIED**" not in markdown
    report = (reports / "kmp.md").read_text()
    assert report.startswith("# kmp: UNCERTIFIED")
    assert "| Status | **UNCERTIFIED** (NOT CERTIFIED: only the cases named with --case" in report
    chart = (reports / "summary-pass-rates.svg").read_text()
    assert "UNCERTIFIED" in chart and not _words(chart.replace(",", " ")) & set(VERDICTS)
    job = step_summary.read_text()
    assert "**NOT CERTIFIED:**" in job and "**UNCERTIFIED**" in job and "**CERTIFIED**" not in job
    assert not set(VERDICTS) & _words(junit.read_text().replace("<", " ").replace(">", " "))
    assert main(["history", "--output", str(output)]) == 0
    (history,) = [line for line in capsys.readouterr().out.splitlines() if "kmp" in line]
    assert "UNCERTIFIED" in _words(history) and not _words(history) & set(VERDICTS)


def test_the_quick_level_reads_uncertified_and_exits_0_whatever_the_answers(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    anthropic_env.script([anthropic_env.message("```json\n{}\n```")] * 20)
    output = tmp_path / "out"
    assert _run(output, "--level", "quick") == 0
    printed = capsys.readouterr().out
    assert "NOT CERTIFIED: the quick level asks too few cases to certify" in printed
    (line,) = [line for line in printed.splitlines() if line.startswith("kmp ")]
    assert "UNCERTIFIED" in _words(line) and not _words(line) & set(VERDICTS)
    (run_dir,) = (output / "runs").iterdir()
    summary = json.loads((RunPaths(output, run_dir.name).reports / "summary.json").read_text())
    assert summary["scaffolds"]["kmp"]["rate_status"] == "FAILED"
    assert summary["scaffolds"]["kmp"]["status"] == "UNCERTIFIED"


def test_a_run_of_cases_chosen_by_k_or_rerun_failed_names_that_option(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: both read "only the cases named with --case were asked", with no --case given.
    replies = anthropic_env.right_kmp_replies(SEED, 8)
    asked: set[str] = set()
    wrong: set[str] = set()

    def answer(sent: RecordedRequest) -> Reply:  # the -k run's cases right; the others once wrong
        prompt = sent.json["messages"][0]["content"]
        if wrong and prompt not in asked | wrong:
            wrong.add(prompt)
            return anthropic_env.message("no answer here")
        asked.add(prompt)
        return anthropic_env.message(replies[prompt])

    anthropic_env.script([answer] * 40)
    output = tmp_path / "out"
    assert _run(output, "--cases", "8", "-k", "simple or edge") == 0
    printed = capsys.readouterr().out
    assert "NOT CERTIFIED: only the cases chosen with -k were asked" in printed
    assert "--case" not in printed
    chosen_run = {p.name for p in (output / "runs").iterdir()}
    wrong.add("")  # from now on a case not asked before is answered wrong, once
    assert _run(output, "--cases", "8") == 1  # the standard cases' answers cannot be read
    capsys.readouterr()
    (failed_run,) = {p.name for p in (output / "runs").iterdir()} - chosen_run
    assert _run(output, "--rerun-failed", failed_run) == 0
    printed = capsys.readouterr().out
    assert (
        f"NOT CERTIFIED: only the cases that failed or errored in run {failed_run} were "
        "asked (--rerun-failed)"
    ) in printed
