"""The divide-and-conquer references against the standard library and brute force, on
inputs beyond what the generators draw but within the references' input checks: floats and
ints mixed (``1`` and ``1.0`` are equal yet print differently), ``-0.0``, subnormals, huge
magnitudes, long runs of duplicates, empty and one-element arrays."""

from __future__ import annotations

import bisect
import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.reference.divide_conquer import binary_search, merge_sort, quickselect

numbers = st.one_of(
    st.integers(-(2**60), 2**60),
    st.integers(-3, 3),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 1.0, 5e-324, -1e308]),
)


def _typed(values: list[Any]) -> list[tuple[Any, type]]:
    # ``1 == 1.0``: compare the types too, so a value that changed form is seen.
    return [(value, type(value)) for value in values]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(numbers, max_size=40), numbers, st.booleans())
def test_binary_search_finds_the_leftmost_copy(array: list[Any], target: Any, pick: bool) -> None:
    array.sort()
    if pick and array:
        target = array[len(array) // 3]
    at = bisect.bisect_left(array, target)
    index = at if at < len(array) and array[at] == target else None
    answer = binary_search(array, target)
    assert (answer["index"], answer["found"]) == (index, index is not None)
    probes = answer["probes"]
    assert len(probes) == len(set(probes)) <= len(array).bit_length()
    assert all(0 <= probe < len(array) for probe in probes)
    if index is not None:
        assert index in probes


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(numbers, max_size=40))
def test_merge_sort_is_a_stable_sort_and_counts_inversions(array: list[Any]) -> None:
    inversions = sum(
        1 for i, j in itertools.combinations(range(len(array)), 2) if array[i] > array[j]
    )
    answer = merge_sort(list(array))
    assert _typed(answer["sorted"]) == _typed(sorted(array))
    assert answer["inversions"] == inversions


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.lists(numbers, min_size=1, max_size=40).flatmap(
        lambda array: st.tuples(st.just(array), st.integers(1, len(array)))
    )
)
def test_quickselect_is_the_kth_of_the_sorted_copies(drawn: tuple[list[Any], int]) -> None:
    array, k = drawn
    assert quickselect(list(array), k)["value"] == sorted(array)[k - 1]
