"""``knapsack_01`` against brute force over every item subset."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.catalog.dynamic_programming.knapsack_01 import (
    generate_knapsack_01,
    optimal_item_sets,
)
from verification.generators.base import TIERS, Tier
from verification.reference.dynamic_programming import knapsack_01

SIZES: dict[Tier, int] = {"simple": 4, "standard": 7, "edge": 5}


def check_against_brute_force(case: dict[str, Any]) -> None:
    result = knapsack_01(**case)
    optimum, optimal_sets = optimal_item_sets(**case)
    assert result["max_value"] == optimum
    # The documented tie-break: the optimal set that avoids later items.
    assert result["selected_items"] == min(optimal_sets, key=lambda s: sum(1 << i for i in s))


@pytest.mark.parametrize("tier", TIERS)
def test_generated_instances_match_brute_force(tier: Tier) -> None:
    for seed in range(80):
        check_against_brute_force(generate_knapsack_01(random.Random(seed), tier, SIZES[tier]))


@st.composite
def knapsacks(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(0, 9))
    return {
        "weights": draw(st.lists(st.integers(0, 12), min_size=n, max_size=n)),
        "values": draw(st.lists(st.integers(0, 15), min_size=n, max_size=n)),
        "capacity": draw(st.integers(0, 40)),
    }


@settings(max_examples=300, deadline=None)
@given(knapsacks())
def test_random_instances_match_brute_force(case: dict[str, Any]) -> None:
    check_against_brute_force(case)


def test_brute_force_oracle_on_a_known_tie() -> None:
    # Two optimal sets of value 9: {0, 3} and {1, 2}.
    assert optimal_item_sets([2, 3, 4, 5], [3, 4, 5, 6], 7) == (9, [[1, 2], [0, 3]])


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ({"weights": [1, 2], "values": [1], "capacity": 3}, "2 weights but 1 values"),
        ({"weights": [1, -2], "values": [1, 1], "capacity": 3}, "weights\\[1\\]"),
        ({"weights": [1, 2], "values": [1, 1.5], "capacity": 3}, "values\\[1\\]"),
        ({"weights": [True], "values": [1], "capacity": 3}, "weights\\[0\\]"),
        ({"weights": [1], "values": [1], "capacity": -1}, "capacity"),
        ({"weights": [1], "values": [1], "capacity": 2.0}, "capacity"),
        ({"weights": "12", "values": [1, 2], "capacity": 2}, "list of integers"),
    ],
)
def test_bad_input_is_a_value_error(case: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        knapsack_01(**case)
