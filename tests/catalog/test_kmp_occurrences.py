"""kmp's standard tier decides a candidate from occurrences (str.find) instead of the
search: the same positions as kmp_search, overlapping ones included."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from verification.catalog.string.kmp import occurrences
from verification.reference.string_algo import kmp_search


@given(st.text("AB", max_size=60), st.text("AB", min_size=1, max_size=6))
def test_occurrences_are_kmp_searchs_positions(text: str, pattern: str) -> None:
    assert occurrences(text, pattern) == kmp_search(text, pattern)["positions"]


@given(st.text("ABC", max_size=400), st.text("ABC", min_size=1, max_size=5))
def test_occurrences_in_long_texts_are_kmp_searchs_positions(text: str, pattern: str) -> None:
    assert occurrences(text, pattern) == kmp_search(text, pattern)["positions"]


def test_overlapping_occurrences_are_all_found() -> None:
    assert occurrences("AAAA", "AA") == [0, 1, 2] == kmp_search("AAAA", "AA")["positions"]
    assert occurrences("ABABA", "ABA") == [0, 2]
