"""What is peculiar to ``quickselect``: its oracle (``heapq.nsmallest``) and the
reference's cross-checks against it."""

from __future__ import annotations

import heapq
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import TestCase, Tier
from verification.catalog.divide_conquer.quickselect import (
    KthSmallestValidator,
    generate_quickselect,
)
from verification.reference.divide_conquer import quickselect

# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``value`` is the last of the ``k`` smallest values (copies counted)."""
    value = answer.get("value")
    if set(answer) != {"value"} or isinstance(value, bool) or not isinstance(value, int):
        return False
    kth: int = heapq.nsmallest(test_input["k"], test_input["array"])[-1]
    return value == kth


def test_the_oracle_counts_copies() -> None:
    test_input = {"array": [5, 2, 5, 5, 9], "k": 4}
    assert oracle(test_input, {"value": 5})
    assert not oracle(test_input, {"value": 9})
    assert not oracle(test_input, {"value": 5.0})


@pytest.mark.parametrize("tier", ["simple", "standard", "edge"])
def test_the_reference_agrees_with_the_oracle_on_generated_inputs(tier: Any) -> None:
    for k in range(300):
        rng = random.Random(f"qs:{tier}:{k}")
        test_input = generate_quickselect(rng, tier, rng.randint(5, 60))
        assert oracle(test_input, quickselect(**test_input)), test_input


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=30), st.data())
def test_every_rank_agrees_with_sorting(array: list[int], data: st.DataObject) -> None:
    k = data.draw(st.integers(1, len(array)))
    assert quickselect(array, k) == {"value": sorted(array)[k - 1]}


def test_the_validator_accepts_the_value_whatever_the_pivots_and_rejects_other_ranks() -> None:
    validator = KthSmallestValidator()
    for seed in range(100):
        rng = random.Random(seed)
        test_input = generate_quickselect(rng, "standard", 15)
        expected = quickselect(**test_input)
        case = TestCase(
            id="quickselect-standard-000",
            scaffold="quickselect",
            tier="standard",
            index=0,
            input=test_input,
            expected=expected,
        )
        for value in set(test_input["array"]) | {expected["value"] + 1}:
            verdict = validator.validate({"value": value}, expected, case=case)
            assert verdict.is_valid is oracle(test_input, {"value": value}), (value, verdict)


def test_tiers_keep_their_promises() -> None:
    for seed in range(200):
        simple = generate_quickselect(random.Random(seed), "simple", 9)
        assert len(set(simple["array"])) == 9 and 1 < simple["k"] < 9
        standard = generate_quickselect(random.Random(seed), "standard", 20)
        array, k = standard["array"], standard["k"]
        ordered = sorted(array)
        assert len(set(array)) < len(array) == 20 and 1 < k < 20
        assert len({ordered[k - 2], ordered[k - 1], ordered[k]}) == 3
        assert array[k - 1] != ordered[k - 1]


@pytest.mark.parametrize(
    ("array", "k", "value"),
    [([4], 1, 4), ([9, -3], 1, -3), ([9, -3], 2, 9), ([7, 7, 7], 2, 7), ([3, 1, 2], 3, 3)],
)
def test_edge_inputs(array: list[int], k: int, value: int) -> None:
    assert quickselect(array, k) == {"value": value}
    assert oracle({"array": array, "k": k}, {"value": value})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"array": [], "k": 1}, "at least one"),
        ({"array": [1, 2], "k": 0}, "between 1 and 2"),
        ({"array": [1, 2], "k": 3}, "between 1 and 2"),
        ({"array": [1, 2], "k": 1.0}, "integer"),
        ({"array": [1, 2], "k": True}, "integer"),
        ({"array": [1, None], "k": 1}, r"array\[1\]"),
        ({"array": (x for x in [1]), "k": 1}, "list"),
    ],
)
def test_bad_inputs_raise(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        quickselect(**kwargs)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("quickselect"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("quickselect", oracle, tier, size, index)
