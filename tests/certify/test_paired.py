"""Paired statistics against independent oracles: scipy's binomial test for exact McNemar,
Holm's sequential rejection rule for the adjusted p-values."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verification.certify.paired import (
    ALPHA,
    MIN_DISCORDANT,
    holm_adjust,
    mcnemar_exact,
    paired_comparison,
)


@pytest.mark.parametrize("only_a", range(0, 31, 3))
@pytest.mark.parametrize("only_b", range(0, 31, 4))
def test_exact_mcnemar_is_scipys_two_sided_binomial_test(only_a: int, only_b: int) -> None:
    from scipy.stats import binomtest

    n = only_a + only_b
    expected = 1.0 if n == 0 else binomtest(only_a, n, 0.5, alternative="two-sided").pvalue
    assert mcnemar_exact(only_a, only_b) == pytest.approx(expected, rel=1e-12)


def test_six_discordant_cases_is_the_fewest_that_can_be_significant() -> None:
    assert mcnemar_exact(0, MIN_DISCORDANT) < ALPHA <= mcnemar_exact(0, MIN_DISCORDANT - 1)


def _holm_rejections(p_values: dict[str, float], alpha: float) -> set[str]:
    """Holm's procedure as first stated: walk the p-values upward, reject while
    ``p_(i) <= alpha / (m - i)``, stop at the first that is not."""
    ordered = sorted(p_values.items(), key=lambda item: item[1])
    rejected: set[str] = set()
    for i, (key, p) in enumerate(ordered):
        if p > alpha / (len(ordered) - i):
            break
        rejected.add(key)
    return rejected


@given(
    st.dictionaries(
        st.text(min_size=1, max_size=4),
        st.floats(min_value=0, max_value=1, allow_nan=False),
        max_size=12,
    ),
    st.sampled_from([0.01, 0.05, 0.1]),
)
def test_holm_adjusted_values_reject_what_holms_procedure_rejects(
    p_values: dict[str, float], alpha: float
) -> None:
    adjusted = holm_adjust(p_values)
    assert adjusted.keys() == p_values.keys()
    assert all(p_values[key] <= value <= 1 for key, value in adjusted.items())
    # Ties at exactly alpha aside (a float rounding decides them), the two rules agree.
    clear = {k: v for k, v in adjusted.items() if abs(v - alpha) > 1e-9}
    assert {k for k in clear if adjusted[k] <= alpha} == _holm_rejections(p_values, alpha) & set(
        clear
    )


def test_a_paired_comparison_counts_only_the_shared_cases() -> None:
    from scipy.stats import binomtest

    a = {f"c{i}": i < 10 for i in range(14)} | {"only-in-a": True}
    b = {f"c{i}": i >= 2 for i in range(14)} | {"only-in-b": False}
    result = paired_comparison(a, b)
    # c0-c1 only A, c10-c13 only B, c2-c9 both.
    assert (result.shared, result.only_a, result.only_b, result.both) == (14, 2, 4, 8)
    assert result.p_value == pytest.approx(binomtest(2, 6, 0.5).pvalue)
    assert result.verdict() == "no detectable difference at this n"


def test_verdicts_name_the_better_run_or_say_the_split_is_too_small() -> None:
    cases = [str(i) for i in range(9)]
    better_b = paired_comparison(dict.fromkeys(cases, False), dict.fromkeys(cases, True))
    assert better_b.verdict(a="current", b="draft") == "draft is better"
    assert better_b.verdict(0.2) == "no detectable difference at this n"
    few = paired_comparison({"x": True, "y": True}, {"x": False, "y": False})
    assert few.verdict() == "significance out of reach at this n"
