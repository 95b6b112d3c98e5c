"""Quickselect: the ``quickselect`` scaffold (the k-th smallest value, k counted from 1)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.arrays import (
    array_length,
    distinct_values,
    values_with_repeats,
)
from verification.reference.divide_conquer import quickselect
from verification.validators.base import ValidationResult, Validator, pick

__all__ = [
    "QUICKSELECT_EDGE_KINDS",
    "SPEC",
    "KthSmallestValidator",
    "QuickselectAnswer",
    "generate_quickselect",
]


class QuickselectAnswer(AnswerSchema):
    """``{"value": 4}``."""

    value: int
    """The k-th smallest value of the array."""


QUICKSELECT_EDGE_KINDS = (
    "single",
    "pair",
    "k_first",
    "k_last",
    "all_equal",
    "inside_run",
    "already_sorted",
    "sorted_backwards",
)
"""The degenerate instances the edge tier draws from."""

_ATTEMPTS = 200


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class KthSmallestValidator(Validator):
    """The k-th smallest value, however the pivots fell.

    With ``case``: ``value`` is an integer and fewer than ``k`` values of the array are
    smaller than it while at least ``k`` are smaller or equal (so it occurs in the array
    and sits at rank ``k`` in sorted order). Without ``case``: equal to
    ``expected["value"]``.
    """

    kind = "kth_smallest"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        value = pick(actual, "value")
        if not _is_int(value):
            return ValidationResult(
                False, f"value: expected an integer, got {type(value).__name__}"
            )
        if case is None:
            want = pick(expected, "value")
            if value != want:
                return ValidationResult(
                    False, f"value is {value}, expected {want} (no test input: rank unchecked)"
                )
            return ValidationResult(True, f"value {value} as expected (no test input)")
        array, k = case.input["array"], case.input["k"]
        below = sum(1 for v in array if v < value)
        upto = sum(1 for v in array if v <= value)
        details = {"k": k, "smaller": below, "smaller_or_equal": upto}
        if upto == below:
            return ValidationResult(False, f"value {value} is not in the array", details)
        if not below < k <= upto:
            ranks = f"rank {upto}" if upto == below + 1 else f"ranks {below + 1}..{upto}"
            return ValidationResult(
                False, f"value {value} holds {ranks} in sorted order, not rank {k}", details
            )
        return ValidationResult(True, f"value {value} is the {k}-th smallest", details)


def generate_quickselect(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``quickselect`` input: an ``array`` of integers and a rank ``k`` (1-based).

    - ``simple``: ``size`` distinct values of 1..99 (1..2 size past 49 values, the stress
      sizes) in random order, ``1 < k < size``.
    - ``standard``: ``size`` values of -20..(40 + size) with at least one repeat, not
      sorted either way, ``1 < k < size``; the values at ranks ``k - 1``, ``k`` and
      ``k + 1`` differ, so an off-by-one rank gives a wrong value, and the array's own
      ``k``-th entry is not the answer.
    - ``edge``: at most ``size`` values, one of :data:`QUICKSELECT_EDGE_KINDS`: one value,
      two values, ``k = 1``, ``k = n``, every value equal, ``k`` inside a run of equal
      values, an array already sorted or sorted backwards.
    """
    if tier == "simple":
        if size < 3:
            raise ValueError(f"simple quickselect needs at least 3 values, got {size}")
        return {
            "array": distinct_values(rng, size, 1, max(99, 2 * size)),
            "k": rng.randint(2, size - 1),
        }
    if tier == "standard":
        return _standard(rng, size)
    return _edge(rng, size)


def _standard(rng: random.Random, n: int) -> dict[str, Any]:
    if n < 5:
        raise ValueError(f"standard quickselect needs at least 5 values, got {n}")
    for _ in range(_ATTEMPTS):
        values = values_with_repeats(rng, n, -20, 40 + n)
        k = rng.randint(2, n - 1)
        ordered = sorted(values)
        if values in (ordered, ordered[::-1]) or values[k - 1] == ordered[k - 1]:
            continue
        if len({ordered[k - 2], ordered[k - 1], ordered[k]}) == 3:
            return {"array": values, "k": k}
    raise RuntimeError(f"no standard quickselect array of {n} values")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kinds = [k for k in QUICKSELECT_EDGE_KINDS if size >= 2 or k == "single"]
    kind = rng.choice([k for k in kinds if size >= 3 or k != "inside_run"])
    if kind == "single":
        return {"array": [rng.randint(-20, 60)], "k": 1}
    if kind == "pair":
        values = [rng.randint(-20, 60) for _ in range(2)]
        return {"array": values, "k": rng.randint(1, 2)}
    if kind == "inside_run":
        return _inside_run(rng, rng.randint(3, size))
    n = rng.randint(2, size)
    if kind == "all_equal":
        return {"array": [rng.randint(-20, 60)] * n, "k": rng.randint(1, n)}
    values = (
        values_with_repeats(rng, n, -20, 40 + n)
        if rng.random() < 0.5
        else (distinct_values(rng, n, -20, 40 + n))
    )
    if kind == "k_first":
        return {"array": values, "k": 1}
    if kind == "k_last":
        return {"array": values, "k": n}
    if kind == "already_sorted":
        return {"array": sorted(values), "k": rng.randint(1, n)}
    return {"array": sorted(values, reverse=True), "k": rng.randint(1, n)}


def _inside_run(rng: random.Random, n: int) -> dict[str, Any]:
    """A run of at least three equal values, ``k`` pointing into it but not at its ends."""
    run = rng.randint(3, max(3, n // 2))
    others = distinct_values(rng, n - run, -20, 40 + n)
    repeated = rng.choice([v for v in range(-20, 41 + n) if v not in others])
    values = others + [repeated] * run
    rng.shuffle(values)
    first = sum(1 for v in values if v < repeated) + 1
    return {"array": values, "k": rng.randint(first + 1, first + run - 2)}


@LazyHook
def quickselect_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The values at ranks ``k - 1`` and ``k + 1``, the ``k``-th largest, the array's own
    ``k``-th entry, the median, the value one off."""
    array: list[int] = case.input["array"]
    k: int = case.input["k"]
    value: int = case.expected["value"]
    ordered = sorted(array)
    picks = [ordered[i] for i in (k - 2, k) if 0 <= i < len(ordered)]
    picks += [ordered[-k], array[k - 1], ordered[len(ordered) // 2], value - 1, value + 1]
    wrong = ({"value": v} for v in picks if v != value)
    return each_distinct(wrong, unlike=[case.expected])


SPEC = ScaffoldSpec(
    name="quickselect",
    category="divide_conquer",
    title="Quickselect",
    graded_conventions={
        "k from 1": "k counts from 1",
        "copies": "every copy of a repeated value counts",
    },
    description="k-th smallest value (k from 1) by partitioning around pivots",
    reference=quickselect,
    generator=generate_quickselect,
    answer_schema=QuickselectAnswer,
    validator=KthSmallestValidator(),
    sizes={"simple": 7, "standard": 15, "edge": 8},
    size=SizeAxis(
        unit="array length",
        measure=array_length,
        ranges={"simple": (3, 20), "standard": (5, 60), "edge": (1, 60)},
        stress=(61, 240),
    ),
    mutants=quickselect_mutants,
    max_output_tokens=4096,
    # The work is a line per round with S, E and G: 633 tokens at 60, 2,530 at 240 (python
    # benchmarks/stress_budgets.py quickselect). The flat budget holds the standard maximum;
    # each size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=15.9, base=3142),
    code_sizes=(120, 300, 1000),
)
