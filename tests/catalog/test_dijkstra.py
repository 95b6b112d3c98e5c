"""What is peculiar to ``dijkstra``: its oracle, networkx's shortest path lengths.

(The reference's own cross-checks on generated and hypothesis graphs live in
``tests/reference/test_graph.py``.)
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import pytest

from tests.support.stress import stress_case, stress_cells
from verification.cases import Tier


def _graph(test_input: dict[str, Any]) -> nx.Graph:
    graph: nx.Graph = nx.DiGraph() if test_input["directed"] else nx.Graph()
    graph.add_nodes_from(test_input["vertices"])
    for u, v, weight in test_input["edges"]:
        if not graph.has_edge(u, v) or weight < graph[u][v]["weight"]:
            graph.add_edge(u, v, weight=weight)
    return graph


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``distances`` holds every vertex's networkx distance (None unreachable)."""
    lengths = nx.single_source_dijkstra_path_length(_graph(test_input), test_input["source"])
    return answer == {"distances": {v: lengths.get(v) for v in test_input["vertices"]}}


def test_the_oracle_reads_an_unreachable_vertex_as_none() -> None:
    test_input = {"vertices": ["A", "B"], "edges": [], "directed": False, "source": "A"}
    assert oracle(test_input, {"distances": {"A": 0, "B": None}})
    assert not oracle(test_input, {"distances": {"A": 0, "B": 0}})


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("dijkstra"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    case = stress_case("dijkstra", tier, size, index)
    assert len(case.input["vertices"]) == size
    assert oracle(case.input, case.expected), case.id
