"""How many answers a pass rate stands on: samples that cluster, and answers that never came.

With ``--samples K`` each case is answered K times. The K answers to one case are not K
independent answers: a case the model finds hard it tends to fail every time. The
intra-case correlation ``rho`` (the ANOVA estimator over the cases' tallies, clipped to
[0, 1]) measures that; ``N`` answers in ``n`` cases of mean size ``k0`` are worth
``N / (1 + (k0 - 1) * rho)`` independent ones (Kish's design effect). The interval of the
rate (:mod:`verification.certify.results`) is Wilson's at that effective number: ``n`` when
the samples always agree (``rho`` = 1, or nothing to estimate it from), ``N`` when they are
as independent as coin flips. With one sample per case it is Wilson's at ``n``, as before.

An infrastructure error is no answer, so it leaves ``n``; if the errors fell on the hard
cases the rate is biased upward. :func:`worst_case_rate` is the rate had every errored
answer failed, shown beside the rate.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from verification.certify.statuses import wilson_interval

__all__ = [
    "effective_answers",
    "effective_interval",
    "intra_case_correlation",
    "worst_case_rate",
]


def intra_case_correlation(tallies: Iterable[tuple[int, int]]) -> float | None:
    """The ANOVA estimate of the intra-case correlation of answers, clipped to [0, 1], from
    each case's ``(answers that pass, answers counted)``; ``None`` when it cannot be
    estimated (fewer than two cases, no case with two answers, or no variation at all).

    Examples
    --------
    >>> intra_case_correlation([(3, 3), (0, 3), (3, 3), (0, 3)])  # samples always agree
    1.0
    >>> intra_case_correlation([(1, 2), (1, 2), (1, 2), (1, 2)])  # no case differs
    0.0
    >>> intra_case_correlation([(1, 1), (0, 1)]) is None  # one sample each
    True
    """
    cases = [(good, seen) for good, seen in tallies if seen > 0]
    n = len(cases)
    total = sum(seen for _, seen in cases)
    if n < 2 or total <= n:
        return None
    mean = sum(good for good, _ in cases) / total
    between = sum(seen * (good / seen - mean) ** 2 for good, seen in cases) / (n - 1)
    within = sum(good * (1 - good / seen) for good, seen in cases) / (total - n)
    k0 = (total - sum(seen * seen for _, seen in cases) / total) / (n - 1)
    denominator = between + (k0 - 1) * within
    if denominator <= 0:
        return None
    return min(1.0, max(0.0, (between - within) / denominator))


def effective_answers(tallies: Iterable[tuple[int, int]]) -> float:
    """The number of independent answers the tallies are worth: ``N / (1 + (k0 - 1) *
    rho)``, and ``n`` (the cases) when ``rho`` cannot be estimated."""
    cases = [(good, seen) for good, seen in tallies if seen > 0]
    n = len(cases)
    if n == 0:
        return 0.0
    rho = intra_case_correlation(cases)
    if rho is None:
        return float(n)
    total = sum(seen for _, seen in cases)
    k0 = (total - sum(seen * seen for _, seen in cases) / total) / (n - 1)
    return max(float(n), total / (1 + (k0 - 1) * rho))


def worst_case_rate(tallies: Mapping[str, tuple[int, int]], errors: Mapping[str, int]) -> float:
    """The pass rate had every answer lost to an infrastructure error failed: each case's
    score over its counted and errored answers, the mean over every case with either.

    Examples
    --------
    >>> worst_case_rate({"a": (1, 1), "b": (1, 1)}, {"c": 1, "b": 1})  # c only errored
    0.5
    """
    cases = tallies.keys() | {case for case, count in errors.items() if count}
    if not cases:
        return 0.0
    scores = []
    for case in cases:
        good, seen = tallies.get(case, (0, 0))
        scores.append(good / (seen + errors.get(case, 0)))
    return sum(scores) / len(scores)


def effective_interval(
    score: float, n: int, tallies: Iterable[tuple[int, int]]
) -> tuple[float, float]:
    """The 95% Wilson interval of a mean case score (``score`` over ``n`` cases) at the
    effective number of answers of the inputs' ``tallies``
    (:func:`~verification.certify.inputs.input_tallies`): ``n`` with one sample per case
    and no input drawn twice, more when samples of a case vary independently, fewer when
    copies of an input agree. The level's and each swept size's (hunt ag: a size's was
    Wilson's at ``n`` whatever its samples said, where the guide says the samples count)."""
    if not n:
        return 0.0, 1.0
    effective = effective_answers(tallies)
    return wilson_interval(score / n * effective, effective)
