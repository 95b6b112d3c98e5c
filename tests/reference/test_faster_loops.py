"""Reference loops made cheaper give what the loops before gave (kept here as oracles):
floyd_warshall relaxes through row k read as its items instead of a lookup of d[k][v] and
d[u][v] per pair (graphs with negative arcs, negative cycles, self loops, parallel and
undirected edges); genetic_trace flips a child's bits at the drawn places instead of
testing every bit's index; edit_distance carries the three neighbouring cells along the
row instead of indexing both strings and rows per cell; matrix_chain_multiplication keeps
the first cheapest split in a loop instead of min with a key function per split."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from verification.reference.dynamic_programming import (
    edit_distance,
    matrix_chain_multiplication,
)
from verification.reference.graph._checks import lightest_arcs
from verification.reference.graph.shortest_paths import floyd_warshall
from verification.reference.optimization.genetic import _flip

_EXAMPLES = 40
"""Examples per property: each also runs on drawn cases or fixed ones (a new test of this
session, in both lanes)."""


def _by_lookups(vertices: list[str], edges: list[list[Any]], directed: bool) -> dict[str, Any]:
    """The loop floyd_warshall ran before, a lookup per read."""
    arcs = lightest_arcs(vertices, edges, directed, negative=True)
    dist: dict[str, dict[str, int | None]] = {
        u: {v: 0 if u == v else arcs[u].get(v) for v in vertices} for u in vertices
    }
    for u in vertices:
        loop = arcs[u].get(u)
        if loop is not None and loop < 0:
            dist[u][u] = loop
    for k in vertices:
        for u in vertices:
            through = dist[u][k]
            if through is None:
                continue
            for v in vertices:
                onward = dist[k][v]
                current = dist[u][v]
                if onward is not None and (current is None or through + onward < current):
                    dist[u][v] = through + onward
    if any((dist[v][v] or 0) < 0 for v in vertices):
        return {"negative_cycle": True, "distances": None}
    return {"negative_cycle": False, "distances": dist}


@st.composite
def _graphs(draw: st.DrawFn) -> tuple[list[str], list[list[Any]], bool]:
    vertices = draw(st.lists(st.sampled_from("ABCDEFGH"), min_size=1, max_size=8, unique=True))
    low = draw(st.sampled_from([-3, 0, 1]))
    edge = st.tuples(st.sampled_from(vertices), st.sampled_from(vertices), st.integers(low, 9))
    edges = [list(e) for e in draw(st.lists(edge, max_size=20))]
    return vertices, edges, draw(st.booleans())


@settings(max_examples=_EXAMPLES)
@given(_graphs())
def test_floyd_warshall_is_the_loop_of_lookups(
    graph: tuple[list[str], list[list[Any]], bool],
) -> None:
    vertices, edges, directed = graph
    assert floyd_warshall(vertices, edges, directed) == _by_lookups(vertices, edges, directed)


def test_floyd_warshall_on_drawn_cases_is_the_loop_of_lookups() -> None:
    from verification.cases import TIERS, generate_case
    from verification.registry import SPECS

    spec = SPECS["floyd_warshall"]
    for tier in TIERS:
        for index in range(10):
            case = generate_case(spec, tier, index, seed=11)
            expected = _by_lookups(**case.input)
            assert floyd_warshall(**case.input) == expected == case.expected


@settings(max_examples=_EXAMPLES)
@given(st.text("01", min_size=1, max_size=12), st.data())
def test_flip_is_the_bit_by_bit_flip(bits: str, data: st.DataObject) -> None:
    indices = range(len(bits))
    flips = tuple(sorted(data.draw(st.sets(st.sampled_from(indices)))))
    by_bit = "".join(("1" if b == "0" else "0") if i in flips else b for i, b in enumerate(bits))
    assert _flip(bits, flips) == by_bit


def _edit_distance_by_index(a: str, b: str) -> int:
    """The loop edit_distance ran before."""
    above = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i]
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                row.append(above[j - 1])
            else:
                row.append(1 + min(above[j], row[j - 1], above[j - 1]))
        above = row
    return above[len(b)]


@settings(max_examples=_EXAMPLES)
@given(st.text("abc", max_size=25), st.text("abc", max_size=25))
def test_edit_distance_is_the_loop_by_index(a: str, b: str) -> None:
    assert edit_distance(a, b) == {"distance": _edit_distance_by_index(a, b)}


def _chain_by_min_key(d: list[int]) -> tuple[int, list[list[int]]]:
    """The least cost and the split table matrix_chain_multiplication made before."""
    n = len(d) - 1
    cost = [[0] * (n + 1) for _ in range(n + 1)]
    split = [[0] * (n + 1) for _ in range(n + 1)]
    for span in range(2, n + 1):
        for i in range(1, n - span + 2):
            j = i + span - 1
            split[i][j] = min(
                range(i, j), key=lambda k: cost[i][k] + cost[k + 1][j] + d[i - 1] * d[k] * d[j]
            )
            k = split[i][j]
            cost[i][j] = cost[i][k] + cost[k + 1][j] + d[i - 1] * d[k] * d[j]
    return cost[1][n], split


def _written(split: list[list[int]], i: int, j: int) -> str:
    if i == j:
        return f"A{i}"
    k = split[i][j]
    return f"({_written(split, i, k)}{_written(split, k + 1, j)})"


# Small dimensions from few values: many ties between splits, the first one kept.
@settings(max_examples=_EXAMPLES)
@given(st.lists(st.sampled_from([1, 2, 3, 4, 6, 10, 30]), min_size=2, max_size=14))
def test_matrix_chain_is_the_min_over_splits(dimensions: list[int]) -> None:
    least, split = _chain_by_min_key(dimensions)
    expected = {"min_cost": least, "parenthesization": _written(split, 1, len(dimensions) - 1)}
    assert matrix_chain_multiplication(dimensions) == expected


def _estimate_by_fractions(coefficients: list[Any], a: float, b: float, draws: list[float]) -> Any:
    """monte_carlo_integration's exact mean as it was made: a fraction per value."""
    from fractions import Fraction

    from verification.reference.numerical._functions import as_written, exact_polynomial

    lo, hi = as_written(a), as_written(b)
    func = exact_polynomial(coefficients)
    total = Fraction(0)
    for u in draws:
        total += func(lo + (hi - lo) * as_written(u))
    return (hi - lo) * total / len(draws)


_decimals = st.integers(-(10**6), 10**6).map(lambda v: v / 1000)


@settings(max_examples=_EXAMPLES)
@given(
    st.lists(st.integers(-50, 50) | _decimals, min_size=1, max_size=5),
    _decimals,
    st.floats(0, 60, allow_nan=False),
    st.lists(st.integers(0, 99).map(lambda v: v / 100) | st.floats(0, 0.999999), min_size=1),
)
def test_the_exact_mean_is_the_sum_of_fractions(
    coefficients: list[Any], a: float, width: float, draws: list[float]
) -> None:
    from verification.reference.numerical.integration import _exact_mean

    b = a + width
    assert _exact_mean(coefficients, a, b, draws) == _estimate_by_fractions(
        coefficients, a, b, draws
    )
