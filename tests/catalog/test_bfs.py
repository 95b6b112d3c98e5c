"""What is peculiar to ``bfs``: its oracle, networkx's BFS with sorted neighbours.

(The reference's own cross-checks live in ``tests/reference/test_graph.py``.)
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import pytest

from tests.support.stress import in_label_order, stress_case, stress_cells
from verification.cases import Tier

# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"order"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``order`` is the visiting order with neighbours in ascending label order
    and ``distances`` every vertex's hop count (None unreachable)."""
    graph: nx.Graph = nx.DiGraph() if test_input["directed"] else nx.Graph()
    graph.add_nodes_from(test_input["vertices"])
    graph.add_edges_from(tuple(edge) for edge in test_input["edges"])
    source = test_input["source"]
    order = [source, *(v for _, v in nx.bfs_edges(graph, source, sort_neighbors=in_label_order))]
    hops = nx.single_source_shortest_path_length(graph, source)
    return answer == {
        "order": order,
        "distances": {v: hops.get(v) for v in test_input["vertices"]},
    }


def test_the_oracle_holds_the_ascending_label_convention() -> None:
    test_input = {
        "vertices": ["A", "B", "C"],
        "edges": [["A", "C"], ["A", "B"]],
        "directed": False,
        "source": "A",
    }
    distances = {"A": 0, "B": 1, "C": 1}
    assert oracle(test_input, {"order": ["A", "B", "C"], "distances": distances})
    assert not oracle(test_input, {"order": ["A", "C", "B"], "distances": distances})


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("bfs"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    case = stress_case("bfs", tier, size, index)
    assert len(case.input["vertices"]) == size
    assert oracle(case.input, case.expected), case.id


def test_a_shorter_label_comes_first_past_z() -> None:
    test_input = {
        "vertices": ["A", "B", "AA"],
        "edges": [["A", "AA"], ["A", "B"]],
        "directed": False,
        "source": "A",
    }
    distances = {"A": 0, "B": 1, "AA": 1}
    assert oracle(test_input, {"order": ["A", "B", "AA"], "distances": distances})
    assert not oracle(test_input, {"order": ["A", "AA", "B"], "distances": distances})
