"""The regression gate against independent oracles: scipy's one-sided binomial test, a
simulation of its power, a simulation of its false alarm rate over a catalog with nothing
changed (through the decision code a run uses), and Newcombe's paired interval against the
coverage it claims."""

from __future__ import annotations

import math

import numpy as np
import pytest

from verification.certify.paired import (
    ALPHA,
    PairedComparison,
    drop_p_value,
    drop_power,
    gate_adjust,
    mcnemar_exact,
    min_attainable,
    paired_comparison,
    paired_difference_interval,
    tarone_family,
)
from verification.reports.regressions import judge, paired_rows


@pytest.mark.parametrize("only_a", range(0, 25, 3))
@pytest.mark.parametrize("only_b", range(0, 25, 4))
def test_the_drop_p_value_is_scipys_one_sided_binomial_test(only_a: int, only_b: int) -> None:
    from scipy.stats import binomtest

    n = only_a + only_b
    expected = 1.0 if n == 0 else binomtest(only_a, n, 0.5, alternative="greater").pvalue
    assert drop_p_value(only_a, only_b) == pytest.approx(expected, rel=1e-12)
    if n:
        assert min_attainable(n) == pytest.approx(drop_p_value(n, 0), rel=1e-12)


def test_tarone_leaves_out_what_can_never_reach_the_level() -> None:
    # 12 scaffolds that each could reach 0.05 alone, one with 3 discordant cases (at best
    # p = 1/8) and twenty with none: the family is the twelve, and K = 12 is the least count
    # at which no more than K can reach 0.05 / K.
    p_min = {f"s{i}": min_attainable(12) for i in range(12)}
    p_min |= {"few": min_attainable(3)} | {f"quiet{i}": 1.0 for i in range(20)}
    family = tarone_family(p_min)
    assert family == {f"s{i}" for i in range(12)}
    k = len(family)
    assert all(p_min[key] <= ALPHA / k for key in family)
    assert sum(p <= ALPHA / (k - 1) for p in p_min.values()) > k - 1  # K - 1 would not do


def _tarone_by_definition(p_min: dict[str, float]) -> set[str]:
    """Tarone's family as defined: the keys at or below alpha / K for the least K at which
    no more than K keys are."""
    for k in range(1, len(p_min) + 1):
        family = {key for key, p in p_min.items() if p <= ALPHA / k}
        if len(family) <= k:
            return family
    return set()


def test_tarone_family_is_its_definition_over_random_catalogs() -> None:
    rng = np.random.default_rng(1990)
    for _ in range(300):
        size = int(rng.integers(0, 40))
        discordant = rng.integers(0, 14, size=size)
        p_min = {f"s{i}": min_attainable(int(d)) for i, d in enumerate(discordant)}
        assert tarone_family(p_min) == _tarone_by_definition(p_min)


def _comparison(shared: int, only_a: int, only_b: int) -> PairedComparison:
    return PairedComparison(shared, only_a, only_b, 0, mcnemar_exact(only_a, only_b))


def test_a_lone_drop_among_quiet_scaffolds_is_tested_at_the_full_level() -> None:
    from scipy.stats import binomtest

    # Plain Holm over 33 scaffolds would ask p <= 0.05 / 33 of the one that moved.
    comparisons = {"moved": _comparison(40, 6, 0)} | {
        f"quiet{i}": _comparison(40, 1, 1) for i in range(32)
    }
    gate = gate_adjust(comparisons)
    assert gate["moved"] == pytest.approx(binomtest(6, 6, 0.5, alternative="greater").pvalue)
    assert all(gate[f"quiet{i}"] is None for i in range(32))
    rows = paired_rows(comparisons)
    comparison = judge("before", {}, {}, rows)
    assert comparison.regressions == ["moved"]
    assert 6 * drop_p_value(6, 0) > ALPHA  # so Holm over all 33 would not have found it


@pytest.mark.parametrize("n", [40, 120, 240])
def test_the_stated_power_is_what_a_simulation_of_the_gate_finds(n: int) -> None:
    rng = np.random.default_rng(n)
    runs = 20_000
    before = rng.random((runs, n)) < 0.90
    after = rng.random((runs, n)) < 0.80
    only_a = (before & ~after).sum(axis=1)
    only_b = (~before & after).sum(axis=1)
    caught = np.mean(
        [drop_p_value(int(x), int(y)) <= ALPHA for x, y in zip(only_a, only_b, strict=True)]
    )
    assert caught == pytest.approx(drop_power(n), abs=4 * np.sqrt(0.25 / runs))


_CATALOG = {
    "mixed": [1.0] * 10 + [0.98] * 5 + [0.95] * 5 + [0.9] * 5 + [0.85] * 3 + [0.75] * 3 + [0.6] * 2,
    "all at 0.90": [0.9] * 33,
    "all at 0.50": [0.5] * 33,
}


def _point_status(score: int, n: int) -> str:
    return "CERTIFIED" if 10 * score >= 9 * n else "PARTIAL" if 2 * score >= n else "FAILED"


@pytest.mark.slow
@pytest.mark.parametrize("n", [40, 240], ids=["standard", "thorough"])
@pytest.mark.parametrize("catalog", list(_CATALOG))
def test_over_a_catalog_with_nothing_changed_the_gate_fires_at_most_one_night_in_twenty(
    n: int, catalog: str
) -> None:
    """Two runs of 33 scaffolds whose answers are independent draws at unchanged rates:
    the share of nights with a regression (what exits 5) stays at or below 0.05."""
    rates = np.array(_CATALOG[catalog])
    rng = np.random.default_rng(2026)
    nights = 2000
    # Per night and scaffold: cases both runs passed, only the earlier, only the later, none.
    law = np.stack([rates**2, rates * (1 - rates), (1 - rates) * rates, (1 - rates) ** 2], 1)
    counts = rng.multinomial(n, law, size=(nights, len(rates)))
    names = [f"s{i}" for i in range(len(rates))]
    # A scaffold's night is one of a few hundred (both, only A, only B) triples: each
    # triple's comparison (frozen) and statuses are made once and shared by the nights.
    made: dict[tuple[int, int, int], tuple[PairedComparison, dict[str, str], str]] = {}
    fired = 0
    for night in counts:
        comparisons, before, now = {}, {}, {}
        for name, (both, only_a, only_b, _) in zip(names, night.tolist(), strict=True):
            key = (both, only_a, only_b)
            known = made.get(key)
            if known is None:
                known = made[key] = (
                    PairedComparison(n, only_a, only_b, both, mcnemar_exact(only_a, only_b)),
                    {"status": _point_status(both + only_a, n)},
                    _point_status(both + only_b, n),
                )
            comparisons[name], before[name], now[name] = known
        rows = paired_rows(comparisons)
        fired += bool(judge("before", {"scaffolds": before}, now, rows).regressions)
    print(f"{catalog}, n = {n}: P(exit 5) = {fired / nights:.4f}")
    assert fired / nights <= ALPHA


@pytest.mark.parametrize(
    ("before", "after", "only_now", "n"),
    [
        (0.9, 0.9, 0.09, 40),  # independent answers at an unchanged rate
        (0.9, 0.8, 0.08, 40),  # independent answers, a drop of 0.10
        (0.9, 0.8, 0.01, 40),  # a drop on cases that were right, little else moves
        (0.95, 0.85, 0.02, 100),
        (0.6, 0.5, 0.1, 60),
        (0.98, 0.95, 0.0, 40),
    ],
)
def test_the_paired_difference_interval_covers_the_true_difference(
    before: float, after: float, only_now: float, n: int
) -> None:
    """Pairs drawn from a joint law with the given marginals (``only_now`` the chance a
    case passes now only): the 95% interval holds ``after - before`` in about 95% of runs."""
    only_before = before - after + only_now
    law = [after - only_now, only_before, only_now, 1 - before - only_now]  # 11, 10, 01, 00
    rng = np.random.default_rng(7)
    runs = 2000
    covered = 0
    intervals: dict[tuple[int, ...], tuple[float, float]] = {}  # runs with the same counts
    for counts in rng.multinomial(n, law, size=runs):
        both, a_only, b_only, neither = key = tuple(int(c) for c in counts)
        if key not in intervals:
            a = [1.0] * (both + a_only) + [0.0] * (b_only + neither)
            b = [1.0] * both + [0.0] * a_only + [1.0] * b_only + [0.0] * neither
            intervals[key] = paired_difference_interval(a, b)
        low, high = intervals[key]
        covered += low <= after - before <= high
    assert covered / runs >= 0.93


def test_several_samples_pair_case_scores_not_first_samples() -> None:
    # Case x: A passed 1 of 3 samples, B 3 of 3; the first samples agree (both failed).
    a = {"x": 1 / 3, "y": 1.0, "z": 0.0}
    b = {"x": 1.0, "y": 1.0, "z": 0.0}
    result = paired_comparison(a, b)
    assert (result.only_a, result.only_b, result.both) == (0, 1, 1)
    assert result.rate_a == pytest.approx((1 / 3 + 1) / 3)
    assert result.difference == pytest.approx(2 / 9)
    low, high = result.interval
    assert low <= result.difference <= high


def _newcombe_from_counts(both: int, a_only: int, b_only: int, neither: int) -> tuple[float, float]:
    """Newcombe's method 10 as written for a 2x2 table, with his continuity-corrected phi:
    an oracle written from the table, apart from the scores' version under test."""
    from scipy.stats import binomtest

    n = both + a_only + b_only + neither
    p1, p2 = (both + a_only) / n, (both + b_only) / n
    l1, u1 = binomtest(both + a_only, n).proportion_ci(method="wilson")
    l2, u2 = binomtest(both + b_only, n).proportion_ci(method="wilson")
    e, f, g, h = both + a_only, b_only + neither, both + b_only, a_only + neither
    if 0 in (e, f, g, h):
        phi = 0.0
    else:
        ad_bc = both * neither - a_only * b_only
        if ad_bc > 0:
            ad_bc = max(ad_bc - n / 2, 0.0)
        phi = ad_bc / math.sqrt(e * f * g * h)
    delta = p2 - p1
    low = delta - math.sqrt((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2)
    high = delta + math.sqrt((u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2)
    return max(-1.0, low), min(1.0, high)


def test_the_paired_difference_interval_is_newcombe_s_with_his_corrected_phi() -> None:
    # Hunt t: uncorrected, two runs that agreed on every case (a re-run from the response
    # cache always does) got +-0.0 points with 80 cases at 50%.
    rng = np.random.default_rng(11)
    for _ in range(300):
        counts = [int(c) for c in rng.multinomial(int(rng.integers(1, 120)), [0.4, 0.1, 0.1, 0.4])]
        both, a_only, b_only, neither = counts
        a = [1.0] * (both + a_only) + [0.0] * (b_only + neither)
        b = [1.0] * both + [0.0] * a_only + [1.0] * b_only + [0.0] * neither
        assert paired_difference_interval(a, b) == pytest.approx(
            _newcombe_from_counts(*counts), abs=1e-9
        ), counts
    low, high = paired_difference_interval([1.0] * 40 + [0.0] * 40, [1.0] * 40 + [0.0] * 40)
    assert high - low > 0.04  # two runs that agree on 80 cases: still a few points each way
