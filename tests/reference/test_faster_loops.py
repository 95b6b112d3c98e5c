"""Reference loops made cheaper give what the loops before gave (kept here as oracles):
floyd_warshall relaxes through row k read as its items instead of a lookup of d[k][v] and
d[u][v] per pair (graphs with negative arcs, negative cycles, self loops, parallel and
undirected edges); genetic_trace flips a child's bits at the drawn places instead of
testing every bit's index."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from verification.reference.graph._checks import lightest_arcs
from verification.reference.graph.shortest_paths import floyd_warshall
from verification.reference.optimization.genetic import _flip


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


@given(st.text("01", min_size=1, max_size=12), st.data())
def test_flip_is_the_bit_by_bit_flip(bits: str, data: st.DataObject) -> None:
    indices = range(len(bits))
    flips = tuple(sorted(data.draw(st.sets(st.sampled_from(indices)))))
    by_bit = "".join(("1" if b == "0" else "0") if i in flips else b for i, b in enumerate(bits))
    assert _flip(bits, flips) == by_bit
