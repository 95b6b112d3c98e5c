"""graph_coloring's search_effort runs the scaffold's search with colours as bits, each
vertex reading only its neighbours before it (the only ones coloured at its turn): the
same lines and dead ends, and the same cut at a limit, as the search by label it replaced
(kept as _search_effort_by_labels, which labels given twice still take)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from verification.catalog.backtracking.graph_coloring import (
    _planted,
    _search_effort_by_labels,
    search_effort,
)
from verification.generators.graph import vertex_labels

_EXAMPLES = 40
"""Examples per property: each also runs on drawn cases or fixed ones (a new test of this
session, in both lanes)."""


@st.composite
def _searches(
    draw: st.DrawFn,
) -> tuple[list[str], list[tuple[str, str]], int, int | None]:
    vertices = list(draw(st.permutations(vertex_labels(draw(st.integers(1, 9))))))
    ends = st.sampled_from(vertices)
    pairs = draw(st.lists(st.tuples(ends, ends), max_size=24))  # loops, repeats, both ways
    limit = draw(st.none() | st.integers(0, 60))
    return vertices, pairs, draw(st.integers(0, 4)), limit


@settings(max_examples=_EXAMPLES)
@given(_searches())
def test_search_effort_is_the_search_by_label(
    search: tuple[list[str], list[tuple[str, str]], int, int | None],
) -> None:
    vertices, pairs, k, limit = search
    assert search_effort(vertices, pairs, k, limit) == _search_effort_by_labels(
        vertices, pairs, k, limit
    )


def test_search_effort_on_planted_graphs_is_the_search_by_label() -> None:
    rng = random.Random(3)
    for size in (5, 8, 12, 20, 40):
        vertices = vertex_labels(size)
        for _ in range(15):
            pairs = _planted(rng, vertices, 3, rng.uniform(0.25, 0.6))
            for limit in (None, 30 + size):
                expected = _search_effort_by_labels(vertices, pairs, 3, limit)
                assert search_effort(vertices, pairs, 3, limit) == expected


def test_labels_given_twice_are_searched_by_label() -> None:
    vertices, pairs = ["A", "B", "A"], [("A", "B")]
    assert search_effort(vertices, pairs, 2) == _search_effort_by_labels(vertices, pairs, 2, None)
