"""The graph references against networkx, on generated cases and on hypothesis graphs,
labels of any string included."""

from __future__ import annotations

import random
import string
from types import ModuleType
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.catalog.graph.bfs import generate_bfs
from verification.catalog.graph.dijkstra import generate_dijkstra
from verification.generators.base import TIERS, Tier
from verification.reference.graph import (
    astar,
    bellman_ford,
    bfs,
    dfs,
    dijkstra,
    floyd_warshall,
    topological_sort,
)

SIZES: dict[Tier, int] = {"simple": 5, "standard": 8, "edge": 5}
SEEDS = range(60)


def _graph(vertices: list[str], edges: list[list[Any]], directed: bool) -> nx.Graph:
    graph: nx.Graph = nx.DiGraph() if directed else nx.Graph()
    graph.add_nodes_from(vertices)
    for edge in edges:
        u, v = edge[0], edge[1]
        weight = edge[2] if len(edge) == 3 else 1
        if graph.has_edge(u, v):
            weight = min(weight, graph[u][v]["weight"])
        graph.add_edge(u, v, weight=weight)
    return graph


def _oracle_dijkstra(inp: dict[str, Any]) -> dict[str, Any]:
    graph = _graph(inp["vertices"], inp["edges"], inp["directed"])
    lengths = nx.single_source_dijkstra_path_length(graph, inp["source"], weight="weight")
    return {"distances": {v: lengths.get(v) for v in inp["vertices"]}}


def _oracle_bfs(inp: dict[str, Any]) -> dict[str, Any]:
    graph = _graph(inp["vertices"], inp["edges"], inp["directed"])
    source = inp["source"]
    order = [source, *(v for _, v in nx.bfs_edges(graph, source, sort_neighbors=sorted))]
    hops = nx.single_source_shortest_path_length(graph, source)
    return {"order": order, "distances": {v: hops.get(v) for v in inp["vertices"]}}


def _is_convention_bfs_order(inp: dict[str, Any], order: list[str]) -> bool:
    """Replays the stated convention against a given order, independently of both codes."""
    graph = _graph(inp["vertices"], inp["edges"], inp["directed"])
    if not order or order[0] != inp["source"] or len(set(order)) != len(order):
        return False
    position = 1
    for index, u in enumerate(order):
        if index >= position:  # the queue ran dry before ``u`` was discovered
            return False
        fresh = sorted(v for v in graph.neighbors(u) if v not in order[:position])
        if order[position : position + len(fresh)] != fresh:
            return False
        position += len(fresh)
    return position == len(order)


def _case(generator: Any, tier: Tier, seed: int) -> dict[str, Any]:
    result: dict[str, Any] = generator(random.Random(f"ref:{tier}:{seed}"), tier, SIZES[tier])
    return result


@pytest.mark.parametrize("tier", TIERS)
def test_dijkstra_matches_networkx_on_generated_cases(tier: Tier) -> None:
    for seed in SEEDS:
        inp = _case(generate_dijkstra, tier, seed)
        assert dijkstra(**inp) == _oracle_dijkstra(inp), inp


@pytest.mark.parametrize("tier", TIERS)
def test_bfs_matches_networkx_on_generated_cases(tier: Tier) -> None:
    for seed in SEEDS:
        inp = _case(generate_bfs, tier, seed)
        answer = bfs(**inp)
        assert answer == _oracle_bfs(inp), inp
        assert _is_convention_bfs_order(inp, answer["order"])


@st.composite
def graphs(draw: st.DrawFn, weighted: bool) -> dict[str, Any]:
    n = draw(st.integers(1, 9))
    labels = draw(st.permutations(list(string.ascii_uppercase[:n])))
    ends = st.sampled_from(labels)
    edge = (
        st.tuples(ends, ends, st.integers(0, 20)).map(list)
        if weighted
        else st.tuples(ends, ends).map(list)
    )
    return {
        "vertices": labels,
        "edges": draw(st.lists(edge, max_size=20)),
        "directed": draw(st.booleans()),
        "source": draw(ends),
    }


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(graphs(weighted=True))
def test_dijkstra_matches_networkx_on_any_graph(inp: dict[str, Any]) -> None:
    answer = dijkstra(**inp)
    assert answer == _oracle_dijkstra(inp)
    assert list(answer["distances"]) == inp["vertices"]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(graphs(weighted=False))
def test_bfs_matches_networkx_on_any_graph(inp: dict[str, Any]) -> None:
    answer = bfs(**inp)
    assert answer == _oracle_bfs(inp)
    assert _is_convention_bfs_order(inp, answer["order"])
    assert list(answer["distances"]) == inp["vertices"]


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(graphs(weighted=True))
def test_dijkstra_distances_satisfy_the_triangle_inequality(inp: dict[str, Any]) -> None:
    dist = dijkstra(**inp)["distances"]
    assert dist[inp["source"]] == 0
    for u, v, w in inp["edges"]:
        arcs = [(u, v)] if inp["directed"] else [(u, v), (v, u)]
        for a, b in arcs:
            if dist[a] is not None:
                assert dist[b] is not None and dist[b] <= dist[a] + w


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(graphs(weighted=True))
def test_bfs_hops_equal_dijkstra_with_unit_weights(inp: dict[str, Any]) -> None:
    unit = [[u, v, 1] for u, v, _ in inp["edges"]]
    pairs = [[u, v] for u, v, _ in inp["edges"]]
    hops = bfs(inp["vertices"], pairs, inp["source"], inp["directed"])["distances"]
    assert hops == dijkstra(inp["vertices"], unit, inp["source"], inp["directed"])["distances"]


def test_answers_are_plain_json_shapes() -> None:
    answer = bfs(["A", "B"], [["A", "B"]], "A")
    assert type(answer["order"]) is list
    assert dijkstra(["A", "B"], [], "A") == {"distances": {"A": 0, "B": None}}


BAD_DIJKSTRA: list[tuple[dict[str, Any], str]] = [
    ({"vertices": "AB", "edges": [], "source": "A"}, "vertices must be a list"),
    ({"vertices": ["A", 1], "edges": [], "source": "A"}, "must be strings"),
    ({"vertices": ["A", "A"], "edges": [], "source": "A"}, "unique"),
    ({"vertices": ["A"], "edges": [], "source": "B"}, "source"),
    ({"vertices": [], "edges": [], "source": "A"}, "source"),
    ({"vertices": ["A"], "edges": [], "source": "A", "directed": 1}, "directed"),
    ({"vertices": ["A", "B"], "edges": [["A", "C", 1]], "source": "A"}, "unknown vertex"),
    ({"vertices": ["A", "B"], "edges": [["A", "B"]], "source": "A"}, r"\[u, v, weight\]"),
    ({"vertices": ["A", "B"], "edges": [["A", "B", -1]], "source": "A"}, "non-negative"),
    ({"vertices": ["A", "B"], "edges": [["A", "B", 1.5]], "source": "A"}, "integer"),
    ({"vertices": ["A", "B"], "edges": [["A", "B", True]], "source": "A"}, "integer"),
    ({"vertices": ["A", "B"], "edges": "AB", "source": "A"}, "edges must be a list"),
]


@pytest.mark.parametrize(("kwargs", "message"), BAD_DIJKSTRA)
def test_dijkstra_rejects_bad_input(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dijkstra(**kwargs)


BAD_BFS: list[tuple[dict[str, Any], str]] = [
    ({"vertices": ["A", "A"], "edges": [], "source": "A"}, "unique"),
    ({"vertices": ["A"], "edges": [], "source": "Z"}, "source"),
    ({"vertices": ["A", "B"], "edges": [["A", "B", 1]], "source": "A"}, r"\[u, v\]"),
    ({"vertices": ["A", "B"], "edges": [["A", 2]], "source": "A"}, "unknown vertex"),
    ({"vertices": ["A"], "edges": [], "source": "A", "directed": "no"}, "directed"),
]


@pytest.mark.parametrize(("kwargs", "message"), BAD_BFS)
def test_bfs_rejects_bad_input(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        bfs(**kwargs)


# Beyond the generators: labels of any string (several characters, spaces, case, accents),
# self loops, parallel edges, zero and negative weights; against the scaffold tests'
# networkx oracles (tests/catalog, loaded by conftest.py).


@st.composite
def labelled_graphs(draw: st.DrawFn, weights: st.SearchStrategy[int] | None) -> dict[str, Any]:
    labels = draw(
        st.lists(
            st.text(string.ascii_letters + " é9", min_size=1, max_size=3),
            unique=True,
            min_size=1,
            max_size=7,
        )
    )
    end = st.sampled_from(labels)
    edge = st.tuples(end, end) if weights is None else st.tuples(end, end, weights)
    return {
        "vertices": labels,
        "edges": draw(st.lists(edge.map(list), max_size=14)),
        "directed": draw(st.booleans()),
        "source": draw(end),
    }


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(inp=labelled_graphs(weights=None))
def test_dfs_bfs_and_topological_sort_on_any_labels(
    inp: dict[str, Any], scaffold_tests: dict[str, ModuleType]
) -> None:
    assert scaffold_tests["dfs"].oracle(inp, dfs(**inp))
    assert scaffold_tests["bfs"].oracle(inp, bfs(**inp))
    dag = {"vertices": inp["vertices"], "edges": inp["edges"]}
    assert scaffold_tests["topological_sort"].oracle(dag, topological_sort(**dag))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(inp=labelled_graphs(weights=st.integers(-4, 9)))
def test_bellman_ford_and_floyd_warshall_on_any_labels(
    inp: dict[str, Any], scaffold_tests: dict[str, ModuleType]
) -> None:
    assert scaffold_tests["bellman_ford"].oracle(inp, bellman_ford(**inp))
    table = {key: inp[key] for key in ("vertices", "edges", "directed")}
    assert scaffold_tests["floyd_warshall"].oracle(table, floyd_warshall(**table))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(inp=labelled_graphs(weights=st.integers(0, 9)), goal=st.data(), share=st.integers(0, 4))
def test_astar_and_dijkstra_on_any_labels(
    inp: dict[str, Any], goal: st.DataObject, share: int, scaffold_tests: dict[str, ModuleType]
) -> None:
    target = goal.draw(st.sampled_from(inp["vertices"]))
    graph = _graph(inp["vertices"], inp["edges"], inp["directed"])
    # share/4 of the true distance to the goal, rounded down, stays consistent; vertices
    # that cannot reach the goal get one large value.
    to_goal = nx.single_source_dijkstra_path_length(
        graph.reverse() if inp["directed"] else graph, target
    )
    heuristic = {v: to_goal[v] * share // 4 if v in to_goal else 10_000 for v in inp["vertices"]}
    case = {**inp, "goal": target, "heuristic": heuristic}
    assert scaffold_tests["astar"].oracle(case, astar(**case))
    assert scaffold_tests["dijkstra"].oracle(inp, dijkstra(**inp))
