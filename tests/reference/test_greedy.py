"""``kruskal_mst`` against networkx on generated and random graphs; the other greedy
references on inputs beyond their generators."""

from __future__ import annotations

import random
import string
from types import ModuleType
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.catalog.greedy.kruskal import generate_kruskal
from verification.generators.base import TIERS, Tier
from verification.reference.greedy import (
    activity_selection,
    fractional_knapsack,
    huffman_coding,
    kruskal_mst,
)

SIZES: dict[Tier, int] = {"simple": 4, "standard": 7, "edge": 5}


def to_nx(graph: dict[str, Any]) -> nx.Graph:
    """Nodes and edges inserted in label order, so nx's stable Kruskal sort breaks weight
    ties by (smaller label, larger label), the reference's documented convention."""
    g = nx.Graph()
    g.add_nodes_from(sorted(graph["vertices"]))
    for u, v, w in sorted((min(u, v), max(u, v), w) for u, v, w in graph["edges"]):
        g.add_edge(u, v, weight=w)
    return g


def check_against_networkx(graph: dict[str, Any]) -> None:
    result = kruskal_mst(**graph)
    g = to_nx(graph)
    kruskal = [
        [u, v, d["weight"]]
        for u, v, d in nx.minimum_spanning_edges(g, algorithm="kruskal", data=True)
    ]
    assert result["edges"] == [[min(u, v), max(u, v), w] for u, v, w in kruskal]
    prim = nx.minimum_spanning_tree(g, algorithm="prim")
    assert result["total_weight"] == prim.size(weight="weight")
    assert result["total_weight"] == sum(w for _, _, w in result["edges"])
    forest = nx.Graph([(u, v) for u, v, _ in result["edges"]])
    forest.add_nodes_from(graph["vertices"])
    assert nx.is_forest(forest)
    assert nx.number_connected_components(forest) == nx.number_connected_components(g)


@pytest.mark.parametrize("tier", TIERS)
def test_generated_graphs_match_networkx(tier: Tier) -> None:
    for seed in range(60):
        check_against_networkx(generate_kruskal(random.Random(seed), tier, SIZES[tier]))


@st.composite
def graphs(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 7))
    vertices = [chr(ord("A") + i) for i in range(n)]
    pairs = [(u, v) for i, u in enumerate(vertices) for v in vertices[i + 1 :]]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    edges = []
    for u, v in chosen:
        w = draw(st.integers(-10, 10))
        edges.append([v, u, w] if draw(st.booleans()) else [u, v, w])
    return {"vertices": draw(st.permutations(vertices)), "edges": edges, "directed": False}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(graphs())
def test_random_graphs_match_networkx(graph: dict[str, Any]) -> None:
    check_against_networkx(graph)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(graphs())
def test_edges_come_out_in_scan_order_smaller_label_first(graph: dict[str, Any]) -> None:
    edges = kruskal_mst(**graph)["edges"]
    assert all(u < v for u, v, _ in edges)
    keys = [(w, u, v) for u, v, w in edges]
    assert keys == sorted(keys)


def test_input_is_not_mutated() -> None:
    graph = generate_kruskal(random.Random(3), "standard", 7)
    snapshot = repr(graph)
    kruskal_mst(**graph)
    assert repr(graph) == snapshot


@pytest.mark.parametrize(
    ("graph", "message"),
    [
        ({"vertices": ["A", "B"], "edges": [["A", "B", 1]], "directed": True}, "undirected"),
        ({"vertices": ["A", "A"], "edges": []}, "repeat"),
        ({"vertices": ["A", 2], "edges": []}, "must be strings"),
        ({"vertices": "AB", "edges": []}, "list of labels"),
        ({"vertices": ["A", "B"], "edges": [["A", "C", 1]]}, "unknown vertex"),
        ({"vertices": ["A", "B"], "edges": [["A", "A", 1]]}, "self loop"),
        ({"vertices": ["A", "B"], "edges": [["A", "B", 1], ["B", "A", 2]]}, "repeats"),
        ({"vertices": ["A", "B"], "edges": [["A", "B", 1.5]]}, "not an integer"),
        ({"vertices": ["A", "B"], "edges": [["A", "B", True]]}, "not an integer"),
        ({"vertices": ["A", "B"], "edges": [["A", "B"]]}, "not \\[u, v, weight\\]"),
    ],
)
def test_bad_input_is_a_value_error(graph: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        kruskal_mst(**graph)


# Beyond the generators, against the scaffold tests' brute-force and LP oracles
# (tests/catalog, loaded by conftest.py): times and weights as floats, negative times,
# touching and nested activities, symbols of any string, all-equal frequencies.

times = st.one_of(st.integers(-20, 20), st.floats(-20, 20).map(lambda x: round(x, 3)))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(spans=st.lists(st.tuples(times, st.sampled_from([0.001, 0.5, 1, 2.25, 7])), max_size=9))
def test_activity_selection_on_float_and_negative_times(
    spans: list[tuple[float, float]], scaffold_tests: dict[str, ModuleType]
) -> None:
    activities = [[f"a{i}", start, start + length] for i, (start, length) in enumerate(spans)]
    activities = [a for a in activities if a[1] < a[2]]  # a float sum may round onto start
    inp = {"activities": activities}
    assert scaffold_tests["activity_selection"].oracle(inp, activity_selection(**inp))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    items=st.lists(
        st.tuples(st.floats(0.01, 50).map(lambda x: round(x, 2)), st.integers(0, 60)),
        max_size=8,
    ),
    capacity=st.one_of(
        st.just(0), st.integers(0, 100), st.floats(0, 100).map(lambda x: round(x, 2))
    ),
)
def test_fractional_knapsack_on_float_weights(
    items: list[tuple[float, int]], capacity: float, scaffold_tests: dict[str, ModuleType]
) -> None:
    inp = {"weights": [w for w, _ in items], "values": [v for _, v in items], "capacity": capacity}
    assert scaffold_tests["fractional_knapsack"].oracle(inp, fractional_knapsack(**inp))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    frequencies=st.dictionaries(
        st.text(string.ascii_letters + "#0 é", min_size=1, max_size=3),
        st.integers(1, 4),  # few values: ties everywhere
        min_size=1,
        max_size=8,
    )
)
def test_huffman_on_any_symbols_and_ties(
    frequencies: dict[str, int], scaffold_tests: dict[str, ModuleType]
) -> None:
    inp = {"frequencies": frequencies}
    assert scaffold_tests["huffman"].oracle(inp, huffman_coding(**inp))
