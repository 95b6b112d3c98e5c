"""Paired statistics: two runs judged on the very cases both answered.

Two pass rates measured on different cases are compared with wide, overlapping intervals;
the same cases asked twice differ only where the answers differ. Each case has a *score*
per run (the share of its samples that pass: 0 or 1 with one sample). On the shared cases,
the ones both runs scored alike say nothing about which run is better; the evidence is the
*discordant* split: ``only_a`` cases run A scored higher, ``only_b`` cases run B scored
higher. The exact sign test of that split against 1/2 is exact McNemar when each case has
one sample (no normal approximation, so it holds at the small counts a scaffold author
meets), and with several samples it pairs the case scores, not first samples.

Two questions are asked of a split:

- ``compare`` and ``--baseline`` ask *do the runs differ?*: the two-sided test, Holm-corrected
  across the scaffolds compared. Beside it each row carries both rates and the paired
  difference with its 95% interval (:func:`paired_difference_interval`, Newcombe's hybrid
  score interval for paired data).
- The regression gate asks *did this run get worse?*: the one-sided test of a drop
  (:func:`drop_p_value`), corrected across scaffolds by Holm's step-down method within
  Tarone's family (:func:`tarone_family`): a scaffold with too few discordant cases to ever
  reach the level is left out of the count, so that the 30 quiet scaffolds of a night do not
  dilute the one that moved. The family-wise error rate is at most :data:`ALPHA`: over a
  whole catalog with nothing changed, the gate fires on at most one night in twenty.

A quiet night is not proof: :func:`drop_power` gives, exactly, the chance that the gate
catches a drop from 0.90 to 0.80 at a given number of shared cases.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from verification.certify.binomial import binomial_pmf
from verification.certify.results import wilson_interval

__all__ = [
    "ALPHA",
    "DROP_BEFORE",
    "DROP_SIZE",
    "MIN_DISCORDANT",
    "OUT_OF_REACH",
    "PairedComparison",
    "drop_p_value",
    "drop_power",
    "gate_adjust",
    "holm_adjust",
    "mcnemar_exact",
    "min_attainable",
    "paired_comparison",
    "paired_difference_interval",
    "tarone_family",
]

ALPHA = 0.05
"""The family-wise error rate of a verdict (and so the most a single scaffold is tested at)."""
MIN_DISCORDANT = 6
"""The fewest discordant cases at which an exact two-sided McNemar test can reach ``ALPHA``
(``2 * 0.5**6 = 0.03125``; ``2 * 0.5**5 = 0.0625``)."""
OUT_OF_REACH = "significance out of reach at this n"
DROP_BEFORE = 0.90
"""The rate the gate's stated power starts from: the certification threshold."""
DROP_SIZE = 0.10
"""The drop the gate's stated power is for (0.90 to 0.80)."""


@lru_cache(maxsize=65536)
def mcnemar_exact(only_a: int, only_b: int) -> float:
    """The two-sided p-value of exact McNemar on a discordant split.

    Parameters
    ----------
    only_a, only_b : int
        Cases only the first run passed, cases only the second run passed.

    Returns
    -------
    float
        ``P(X <= min | X ~ Binomial(only_a + only_b, 1/2))``, doubled and capped at 1: the
        binomial test is symmetric at 1/2, so the two tails are equal. 1.0 with no
        discordant case.

    Examples
    --------
    >>> mcnemar_exact(0, 6)
    0.03125
    >>> mcnemar_exact(3, 3)
    1.0
    """
    if only_a < 0 or only_b < 0:
        raise ValueError(f"counts must not be negative: {only_a}, {only_b}")
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1))
    # Exact integer arithmetic until the one division: no rounding decides a verdict.
    return min(1.0, 2 * tail / (1 << n))


@lru_cache(maxsize=65536)
def drop_p_value(only_a: int, only_b: int) -> float:
    """The one-sided p-value of a drop from run A to run B: exact sign test (exact McNemar
    with one sample per case) of ``only_a`` cases A scored higher against ``only_b`` cases
    B scored higher, ``P(X >= only_a | X ~ Binomial(only_a + only_b, 1/2))``; 1.0 with no
    discordant case.

    Examples
    --------
    >>> drop_p_value(5, 0)
    0.03125
    >>> drop_p_value(0, 5)
    1.0
    """
    if only_a < 0 or only_b < 0:
        raise ValueError(f"counts must not be negative: {only_a}, {only_b}")
    n = only_a + only_b
    if n == 0:
        return 1.0
    # Exact integer arithmetic until the one division, as mcnemar_exact (scipy's binomtest
    # gives the same; importing scipy.stats costs a run about a second of CPU).
    return min(1.0, sum(math.comb(n, k) for k in range(only_a, n + 1)) / (1 << n))


def min_attainable(discordant: int) -> float:
    """The smallest p-value :func:`drop_p_value` can give with ``discordant`` cases (all of
    them one way): ``0.5 ** discordant``."""
    return 0.5**discordant


def tarone_family(p_min: Mapping[str, float], alpha: float = ALPHA) -> set[str]:
    """Tarone's family: the keys whose smallest attainable p-value can reach ``alpha / K``,
    ``K`` the least count with at most ``K`` such keys.

    A discrete test with few discordant cases can never be significant; counting it in a
    multiple-testing correction only lowers the level of the others. The family depends on
    the discordant counts alone, on which the exact tests are conditioned, so Holm within
    it still bounds the family-wise error rate by ``alpha`` (Tarone 1990, Biometrics 46).

    Examples
    --------
    >>> sorted(tarone_family({"a": 0.5**10, "b": 0.5**3, "c": 1.0}))
    ['a']
    """
    # How many keys each cut keeps is counted on the sorted values (a bisection per cut);
    # the family is gathered once, at the cut that holds.
    ordered = sorted(p_min.values())
    for k in range(1, len(p_min) + 1):
        if bisect_right(ordered, alpha / k) <= k:
            return {key for key, p in p_min.items() if p <= alpha / k}
    return set()


def holm_adjust(p_values: Mapping[str, float]) -> dict[str, float]:
    """Holm-adjusted p-values, by the same keys.

    The i-th smallest of ``m`` p-values is multiplied by ``m - i`` (i from 0), made no
    smaller than the adjusted value before it, and capped at 1; a key is significant at
    ``ALPHA`` when its adjusted value is below it.

    Examples
    --------
    >>> holm_adjust({"a": 0.01, "b": 0.04, "c": 0.03})
    {'a': 0.03, 'b': 0.06, 'c': 0.06}
    """
    ordered = sorted(p_values.items(), key=lambda item: item[1])
    m = len(ordered)
    adjusted: dict[str, float] = {}
    running = 0.0
    for i, (key, p) in enumerate(ordered):
        running = max(running, min(1.0, (m - i) * p))
        adjusted[key] = running
    return {key: adjusted[key] for key in p_values}


def gate_adjust(
    comparisons: Mapping[str, PairedComparison], alpha: float = ALPHA
) -> dict[str, float | None]:
    """The regression gate's adjusted p-values: :func:`drop_p_value` of each comparison,
    Holm-adjusted within :func:`tarone_family`; ``None`` for a key outside the family (its
    split cannot reach the level: out of reach at this n)."""
    family = tarone_family(
        {key: min_attainable(c.discordant) for key, c in comparisons.items()}, alpha
    )
    adjusted = holm_adjust({key: comparisons[key].p_drop for key in family})
    return {key: adjusted.get(key) for key in comparisons}


@lru_cache(maxsize=65536)
def _fewest_rejected(discordant: int, level: float) -> int:
    """The fewest of ``discordant`` cases one way at which the test rejects at ``level``:
    the first k whose tail P(X >= k | discordant, 1/2) is at most ``level`` (or
    ``discordant + 1``: none). The same at every n, drop and rate, so each power reads it."""
    tail = binomial_pmf(discordant, 0.5)[::-1].cumsum()[::-1]
    return int((tail > level).sum())


@lru_cache(maxsize=65536)
def _tail(trials: int, chance: float, k: int) -> float:
    """P(X >= k | X ~ Binomial(trials, chance)): the same for every n a power is asked at."""
    return float(binomial_pmf(trials, chance)[k:].sum())


@lru_cache(maxsize=4096)
def drop_power(
    n: int, level: float = ALPHA, *, before: float = DROP_BEFORE, drop: float = DROP_SIZE
) -> float:
    """The chance that the one-sided test at ``level`` finds a drop from ``before`` to
    ``before - drop`` on ``n`` shared cases, computed exactly.

    Each case passes in the earlier run with probability ``before`` and in the later with
    ``before - drop``, independently (no case harder than another). Cases that are hard for
    both runs only make the split cleaner, so this is the power's floor for that drop.

    Examples
    --------
    >>> round(drop_power(40), 3)
    0.23
    >>> drop_power(0)
    0.0
    """
    if n <= 0:
        return 0.0
    after = before - drop
    only_a, only_b = before * (1 - after), (1 - before) * after
    share = only_a / (only_a + only_b)
    discordant = binomial_pmf(n, only_a + only_b)
    power = 0.0
    for d in range(1, n + 1):
        k = _fewest_rejected(d, level)
        if k <= d:
            power += float(discordant[d]) * _tail(d, share, k)
    return min(1.0, power)


def _correlation(a: Sequence[float], b: Sequence[float]) -> float:
    n = len(a)
    mean_a, mean_b = sum(a) / n, sum(b) / n
    cov = sum((x - mean_a) * (y - mean_b) for x, y in zip(a, b, strict=True))
    var_a = sum((x - mean_a) ** 2 for x in a)
    var_b = sum((y - mean_b) ** 2 for y in b)
    if var_a <= 0 or var_b <= 0:
        return 0.0  # a constant run: Newcombe takes phi as 0
    if cov > 0:
        # Newcombe's continuity correction of phi, AD - BC less n/2 (the sum of products
        # here is (AD - BC)/n): uncorrected, two runs that agree on every case got an
        # interval of +-0 (phi 1), a precision no number of cases gives.
        cov = max(cov - 0.5, 0.0)
    return max(-1.0, min(1.0, cov / math.sqrt(var_a * var_b)))


def paired_difference_interval(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The 95% interval of ``mean(b) - mean(a)`` for paired case scores in [0, 1].

    Newcombe's hybrid score interval for paired proportions (Newcombe 1998, Statistics in
    Medicine 17, method 10): each run's Wilson interval, joined through the correlation of
    the pairs (phi with one sample per case, the scores' Pearson correlation with several),
    continuity-corrected as Newcombe gives it (Fagerland et al. 2014 recommend this form).
    (-1, 1) with no pair.

    Examples
    --------
    Two runs of 80 cases at 50% that agree on every case bound the difference to about
    +-2.4 points, not to 0:

    >>> low, high = paired_difference_interval([1] * 40 + [0] * 40, [1] * 40 + [0] * 40)
    >>> round(low, 3), round(high, 3)
    (-0.024, 0.024)
    """
    n = len(a)
    if n == 0:
        return -1.0, 1.0
    p1, p2 = sum(a) / n, sum(b) / n
    l1, u1 = wilson_interval(sum(a), n)
    l2, u2 = wilson_interval(sum(b), n)
    phi = _correlation(a, b)
    delta = p2 - p1
    below_b, above_a = p2 - l2, u1 - p1  # how far B's rate may fall and A's rise
    above_b, below_a = u2 - p2, p1 - l1
    low = delta - math.sqrt(max(0.0, below_b**2 - 2 * phi * below_b * above_a + above_a**2))
    high = delta + math.sqrt(max(0.0, above_b**2 - 2 * phi * above_b * below_a + below_a**2))
    return max(-1.0, low), min(1.0, high)


@dataclass(frozen=True)
class PairedComparison:
    """Two runs on the cases both answered (each case's score: the share of its samples
    that pass)."""

    shared: int
    """Cases both runs answered."""
    only_a: int
    """Cases run A scored higher (with one sample: A passed and B failed)."""
    only_b: int
    """Cases run B scored higher (with one sample: B passed and A failed)."""
    both: int
    """Cases both runs passed with every sample."""
    p_value: float
    """The exact sign test, two-sided (exact McNemar with one sample; before any correction
    for several scaffolds)."""
    score_a: float = 0.0
    """Run A's sum of case scores on the shared cases."""
    score_b: float = 0.0
    interval: tuple[float, float] = (-1.0, 1.0)
    """The 95% interval of ``rate_b - rate_a`` (:func:`paired_difference_interval`)."""

    @property
    def discordant(self) -> int:
        return self.only_a + self.only_b

    @property
    def in_reach(self) -> bool:
        """Whether this many discordant cases could ever be significant (two-sided)."""
        return self.discordant >= MIN_DISCORDANT

    @property
    def rate_a(self) -> float:
        return self.score_a / self.shared if self.shared else 0.0

    @property
    def rate_b(self) -> float:
        return self.score_b / self.shared if self.shared else 0.0

    @property
    def difference(self) -> float:
        """``rate_b - rate_a`` on the shared cases."""
        return self.rate_b - self.rate_a

    @property
    def p_drop(self) -> float:
        """The one-sided p-value of a drop from A to B (:func:`drop_p_value`)."""
        return drop_p_value(self.only_a, self.only_b)

    def verdict(self, p_value: float | None = None, *, a: str = "A", b: str = "B") -> str:
        """What the split says, at :data:`ALPHA`, with ``p_value`` (default: this
        comparison's own; pass a Holm-adjusted one when several were tested)."""
        p = self.p_value if p_value is None else p_value
        if not self.in_reach:
            return OUT_OF_REACH
        if p >= ALPHA:
            return "no detectable difference at this n"
        return f"{b} is better" if self.only_b > self.only_a else f"{a} is better"


def paired_comparison(a: Mapping[str, float], b: Mapping[str, float]) -> PairedComparison:
    """Compare two runs' case scores (``True``/``False`` or a share of samples passed) by
    case id, on the ids both hold."""
    shared: Sequence[str] = sorted(a.keys() & b.keys())
    scores_a = [float(a[case]) for case in shared]
    scores_b = [float(b[case]) for case in shared]
    only_a = sum(x > y for x, y in zip(scores_a, scores_b, strict=True))
    only_b = sum(y > x for x, y in zip(scores_a, scores_b, strict=True))
    both = sum(x == y == 1 for x, y in zip(scores_a, scores_b, strict=True))
    return PairedComparison(
        shared=len(shared),
        only_a=only_a,
        only_b=only_b,
        both=both,
        p_value=mcnemar_exact(only_a, only_b),
        score_a=sum(scores_a),
        score_b=sum(scores_b),
        interval=paired_difference_interval(scores_a, scores_b),
    )
