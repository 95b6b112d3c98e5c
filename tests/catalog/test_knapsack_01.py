"""What is peculiar to ``knapsack_01``: its oracle, brute force over every item set.

(The reference's own cross-checks live in ``tests/reference/test_dynamic_programming.py``;
the validator's in ``tests/validators/test_knapsack.py``.)
"""

from __future__ import annotations

from itertools import combinations
from typing import Any


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``selected_items`` are distinct indices within capacity whose value is the
    brute-force optimum, and ``max_value`` is that optimum."""
    weights, values = test_input["weights"], test_input["values"]
    n, capacity = len(weights), test_input["capacity"]
    best = max(
        sum(values[i] for i in chosen)
        for size in range(n + 1)
        for chosen in combinations(range(n), size)
        if sum(weights[i] for i in chosen) <= capacity
    )
    chosen = answer["selected_items"]
    if len(set(chosen)) != len(chosen) or not all(0 <= i < n for i in chosen):
        return False
    fits = sum(weights[i] for i in chosen) <= capacity
    return fits and sum(values[i] for i in chosen) == best == answer["max_value"]


def test_the_oracle_refuses_an_overweight_set() -> None:
    test_input = {"weights": [2, 3], "values": [3, 4], "capacity": 4}
    assert oracle(test_input, {"max_value": 4, "selected_items": [1]})
    assert not oracle(test_input, {"max_value": 7, "selected_items": [0, 1]})
