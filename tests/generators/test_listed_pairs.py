"""Two shortcuts of the graph generators and references hold to what they stand for:
extra_pairs lists a small population of free pairs at once instead of making _FreePairs
(the same pairs in the same order, so rng.sample picks the same ones and leaves the
generator where it did), and search_input sorts labels of one length in string order,
which is label order for them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.generators import graph
from verification.generators.graph import _FreePairs, extra_pairs, vertex_labels
from verification.reference._inputs import label_order
from verification.reference.graph._checks import search_input

_EXAMPLES = 40
"""Examples per property: each also runs on drawn cases or fixed ones (a new test of this
session, in both lanes)."""


@st.composite
def _taken(draw: st.DrawFn) -> tuple[list[str], list[tuple[str, str]]]:
    labels = vertex_labels(draw(st.integers(1, graph._LISTED_LABELS)))
    labels = draw(st.permutations(labels))
    ends = st.sampled_from([*labels, "ZZ"])  # a label not among them joins nothing
    return list(labels), draw(st.lists(st.tuples(ends, ends), max_size=40))


@settings(max_examples=_EXAMPLES)
@given(_taken(), st.integers(0, 130), st.integers(0, 2**32))
def test_listed_free_pairs_draw_what_free_pairs_draw(
    case: tuple[list[str], list[tuple[str, str]]], count: int, seed: int
) -> None:
    labels, taken = case
    listed, counted = random.Random(seed), random.Random(seed)
    mine = extra_pairs(listed, labels, taken, count)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(graph, "_LISTED_LABELS", 0)  # _FreePairs for every population
        theirs = extra_pairs(counted, labels, taken, count)
    assert mine == theirs
    assert listed.getstate() == counted.getstate()
    joined = {frozenset(pair) for pair in taken}
    assert all(frozenset(pair) not in joined for pair in mine)


@settings(max_examples=_EXAMPLES)
@given(_taken())
def test_the_listed_population_is_the_free_pairs_in_order(
    case: tuple[list[str], list[tuple[str, str]]],
) -> None:
    labels, taken = case
    ends = set(taken)
    listed = [
        (u, v)
        for i, u in enumerate(labels)
        for v in labels[i + 1 :]
        if (u, v) not in ends and (v, u) not in ends
    ]
    assert listed == list(_FreePairs(labels, taken))


@settings(max_examples=_EXAMPLES)
@given(st.integers(1, 40), st.integers(0, 2**32), st.booleans())
def test_search_input_lists_neighbours_in_label_order(size: int, seed: int, directed: bool) -> None:
    rng = random.Random(seed)
    labels = vertex_labels(size)
    rng.shuffle(labels)
    edges = [[rng.choice(labels), rng.choice(labels)] for _ in range(rng.randint(0, 3 * size))]
    checked, neighbours = search_input(labels, edges, labels[0], directed)
    expected: dict[str, set[str]] = {v: set() for v in labels}
    for u, v in edges:
        expected[u].add(v)
        if not directed:
            expected[v].add(u)
    assert checked == labels
    assert neighbours == {v: sorted(out, key=label_order) for v, out in expected.items()}
    assert list(neighbours) == labels
