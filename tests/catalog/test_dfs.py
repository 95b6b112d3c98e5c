"""What is peculiar to ``dfs``: its oracle (networkx's depth-first search with sorted
neighbours), the reference against it on generated and hypothesis graphs, bad inputs."""

from __future__ import annotations

import random
import string
from itertools import pairwise
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import in_label_order, stress_case, stress_cells
from verification.cases import TIERS, Tier
from verification.catalog.graph.dfs import DFS_EDGE_KINDS, generate_dfs
from verification.reference.graph import dfs

SEEDS = range(80)


def _graph(test_input: dict[str, Any]) -> nx.Graph:
    graph: nx.Graph = nx.DiGraph() if test_input["directed"] else nx.Graph()
    graph.add_nodes_from(test_input["vertices"])
    graph.add_edges_from(tuple(edge) for edge in test_input["edges"])
    return graph


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"order", "finish_order"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``order`` is networkx's depth-first preorder and ``finish_order`` its
    postorder, both with neighbours in ascending label order."""
    graph, source = _graph(test_input), test_input["source"]
    return answer == {
        "order": list(nx.dfs_preorder_nodes(graph, source, sort_neighbors=in_label_order)),
        "finish_order": list(nx.dfs_postorder_nodes(graph, source, sort_neighbors=in_label_order)),
    }


def test_the_oracle_holds_the_ascending_label_convention() -> None:
    test_input = {
        "vertices": ["A", "B", "C"],
        "edges": [["A", "C"], ["A", "B"]],
        "directed": False,
        "source": "A",
    }
    assert oracle(test_input, {"order": ["A", "B", "C"], "finish_order": ["B", "C", "A"]})
    assert not oracle(test_input, {"order": ["A", "C", "B"], "finish_order": ["C", "B", "A"]})


@pytest.mark.parametrize("tier", TIERS)
def test_dfs_matches_networkx_on_generated_cases(tier: Tier) -> None:
    for seed in SEEDS:
        size = random.Random(seed).randint(6, 16)
        inp = generate_dfs(random.Random(f"dfs:{tier}:{seed}"), tier, size)
        assert oracle(inp, dfs(**inp)), inp


def test_the_edge_tier_draws_every_kind_of_degenerate_graph() -> None:
    seen = set()
    for seed in range(120):
        inp = generate_dfs(random.Random(f"kinds:{seed}"), "edge", 6)
        answer = dfs(**inp)
        assert oracle(inp, answer)
        if len(inp["vertices"]) == 1:
            seen.add("single")
        elif answer["order"] == [inp["source"]]:
            seen.add("stuck at the source")
        elif len(answer["order"]) < len(inp["vertices"]):
            seen.add("unreachable")
        if any(u == v for u, v in inp["edges"]):
            seen.add("self loop")
        if answer["finish_order"] == answer["order"][::-1] and len(answer["order"]) > 2:
            seen.add("path")
    assert seen == {"single", "stuck at the source", "unreachable", "self loop", "path"}
    assert len(DFS_EDGE_KINDS) == 6


@st.composite
def _graphs(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 9))
    labels = list(string.ascii_uppercase[:n])
    pair = st.tuples(st.sampled_from(labels), st.sampled_from(labels)).map(list)
    return {
        "vertices": draw(st.permutations(labels)),
        "edges": draw(st.lists(pair, max_size=20)),
        "directed": draw(st.booleans()),
        "source": draw(st.sampled_from(labels)),
    }


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(_graphs())
def test_dfs_matches_networkx_on_any_graph(inp: dict[str, Any]) -> None:
    assert oracle(inp, dfs(**inp))


def test_deep_paths_do_not_hit_the_recursion_limit() -> None:
    labels = [f"v{i:05d}" for i in range(5000)]
    edges = [[u, v] for u, v in pairwise(labels)]
    answer = dfs(labels, edges, labels[0], directed=True)
    assert answer == {"order": labels, "finish_order": labels[::-1]}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"vertices": "AB", "edges": [], "source": "A"}, "list of labels"),
        ({"vertices": ["A", "A"], "edges": [], "source": "A"}, "unique"),
        ({"vertices": ["A", 1], "edges": [], "source": "A"}, "strings"),
        ({"vertices": ["A"], "edges": [], "source": "B"}, "source"),
        ({"vertices": ["A"], "edges": [], "source": "A", "directed": "no"}, "directed"),
        ({"vertices": ["A"], "edges": {}, "source": "A"}, "edges must be a list"),
        ({"vertices": ["A"], "edges": [["A", "Z"]], "source": "A"}, "unknown vertex"),
        ({"vertices": ["A"], "edges": [["A", "A", 1]], "source": "A"}, r"\[u, v\]"),
    ],
)
def test_bad_inputs_raise_value_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dfs(**kwargs)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("dfs"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    case = stress_case("dfs", tier, size, index)
    assert len(case.input["vertices"]) == size
    assert oracle(case.input, case.expected), case.id
