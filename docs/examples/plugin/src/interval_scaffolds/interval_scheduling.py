"""Interval scheduling: the most intervals that do not overlap.

The spec gives the required fields and a stress range (which ``check`` warns about
without); the harness fills the rest: the Markdown is
``interval_scheduling.md`` beside this module, the title its first heading, the sizes the
middle of the simple and standard ranges and the lower end of the edge range, and the
mutants generic ones made from the answer's shape.
"""

from __future__ import annotations

import random
from typing import Any

from verification import AnswerSchema, ExactMatchValidator, ScaffoldSpec, SizeAxis, Tier


class IntervalAnswer(AnswerSchema):
    """How many intervals the largest set of pairwise disjoint ones holds."""

    count: int


def interval_scheduling(intervals: list[list[int]]) -> dict[str, Any]:
    """The size of a largest set of pairwise non-overlapping intervals.

    Greedy by earliest end: take the interval that ends first, drop every interval that
    overlaps it, repeat. Intervals are half-open, ``[start, end)``: one ending at 5 and one
    starting at 5 do not overlap.

    Parameters
    ----------
    intervals : list of [int, int]
        ``[start, end]`` pairs with ``start < end``.

    Returns
    -------
    dict
        ``{"count": n}``.

    Examples
    --------
    >>> interval_scheduling([[1, 4], [3, 5], [0, 6], [5, 7], [3, 9], [5, 9], [6, 10], [8, 11]])
    {'count': 3}
    >>> interval_scheduling([])
    {'count': 0}
    """
    count = 0
    free_from: int | None = None
    for start, end in sorted(intervals, key=lambda interval: interval[1]):
        if free_from is None or start >= free_from:
            count += 1
            free_from = end
    return {"count": count}


def generate(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """``size`` intervals of length 1 to 6 starting in ``0 .. 2 * size``."""
    intervals = []
    for _ in range(size):
        start = rng.randint(0, 2 * size)
        intervals.append([start, start + rng.randint(1, 6)])
    return {"intervals": intervals}


SPEC = ScaffoldSpec(
    name="interval_scheduling",
    category="greedy_plugins",
    reference=interval_scheduling,
    generator=generate,
    answer_schema=IntervalAnswer,
    validator=ExactMatchValidator(),
    size=SizeAxis(
        unit="intervals",
        measure=lambda test_input: len(test_input["intervals"]),
        ranges={"simple": (2, 8), "standard": (8, 24), "edge": (0, 2)},
        # Past the standard maximum, up to four times it: the generator draws any size.
        stress=(25, 96),
    ),
    description="the most non-overlapping intervals (an example plugin)",
    graded_conventions={"half-open": "touching intervals do not overlap"},
)
