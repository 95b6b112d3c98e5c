"""What is peculiar to ``knapsack_01``: its oracle, brute force over every item set.

(The reference's own cross-checks live in ``tests/reference/test_dynamic_programming.py``;
the validator's in ``tests/validators/test_knapsack.py``.)
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from verification.cases import TestCase
from verification.catalog.dynamic_programming.knapsack_01 import SPEC
from verification.reference.dynamic_programming import knapsack_01


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``selected_items`` are distinct indices in ascending order, within
    capacity, whose value is the brute-force optimum, and ``max_value`` is that optimum."""
    weights, values = test_input["weights"], test_input["values"]
    n, capacity = len(weights), test_input["capacity"]
    best = max(
        sum(values[i] for i in chosen)
        for size in range(n + 1)
        for chosen in combinations(range(n), size)
        if sum(weights[i] for i in chosen) <= capacity
    )
    chosen = answer["selected_items"]
    if chosen != sorted(chosen):  # "in ascending order"
        return False
    if len(set(chosen)) != len(chosen) or not all(0 <= i < n for i in chosen):
        return False
    fits = sum(weights[i] for i in chosen) <= capacity
    return fits and sum(values[i] for i in chosen) == best == answer["max_value"]


def test_the_oracle_refuses_an_overweight_set() -> None:
    test_input = {"weights": [2, 3], "values": [3, 4], "capacity": 4}
    assert oracle(test_input, {"max_value": 4, "selected_items": [1]})
    assert not oracle(test_input, {"max_value": 7, "selected_items": [0, 1]})


def test_issue_13_reproducer_indices_in_ascending_order() -> None:
    test_input = {"weights": [1, 5, 1], "values": [1, 1, 1], "capacity": 2}
    expected = knapsack_01(**test_input)
    case = TestCase(
        id="knapsack_01-edge-000",
        scaffold="knapsack_01",
        tier="edge",
        input=test_input,
        expected=expected,
    )
    assert expected["selected_items"] == sorted(expected["selected_items"]) == [0, 2]
    assert SPEC.validator.validate(expected, expected, case=case).is_valid
    descending = {**expected, "selected_items": [2, 0]}
    assert not SPEC.validator.validate(descending, expected, case=case).is_valid
    assert not oracle(test_input, descending)
