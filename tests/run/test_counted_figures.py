"""The figures of a scaffold's status count the same answers: those of the cases up to the
plan's deciding look (hunt ag: "Failures by level" also counted the answers asked past it,
15 failures beside a rate of 39 in 40)."""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.support.benchmarks import load_benchmark
from verification.cli import main
from verification.store.journal import read_journal

pytestmark = pytest.mark.slow  # two runs of 180 cases


def test_failures_by_level_count_the_cases_the_status_counts(tmp_path: Path) -> None:
    bench: Any = load_benchmark("certification_oc")
    book = bench.answer_book(tmp_path / "book", scaffold="kmp")
    draw = random.Random(7)
    replay = tmp_path / "replay.jsonl"
    lines = [
        {"case_id": a.case_id, "text": a.right if draw.random() < 0.9 else a.wrong} for a in book
    ]
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    argv = ["verify", "kmp", "--provider", "replay", "--replay-file", str(replay)]
    # One shard of one: every planned case is asked, then the looks read them in order.
    argv += ["--seed", str(bench.SEED), "--shard", "1/1", "--output", str(tmp_path / "out")]
    with contextlib.redirect_stdout(io.StringIO()):
        main(argv)
    (run,) = (tmp_path / "out" / "runs").iterdir()
    figures = json.loads((run / "reports" / "summary.json").read_text())["scaffolds"]["kmp"]
    wrong = [r for r in read_journal(run / "results.jsonl") if r.outcome != "passed"]
    assert figures["n"] < len(book) and len(wrong) > figures["n"] - figures["passed"]
    failures = sum(figures["failures_by_level"].values())
    assert failures == figures["answers"] - figures["passed"] - figures["refused"]
    assert figures["failures_by_level"]["1"] >= figures["truncated"]
    # The sections listing every failed answer shown say they hold more (hunt ah).
    report = (run / "reports" / "kmp.md").read_text()
    assert f"These count the {figures['n']} case(s) the status counts" in report
