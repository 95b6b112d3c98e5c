"""Binary search: the ``binary_search`` scaffold (leftmost index and the probed midpoints)."""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterator, Sequence
from typing import Annotated, Any

from pydantic import Field

from verification.cases import TestCase, Tier
from verification.catalog.calibration import (
    LazyHook,
    dropped_items,
    duplicated_items,
    each_distinct,
)
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.arrays import array_length, ascending
from verification.reference.divide_conquer import binary_search
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import ExactMatchValidator, PathMatchValidator

__all__ = [
    "BINARY_SEARCH_EDGE_KINDS",
    "SPEC",
    "BinarySearchAnswer",
    "first_hit_search",
    "generate_binary_search",
]

Index = Annotated[int, Field(ge=0)]
"""A 0-based position in the array."""


class BinarySearchAnswer(AnswerSchema):
    """``{"index": 3, "found": true, "probes": [4, 1, 2, 3]}``."""

    index: Index | None
    """The first (leftmost) position holding the target; ``null`` when it is absent."""
    found: bool
    probes: list[Index]
    """Every midpoint examined, in order."""


BINARY_SEARCH_EDGE_KINDS = (
    "empty",
    "single_present",
    "single_absent",
    "below_all",
    "above_all",
    "absent_gap",
    "at_first",
    "at_last",
    "all_equal",
)
"""The degenerate instances the edge tier draws from."""

_ATTEMPTS = 500


def generate_binary_search(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``binary_search`` input: a sorted ``array`` of integers and a ``target``.

    - ``simple``: ``size`` distinct ascending values; the target is one of them, at
      neither end.
    - ``standard``: ``size`` non-decreasing values with repeats; the target occurs 2 to 4
      times, its run touches neither end, and a search that stops at its first hit would
      land inside the run (so only the leftmost rule gives the right index).
    - ``edge``: at most ``size`` values, one of :data:`BINARY_SEARCH_EDGE_KINDS`: an empty
      array, one element (target present or not), a target below, above or between the
      values, at the first or last position (possibly repeated), every value the target.
    """
    if tier == "simple":
        if size < 3:
            raise ValueError(f"simple binary_search needs at least 3 values, got {size}")
        values = ascending(rng, size, rng.randint(-20, 20), repeat=0.0, max_gap=6)
        return {"array": values, "target": values[rng.randint(1, size - 2)]}
    if tier == "standard":
        return _standard(rng, size)
    return _edge(rng, size)


def first_hit_search(array: Sequence[int], target: int) -> tuple[int | None, list[int]]:
    """The textbook search that stops at the first probe equal to the target (floor
    midpoints): the index it reports and its probes."""
    lo, hi = 0, len(array) - 1
    probes: list[int] = []
    while lo <= hi:
        mid = (lo + hi) // 2
        probes.append(mid)
        if array[mid] == target:
            return mid, probes
        if array[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return None, probes


def _standard(rng: random.Random, n: int) -> dict[str, Any]:
    if n < 6:
        raise ValueError(f"standard binary_search needs at least 6 values, got {n}")
    for _ in range(_ATTEMPTS):
        run = rng.randint(2, 4)
        before = rng.randint(1, n - run - 1)
        low = ascending(rng, before, rng.randint(-20, 20), repeat=0.3)
        target = low[-1] + rng.randint(1, 4)
        high = ascending(rng, n - before - run, target + rng.randint(1, 4), repeat=0.3)
        values = [*low, *[target] * run, *high]
        hit, _ = first_hit_search(values, target)
        if hit != before:
            return {"array": values, "target": target}
    raise RuntimeError(f"no standard binary_search array of {n} values")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kinds = BINARY_SEARCH_EDGE_KINDS if size >= 2 else BINARY_SEARCH_EDGE_KINDS[:3]
    kind = rng.choice(kinds)
    start = rng.randint(-20, 20)
    if kind == "empty":
        return {"array": [], "target": start}
    if kind == "single_present":
        return {"array": [start], "target": start}
    if kind == "single_absent":
        return {"array": [start], "target": start + rng.choice((-1, 1)) * rng.randint(1, 5)}
    n = rng.randint(2, size)
    if kind == "all_equal":
        return {"array": [start] * n, "target": start}
    values = ascending(rng, n, start, repeat=0.25)
    if kind == "below_all":
        return {"array": values, "target": values[0] - rng.randint(1, 5)}
    if kind == "above_all":
        return {"array": values, "target": values[-1] + rng.randint(1, 5)}
    if kind == "absent_gap":
        at = rng.randint(1, n - 1)
        values[at:] = [v + 2 + (values[at - 1] - values[at]) for v in values[at:]]
        return {"array": values, "target": values[at - 1] + 1}
    run = rng.randint(1, min(3, n - 1))
    if kind == "at_first":
        values[:run] = [values[0]] * run
        values[run:] = [max(v, values[0] + 1) for v in values[run:]]
        return {"array": values, "target": values[0]}
    values[n - run :] = [values[-1]] * run
    values[: n - run] = [min(v, values[-1] - 1) for v in values[: n - run]]
    return {"array": values, "target": values[-1]}


def _lower_bound_probes(array: Sequence[int], target: int, *, ceiling: bool) -> list[int]:
    """The leftmost search's probes under a floor or a ceiling midpoint."""
    lo, hi = 0, len(array) - 1
    probes: list[int] = []
    while lo <= hi:
        mid = (lo + hi + (1 if ceiling else 0)) // 2
        probes.append(mid)
        if array[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return probes


def _rightmost(array: Sequence[int], target: int) -> tuple[int | None, list[int]]:
    """The search that keeps going right on a hit: the last index and its probes."""
    lo, hi = 0, len(array) - 1
    probes: list[int] = []
    found: int | None = None
    while lo <= hi:
        mid = (lo + hi) // 2
        probes.append(mid)
        if array[mid] > target:
            hi = mid - 1
        else:
            if array[mid] == target:
                found = mid
            lo = mid + 1
    return found, probes


@LazyHook
def binary_search_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The first-hit and rightmost searches, a ceiling midpoint, the index one off, the
    found flag flipped, an absent target's insertion point given as its index, probes
    dropped, repeated or reordered."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    array, target = case.input["array"], case.input["target"]
    index, found = case.expected["index"], case.expected["found"]
    probes: list[int] = case.expected["probes"]
    hit, hit_probes = first_hit_search(array, target)
    yield {"index": hit, "found": hit is not None, "probes": hit_probes}
    yield {"index": hit, "found": found, "probes": probes}
    last, last_probes = _rightmost(array, target)
    yield {"index": last, "found": found, "probes": last_probes}
    yield {
        "index": index,
        "found": found,
        "probes": _lower_bound_probes(array, target, ceiling=True),
    }
    yield {"index": index, "found": not found, "probes": probes}
    if index is None:
        insertion = bisect.bisect_left(array, target)
        yield {"index": insertion, "found": False, "probes": probes}
        yield {"index": insertion, "found": True, "probes": probes}
    else:
        yield {"index": None, "found": False, "probes": probes}
        for i in (index - 1, index + 1):
            if 0 <= i < len(array):
                yield {"index": i, "found": True, "probes": probes}
    for made in (*dropped_items(probes, rng), *duplicated_items(probes, rng), probes[::-1]):
        yield {"index": index, "found": found, "probes": made}


SPEC = ScaffoldSpec(
    name="binary_search",
    category="divide_conquer",
    title="Binary search",
    graded_conventions={
        "midpoint": "mid = floor((lo + hi) / 2)",
        "hit goes left": "the search goes on to the left, hi = mid \u2212 1",
        "probes": "appended to probes",
    },
    description="leftmost index of a target in a sorted array, with the probed midpoints",
    reference=binary_search,
    generator=generate_binary_search,
    answer_schema=BinarySearchAnswer,
    validator=CompositeValidator(
        [
            ExactMatchValidator(field="index"),
            ExactMatchValidator(field="found"),
            PathMatchValidator(field="probes"),
        ]
    ),
    sizes={"simple": 10, "standard": 40, "edge": 12},
    size=SizeAxis(
        unit="array length",
        measure=array_length,
        ranges={"simple": (3, 64), "standard": (6, 256), "edge": (1, 256)},
        stress=(257, 1024),
    ),
    mutants=binary_search_mutants,
    max_output_tokens=4096,
    # The work is a line per probe: 183 tokens at 256, 237 at 1024 (python
    # benchmarks/stress_budgets.py binary_search). The flat budget holds the standard maximum;
    # each size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=0.2, base=4044),
    code_rules={
        "probes": (
            "every `mid` of the scaffold's closed-interval leftmost search, in order: `lo ="
            " 0`, `hi = n - 1`, loop while `lo <= hi`, `mid = (lo + hi) // 2`, on "
            "`array[mid] == target` set `hi = mid - 1` and go on; a half-open search (`lo <"
            " hi`, `hi = mid`) probes other indices and fails"
        ),
    },
    code_sizes=(512, 1000),
)
