"""The certification plan: its exact operating characteristic meets each level's risks,
agrees with a simulation of :func:`decide`, and its decisions keep the API reference's
meaning of a status."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.certify.operating import (
    alike_outcome,
    meets_risks,
    oc_sentence,
    oc_table,
    operating_characteristic,
    search_cap,
)
from verification.certify.sequential import (
    CAPS,
    FIRST_LOOK,
    LOOK_EVERY,
    CertificationPlan,
    Decision,
    decide,
    fixed_plan,
    level_plan,
    plan_for,
)

LEVELS = ("standard", "thorough")


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_each_cap_is_the_smallest_meeting_the_risks(level: str) -> None:
    assert search_cap(level) == CAPS[level]


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_meets_every_risk_across_its_zone(level: str) -> None:
    plan = plan_for(level)
    assert plan.cap == CAPS[level]
    assert meets_risks(plan, grid=True)
    # the cap below misses one at its edge: the cap is not larger than it must be
    assert not meets_risks(level_plan(level, CAPS[level] - LOOK_EVERY))


@pytest.mark.parametrize("level", LEVELS)
def test_risks_are_the_issues_zones(level: str) -> None:
    risk = 0.01 if level == "thorough" else None
    stated = {(r.event, r.p, r.at_least): r.bound for r in plan_for(level).risks}
    assert stated == {
        ("CERTIFIED", 0.85, False): risk or 0.05,
        ("CERTIFIED", 0.95, True): 1 - (risk or 0.10),
        ("FAILED", 0.60, False): risk or 0.10,
        ("not FAILED", 0.40, False): risk or 0.10,
    }


@pytest.mark.parametrize("level", LEVELS)
def test_certification_grows_and_failure_shrinks_with_the_true_rate(level: str) -> None:
    table = oc_table(plan_for(level), [k / 50 for k in range(51)])
    certified = [oc.certified for oc in table]
    failed = [oc.failed for oc in table]
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(certified))
    assert all(b <= a + 1e-12 for a, b in itertools.pairwise(failed))
    for oc in table:
        assert oc.certified + oc.partial + oc.failed == pytest.approx(1.0, abs=1e-9)


def test_looks_every_ten_answered_cases_from_twenty_to_the_cap() -> None:
    plan = plan_for("standard")
    assert plan.looks == tuple(range(FIRST_LOOK, plan.cap + 1, LOOK_EVERY))
    assert plan.looks[-1] == plan.cap
    assert plan.upper is not None and plan.lower is not None
    assert (plan.upper.p0, plan.upper.p1, plan.upper.alpha, plan.upper.beta) == (
        0.85,
        0.95,
        0.05,
        0.05,
    )
    assert (plan.lower.p0, plan.lower.p1, plan.lower.alpha) == (0.40, 0.60, 0.10)
    thorough = plan_for("thorough")
    assert thorough.upper is not None and thorough.upper.alpha == 0.01


def test_a_perfect_scaffold_costs_fewer_cases_than_the_old_fixed_forty() -> None:
    oc = operating_characteristic(plan_for("standard"), 1.0)
    assert oc.certified == 1.0
    assert oc.expected_cases <= 40
    assert oc.max_cases == oc.expected_cases  # at p = 1 every run stops at one look
    assert decide(plan_for("standard"), [1.0] * 180).n == oc.max_cases


def _simulate(plan: CertificationPlan, p: float, runs: int, seed: int) -> list[Decision]:
    rng = np.random.default_rng(seed)
    return [decide(plan, (rng.random(plan.cap) < p).astype(int).tolist()) for _ in range(runs)]


@pytest.mark.parametrize(
    ("level", "p", "runs"),
    [("standard", 0.85, 1500), ("standard", 0.92, 1500), ("standard", 0.5, 800)],
)
def test_exact_oc_agrees_with_a_simulation_of_decide(level: str, p: float, runs: int) -> None:
    plan = plan_for(level)
    oc = operating_characteristic(plan, p)
    decisions = _simulate(plan, p, runs, seed=round(p * 1000))
    for status, exact in (("CERTIFIED", oc.certified), ("FAILED", oc.failed)):
        seen = sum(d.status == status for d in decisions) / runs
        error = math.sqrt(max(exact * (1 - exact), 1 / runs) / runs)
        assert abs(seen - exact) <= 3 * error, status
    ns = np.array([d.n for d in decisions], dtype=float)
    assert abs(ns.mean() - oc.expected_cases) <= 3 * ns.std() / math.sqrt(runs) + 1e-9
    assert all(d.decided for d in decisions)


@pytest.mark.slow
def test_thorough_exact_oc_agrees_with_a_simulation() -> None:
    plan = plan_for("thorough")
    for p in (0.88, 0.95):
        oc = operating_characteristic(plan, p)
        decisions = _simulate(plan, p, 1000, seed=7)
        seen = sum(d.status == "CERTIFIED" for d in decisions) / 1000
        assert abs(seen - oc.certified) <= 3 * math.sqrt(oc.certified * (1 - oc.certified) / 1000)


@pytest.mark.parametrize("n", [1, 3, 5, 12, 40])
def test_a_fixed_plan_is_the_point_cut_and_its_oc_the_binomial_tail(n: int) -> None:
    from scipy.stats import binom

    plan = fixed_plan(n)
    assert (plan.looks, plan.cap, plan.sequential) == ((n,), n, False)
    for p in (0.4, 0.85, 0.95):
        oc = operating_characteristic(plan, p)
        assert oc.certified == pytest.approx(binom.sf(math.ceil(0.9 * n) - 1, n, p))
        assert oc.failed == pytest.approx(binom.cdf(math.ceil(0.5 * n) - 1, n, p))
        assert oc.expected_cases == pytest.approx(n)


@given(st.lists(st.sampled_from([0, 1, 0.5, 1 / 3, 2 / 3]), min_size=1, max_size=200))
@settings(max_examples=60, deadline=None)
def test_a_decision_is_the_status_of_the_rate_it_was_reached_at(scores: list[float]) -> None:
    plan = plan_for("standard")
    decision = decide(plan, scores, final=True)
    decided_on = sum(Fraction(s).limit_denominator(1000) for s in scores[: decision.n])
    rate = decided_on / decision.n
    expected = (
        "CERTIFIED"
        if rate >= Fraction(9, 10)
        else "PARTIAL"
        if rate >= Fraction(1, 2)
        else "FAILED"
    )
    assert decision.status == expected
    # a longer run of the same cases decides the same at the same look (looks see prefixes)
    if decision.look is not None:
        assert decide(plan, [*scores, 1.0, 0.0] * 2) == decision


def test_undecided_until_the_next_look_and_the_end_falls_to_the_point_cut() -> None:
    plan = plan_for("standard")
    assert decide(plan, [1.0] * 19) == Decision("UNDECIDED", 19, None, early=False)
    assert decide(plan, [1.0] * 25).status == "UNDECIDED"  # 20 do not decide; 30 not yet in
    short = [1.0] * 9 + [0.0]
    assert decide(plan, short * 3) == Decision("UNDECIDED", 30, None, early=False)
    assert decide(plan, short * 3, final=True) == Decision("CERTIFIED", 30, None, early=False)
    capped = decide(plan, (short * 20)[: plan.cap])
    assert capped == Decision("CERTIFIED", plan.cap, len(plan.looks), early=False)
    assert decide(plan, [0.0] * 20) == Decision("FAILED", 20, 1, early=True)


def test_fractional_scores_decide_by_their_sum() -> None:
    plan = plan_for("standard")
    assert decide(plan, [0.9] * 40).status == "UNDECIDED"  # a rate of 0.9 decides nothing
    assert decide(plan, [Fraction(9, 10)] * plan.cap).status == "CERTIFIED"
    assert decide(plan, [0.899] * plan.cap).status == "PARTIAL"


def test_quick_and_cases_give_fixed_plans() -> None:
    assert plan_for("quick") == fixed_plan(5)
    assert plan_for("standard", cases=12) == fixed_plan(12)
    assert plan_for("thorough", cases=3) == fixed_plan(3)
    with pytest.raises(ValueError, match="level"):
        plan_for("exhaustive")
    with pytest.raises(ValueError, match="at least one"):
        fixed_plan(0)


def test_the_sentence_states_the_computed_oc() -> None:
    from scipy.stats import binom

    plan = plan_for("standard")
    low = operating_characteristic(plan, 0.85).certified
    high = operating_characteristic(plan, 0.95).certified
    sentence = oc_sentence(plan)
    assert f"85% is certified in at most {math.ceil(low * 100)} runs of 100" in sentence
    assert f"95% in at least {math.floor(high * 100)}" in sentence
    assert "weak" not in sentence
    small = oc_sentence(fixed_plan(3))
    assert "weak" in small
    assert f"certified in {math.ceil(binom.sf(2, 3, 0.85) * 100)} runs" in small
    assert "conservative" in oc_sentence(plan, samples=3)
    # A fixed plan's copies of one input are in its rate: its OC is for independent cases,
    # and the sentence adds the risks for copies answered alike. A sequential plan counts
    # each input once, so it says nothing of them.
    copied = oc_sentence(fixed_plan(5), copies=(3, 1, 1))
    assert "2 of these repeat an earlier case's input" in copied
    low, _ = alike_outcome((3, 1, 1), 0.85)
    assert f"its 3 inputs certify one at 85% in {math.ceil(low * 100)} runs of 100" in copied
    assert oc_sentence(plan, copies=(3, 1, 1)) == sentence
    assert oc_sentence(fixed_plan(3), copies=(1, 1, 1)) == oc_sentence(fixed_plan(3))
    # Copies that change nothing are no part of the cached sentence's key: each scaffold's
    # own (a sequential plan's, or one case per input) missed the cache, and every report
    # computed the OC again (the harness's CPU per answer rose by a tenth).
    from verification.certify.operating import _oc_sentence

    oc_sentence(plan, copies=(2, 1))
    cached = _oc_sentence.cache_info().currsize
    oc_sentence(plan, copies=(3, 3, 1))
    oc_sentence(fixed_plan(3), copies=(1, 1, 1))
    assert _oc_sentence.cache_info().currsize == cached


@pytest.mark.parametrize("p", [0.0, 0.4, 0.6, 0.85, 0.95, 1.0])
def test_copies_answered_alike_are_cut_exactly_and_one_each_is_the_plan_s_oc(p: float) -> None:
    """``alike_outcome`` against every way the inputs can fall (brute force), and against
    the fixed plan's binomial OC where no input repeats (hunt gg simulated 0.37 where the OC
    said 0.185 for n_queens' copies)."""
    copies = (4, 3, 1, 1, 1, 2)
    cases = sum(copies)
    certified = failed = 0.0
    for right in itertools.product((0, 1), repeat=len(copies)):
        chance = math.prod(p if r else 1 - p for r in right)
        passes = sum(c for c, r in zip(copies, right, strict=True) if r)
        certified += chance if Fraction(passes, cases) >= Fraction(9, 10) else 0.0
        failed += chance if Fraction(passes, cases) < Fraction(1, 2) else 0.0
    assert alike_outcome(copies, p) == pytest.approx((certified, failed), abs=1e-12)
    oc = operating_characteristic(fixed_plan(9), p)
    assert alike_outcome((1,) * 9, p) == pytest.approx((oc.certified, oc.failed), abs=1e-12)
