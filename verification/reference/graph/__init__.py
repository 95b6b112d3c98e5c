"""Reference graph algorithms: traversals, shortest paths, topological sorting.

Each takes the plain JSON data a test case holds (string vertex labels, edge lists, a
``directed`` flag) and returns the answer's exact JSON shape; an unreachable vertex is
``None``. Pure Python: importing this package loads no numpy or networkx.

A module per family: :mod:`.traversal` (breadth- and depth-first search),
:mod:`.shortest_paths` (Dijkstra, Bellman-Ford, Floyd-Warshall), :mod:`.heuristic_search`
(A*), :mod:`.ordering` (topological sort); the vertex and edge checks they share are in
:mod:`._checks`. The API reference names them from here.
"""

from __future__ import annotations

from verification.reference.graph.heuristic_search import astar
from verification.reference.graph.ordering import topological_sort
from verification.reference.graph.shortest_paths import bellman_ford, dijkstra, floyd_warshall
from verification.reference.graph.traversal import bfs, dfs

__all__ = [
    "astar",
    "bellman_ford",
    "bfs",
    "dfs",
    "dijkstra",
    "floyd_warshall",
    "topological_sort",
]
