"""What is peculiar to ``binary_search``: its oracle (``bisect`` for the index, a half-open
lower-bound loop for the probes) and the reference's cross-checks against them."""

from __future__ import annotations

import bisect
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import Tier
from verification.catalog.divide_conquer.binary_search import (
    BINARY_SEARCH_EDGE_KINDS,
    first_hit_search,
    generate_binary_search,
)
from verification.reference.divide_conquer import binary_search


def _half_open_probes(array: list[int], target: int) -> tuple[int, list[int]]:
    """Probes of the lower-bound search on ``[lo, end)``: the inclusive ``hi`` is
    ``end - 1``, so the floor midpoint of ``lo..hi`` is ``(lo + end - 1) // 2``."""
    lo, end, probes = 0, len(array), []
    while lo < end:
        mid = (lo + end - 1) // 2
        probes.append(mid)
        if array[mid] < target:
            lo = mid + 1
        else:
            end = mid
    return lo, probes


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"probes"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``index`` is ``bisect_left``'s position if it holds the target (else
    None), ``found`` says whether the target is in the array, and ``probes`` are the floor
    midpoints of the lower-bound search."""
    array, target = test_input["array"], test_input["target"]
    position = bisect.bisect_left(array, target)
    present = target in array
    lo, probes = _half_open_probes(array, target)
    if lo != position:  # the probe loop must itself agree with bisect
        return False
    want = {"index": position if present else None, "found": present, "probes": probes}
    found = answer.get("found")
    index = answer.get("index")
    return (
        set(answer) == set(want)
        and isinstance(found, bool)
        and (index is None or (isinstance(index, int) and not isinstance(index, bool)))
        and answer == want
    )


def test_the_oracle_holds_the_leftmost_convention() -> None:
    test_input = {"array": [2, 4, 4, 7, 9, 9, 9, 11, 14, 16, 20], "target": 9}
    assert oracle(test_input, {"index": 4, "found": True, "probes": [5, 2, 3, 4]})
    assert not oracle(test_input, {"index": 5, "found": True, "probes": [5]})
    assert not oracle(test_input, {"index": 4, "found": 1, "probes": [5, 2, 3, 4]})


@pytest.mark.parametrize("tier", ["simple", "standard", "edge"])
def test_the_reference_agrees_with_the_oracle_on_generated_inputs(tier: Any) -> None:
    for k in range(300):
        rng = random.Random(f"bs:{tier}:{k}")
        test_input = generate_binary_search(rng, tier, rng.randint(6, 80))
        assert oracle(test_input, binary_search(**test_input)), test_input


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(-6, 6), max_size=40).map(sorted),
    st.integers(-8, 8),
)
def test_the_reference_agrees_with_the_oracle_on_any_sorted_array(
    array: list[int], target: int
) -> None:
    assert oracle({"array": array, "target": target}, binary_search(array, target))


def test_probes_stay_logarithmic() -> None:
    for n in range(1, 300):
        probes = binary_search(list(range(n)), n // 3)["probes"]
        assert len(probes) <= n.bit_length()


def test_tiers_keep_their_promises() -> None:
    for k in range(200):
        simple = generate_binary_search(random.Random(k), "simple", 12)
        array, target = simple["array"], simple["target"]
        assert len(set(array)) == len(array) == 12
        assert array[0] < target < array[-1] and target in array
        standard = generate_binary_search(random.Random(k), "standard", 30)
        array, target = standard["array"], standard["target"]
        assert 2 <= array.count(target) <= 4 and array[0] < target < array[-1]
        assert first_hit_search(array, target)[0] != bisect.bisect_left(array, target)


def test_the_edge_tier_draws_every_kind() -> None:
    seen = set()
    for k in range(400):
        test_input = generate_binary_search(random.Random(k), "edge", 10)
        array, target = test_input["array"], test_input["target"]
        assert array == sorted(array) and len(array) <= 10
        if not array:
            seen.add("empty")
        elif target not in array:
            where = "below" if target < array[0] else "above" if target > array[-1] else "gap"
            seen.add(f"absent {where}")
        elif set(array) == {target}:
            seen.add("all equal")
        elif array[0] == target:
            seen.add("first")
        elif array[-1] == target:
            seen.add("last")
    assert seen == {
        "empty",
        "absent below",
        "absent above",
        "absent gap",
        "all equal",
        "first",
        "last",
    }
    assert len(BINARY_SEARCH_EDGE_KINDS) == 9


@pytest.mark.parametrize(
    ("array", "target", "index"),
    [([], 3, None), ([3], 3, 0), ([3], 4, None), ([3, 3, 3, 3], 3, 0), ([1, 2, 5, 5], 5, 2)],
)
def test_edge_inputs(array: list[int], target: int, index: int | None) -> None:
    answer = binary_search(array, target)
    assert answer["index"] == index and answer["found"] is (index is not None)
    assert oracle({"array": array, "target": target}, answer)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"array": [3, 1, 2], "target": 1}, "non-decreasing"),
        ({"array": "123", "target": 1}, "list"),
        ({"array": [1, True], "target": 1}, r"array\[1\]"),
        ({"array": [1, float("nan")], "target": 1}, "finite"),
        ({"array": [1, 2], "target": None}, "target"),
        ({"array": [1, 2], "target": "2"}, "target"),
    ],
)
def test_bad_inputs_raise(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        binary_search(**kwargs)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("binary_search"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("binary_search", oracle, tier, size, index)
