"""Paired statistics: two runs judged on the very cases both answered.

Two pass rates measured on different cases are compared with wide, overlapping intervals;
the same cases asked twice differ only where the answers differ. On the shared cases, the
ones both runs passed or both failed say nothing about which run is better; the evidence is
the *discordant* split: ``only_a`` cases only run A passed, ``only_b`` cases only run B
passed. Exact McNemar is the two-sided binomial test of that split against 1/2 (no normal
approximation, so it holds at the small counts a scaffold author meets). With fewer than
:data:`MIN_DISCORDANT` discordant cases no split reaches ``p < 0.05`` (five out of five gives
``p = 0.0625``): the verdict says so rather than "no difference".

Several scaffolds tested at once are corrected with Holm's step-down method, which controls
the chance of any false alarm across the run without Bonferroni's loss of power.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "ALPHA",
    "MIN_DISCORDANT",
    "PairedComparison",
    "holm_adjust",
    "mcnemar_exact",
    "paired_comparison",
]

ALPHA = 0.05
"""The family-wise error rate of a verdict."""
MIN_DISCORDANT = 6
"""The fewest discordant cases at which an exact two-sided McNemar test can reach ``ALPHA``
(``2 * 0.5**6 = 0.03125``; ``2 * 0.5**5 = 0.0625``)."""
OUT_OF_REACH = "significance out of reach at this n"


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


@dataclass(frozen=True)
class PairedComparison:
    """Two runs on the cases both answered (first sample of each case)."""

    shared: int
    """Cases both runs answered."""
    only_a: int
    """Cases run A passed and run B failed."""
    only_b: int
    """Cases run B passed and run A failed."""
    both: int
    """Cases both passed."""
    p_value: float
    """Exact McNemar, two-sided (before any correction for several scaffolds)."""

    @property
    def discordant(self) -> int:
        return self.only_a + self.only_b

    @property
    def in_reach(self) -> bool:
        """Whether this many discordant cases could ever be significant."""
        return self.discordant >= MIN_DISCORDANT

    def verdict(self, p_value: float | None = None, *, a: str = "A", b: str = "B") -> str:
        """What the split says, at :data:`ALPHA`, with ``p_value`` (default: this
        comparison's own; pass a Holm-adjusted one when several were tested)."""
        p = self.p_value if p_value is None else p_value
        if not self.in_reach:
            return OUT_OF_REACH
        if p >= ALPHA:
            return "no detectable difference at this n"
        return f"{b} is better" if self.only_b > self.only_a else f"{a} is better"


def paired_comparison(a: Mapping[str, bool], b: Mapping[str, bool]) -> PairedComparison:
    """Compare two runs' outcomes by case id (``True`` = passed) on the ids both hold."""
    shared: Sequence[str] = sorted(a.keys() & b.keys())
    only_a = sum(a[case] and not b[case] for case in shared)
    only_b = sum(b[case] and not a[case] for case in shared)
    both = sum(a[case] and b[case] for case in shared)
    return PairedComparison(
        shared=len(shared),
        only_a=only_a,
        only_b=only_b,
        both=both,
        p_value=mcnemar_exact(only_a, only_b),
    )
