"""A pass rate's status, by exact fractions so that no rounding decides it (CERTIFIED at a
rate of 9/10 or more, PARTIAL at 1/2 or more, else FAILED; INCOMPLETE when too little was
answered), the thresholds between statuses, and the Wilson interval the reports show."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal

__all__ = [
    "THRESHOLDS",
    "Status",
    "certify",
    "deciding_thresholds",
    "straddles",
    "wilson_interval",
]

Status = Literal["CERTIFIED", "PARTIAL", "FAILED", "INCOMPLETE"]
THRESHOLDS = {"CERTIFIED": 0.9, "PARTIAL": 0.5}
_CERTIFIED = Fraction(9, 10)
_PARTIAL = Fraction(1, 2)
_Z95 = 1.959963984540054


def wilson_interval(passed: float, n: float, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of ``passed / n`` (95% by default); (0, 1) when n = 0.
    ``passed`` may be fractional: the sum of case scores when cases have several samples."""
    if n == 0:
        return 0.0, 1.0
    p = passed / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # The interval holds p: rounding put its ends a hair inside at p = 0 and p = 1.
    return min(max(0.0, centre - half), p), max(min(1.0, centre + half), p)


def _rate_status(score: Fraction | int, n: int) -> Status:
    if score >= _CERTIFIED * n:
        return "CERTIFIED"
    if score >= _PARTIAL * n:
        return "PARTIAL"
    return "FAILED"


def certify(passed: Fraction | int, n: int, *, planned: int, unfinished: int) -> Status:
    """The status of a score of ``passed`` over ``n`` counted cases, ``planned`` answers in
    all (``unfinished`` of them missing or infrastructure errors)."""
    if n == 0 or 10 * unfinished > planned:
        return "INCOMPLETE"
    return _rate_status(passed, n)


def deciding_thresholds(status: str) -> tuple[float, ...]:
    """The thresholds between ``status`` and the statuses next to it."""
    return {
        "CERTIFIED": (THRESHOLDS["CERTIFIED"],),
        "PARTIAL": (THRESHOLDS["PARTIAL"], THRESHOLDS["CERTIFIED"]),
        "FAILED": (THRESHOLDS["PARTIAL"],),
    }.get(status, ())


def straddles(interval: tuple[float, float], status: str) -> bool:
    """Whether ``interval`` holds a threshold that decides ``status`` (it may change with
    more cases)."""
    low, high = interval
    return any(low < threshold <= high for threshold in deciding_thresholds(status))
