"""The 0/1 knapsack validator: any optimal item set, checked against the test input."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from verification.cases import TestCase
from verification.validators.base import ValidationResult, Validator, pick, repeated

__all__ = ["KnapsackValidator"]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class KnapsackValidator(Validator):
    """An optimal 0/1 knapsack answer: any optimal item set, its indices in ascending order
    (as the scaffold asks).

    With ``case``: the indices are distinct integers in range, ascending, the items fit the
    capacity, their values sum to the stated ``max_value``, and that is the optimum
    ``expected["max_value"]``. Without ``case``: the same ``max_value`` and the same index
    set as ``expected`` (feasibility cannot be checked, and another optimal set fails).
    """

    kind = "knapsack"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        stated, items = pick(actual, "max_value"), pick(actual, "selected_items")
        optimum = pick(expected, "max_value")
        if not _is_int(stated):
            return ValidationResult(
                False, f"max_value: expected an integer, got {type(stated).__name__}"
            )
        if isinstance(items, str | bytes) or not isinstance(items, Sequence):
            return ValidationResult(
                False, f"selected_items: expected a list, got {type(items).__name__}"
            )
        for item in items:
            if not _is_int(item):
                return ValidationResult(False, f"selected_items: {item!r:.40} is not an index")
        if len(set(items)) != len(items):
            return ValidationResult(False, f"selected_items repeats {repeated(items)[:5]}")
        if list(items) != sorted(items):
            return ValidationResult(
                False, f"selected_items {list(items)[:10]} are not in ascending order"
            )
        if case is None:
            return self._compare(stated, set(items), optimum, pick(expected, "selected_items"))
        return self._check(stated, list(items), optimum, case.input)

    def _check(
        self, stated: int, items: list[int], optimum: Any, knapsack: dict[str, Any]
    ) -> ValidationResult:
        weights, values = knapsack["weights"], knapsack["values"]
        capacity = knapsack["capacity"]
        outside = sorted(i for i in items if not 0 <= i < len(weights))
        if outside:
            return ValidationResult(
                False, f"selected_items: {outside[:5]} out of range 0..{len(weights) - 1}"
            )
        weight = sum(weights[i] for i in items)
        value = sum(values[i] for i in items)
        details = {"weight": weight, "capacity": capacity, "value": value, "optimum": optimum}
        if weight > capacity:
            return ValidationResult(
                False, f"the items weigh {weight}, over the capacity {capacity}", details
            )
        if value != stated:
            return ValidationResult(
                False, f"the items are worth {value}, but max_value says {stated}", details
            )
        if stated != optimum:
            return ValidationResult(
                False, f"max_value is {stated}; the optimum is {optimum}", details
            )
        return ValidationResult(
            True, f"an optimal set: value {value}, weight {weight} of {capacity}", details
        )

    def _compare(
        self, stated: int, items: set[int], optimum: Any, expected_items: Any
    ) -> ValidationResult:
        note = "(no test input: feasibility could not be checked)"
        if stated != optimum:
            return ValidationResult(False, f"max_value is {stated}, expected {optimum} {note}")
        if isinstance(expected_items, str | bytes) or not isinstance(expected_items, Sequence):
            return ValidationResult(False, f"expected answer has no selected_items {note}")
        want = set(expected_items)
        if items != want:
            return ValidationResult(
                False,
                f"selected_items {sorted(items)[:10]} differ from {sorted(want)[:10]} {note}",
            )
        return ValidationResult(True, f"max_value {stated} and the same {len(want)} items {note}")
