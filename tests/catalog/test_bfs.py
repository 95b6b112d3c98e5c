"""What is peculiar to ``bfs``: its oracle, networkx's BFS with sorted neighbours.

(The reference's own cross-checks live in ``tests/reference/test_graph.py``.)
"""

from __future__ import annotations

from typing import Any

import networkx as nx


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``order`` is the visiting order with neighbours in ascending label order
    and ``distances`` every vertex's hop count (None unreachable)."""
    graph: nx.Graph = nx.DiGraph() if test_input["directed"] else nx.Graph()
    graph.add_nodes_from(test_input["vertices"])
    graph.add_edges_from(tuple(edge) for edge in test_input["edges"])
    source = test_input["source"]
    order = [source, *(v for _, v in nx.bfs_edges(graph, source, sort_neighbors=sorted))]
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
