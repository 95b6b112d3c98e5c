"""Reference graph traversals: Dijkstra's shortest paths and breadth-first search.

Both take the plain JSON data a test case holds (string vertex labels, edge lists, a
``directed`` flag) and return the answer's exact JSON shape; an unreachable vertex is
``None``. Pure Python: importing this module loads no numpy or networkx.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Sequence
from typing import Any

__all__ = ["bfs", "dijkstra"]


def _check_vertices(vertices: Any, source: Any, directed: Any) -> list[str]:
    if not isinstance(vertices, list | tuple):
        raise ValueError(f"vertices must be a list of labels, got {type(vertices).__name__}")
    for label in vertices:
        if not isinstance(label, str):
            raise ValueError(f"vertex labels must be strings, got {label!r}")
    if len(set(vertices)) != len(vertices):
        repeated = sorted({v for v in vertices if vertices.count(v) > 1})
        raise ValueError(f"vertex labels must be unique; repeated: {repeated}")
    if not isinstance(directed, bool):
        raise ValueError(f"directed must be true or false, got {directed!r}")
    if not isinstance(source, str) or source not in vertices:
        raise ValueError(f"source {source!r} is not one of the vertices")
    return list(vertices)


def _check_edge(edge: Any, known: set[str], arity: int) -> Sequence[Any]:
    if not isinstance(edge, list | tuple) or len(edge) != arity:
        shape = "[u, v, weight]" if arity == 3 else "[u, v]"
        raise ValueError(f"each edge must be {shape}, got {edge!r}")
    for end in edge[:2]:
        if not isinstance(end, str) or end not in known:
            raise ValueError(f"edge {edge!r} names an unknown vertex {end!r}")
    return edge


def _adjacency(
    labels: list[str], pairs: list[tuple[str, str]], directed: bool
) -> dict[str, list[str]]:
    """Out-neighbours of each vertex, deduplicated, in ascending label order."""
    neighbours: dict[str, set[str]] = {v: set() for v in labels}
    for u, v in pairs:
        neighbours[u].add(v)
        if not directed:
            neighbours[v].add(u)
    return {v: sorted(out) for v, out in neighbours.items()}


def dijkstra(
    vertices: Sequence[str],
    edges: Sequence[Sequence[Any]],
    source: str,
    directed: bool = False,
) -> dict[str, Any]:
    """Shortest-path distances from ``source`` by Dijkstra's algorithm.

    Parameters
    ----------
    vertices : list of str
        Unique vertex labels.
    edges : list of [str, str, int]
        ``[u, v, weight]`` with a non-negative integer weight. Without ``directed`` an edge
        joins both ways. Parallel edges are allowed (the lightest counts); a self loop never
        shortens a path.
    source : str
        The vertex distances are measured from.
    directed : bool, default False
        Whether ``[u, v, w]`` runs from ``u`` to ``v`` only.

    Returns
    -------
    dict
        ``{"distances": {vertex: int or None}}``: one key per vertex, in the order of
        ``vertices``; ``None`` for a vertex no path reaches.

    Raises
    ------
    ValueError
        If the labels are not unique strings, ``source`` is not a vertex, ``directed`` is
        not a bool, an edge names an unknown vertex, or a weight is not a non-negative int.

    Examples
    --------
    >>> dijkstra(
    ...     vertices=["A", "B", "C", "D"],
    ...     edges=[["A", "B", 1], ["B", "C", 2], ["A", "C", 4]],
    ...     source="A",
    ... )
    {'distances': {'A': 0, 'B': 1, 'C': 3, 'D': None}}
    >>> dijkstra(["A", "B"], [["B", "A", 5]], "A", directed=True)
    {'distances': {'A': 0, 'B': None}}

    Notes
    -----
    Binary-heap Dijkstra, O((V + E) log V). Heap entries are ``(distance, counter,
    vertex)``: the insertion counter breaks ties between equal distances, so labels are
    never compared and the run is deterministic. Distances themselves are unique, so
    tie-breaking cannot change the answer.

    References
    ----------
    .. [1] E. W. Dijkstra, "A note on two problems in connexion with graphs",
       Numerische Mathematik 1, 269-271 (1959).
    """
    labels = _check_vertices(vertices, source, directed)
    known = set(labels)
    out: dict[str, list[tuple[str, int]]] = {v: [] for v in labels}
    if not isinstance(edges, list | tuple):
        raise ValueError(f"edges must be a list, got {type(edges).__name__}")
    for edge in edges:
        u, v, weight = _check_edge(edge, known, 3)
        if isinstance(weight, bool) or not isinstance(weight, int) or weight < 0:
            raise ValueError(f"edge {edge!r} needs a non-negative integer weight")
        out[u].append((v, weight))
        if not directed:
            out[v].append((u, weight))
    settled = _dijkstra_core(out, source)
    return {"distances": {v: settled.get(v) for v in labels}}


def _dijkstra_core(out: dict[str, list[tuple[str, int]]], source: str) -> dict[str, int]:
    counter = itertools.count()
    best: dict[str, int] = {source: 0}
    settled: dict[str, int] = {}
    heap: list[tuple[int, int, str]] = [(0, next(counter), source)]
    while heap:
        distance, _, u = heapq.heappop(heap)
        if u in settled:
            continue
        settled[u] = distance
        for v, weight in out[u]:
            candidate = distance + weight
            if v not in settled and candidate < best.get(v, candidate + 1):
                best[v] = candidate
                heapq.heappush(heap, (candidate, next(counter), v))
    return settled


def bfs(
    vertices: Sequence[str],
    edges: Sequence[Sequence[Any]],
    source: str,
    directed: bool = False,
) -> dict[str, Any]:
    """Breadth-first visiting order and hop distances from ``source``.

    Parameters
    ----------
    vertices : list of str
        Unique vertex labels.
    edges : list of [str, str]
        ``[u, v]``; without ``directed`` an edge joins both ways. Repeated edges and self
        loops change nothing.
    source : str
        Where the search starts.
    directed : bool, default False
        Whether ``[u, v]`` runs from ``u`` to ``v`` only.

    Returns
    -------
    dict
        ``{"order": [...], "distances": {...}}``: the reachable vertices in the order they
        are enqueued (source first), and every vertex's hop count from ``source``
        (``None`` when unreachable), keyed in the order of ``vertices``.

    Raises
    ------
    ValueError
        If the labels are not unique strings, ``source`` is not a vertex, ``directed`` is
        not a bool, or an edge is not a pair of known vertices.

    Examples
    --------
    >>> bfs(vertices=["A", "B", "C"], edges=[["A", "B"], ["B", "C"]], source="A")
    {'order': ['A', 'B', 'C'], 'distances': {'A': 0, 'B': 1, 'C': 2}}
    >>> bfs(["A", "B", "C", "D"], [["C", "A"], ["A", "B"]], "A", directed=True)
    {'order': ['A', 'B'], 'distances': {'A': 0, 'B': 1, 'C': None, 'D': None}}

    Notes
    -----
    O(V + E log E) with the sort. The order is unique under this convention: a FIFO
    queue; a vertex is marked visited when it is enqueued; when a vertex is dequeued its
    unvisited out-neighbours are enqueued in ascending label order (plain string order).

    References
    ----------
    .. [1] T. H. Cormen, C. E. Leiserson, R. L. Rivest, C. Stein, *Introduction to
       Algorithms*, 3rd ed., section 22.2 "Breadth-first search".
    """
    labels = _check_vertices(vertices, source, directed)
    known = set(labels)
    if not isinstance(edges, list | tuple):
        raise ValueError(f"edges must be a list, got {type(edges).__name__}")
    pairs = [(str(e[0]), str(e[1])) for e in (_check_edge(e, known, 2) for e in edges)]
    neighbours = _adjacency(labels, pairs, directed)
    hops: dict[str, int] = {source: 0}
    order = [source]
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in neighbours[u]:
            if v not in hops:
                hops[v] = hops[u] + 1
                order.append(v)
                queue.append(v)
    return {"order": order, "distances": {v: hops.get(v) for v in labels}}
