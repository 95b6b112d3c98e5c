"""Merge sort: the ``merge_sort`` scaffold (the sorted array and the inversions counted
while merging)."""

from __future__ import annotations

import itertools
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
    swapped_items,
)
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.arrays import (
    array_length,
    ascending,
    distinct_values,
    values_with_repeats,
)
from verification.reference.divide_conquer import merge_sort
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import ExactMatchValidator, PathMatchValidator

__all__ = ["MERGE_SORT_EDGE_KINDS", "SPEC", "MergeSortAnswer", "generate_merge_sort"]


class MergeSortAnswer(AnswerSchema):
    """``{"sorted": [1, 1, 3], "inversions": 2}``."""

    sorted: list[int]
    """The values in non-decreasing order, every copy kept."""
    inversions: Annotated[int, Field(ge=0)]
    """Pairs ``i < j`` with ``array[i] > array[j]``."""


MERGE_SORT_EDGE_KINDS = (
    "empty",
    "single",
    "pair",
    "already_sorted",
    "strictly_decreasing",
    "all_equal",
    "few_distinct",
)
"""The degenerate instances the edge tier draws from."""

_ATTEMPTS = 200


def generate_merge_sort(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``merge_sort`` input: an ``array`` of integers.

    - ``simple``: ``size`` distinct values of 1..99 (1..2 size past 49 values, the stress
      sizes), not already sorted.
    - ``standard``: ``size`` values of -30..60 with at least one value repeated (so a count
      that takes equal values for inversions is wrong), neither sorted nor sorted
      backwards.
    - ``edge``: at most ``size`` values, one of :data:`MERGE_SORT_EDGE_KINDS`: empty, one
      or two values, already sorted (no inversions), strictly decreasing (every pair
      inverted), every value equal, or only two or three distinct values.
    """
    if tier == "edge":
        return _edge(rng, size)
    least = 3 if tier == "simple" else 4
    if size < least:
        raise ValueError(f"{tier} merge_sort needs at least {least} values, got {size}")
    for _ in range(_ATTEMPTS):
        if tier == "simple":
            values = distinct_values(rng, size, 1, max(99, 2 * size))
        else:
            values = values_with_repeats(rng, size, -30, 60)
        ordered = sorted(values)
        if values != ordered and (tier == "simple" or values != ordered[::-1]):
            return {"array": values}
    raise RuntimeError(f"no {tier} merge_sort array of {size} values")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kinds = [k for k in MERGE_SORT_EDGE_KINDS if size >= 2 or k in ("empty", "single")]
    kind = rng.choice(kinds)
    if kind == "empty":
        return {"array": []}
    if kind == "single":
        return {"array": [rng.randint(-30, 60)]}
    if kind == "pair":
        first, second = rng.randint(-30, 60), rng.randint(-30, 60)
        return {"array": [first, rng.choice((first, second))]}
    n = rng.randint(2, size)
    if kind == "already_sorted":
        return {"array": ascending(rng, n, rng.randint(-30, 30), repeat=0.2)}
    if kind == "strictly_decreasing":
        return {"array": _decreasing(rng, n)}
    if kind == "all_equal":
        return {"array": [rng.randint(-30, 60)] * n}
    pool = rng.sample(range(-5, 10), rng.randint(2, 3))
    return {"array": [rng.choice(pool) for _ in range(n)]}


def _decreasing(rng: random.Random, n: int) -> list[int]:
    return sorted(distinct_values(rng, n, -30, 60 + n), reverse=True)


def _inversions(values: Sequence[int], *, ties: bool) -> int:
    """Pairs ``i < j`` with ``values[i] > values[j]`` (or ``>=`` when ``ties``)."""
    return sum(1 for a, b in itertools.combinations(values, 2) if a > b or (ties and a == b))


@LazyHook
def merge_sort_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Sorted lists with swapped, dropped or repeated values, sorted backwards, left in
    input order or without repeats; inversion counts one off, counting equal pairs, or
    counting the pairs in order instead."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    array: list[int] = case.input["array"]
    ordered: list[int] = case.expected["sorted"]
    count: int = case.expected["inversions"]
    for made in (
        *swapped_items(ordered, rng),
        *dropped_items(ordered, rng),
        *duplicated_items(ordered, rng),
    ):
        yield {"sorted": made, "inversions": count}
    yield {"sorted": ordered[::-1], "inversions": count}
    yield {"sorted": list(array), "inversions": count}
    yield {"sorted": sorted(set(ordered)), "inversions": count}
    pairs = len(array) * (len(array) - 1) // 2
    for counted in (count + 1, count - 1):
        if counted >= 0:
            yield {"sorted": ordered, "inversions": counted}
    for counted in (_inversions(array, ties=True), pairs - count):
        if counted >= 0:
            yield {"sorted": ordered, "inversions": counted}


SPEC = ScaffoldSpec(
    name="merge_sort",
    category="divide_conquer",
    title="Merge sort",
    graded_conventions={
        "strict inversions": "equal values never make one",
    },
    description="sorted array and inversion count, counted while merging",
    reference=merge_sort,
    generator=generate_merge_sort,
    answer_schema=MergeSortAnswer,
    validator=CompositeValidator(
        [PathMatchValidator(field="sorted"), ExactMatchValidator(field="inversions")]
    ),
    sizes={"simple": 6, "standard": 12, "edge": 8},
    size=SizeAxis(
        unit="array length",
        measure=array_length,
        ranges={"simple": (3, 16), "standard": (4, 32), "edge": (1, 32)},
        stress=(33, 128),
    ),
    mutants=merge_sort_mutants,
    max_output_tokens=6144,
    # The work is a line per merge with both lists: 1,341 tokens at 32, 7,534 at 128 (python
    # benchmarks/stress_budgets.py merge_sort). The flat budget holds the standard maximum; each
    # size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=176.0, base=512),
    code_sizes=(64, 100, 300, 1000),
)
