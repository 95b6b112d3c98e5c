"""What is peculiar to ``merge_sort``: its oracle (``sorted`` and a brute-force count of
inverted pairs) and the reference's cross-checks against it."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import Tier
from verification.catalog.divide_conquer.merge_sort import generate_merge_sort
from verification.reference.divide_conquer import merge_sort

# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``sorted`` is ``sorted(array)`` and ``inversions`` the number of pairs
    ``i < j`` with ``array[i] > array[j]``, counted over every pair."""
    array = test_input["array"]
    inverted = sum(1 for a, b in itertools.combinations(array, 2) if a > b)
    count = answer.get("inversions")
    if set(answer) != {"sorted", "inversions"} or isinstance(count, bool):
        return False
    values = answer["sorted"]
    if not isinstance(values, list) or any(isinstance(v, bool) for v in values):
        return False
    return values == sorted(array) and count == inverted


def test_the_oracle_does_not_count_equal_pairs() -> None:
    assert oracle({"array": [2, 2, 1]}, {"sorted": [1, 2, 2], "inversions": 2})
    assert not oracle({"array": [2, 2, 1]}, {"sorted": [1, 2, 2], "inversions": 3})
    assert not oracle({"array": [2, 2, 1]}, {"sorted": [1, 2], "inversions": 2})


@pytest.mark.parametrize("tier", ["simple", "standard", "edge"])
def test_the_reference_agrees_with_the_oracle_on_generated_inputs(tier: Any) -> None:
    for k in range(200):
        rng = random.Random(f"ms:{tier}:{k}")
        test_input = generate_merge_sort(rng, tier, rng.randint(4, 32))
        assert oracle(test_input, merge_sort(**test_input)), test_input


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=30))
def test_the_reference_agrees_with_the_oracle_on_any_array(array: list[int]) -> None:
    assert oracle({"array": array}, merge_sort(array))


def test_the_reference_sorts_floats_and_leaves_its_input_alone() -> None:
    array = [2.5, -1.0, 2, 0.5]
    answer = merge_sort(array)
    assert answer == {"sorted": sorted(array), "inversions": 4}
    assert array == [2.5, -1.0, 2, 0.5]


def test_tiers_keep_their_promises() -> None:
    for k in range(200):
        simple = generate_merge_sort(random.Random(k), "simple", 9)["array"]
        assert len(set(simple)) == 9 and simple != sorted(simple)
        standard = generate_merge_sort(random.Random(k), "standard", 12)["array"]
        assert len(standard) == 12 and len(set(standard)) < 12
        assert standard not in (sorted(standard), sorted(standard, reverse=True))


@pytest.mark.parametrize(
    ("array", "inversions"),
    [
        ([], 0),
        ([7], 0),
        ([1, 2, 2, 3], 0),
        ([5, 4, 3, 2, 1], 10),
        ([4, 4, 4], 0),
        ([2, 1], 1),
    ],
)
def test_edge_inputs(array: list[int], inversions: int) -> None:
    answer = merge_sort(array)
    assert answer == {"sorted": sorted(array), "inversions": inversions}
    assert oracle({"array": array}, answer)


@pytest.mark.parametrize(
    ("array", "message"),
    [
        ("312", "list"),
        (None, "list"),
        ([1, "2"], r"array\[1\]"),
        ([False, 1], r"array\[0\]"),
        ([1, float("inf")], "finite"),
    ],
)
def test_bad_inputs_raise(array: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        merge_sort(array)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("merge_sort"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("merge_sort", oracle, tier, size, index)
