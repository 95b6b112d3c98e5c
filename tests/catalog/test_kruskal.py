"""What is peculiar to ``kruskal``: its oracle, a spanning forest of networkx's minimum
weight.

(The reference's own cross-checks live in ``tests/reference/test_greedy.py``; the MST
validator's in ``tests/validators/test_mst.py``.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import networkx as nx
import pytest

from tests.support.per_input import per_input
from tests.support.stress import in_label_order, stress_case, stress_cells
from verification.cases import Tier
from verification.reference.greedy import kruskal_mst

Judge = Callable[[str, dict[str, Any], Any], bool]


def _forest(test_input: dict[str, Any]) -> tuple[nx.Graph, float, int]:
    """The input's graph, networkx's minimum spanning forest weight and its number of
    components (the oracle only reads them: once per input, for every answer to it)."""
    graph = nx.Graph()
    graph.add_nodes_from(test_input["vertices"])
    for u, v, weight in test_input["edges"]:
        graph.add_edge(u, v, weight=weight)
    minimum = nx.minimum_spanning_tree(graph).size(weight="weight")
    return graph, minimum, nx.number_connected_components(graph)


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"edges"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``edges`` are edges of the graph forming a spanning forest (a tree per
    component) whose weight is networkx's minimum, and ``total_weight`` is that weight;
    written as the Output Format asks: the smaller label first, in an order Kruskal's scan
    accepts (weights never decrease)."""
    weights = [weight for _, _, weight in answer["edges"]]
    smaller_first = all(in_label_order([u, v]) == [u, v] for u, v, _ in answer["edges"])
    if weights != sorted(weights) or not smaller_first:
        return False
    graph, minimum, components = per_input("kruskal", test_input, lambda: _forest(test_input))
    chosen = nx.Graph()
    chosen.add_nodes_from(test_input["vertices"])
    weight_sum = 0
    for u, v, weight in answer["edges"]:
        if not graph.has_edge(u, v) or graph[u][v]["weight"] != weight or chosen.has_edge(u, v):
            return False
        chosen.add_edge(u, v)
        weight_sum += weight
    spans = nx.is_forest(chosen) and nx.number_connected_components(chosen) == components
    return bool(spans) and weight_sum == minimum == answer["total_weight"]


def test_the_oracle_refuses_a_spanning_tree_that_is_not_minimal() -> None:
    test_input = {
        "vertices": ["A", "B", "C"],
        "edges": [["A", "B", 1], ["B", "C", 2], ["A", "C", 3]],
        "directed": False,
    }
    assert oracle(test_input, {"edges": [["A", "B", 1], ["B", "C", 2]], "total_weight": 3})
    assert not oracle(test_input, {"edges": [["B", "A", 1], ["B", "C", 2]], "total_weight": 3})
    assert not oracle(test_input, {"edges": [["B", "C", 2], ["A", "B", 1]], "total_weight": 3})
    assert not oracle(test_input, {"edges": [["A", "B", 1], ["A", "C", 3]], "total_weight": 4})


def test_issue_13_reproducer_the_smaller_label_first(judge: Judge) -> None:
    test_input = {"vertices": ["A", "D"], "edges": [["D", "A", 1]], "directed": False}
    assert judge("kruskal", test_input, kruskal_mst(**test_input))
    assert not judge("kruskal", test_input, {"edges": [["D", "A", 1]], "total_weight": 1})


def test_the_acceptance_order_is_graded_as_a_property(judge: Judge) -> None:
    """Weights never decrease (equal ones in any order), each edge joins two components."""
    test_input = {
        "vertices": ["A", "B", "C", "D"],
        "edges": [["A", "B", 2], ["C", "D", 2], ["B", "C", 1], ["A", "D", 5]],
        "directed": False,
    }
    expected = kruskal_mst(**test_input)
    assert judge("kruskal", test_input, expected)
    first, *tied = expected["edges"]
    assert judge("kruskal", test_input, {**expected, "edges": [first, *tied[::-1]]})
    assert not judge("kruskal", test_input, {**expected, "edges": [*tied, first]})
    assert oracle(test_input, {**expected, "edges": [first, *tied[::-1]]})
    assert not oracle(test_input, {**expected, "edges": [*tied, first]})


def test_equal_weights_taken_by_label_or_by_input_order_both_pass(judge: Judge) -> None:
    # Code mode's rule says any order of equal weights is right: tied edges competing for
    # one component give another tree in each order, and the validator takes both.
    test_input = {
        "vertices": ["A", "B", "C"],
        "edges": [["B", "C", 1], ["A", "C", 1], ["A", "B", 1]],
        "directed": False,
    }
    by_input = {"edges": [["B", "C", 1], ["A", "C", 1]], "total_weight": 2}
    by_label = {"edges": [["A", "B", 1], ["A", "C", 1]], "total_weight": 2}
    for answer in (by_input, by_label):
        assert judge("kruskal", test_input, answer) and oracle(test_input, answer)
    assert by_label == kruskal_mst(**test_input)  # the scaffold's own order


def test_past_z_a_shorter_label_is_the_smaller(judge: Judge) -> None:
    test_input = {"vertices": ["B", "AA"], "edges": [["B", "AA", 1]], "directed": False}
    expected = kruskal_mst(**test_input)
    assert expected["edges"] == [[*in_label_order(["AA", "B"]), 1]]
    assert judge("kruskal", test_input, expected)
    flipped = {**expected, "edges": [[expected["edges"][0][1], expected["edges"][0][0], 1]]}
    assert not judge("kruskal", test_input, flipped)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("kruskal"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    case = stress_case("kruskal", tier, size, index)
    assert len(case.input["vertices"]) == size
    assert oracle(case.input, case.expected), case.id


def test_a_swap_spans_exactly_when_networkx_finds_the_same_components() -> None:
    """The mutants keep a swapped edge list only if it is a forest joining the vertex groups
    the tree joins: networkx's connected components, on random edge lists."""
    import random

    from verification.catalog.greedy.kruskal import _spans

    def components(edges: list[list[Any]]) -> set[frozenset[str]]:
        graph: nx.Graph = nx.Graph()
        graph.add_edges_from(edge[:2] for edge in edges)
        return {frozenset(group) for group in nx.connected_components(graph)}

    rng = random.Random(8)
    verdicts = set()
    for _ in range(200):
        labels = [chr(ord("A") + i) for i in range(rng.randint(2, 7))]
        tree = [[*rng.sample(labels, 2), 1] for _ in range(rng.randint(0, 5))]
        edges = [[*rng.sample(labels, 2), 1] for _ in range(rng.randint(0, 5))]
        forest = nx.is_forest(nx.MultiGraph([edge[:2] for edge in edges])) if edges else True
        expected = forest and components(edges) == components(tree)
        assert _spans(edges, tree) == expected, (edges, tree)
        verdicts.add(expected)
    assert verdicts == {True, False}
