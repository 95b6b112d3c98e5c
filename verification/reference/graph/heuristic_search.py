"""Heuristic search: A* from a source to a goal under a consistent heuristic."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from verification.reference._inputs import label_order
from verification.reference.graph._checks import check_vertices, lightest_arcs

__all__ = ["astar"]


def astar(
    vertices: Sequence[str],
    edges: Sequence[Sequence[Any]],
    source: str,
    goal: str,
    heuristic: Mapping[str, int] | Callable[[str], int],
    directed: bool = False,
) -> dict[str, Any]:
    """A shortest path from ``source`` to ``goal`` by A* search with a consistent heuristic.

    Parameters
    ----------
    vertices : list of str
        Unique vertex labels.
    edges : list of [str, str, int]
        ``[u, v, weight]`` with a non-negative integer weight. Without ``directed`` an edge
        joins both ways. Parallel edges are allowed (the lightest counts).
    source : str
        Where the path starts.
    goal : str
        Where the path ends.
    heuristic : dict of str to int, or callable
        ``h(v)``, an estimate of the distance from ``v`` to ``goal``: a table with one
        non-negative integer per vertex (the JSON form), or a function of the label. It
        must be consistent: ``h(goal) == 0`` and ``h(u) <= weight + h(v)`` for every arc
        ``u -> v``, which makes it admissible (never above the true distance) too.
    directed : bool, default False
        Whether ``[u, v, w]`` runs from ``u`` to ``v`` only.

    Returns
    -------
    dict
        ``{"path": [source, ..., goal], "cost": int}``, a path of least total weight (no
        vertex twice; ``[source]`` with cost 0 when ``source == goal``), or
        ``{"path": None, "cost": None}`` when no path leads from ``source`` to ``goal``.

    Raises
    ------
    ValueError
        If the labels are not unique strings, ``source`` or ``goal`` is not a vertex,
        ``directed`` is not a bool, an edge names an unknown vertex or has a weight that is
        not a non-negative int, or the heuristic misses a vertex, is not a non-negative int,
        is not 0 at ``goal`` or is not consistent.

    Examples
    --------
    >>> astar(
    ...     vertices=["S", "A", "B", "G"],
    ...     edges=[["S", "A", 1], ["A", "G", 10], ["S", "B", 3], ["B", "G", 3]],
    ...     source="S",
    ...     goal="G",
    ...     heuristic={"S": 1, "A": 0, "B": 3, "G": 0},
    ... )
    {'path': ['S', 'B', 'G'], 'cost': 6}
    >>> astar(["S", "G"], [["G", "S", 2]], "S", "G", {"S": 0, "G": 0}, directed=True)
    {'path': None, 'cost': None}
    >>> astar(["S", "G"], [["S", "G", 2]], "S", "S", lambda v: 2 if v == "G" else 0)
    {'path': ['S'], 'cost': 0}

    Notes
    -----
    O((V + E) log V) with a binary heap. The open vertex of least ``f = g + h`` is expanded
    next, the smaller label first among equal ``f`` (ascending label order: a shorter label
    first, then alphabetically, so ``Z`` before ``AA``); the search stops when ``goal`` is
    expanded. A neighbour's ``g`` and parent change only on a strictly smaller ``g``, and a
    consistent heuristic means an expanded (closed) vertex never needs reopening. Several
    paths can share the least cost; any of them is right, and this tie-break only makes
    the reference deterministic. In the first example a greedy search by ``h`` alone would
    follow ``A`` (``h = 0``) and pay 11.

    References
    ----------
    .. [1] P. E. Hart, N. J. Nilsson, B. Raphael, "A formal basis for the heuristic
       determination of minimum cost paths", IEEE Transactions on Systems Science and
       Cybernetics 4(2), 100-107 (1968).
    """
    labels = check_vertices(vertices, source, directed)
    if not isinstance(goal, str) or goal not in labels:
        raise ValueError(f"goal {goal!r} is not one of the vertices")
    arcs = lightest_arcs(labels, edges, directed, negative=False)
    h = _heuristic_table(labels, heuristic)
    if h[goal] != 0:
        raise ValueError(f"the heuristic must be 0 at the goal {goal!r}, got {h[goal]}")
    for u in labels:
        for v, weight in arcs[u].items():
            if h[u] > weight + h[v]:
                raise ValueError(
                    f"the heuristic is not consistent: h({u}) = {h[u]} > "
                    f"{weight} + h({v}) = {weight + h[v]} on the edge {u} -> {v}"
                )
    best: dict[str, int] = {source: 0}
    parent: dict[str, str] = {}
    closed: set[str] = set()
    heap: list[tuple[int, tuple[int, str]]] = [(h[source], label_order(source))]
    while heap:
        _, (_, u) = heapq.heappop(heap)
        if u in closed:
            continue
        if u == goal:
            path = [goal]
            while path[-1] != source:
                path.append(parent[path[-1]])
            return {"path": path[::-1], "cost": best[goal]}
        closed.add(u)
        for v, weight in arcs[u].items():
            candidate = best[u] + weight
            if v not in closed and candidate < best.get(v, candidate + 1):
                best[v] = candidate
                parent[v] = u
                heapq.heappush(heap, (candidate + h[v], label_order(v)))
    return {"path": None, "cost": None}


def _heuristic_table(
    labels: list[str], heuristic: Mapping[str, int] | Callable[[str], int]
) -> dict[str, int]:
    if callable(heuristic):
        table = {v: heuristic(v) for v in labels}
    elif isinstance(heuristic, Mapping):
        unknown = sorted(set(heuristic) - set(labels), key=str)
        if unknown:
            raise ValueError(f"the heuristic names unknown vertices {unknown}")
        missing = [v for v in labels if v not in heuristic]
        if missing:
            raise ValueError(f"the heuristic has no value for {missing}")
        table = {v: heuristic[v] for v in labels}
    else:
        raise ValueError(f"heuristic must be a table or a function, got {heuristic!r}")
    for v, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"h({v}) must be a non-negative integer, got {value!r}")
    return table
