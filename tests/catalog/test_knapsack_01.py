"""What is peculiar to ``knapsack_01``: its oracle, brute force over every item set.

(The reference's own cross-checks live in ``tests/reference/test_dynamic_programming.py``;
the validator's in ``tests/validators/test_knapsack.py``.)
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from verification.reference.dynamic_programming import knapsack_01

Judge = Callable[[str, dict[str, Any], Any], bool]


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


def test_issue_13_reproducer_indices_in_ascending_order(judge: Judge) -> None:
    test_input = {"weights": [1, 5, 1], "values": [1, 1, 1], "capacity": 2}
    expected = knapsack_01(**test_input)
    assert expected["selected_items"] == [0, 2]
    assert judge("knapsack_01", test_input, expected)
    descending = {**expected, "selected_items": [2, 0]}
    assert not judge("knapsack_01", test_input, descending)
    assert not oracle(test_input, descending)
