"""Certification arithmetic and folding a journal into results."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

from verification.journal import AttemptRecord
from verification.results import ScaffoldResults, certify, wilson_interval


@given(st.integers(min_value=1, max_value=500), st.data())
def test_wilson_interval_matches_scipy(n: int, data: st.DataObject) -> None:
    passed = data.draw(st.integers(min_value=0, max_value=n))
    low, high = wilson_interval(passed, n)
    expected = binomtest(passed, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert low == pytest.approx(expected.low, abs=1e-9)
    assert high == pytest.approx(expected.high, abs=1e-9)


@given(st.integers(min_value=1, max_value=2000), st.data())
def test_status_thresholds_are_exact_fractions(n: int, data: st.DataObject) -> None:
    passed = data.draw(st.integers(min_value=0, max_value=n))
    status = certify(passed, n, planned=n, unfinished=0)
    from fractions import Fraction

    rate = Fraction(passed, n)
    if rate >= Fraction(9, 10):
        assert status == "CERTIFIED"
    elif rate >= Fraction(1, 2):
        assert status == "PARTIAL"
    else:
        assert status == "FAILED"


def test_boundaries_are_inclusive_and_floats_cannot_tip_them() -> None:
    assert certify(9, 10, planned=10, unfinished=0) == "CERTIFIED"
    assert certify(899, 1000, planned=1000, unfinished=0) == "PARTIAL"
    assert certify(5, 10, planned=10, unfinished=0) == "PARTIAL"
    assert certify(4, 10, planned=10, unfinished=0) == "FAILED"


def test_incomplete_when_nothing_counted_or_more_than_a_tenth_unfinished() -> None:
    assert certify(0, 0, planned=10, unfinished=10) == "INCOMPLETE"
    assert certify(9, 9, planned=10, unfinished=1) == "CERTIFIED"  # exactly 10%: counted
    assert certify(18, 18, planned=20, unfinished=2) == "CERTIFIED"
    assert certify(17, 17, planned=20, unfinished=3) == "INCOMPLETE"


def _record(
    case: str,
    outcome: str,
    *,
    attempt: int = 1,
    epoch: int = 0,
    level: int | None = None,
    tier: str = "simple",
    **extra: Any,
) -> AttemptRecord:
    return AttemptRecord(
        scaffold="kmp",
        case_id=case,
        index=int(case[-3:]),
        epoch=epoch,
        attempt=attempt,
        tier=tier,
        input={},
        expected={},
        outcome=outcome,
        level=level,
        reason=outcome,  # type: ignore[arg-type]
        leniency=extra.get("leniency", []),
        answer=None,
        raw_response="x",
        raw_response_chars=1,
        raw_response_sha256=None,
        stop_reason="end_turn",
        usage={"output_tokens": 10},
        latency_s=0.1,
        model="m",
        finished_at="t",
    )


def test_folding_counts_first_attempts_and_shows_repairs_beside_them() -> None:
    records = [
        _record("kmp-simple-000", "passed"),
        _record("kmp-simple-001", "failed", level=1),
        _record("kmp-simple-001", "passed", attempt=2),
        _record("kmp-simple-002", "truncated", level=1),
        _record("kmp-simple-003", "failed", level=3, tier="edge"),
        _record("kmp-simple-004", "infra_error"),
    ]
    results = ScaffoldResults.from_records("kmp", records, planned=5)
    assert (results.passed, results.n, results.infra_errors) == (1, 4, 1)
    assert results.passed_after_repair == 2
    assert results.truncated == 1
    assert results.failures_by_level == {1: 2, 2: 0, 3: 1}
    assert results.per_tier == {"simple": (1, 3), "edge": (0, 1)}
    assert results.status == "INCOMPLETE"  # 1 of 5 planned is an infra error: over 10%
    assert results.usage == {"output_tokens": sum(r.usage["output_tokens"] for r in records)}


def test_a_later_line_supersedes_an_infra_error_on_resume() -> None:
    records = [_record("kmp-simple-000", "infra_error"), _record("kmp-simple-000", "passed")]
    results = ScaffoldResults.from_records("kmp", records, planned=1)
    assert (results.passed, results.n, results.infra_errors, results.status) == (
        1,
        1,
        0,
        "CERTIFIED",
    )


def test_samples_of_one_case_are_one_case() -> None:
    records = [_record("kmp-simple-000", "passed", epoch=e) for e in range(3)]
    results = ScaffoldResults.from_records("kmp", records, planned=3)
    assert (results.n, results.answers, results.score) == (1, 3, 1.0)


def test_borderline_marks_an_interval_across_a_threshold() -> None:
    many = [_record(f"kmp-simple-{k:03d}", "passed") for k in range(30)]
    assert ScaffoldResults.from_records("kmp", many, planned=30).borderline  # low < 0.9
    lots = [_record(f"kmp-simple-{k:03d}", "passed") for k in range(200)]
    assert not ScaffoldResults.from_records("kmp", lots, planned=200).borderline
