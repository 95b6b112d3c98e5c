"""Shortest paths with exact integer weights: single-source (Dijkstra, Bellman-Ford) and
all pairs (Floyd-Warshall)."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence
from typing import Any

from verification.reference.graph._checks import check_vertices, lightest_arcs, weighted_edges

__all__ = ["bellman_ford", "dijkstra", "floyd_warshall"]


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
    labels = check_vertices(vertices, source, directed)
    out: dict[str, list[tuple[str, int]]] = {v: [] for v in labels}
    for u, v, weight in weighted_edges(labels, edges, negative=False):
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


def bellman_ford(
    vertices: Sequence[str],
    edges: Sequence[Sequence[Any]],
    source: str,
    directed: bool = True,
) -> dict[str, Any]:
    """Shortest-path distances from ``source`` with negative weights allowed (Bellman-Ford).

    Parameters
    ----------
    vertices : list of str
        Unique vertex labels.
    edges : list of [str, str, int]
        ``[u, v, weight]`` with an integer weight, negative allowed. Without ``directed`` an
        edge joins both ways (so a negative one is a negative cycle by itself). Parallel
        edges and self loops are allowed; a negative self loop is a negative cycle.
    source : str
        The vertex distances are measured from.
    directed : bool, default True
        Whether ``[u, v, w]`` runs from ``u`` to ``v`` only. The default differs from
        :func:`dijkstra`'s because negative weights are only meaningful one way.

    Returns
    -------
    dict
        ``{"negative_cycle": False, "distances": {vertex: int or None}}``, one key per
        vertex in the order of ``vertices`` and ``None`` for a vertex no path reaches; or
        ``{"negative_cycle": True, "distances": None}`` when a cycle of negative total
        weight can be reached from ``source`` (some distances are then unbounded below).
        A negative cycle no path from ``source`` enters changes nothing.

    Raises
    ------
    ValueError
        If the labels are not unique strings, ``source`` is not a vertex, ``directed`` is
        not a bool, an edge names an unknown vertex, or a weight is not an int.

    Examples
    --------
    >>> bellman_ford(["S", "A", "B", "C"], [["S", "A", 4], ["S", "B", 2], ["A", "B", -3]], "S")
    {'negative_cycle': False, 'distances': {'S': 0, 'A': 4, 'B': 1, 'C': None}}
    >>> bellman_ford(["S", "A", "B"], [["S", "A", 1], ["A", "B", -2], ["B", "A", 1]], "S")
    {'negative_cycle': True, 'distances': None}
    >>> bellman_ford(["S", "A"], [["S", "A", -1]], "S", directed=False)
    {'negative_cycle': True, 'distances': None}

    Notes
    -----
    O(V E): at most ``V - 1`` rounds, each relaxing every edge in the order given (an
    undirected edge ``u -> v`` first, then ``v -> u``) against the current distances,
    stopping early after a round that changes nothing. One more pass then looks for an
    edge that can still be relaxed from a reached vertex: there is one exactly when a
    negative cycle is reachable from ``source``. Distances are unique, so the edge order
    only changes how many rounds are needed, never the answer.

    References
    ----------
    .. [1] R. Bellman, "On a routing problem", Quarterly of Applied Mathematics 16(1),
       87-90 (1958).
    .. [2] L. R. Ford Jr., "Network flow theory", RAND Corporation paper P-923 (1956).
    """
    labels = check_vertices(vertices, source, directed)
    arcs: list[tuple[str, str, int]] = []
    for u, v, weight in weighted_edges(labels, edges, negative=True):
        arcs.append((u, v, weight))
        if not directed:
            arcs.append((v, u, weight))
    best: dict[str, int] = {source: 0}

    def relax_all() -> bool:
        changed = False
        for u, v, weight in arcs:
            if u in best and best[u] + weight < best.get(v, best[u] + weight + 1):
                best[v] = best[u] + weight
                changed = True
        return changed

    for _ in range(len(labels) - 1):
        if not relax_all():
            break
    if relax_all():
        return {"negative_cycle": True, "distances": None}
    return {"negative_cycle": False, "distances": {v: best.get(v) for v in labels}}


def floyd_warshall(
    vertices: Sequence[str],
    edges: Sequence[Sequence[Any]],
    directed: bool = True,
) -> dict[str, Any]:
    """All-pairs shortest distances by the Floyd-Warshall algorithm, negative weights allowed.

    Parameters
    ----------
    vertices : list of str
        Unique vertex labels.
    edges : list of [str, str, int]
        ``[u, v, weight]`` with an integer weight, negative allowed. Without ``directed``
        an edge joins both ways (so a negative one is a negative cycle by itself). Parallel
        edges are allowed (the lightest counts); a self loop matters only when negative,
        and then it is a negative cycle.
    directed : bool, default True
        Whether ``[u, v, w]`` runs from ``u`` to ``v`` only (the default, as for
        :func:`bellman_ford`: negative weights are only meaningful one way).

    Returns
    -------
    dict
        ``{"negative_cycle": False, "distances": {u: {v: int or None}}}``: the least total
        weight of a path from ``u`` to ``v`` (``0`` from a vertex to itself, ``None`` when
        no path exists), rows and columns in the order of ``vertices``; or
        ``{"negative_cycle": True, "distances": None}`` when the graph has a cycle of
        negative total weight anywhere (some distances are then unbounded below).

    Raises
    ------
    ValueError
        If the labels are not unique strings, ``directed`` is not a bool, an edge names an
        unknown vertex, or a weight is not an int.

    Examples
    --------
    >>> result = floyd_warshall(["A", "B", "C"], [["A", "B", 4], ["B", "C", -2], ["A", "C", 3]])
    >>> result["negative_cycle"], result["distances"]["A"]
    (False, {'A': 0, 'B': 4, 'C': 2})
    >>> result["distances"]["C"]
    {'A': None, 'B': None, 'C': 0}
    >>> floyd_warshall(["A", "B"], [["A", "B", 1], ["B", "A", -3]])
    {'negative_cycle': True, 'distances': None}
    >>> floyd_warshall(["A", "B"], [["A", "B", 5]], directed=False)
    {'negative_cycle': False, 'distances': {'A': {'A': 0, 'B': 5}, 'B': {'A': 5, 'B': 0}}}

    Notes
    -----
    O(V^3) time, O(V^2) space. ``d[u][v]`` starts as the lightest edge ``u -> v`` (0 on the
    diagonal, unreachable elsewhere); then, for each intermediate ``k`` in the order of
    ``vertices``, ``d[u][v] = min(d[u][v], d[u][k] + d[k][v])`` for every pair with both
    parts reachable. There is a negative cycle exactly when some ``d[v][v]`` ends below 0.
    The distances are unique, so the order of ``k`` changes only the intermediate tables.

    References
    ----------
    .. [1] R. W. Floyd, "Algorithm 97: Shortest path", Communications of the ACM 5(6), 345
       (1962).
    .. [2] S. Warshall, "A theorem on Boolean matrices", Journal of the ACM 9(1), 11-12
       (1962).
    """
    if not isinstance(vertices, list | tuple):
        raise ValueError(f"vertices must be a list of labels, got {type(vertices).__name__}")
    if not isinstance(directed, bool):
        raise ValueError(f"directed must be true or false, got {directed!r}")
    # No source here: any label stands in so the shared label checks run.
    labels = check_vertices(vertices, vertices[0], directed) if vertices else []
    arcs = lightest_arcs(labels, edges, directed, negative=True)
    dist: dict[str, dict[str, int | None]] = {
        u: {v: 0 if u == v else arcs[u].get(v) for v in labels} for u in labels
    }
    for u in labels:
        loop = arcs[u].get(u)
        if loop is not None and loop < 0:
            dist[u][u] = loop
    for k in labels:
        # Row k read as its items: the value each v holds when reached, as dist[k][v]
        # reads it (row u may be row k itself; only values change, never keys).
        row_k = dist[k]
        for u in labels:
            row_u = dist[u]
            through = row_u[k]
            if through is None:
                continue
            for v, onward in row_k.items():
                if onward is not None:
                    current = row_u[v]
                    if current is None or through + onward < current:
                        row_u[v] = through + onward
    if any((dist[v][v] or 0) < 0 for v in labels):
        return {"negative_cycle": True, "distances": None}
    return {"negative_cycle": False, "distances": dist}
