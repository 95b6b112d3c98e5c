"""Certification arithmetic and folding a journal into results."""

from __future__ import annotations

import functools
import json
import math
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.clustering import design_effect_answers
from tests.support.records import attempt_record
from verification.cases import ProgramTask, program_id
from verification.certify.answers import CaseScores
from verification.certify.calibration import Calibration, CalibrationMiss
from verification.certify.envelope import CASES_PER_SIZE
from verification.certify.looked import look_decision
from verification.certify.results import ScaffoldResults, certify, wilson_interval
from verification.certify.sequential import plan_for
from verification.config import LEVEL_CASES
from verification.errors import JournalError
from verification.run.batch_mode import BatchTransport
from verification.run.resuming import answered_samples
from verification.store.records import PROGRAM_TIER, AttemptRecord


@given(st.integers(min_value=1, max_value=500), st.data())
def test_wilson_interval_matches_scipy(n: int, data: st.DataObject) -> None:
    from scipy.stats import binomtest

    passed = data.draw(st.integers(min_value=0, max_value=n))
    low, high = wilson_interval(passed, n)
    expected = binomtest(passed, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert low == pytest.approx(expected.low, abs=1e-9)
    assert high == pytest.approx(expected.high, abs=1e-9)
    # It holds the observed rate, at 0% and 100% too (rounded, 100% read 0.9999999999999999
    # and 0% 1.4e-17 in summary.json, where a reader's low <= rate <= high failed: hunt gg).
    assert low <= passed / n <= high
    assert (low == 0.0) is (passed == 0) and (high == 1.0) is (passed == n)


@given(st.integers(min_value=1, max_value=2000), st.data())
def test_status_thresholds_are_exact_fractions(n: int, data: st.DataObject) -> None:
    passed = data.draw(st.integers(min_value=0, max_value=n))
    status = certify(passed, n, planned=n, unfinished=0)
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
    return attempt_record(
        case,
        outcome,
        attempt=attempt,
        epoch=epoch,
        level=level,
        tier=tier,
        leniency=extra.get("leniency", []),
        **{name: value for name, value in extra.items() if name == "input"},
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


def test_two_answers_to_one_attempt_that_disagree_are_refused() -> None:
    # Before: the later line superseded the earlier, so a failure copied with "passed"
    # certified (a helper's hunt, F7).
    records = [
        _record("kmp-simple-000", "failed", level=3),
        _record("kmp-simple-000", "passed"),
    ]
    with pytest.raises(JournalError, match="kmp-simple-000") as raised:
        ScaffoldResults.from_records("kmp", records, planned=1)
    assert "passed" in str(raised.value) and "failed" in str(raised.value)
    with pytest.raises(JournalError):
        look_decision(
            "kmp", records, planned=1, plan=plan_for("standard"), order=["kmp-simple-000"]
        )


def test_an_answer_stands_against_a_later_infra_error_and_a_same_verdict_copy() -> None:
    failed = _record("kmp-simple-000", "failed", level=3)
    for later in (_record("kmp-simple-000", "infra_error"), failed):
        results = ScaffoldResults.from_records("kmp", [failed, later], planned=1)
        assert (results.passed, results.n, results.infra_errors) == (0, 1, 0)
    # The resume reads the journal the same way: the answered case is not asked again.
    assert answered_samples([failed, _record("kmp-simple-000", "infra_error")]) == {
        ("kmp-simple-000", 0)
    }
    # And so does a batch run choosing what to send again (hunt i: it let the later line win).
    journal = [failed, _record("kmp-simple-000", "infra_error")]
    batch = SimpleNamespace(attempts=SimpleNamespace(journalled=lambda: journal))
    assert BatchTransport._chains(batch) == {("kmp-simple-000", 0): {1: failed}}  # type: ignore[arg-type]


def test_samples_of_one_case_are_one_case() -> None:
    records = [_record("kmp-simple-000", "passed", epoch=e) for e in range(3)]
    results = ScaffoldResults.from_records("kmp", records, planned=3)
    assert (results.n, results.answers, results.score) == (1, 3, 1.0)


def test_borderline_marks_an_interval_across_a_threshold() -> None:
    many = [_record(f"kmp-simple-{k:03d}", "passed") for k in range(30)]
    assert ScaffoldResults.from_records("kmp", many, planned=30).borderline  # low < 0.9
    lots = [_record(f"kmp-simple-{k:03d}", "passed") for k in range(200)]
    assert not ScaffoldResults.from_records("kmp", lots, planned=200).borderline


# -- honest statistics: case scores, the interval on them, the deciding threshold ----------


@functools.cache
def _z() -> float:
    """The normal quantile of a two-sided 95% interval (scipy.stats imported when first
    asked: importing it costs every test process about a second)."""
    from scipy.stats import norm

    return float(norm.ppf(0.975))


def _wilson_by_roots(x: float, n: float) -> tuple[float, float]:
    """The Wilson bounds as the roots of (x/n - p)^2 = z^2 p (1 - p) / n, a quadratic in p
    solved by numpy: the interval's definition, not the closed form results.py uses."""
    z = _z()
    phat, k = x / n, z * z / n
    roots = np.roots([1 + k, -(2 * phat + k), phat * phat])
    low, high = sorted(float(np.real(root)) for root in roots)
    return max(0.0, low), min(1.0, high)


@pytest.mark.slow
@given(st.integers(min_value=1, max_value=300), st.integers(min_value=1, max_value=5), st.data())
def test_the_interval_of_a_fractional_score_is_wilson_s(
    n: int, samples: int, data: st.DataObject
) -> None:
    passes = data.draw(st.lists(st.integers(0, samples), min_size=n, max_size=n))
    x = sum(Fraction(p, samples) for p in passes)
    low, high = wilson_interval(float(x), n)
    expected = _wilson_by_roots(float(x), n)
    assert low == pytest.approx(expected[0], abs=1e-7)
    assert high == pytest.approx(expected[1], abs=1e-7)


def test_a_perfect_score_clears_0_90_from_35_cases_on_and_the_defaults_ask_that_many() -> None:
    # Closed form: with x = n the lower bound is n / (n + z^2), at least 0.9 from n >= 9 z^2.
    z = _z()
    smallest = math.ceil(9 * z * z)
    assert wilson_interval(smallest, smallest)[0] == pytest.approx(smallest / (smallest + z**2))
    assert (
        wilson_interval(smallest, smallest)[0]
        >= 0.9
        > wilson_interval(smallest - 1, smallest - 1)[0]
    )
    assert LEVEL_CASES["standard"] >= smallest and LEVEL_CASES["thorough"] >= smallest
    assert smallest <= CASES_PER_SIZE
    perfect = [_record(f"kmp-simple-{k:03d}", "passed") for k in range(LEVEL_CASES["standard"])]
    results = ScaffoldResults.from_records("kmp", perfect, planned=len(perfect))
    assert results.status == "CERTIFIED" and not results.borderline


def test_samples_make_a_case_score_the_share_of_its_answers_that_pass() -> None:
    passes = {0: 3, 1: 2, 2: 0, 3: 1}  # case index -> samples (of 3) that pass
    records = [
        _record(
            f"kmp-simple-{k:03d}",
            "passed" if epoch < good else "failed",
            epoch=epoch,
            level=None if epoch < good else 3,
        )
        for k, good in passes.items()
        for epoch in range(3)
    ]
    results = ScaffoldResults.from_records("kmp", records, planned=12)
    score = sum(Fraction(good, 3) for good in passes.values())
    assert (results.n, results.answers) == (4, 12)
    assert results.score == pytest.approx(float(score))
    assert results.pass_rate == pytest.approx(float(score) / 4)
    assert results.consistent == sum(good in (0, 3) for good in passes.values())
    # The interval is Wilson's at the effective number of answers, not at the 4 cases.
    answers = np.array([[epoch < good for epoch in range(3)] for good in passes.values()])
    effective = design_effect_answers(answers.astype(float))
    assert results.effective_answers == pytest.approx(effective)
    assert results.interval == pytest.approx(
        _wilson_by_roots(float(score) / 4 * effective, effective)
    )


def test_copies_of_one_input_are_a_cluster_of_the_interval_as_a_case_s_samples_are() -> None:
    # Hunt v: 8 inputs in 290 cases of n_queens at size 4, each copy counted as its own
    # evidence: copies of one prompt are answered alike (the response cache within a run,
    # temperature 0), so they are clustered by input, as a case's samples are by case.
    inputs, copies = 8, 5
    fails = {0}  # the copies of input 0 all fail; every other input's all pass
    records = [
        _record(
            f"kmp-simple-{i * copies + c:03d}",
            "failed" if i in fails else "passed",
            input={"text": f"input {i}"},
            level=3 if i in fails else None,
        )
        for i in range(inputs)
        for c in range(copies)
    ]
    results = ScaffoldResults.from_records("kmp", records, planned=len(records))
    rate = (inputs - len(fails)) / inputs
    assert (results.n, results.repeated_inputs) == (inputs * copies, inputs * (copies - 1))
    assert results.pass_rate == pytest.approx(rate)
    answers = np.array([[i not in fails] * copies for i in range(inputs)], dtype=float)
    effective = design_effect_answers(answers)
    assert effective == pytest.approx(inputs)  # copies that always agree: one answer each
    assert results.effective_answers == pytest.approx(effective)
    assert results.interval == pytest.approx(_wilson_by_roots(rate * effective, effective))
    # The same answers on distinct inputs: forty of them, as before.
    distinct = [r.model_copy(update={"input": {"text": r.case_id}}) for r in records]
    apart = ScaffoldResults.from_records("kmp", distinct, planned=len(records))
    assert apart.interval == pytest.approx(_wilson_by_roots(rate * len(records), len(records)))


def test_programs_repeat_no_input_whatever_their_records_hold() -> None:
    # Hunt x: every code-mode program's record holds the input {}, and the report said 29
    # of 30 programs repeat an earlier case's input; a program is its own request.
    records = [
        _record(program_id("kmp", k), "passed", input={}, tier=PROGRAM_TIER) for k in range(5)
    ]
    results = ScaffoldResults.from_records("kmp", records, planned=5)
    assert all(isinstance(r.test_case, ProgramTask) for r in results.results)
    assert (results.n, results.repeated_inputs) == (5, 0)


@pytest.mark.slow
@pytest.mark.parametrize("rho", [0.0, 0.2, 0.6])
def test_the_interval_of_samples_covers_the_rate_and_narrows_when_samples_vary(
    rho: float,
) -> None:
    """Cases whose chance of passing is drawn from a beta law of mean 0.85 and intra-case
    correlation ``rho``, 3 samples each: the interval holds 0.85 in about 95% of runs, and
    is narrower than Wilson's at the cases alone by as much as the samples are independent."""
    rng = np.random.default_rng(11)
    mean, cases, samples, runs = 0.85, 40, 3, 250
    covered, narrower = 0, []
    # Each (case, sample) line is one of two records, passed or failed; records are frozen,
    # so the runs share them rather than building 120 new ones each.
    lines = {
        (k, epoch, passed): _record(
            f"kmp-simple-{k:03d}",
            "passed" if passed else "failed",
            epoch=epoch,
            level=None if passed else 3,
        )
        for k in range(cases)
        for epoch in range(samples)
        for passed in (True, False)
    }
    for _ in range(runs):
        if rho == 0:
            chances = np.full(cases, mean)
        else:
            a = mean * (1 / rho - 1)
            chances = rng.beta(a, a * (1 - mean) / mean, size=cases)
        answers = rng.random((cases, samples)) < chances[:, None]
        records = [
            lines[k, epoch, bool(answers[k, epoch])]
            for k in range(cases)
            for epoch in range(samples)
        ]
        results = ScaffoldResults.from_records("kmp", records, planned=cases * samples)
        low, high = results.interval
        covered += low <= mean <= high
        old_low, old_high = wilson_interval(results.score, cases)
        narrower.append((high - low) / (old_high - old_low))
    assert covered / runs >= 0.92
    # The design effect's width ratio sqrt((1 + 2 rho) / 3), give or take its estimate.
    assert float(np.mean(narrower)) == pytest.approx(math.sqrt((1 + 2 * rho) / 3), abs=0.08)


def test_borderline_is_the_deciding_threshold_only() -> None:
    def fold(passed: int, n: int) -> ScaffoldResults:
        records = [
            _record(f"kmp-simple-{k:03d}", "passed" if k < passed else "failed", level=3)
            for k in range(n)
        ]
        return ScaffoldResults.from_records("kmp", records, planned=n)

    failed = fold(2, 5)  # interval about 12% to 77%: across 0.50, which decided FAILED
    assert failed.status == "FAILED" and failed.borderline
    partial_near_top = fold(17, 20)  # about 64% to 95%: across 0.90, PARTIAL's upper edge
    assert partial_near_top.status == "PARTIAL" and partial_near_top.borderline
    settled = fold(700, 1000)  # about 67% to 73%: clear of both
    assert settled.status == "PARTIAL" and not settled.borderline
    clear_fail = fold(10, 100)  # about 6% to 17%: across neither
    assert clear_fail.status == "FAILED" and not clear_fail.borderline


def test_status_on_case_scores_uses_exact_fractions() -> None:
    # Nine cases each passing 2 of 3 samples and one passing all: 6 + 1 = 7 of 10 cases'
    # worth, exactly 0.7 (floats would sum 2/3 ten times to 6.999...).
    assert certify(Fraction(2, 3) * 9 + 1, 10, planned=30, unfinished=0) == "PARTIAL"
    assert certify(Fraction(9, 1), 10, planned=10, unfinished=0) == "CERTIFIED"
    assert certify(Fraction(8999, 1000), 10, planned=10, unfinished=0) == "PARTIAL"


def _sized(case: str, outcome: str, size: int, **extra: Any) -> AttemptRecord:
    return _record(case, outcome, **extra).model_copy(update={"size": size})


def test_a_budget_limited_size_fails_at_its_size_and_the_envelope_stops_there() -> None:
    def at(size: int, outcome: str, count: int = 10) -> list[AttemptRecord]:
        level = None if outcome == "passed" else 1
        return [
            _sized(f"kmp-simple-s{size}-{k:03d}", outcome, size, level=level) for k in range(count)
        ]

    # Every size is answered right but 12, whose answers all hit the output budget: they are
    # failures there, never a reason to skip it (the envelope once read "holds across").
    records = [*at(6, "passed"), *at(9, "passed"), *at(12, "truncated"), *at(24, "passed")]
    results = ScaffoldResults.from_records(
        "kmp", records, planned=len(records), swept=[6, 9, 12, 24], size_unit="text length"
    )
    assert results.budget_limited_sizes == [12]
    assert [p.status for p in results.size_points] == [
        "CERTIFIED",
        "CERTIFIED",
        "FAILED",
        "CERTIFIED",
    ]
    assert results.certified_up_to == 9 and results.fails_from == 12  # 24 comes after it
    assert not results.holds_across_range
    assert results.envelope == (
        "up to text length 9; fails from 12 (FAILED): 0 wrong and 10 truncated of 10, "
        "budget-limited"
    )
    assert results.per_size[6] == (10.0, 10) and results.per_size[12] == (0.0, 10)
    # One truncated answer in ten is not more than 10%: it counts against the rate (9 of 10
    # still certifies) and the size is not budget-limited.
    edge = [*at(12, "passed", 9), _sized("kmp-simple-s12-009", "truncated", 12, level=1)]
    folded = ScaffoldResults.from_records("kmp", edge, planned=10, swept=[12])
    assert folded.budget_limited_sizes == [] and folded.size_points[0].status == "CERTIFIED"


def test_a_sweep_where_every_size_certifies_holds_across_the_range() -> None:
    records = [_sized(f"kmp-simple-s{s}-000", "passed", s) for s in (6, 20)]
    results = ScaffoldResults.from_records("kmp", records, planned=2, swept=[6, 20])
    assert results.holds_across_range and results.certified_up_to == 20
    nothing = ScaffoldResults.from_records(
        "kmp", [_sized("kmp-simple-s6-000", "failed", 6, level=3)], planned=1, swept=[6, 20]
    )
    assert nothing.certified_up_to is None and not nothing.holds_across_range
    assert nothing.fails_from == 6 and nothing.envelope.startswith("holds at none")


def test_a_validator_miss_makes_the_scaffold_incomplete_whatever_the_answers() -> None:
    perfect = [_record(f"kmp-simple-{k:03d}", "passed") for k in range(50)]
    miss = Calibration(4, 5, 0, 0, (CalibrationMiss("kmp-simple-000", "mutant accepted", "{}"),))
    results = ScaffoldResults.from_records("kmp", perfect, planned=50, calibration=miss)
    assert (results.status, results.incomplete_reason) == ("INCOMPLETE", "validator miss")
    clean = Calibration(5, 5, 2, 2)
    assert (
        ScaffoldResults.from_records("kmp", perfect, planned=50, calibration=clean).status
        == "CERTIFIED"
    )


def test_infrastructure_errors_give_a_worst_case_rate_beside_the_rate() -> None:
    # 16 cases passed, 2 failed, 2 lost to infrastructure errors (which leave n).
    outcomes = ["passed"] * 16 + ["failed"] * 2 + ["infra_error"] * 2
    records = [
        _record(f"kmp-simple-{k:03d}", outcome, level=3 if outcome == "failed" else None)
        for k, outcome in enumerate(outcomes)
    ]
    results = ScaffoldResults.from_records("kmp", records, planned=len(outcomes))
    assert (results.n, results.infra_errors) == (18, 2)
    assert results.pass_rate == pytest.approx(16 / 18)
    assert results.worst_case_rate == pytest.approx(16 / 20)  # as if both errors failed
    clean = ScaffoldResults.from_records("kmp", records[:18], planned=18)
    assert clean.worst_case_rate is None


_TALLIES = {seen: st.tuples(st.integers(0, seen), st.just(seen)) for seen in range(1, 13)}
"""The (good, seen) strategy for each ``seen``, made once: a strategy made afresh for each
value drawn is checked afresh by hypothesis (the most of this test's time); the same
strategies draw the same values."""


@given(
    st.dictionaries(
        st.text(max_size=6),
        st.integers(1, 12).flatmap(_TALLIES.__getitem__),
        max_size=80,
    )
)
def test_a_total_is_the_exact_sum_of_its_case_scores(tallies: dict[str, tuple[int, int]]) -> None:
    total = CaseScores(tallies).total()
    assert isinstance(total, Fraction)
    assert total == sum((Fraction(good, seen) for good, seen in tallies.values()), Fraction(0))


def test_errors_on_cases_past_the_deciding_look_are_shown_not_counted_against_it() -> None:
    # Hunt i, S1: a resume decided at a look before cases a first run had lost to errors;
    # it never asks them again, yet they made the run INCOMPLETE for good.
    order = [f"kmp-simple-{k:03d}" for k in range(60)]
    answered = [_record(case, "passed") for case in order[:30]]
    lost = [_record(case, "infra_error") for case in order[30:]]
    plan = plan_for("standard")
    results = ScaffoldResults.from_records(
        "kmp", answered + lost, planned=60, plan=plan, order=order, final=True
    )
    assert results.decision is not None and results.decision.early
    assert results.status == "CERTIFIED" and results.infra_errors == 30
    # Errors inside the window a look reads still keep it from deciding, and the run from
    # a status (every tenth case of the first thirty lost).
    holed = [_record(c, "infra_error" if k % 5 == 0 else "passed") for k, c in enumerate(order)]
    results = ScaffoldResults.from_records(
        "kmp", holed, planned=60, plan=plan, order=order, final=True
    )
    assert results.status == "INCOMPLETE"


def test_the_report_says_how_many_counted_cases_repeat_an_earlier_input(tmp_path: Path) -> None:
    # Hunt t: n_queens' simple tier drew the same board again and again (31 of 54 cases),
    # each counted as a case, while the docs called n "distinct cases".
    from verification.cli import main
    from verification.store.journal import read_journal

    argv = ["verify", "n_queens", "--provider", "reference", "--cases", "40"]
    assert main([*argv, "--output", str(tmp_path)]) == 0
    (run,) = (tmp_path / "runs").iterdir()
    records = read_journal(run / "results.jsonl")
    inputs = {r.case_id: json.dumps(r.input, sort_keys=True) for r in records}
    repeated = len(inputs) - len(set(inputs.values()))
    assert repeated > 0  # the catalog's n_queens at this seed: the point of the test
    report = (run / "reports" / "n_queens.md").read_text()
    assert f"; {repeated} of them repeat an earlier case's input" in report
    # summary.json says so too, and the fixed plan's claim says its OC is for independent
    # cases (hunt gg: "copies": 0 and "certified in 19 runs of 100" beside an interval
    # clustered to about 25 of 60 answers; by input the risk was about twice that).
    entry = json.loads((run / "reports" / "summary.json").read_text())["scaffolds"]["n_queens"]
    assert entry["repeated_inputs"] == repeated and entry["copies"] == 0
    said = f"Stated for independent cases: {repeated} of these repeat an earlier case's input"
    assert said in entry["plan"]["oc"] and said in report
    # With the exact risks for copies answered alike, from the journal's own inputs.
    from collections import Counter

    from verification.certify.operating import alike_outcome

    copies = tuple(Counter(inputs.values()).values())
    certified = math.ceil(100 * alike_outcome(copies, 0.85)[0] - 1e-9)
    alike = f"its {len(copies)} inputs certify one at 85% in {certified} runs of 100"
    assert alike in entry["plan"]["oc"] and alike in report
