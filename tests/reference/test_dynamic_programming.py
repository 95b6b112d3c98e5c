"""``knapsack_01`` against brute force over every item subset; the other dynamic
programming references on inputs beyond their generators."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.catalog.dynamic_programming.knapsack_01 import (
    generate_knapsack_01,
    optimal_item_sets,
)
from verification.generators.base import TIERS, Tier
from verification.reference.dynamic_programming import (
    edit_distance,
    knapsack_01,
    lcs_length,
    levenshtein_distance,
    longest_common_subsequence,
    longest_increasing_subsequence,
    matrix_chain_multiplication,
)

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
        "weights": draw(st.lists(st.integers(1, 12), min_size=n, max_size=n)),
        "values": draw(st.lists(st.integers(0, 15), min_size=n, max_size=n)),
        "capacity": draw(st.integers(0, 40)),
    }


@pytest.mark.slow
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
        (
            {"weights": [1, 0], "values": [1, 1], "capacity": 3},
            "weights\\[1\\] = 0 is not a positive",
        ),
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


# Beyond the generators, against the scaffold tests' brute-force oracles (tests/catalog,
# loaded by conftest.py): strings of any characters (case, spaces, accents, one string
# empty), negative and repeated values, chains of 1-wide matrices.

letters = st.text("aAb é", max_size=7)


@settings(max_examples=200, deadline=None)
@given(a=letters, b=letters)
def test_lcs_and_edit_distance_on_any_characters(
    a: str, b: str, scaffold_tests: dict[str, ModuleType]
) -> None:
    inp = {"a": a, "b": b}
    assert scaffold_tests["lcs"].oracle(inp, longest_common_subsequence(a, b))
    assert scaffold_tests["edit_distance"].oracle(inp, edit_distance(a, b))


@settings(max_examples=50, deadline=None)
@given(a=st.text("ABCD", max_size=40), b=st.text("ABCDE", max_size=40))
def test_the_bit_parallel_lcs_length_is_the_tables(a: str, b: str) -> None:
    """The lcs generator decides from lcs_length: the table's length, also on long strings
    (past 64 letters, where the bits take more than one machine word) and any characters."""
    assert lcs_length(a, b) == longest_common_subsequence(a, b)["length"]
    rng = random.Random(len(a) * 41 + len(b))
    long_a = a * 2 + "".join(rng.choice("ABCé ") for _ in range(rng.randint(0, 30)))
    long_b = b[::-1] + "".join(rng.choice("ABCé ") for _ in range(rng.randint(0, 40)))
    assert lcs_length(long_a, long_b) == longest_common_subsequence(long_a, long_b)["length"]


@settings(max_examples=50, deadline=None)
@given(a=st.text("abcd", max_size=40), b=st.text("abcde", max_size=40))
def test_the_bit_parallel_levenshtein_distance_is_the_tables(a: str, b: str) -> None:
    """The edit_distance generator decides from levenshtein_distance: the table's
    distance, also on long strings (past 64 letters) and any characters."""
    assert levenshtein_distance(a, b) == edit_distance(a, b)["distance"]
    rng = random.Random(len(a) * 43 + len(b))
    long_a = a * 2 + "".join(rng.choice("abcé ") for _ in range(rng.randint(0, 30)))
    long_b = b[::-1] + "".join(rng.choice("abcé ") for _ in range(rng.randint(0, 40)))
    assert levenshtein_distance(long_a, long_b) == edit_distance(long_a, long_b)["distance"]


def test_the_bit_parallel_lengths_refuse_what_the_tables_refuse() -> None:
    for a, b in ((None, "A"), ("A", 3)):
        for function in (lcs_length, longest_common_subsequence, levenshtein_distance):
            with pytest.raises(ValueError, match="must be a string"):
                function(a, b)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="must be a string"):
            edit_distance(a, b)  # type: ignore[arg-type]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(sequence=st.lists(st.integers(-(2**40), 2**40) | st.integers(-2, 2), max_size=10))
def test_lis_on_negative_huge_and_repeated_values(
    sequence: list[int], scaffold_tests: dict[str, ModuleType]
) -> None:
    inp = {"sequence": sequence}
    assert scaffold_tests["lis"].oracle(inp, longest_increasing_subsequence(sequence))


@settings(max_examples=200, deadline=None)
@given(dimensions=st.lists(st.sampled_from([1, 1, 2, 3, 10**6]), min_size=2, max_size=7))
def test_matrix_chain_on_one_wide_and_huge_matrices(
    dimensions: list[int], scaffold_tests: dict[str, ModuleType]
) -> None:
    inp = {"dimensions": dimensions}
    assert scaffold_tests["matrix_chain"].oracle(inp, matrix_chain_multiplication(dimensions))
