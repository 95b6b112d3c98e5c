"""Issue 23's done-when, through real runs: replay runs of dijkstra at the standard level
whose answers are right with probability 0.85 are CERTIFIED at most 6 times in 60, at 0.95
at least 33 times in 40, and at 1.0 ask no more than 40 cases (the runs are driven by
``benchmarks/certification_oc.py``'s functions, in process through the command line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.benchmarks import load_benchmark
from verification.certify.sequential import operating_characteristic, plan_for


@pytest.mark.slow
def test_replayed_standard_runs_keep_the_plans_risks(tmp_path: Path) -> None:
    bench = load_benchmark("certification_oc")
    book = bench.answer_book(tmp_path / "book")
    assert len(book) == plan_for("standard").cap
    low, low_mean = bench.replay_runs(tmp_path / "runs", book, 0.85, 60)
    high, _ = bench.replay_runs(tmp_path / "runs", book, 0.95, 40)
    perfect, perfect_mean = bench.replay_runs(tmp_path / "runs", book, 1.0, 3)
    assert sum(low.values()) == 60 and sum(high.values()) == 40
    assert low["CERTIFIED"] <= 6
    assert high["CERTIFIED"] >= 33
    assert perfect == {"CERTIFIED": 3}
    assert perfect_mean == operating_characteristic(plan_for("standard"), 1.0).expected_cases
    assert perfect_mean <= 40
    # the runs ask what the exact OC expects (a loose check: 60 runs)
    assert low_mean < plan_for("standard").cap
