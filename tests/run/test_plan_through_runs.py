"""Issue 23's done-when, through real runs: replay runs of dijkstra at the standard level
whose answers are right with probability 0.85 are CERTIFIED at most 6 times in 60, at 0.95
at least 33 times in 40, and at 1.0 ask no more than 40 cases (the runs are driven by
``benchmarks/certification_oc.py``'s functions, in process through the command line).

Each rate's runs are their own test (the benchmark draws each rate's answers from a seed
of its own, so they do not depend on one another): a hundred runs are not one long test
that keeps a worker busy while the other waits; the answer book is drawn once per module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.benchmarks import load_benchmark
from tests.support.calibrations import calibrating_each_case_once
from tests.support.draws import drawing_each_case_once
from verification.certify.operating import operating_characteristic
from verification.certify.sequential import plan_for

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def _drawn_once() -> Iterator[None]:
    """The hundred runs here draw the same dijkstra cases again and again: each case is drawn once
    (tests/support/draws.py), and calibrated once (tests/support/calibrations.py)."""
    with drawing_each_case_once(), calibrating_each_case_once():
        yield


@pytest.fixture(scope="module")
def bench() -> Any:
    return load_benchmark("certification_oc")


@pytest.fixture(scope="module")
def book(bench: Any, tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    """Every case the standard plan may ask, from one dry run; read by every test here."""
    drawn: list[Any] = bench.answer_book(tmp_path_factory.mktemp("book"))
    assert len(drawn) == plan_for("standard").cap
    return drawn


def test_replayed_standard_runs_at_085_certify_at_most_6_in_60(
    bench: Any, book: list[Any], tmp_path: Path
) -> None:
    low, low_mean = bench.replay_runs(tmp_path / "runs", book, 0.85, 60)
    assert sum(low.values()) == 60
    assert low["CERTIFIED"] <= 6
    # the runs ask what the exact OC expects (a loose check: 60 runs)
    assert low_mean < plan_for("standard").cap


def test_replayed_standard_runs_at_095_certify_at_least_33_in_40(
    bench: Any, book: list[Any], tmp_path: Path
) -> None:
    high, _ = bench.replay_runs(tmp_path / "runs", book, 0.95, 40)
    assert sum(high.values()) == 40
    assert high["CERTIFIED"] >= 33


def test_perfect_replayed_standard_runs_certify_asking_at_most_40(
    bench: Any, book: list[Any], tmp_path: Path
) -> None:
    perfect, perfect_mean = bench.replay_runs(tmp_path / "runs", book, 1.0, 3)
    assert perfect == {"CERTIFIED": 3}
    assert perfect_mean == operating_characteristic(plan_for("standard"), 1.0).expected_cases
    assert perfect_mean <= 40
