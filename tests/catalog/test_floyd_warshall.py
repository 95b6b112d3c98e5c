"""What is peculiar to ``floyd_warshall``: its oracle (networkx's Floyd-Warshall, with a
negative diagonal meaning a negative cycle), the reference against networkx on generated
and hypothesis graphs, the tier promises, bad inputs."""

from __future__ import annotations

import json
import math
import random
import string
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.per_input import per_input
from tests.support.stress import stress_case, stress_cells
from verification.cases import TIERS, Tier
from verification.catalog.graph.floyd_warshall import (
    FLOYD_WARSHALL_EDGE_KINDS,
    SPEC,
    generate_floyd_warshall,
)
from verification.reference.graph import floyd_warshall

SEEDS = range(60)


def _graph(test_input: dict[str, Any]) -> nx.Graph:
    graph: nx.Graph = nx.DiGraph() if test_input["directed"] else nx.Graph()
    graph.add_nodes_from(test_input["vertices"])
    for u, v, weight in test_input["edges"]:
        if not graph.has_edge(u, v) or weight < graph[u][v]["weight"]:
            graph.add_edge(u, v, weight=weight)
    return graph


def _networkx_answer(test_input: dict[str, Any]) -> dict[str, Any]:
    vertices = test_input["vertices"]
    try:
        table = nx.floyd_warshall(_graph(test_input), weight="weight")
    except nx.NetworkXUnbounded:  # networkx 3.7 and later say so themselves
        return {"negative_cycle": True, "distances": None}
    if any(table[v][v] < 0 for v in vertices):  # earlier ones leave a negative diagonal
        return {"negative_cycle": True, "distances": None}
    return {
        "negative_cycle": False,
        "distances": {
            u: {v: None if math.isinf(table[u][v]) else int(table[u][v]) for v in vertices}
            for u in vertices
        },
    }


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when the answer is networkx's Floyd-Warshall table (inf as null, rows and
    columns keyed by label), or a reported negative cycle where networkx's table has a
    negative diagonal entry."""
    expected = per_input(
        "test_floyd_warshall._networkx_answer", test_input, lambda: _networkx_answer(test_input)
    )
    if answer != expected:
        return False
    distances = answer["distances"]
    # Equal as dicts still lets 3.0 pass for 3 or True for 1: the answer holds JSON ints.
    cells = [] if distances is None else [x for row in distances.values() for x in row.values()]
    return all(x is None or type(x) is int for x in cells)


def test_the_oracle_reads_nulls_and_negative_cycles() -> None:
    test_input = {"vertices": ["A", "B"], "edges": [["A", "B", -2]], "directed": True}
    table = {"A": {"A": 0, "B": -2}, "B": {"A": None, "B": 0}}
    right = {"negative_cycle": False, "distances": table}
    assert oracle(test_input, right)
    assert not oracle(test_input, {**right, "distances": {**table, "B": {"A": -2, "B": 0}}})
    assert not oracle(test_input, {**right, "distances": {**table, "A": {"A": 0, "B": -2.0}}})
    assert not oracle(test_input, {"negative_cycle": True, "distances": None})
    undirected = {**test_input, "directed": False}
    assert oracle(undirected, {"negative_cycle": True, "distances": None})
    assert not oracle(undirected, right)


def _case(tier: Tier, seed: int, size: int | None = None) -> dict[str, Any]:
    low, high = SPEC.size.ranges[tier]
    size = size if size is not None else random.Random(seed).randint(low, high)
    result: dict[str, Any] = generate_floyd_warshall(
        random.Random(f"floyd_warshall:{tier}:{seed}"), tier, size
    )
    return result


@pytest.mark.parametrize("tier", TIERS)
def test_floyd_warshall_matches_networkx_on_generated_cases(tier: Tier) -> None:
    for seed in SEEDS:
        test_input = _case(tier, seed)
        answer = floyd_warshall(**test_input)
        assert oracle(test_input, answer), (test_input, answer)
        # A second, unrelated judge of the flag: networkx's Bellman-Ford cycle search.
        assert answer["negative_cycle"] == nx.negative_edge_cycle(_graph(test_input))


@pytest.mark.parametrize("tier", ["simple", "standard"])
def test_simple_and_standard_reach_every_pair_with_traps(tier: Tier) -> None:
    for seed in SEEDS:
        test_input = _case(tier, seed)
        graph = _graph(test_input)
        assert nx.is_strongly_connected(graph) if graph.is_directed() else nx.is_connected(graph)
        answer = floyd_warshall(**test_input)
        assert not answer["negative_cycle"]
        distances = answer["distances"]
        # Some direct edge is beaten by a longer path.
        assert any(distances[u][v] < w for u, v, w in test_input["edges"])
        weights = [w for _, _, w in test_input["edges"]]
        if tier == "simple":
            assert min(weights) >= 1
        else:
            assert test_input["directed"] and min(weights) < 0 and 0 not in weights
            hops = max(
                len(path) - 1
                for _, paths in nx.all_pairs_bellman_ford_path(graph)
                for path in paths.values()
            )
            assert hops >= 3


def test_the_edge_tier_draws_every_kind_of_degenerate_instance() -> None:
    seen = set()
    for seed in range(300):
        test_input = _case("edge", seed)
        answer = floyd_warshall(**test_input)
        edges, vertices = test_input["edges"], test_input["vertices"]
        if answer["negative_cycle"]:
            if any(u == v for u, v, _ in edges):
                seen.add("negative_self_loop")
            elif not test_input["directed"]:
                seen.add("undirected_negative_edge")
            else:
                seen.add("negative_cycle")
            continue
        cells = [x for row in answer["distances"].values() for x in row.values()]
        if len(vertices) == 1:
            seen.add("single")
        elif not edges:
            seen.add("no_edges")
        elif None in cells:
            seen.add("unreachable")
        if any(w == 0 for u, v, w in edges if u != v):
            seen.add("zero_weight")
    assert seen == set(FLOYD_WARSHALL_EDGE_KINDS)


def test_the_largest_answer_fits_well_inside_the_output_budget() -> None:
    high = SPEC.size.ranges["standard"][1]
    answer = floyd_warshall(**_case("standard", 0, size=high))
    # About one token per three characters: the table leaves most of the budget to the work.
    assert len(json.dumps(answer)) / 3 < SPEC.max_output_tokens / 8


@st.composite
def _graphs(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 7))
    labels = list(string.ascii_uppercase[:n])
    edges = draw(
        st.lists(
            st.tuples(st.sampled_from(labels), st.sampled_from(labels), st.integers(-3, 9)),
            max_size=12,
        )
    )
    return {"vertices": labels, "edges": [list(e) for e in edges], "directed": draw(st.booleans())}


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(_graphs())
def test_floyd_warshall_matches_networkx_on_hypothesis_graphs(test_input: dict[str, Any]) -> None:
    answer = floyd_warshall(**test_input)
    assert oracle(test_input, answer), (test_input, answer)


def test_empty_and_single_vertex_graphs() -> None:
    assert floyd_warshall([], []) == {"negative_cycle": False, "distances": {}}
    assert floyd_warshall(["A"], [["A", "A", 3]]) == {
        "negative_cycle": False,
        "distances": {"A": {"A": 0}},
    }
    assert floyd_warshall(["A"], [["A", "A", -1]])["negative_cycle"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"edges": [["A", "B", 1.5]]}, "integer weight"),
        ({"edges": [["A", "B", True]]}, "integer weight"),
        ({"edges": [["A", "X", 1]]}, "unknown vertex"),
        ({"edges": [["A", "B"]]}, r"\[u, v, weight\]"),
        ({"edges": "AB"}, "edges must be a list"),
        ({"vertices": ["A", "A", "B"]}, "unique"),
        ({"vertices": ["A", 2]}, "strings"),
        ({"vertices": "AB"}, "list of labels"),
        ({"directed": 1}, "directed"),
    ],
)
def test_bad_inputs_raise_value_error(change: dict[str, Any], message: str) -> None:
    base = {"vertices": ["A", "B"], "edges": [["A", "B", 1]], "directed": True}
    with pytest.raises(ValueError, match=message):
        floyd_warshall(**{**base, **change})


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("floyd_warshall"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    case = stress_case("floyd_warshall", tier, size, index)
    assert len(case.input["vertices"]) == size
    assert oracle(case.input, case.expected), case.id
