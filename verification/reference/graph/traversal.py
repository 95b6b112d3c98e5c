"""Graph traversals: breadth-first and depth-first search from a source vertex."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from verification.reference.graph._checks import search_input

__all__ = ["bfs", "dfs"]


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
    unvisited out-neighbours are enqueued in ascending label order (a shorter label first,
    then alphabetically: ``Z`` before ``AA``).

    References
    ----------
    .. [1] T. H. Cormen, C. E. Leiserson, R. L. Rivest, C. Stein, *Introduction to
       Algorithms*, 3rd ed., section 22.2 "Breadth-first search".
    """
    labels, neighbours = search_input(vertices, edges, source, directed)
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


def dfs(
    vertices: Sequence[str],
    edges: Sequence[Sequence[Any]],
    source: str,
    directed: bool = False,
) -> dict[str, Any]:
    """Depth-first discovery and finishing orders from ``source``.

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
        ``{"order": [...], "finish_order": [...]}``: the vertices reachable from ``source``
        in the order they are first visited (``source`` first), and the same vertices in
        the order their visits finish (``source`` last). Unreachable vertices are in
        neither list.

    Raises
    ------
    ValueError
        If the labels are not unique strings, ``source`` is not a vertex, ``directed`` is
        not a bool, or an edge is not a pair of known vertices.

    Examples
    --------
    >>> dfs(["A", "B", "C", "D"], [["A", "C"], ["A", "B"], ["B", "D"]], "A")
    {'order': ['A', 'B', 'D', 'C'], 'finish_order': ['D', 'B', 'C', 'A']}
    >>> dfs(["A", "B", "C"], [["B", "A"], ["B", "C"]], "B", directed=True)
    {'order': ['B', 'A', 'C'], 'finish_order': ['A', 'C', 'B']}
    >>> dfs(["A", "B"], [["B", "A"]], "A", directed=True)
    {'order': ['A'], 'finish_order': ['A']}

    Notes
    -----
    O(V + E log E) with the sort. Both orders are unique under this convention, the
    recursive one: ``visit(u)`` marks ``u`` visited and appends it to ``order``, then, for
    each out-neighbour ``v`` of ``u`` in ascending label order (a shorter label first, then
    alphabetically: ``Z`` before ``AA``), calls ``visit(v)`` if ``v`` is still unvisited at
    that moment; when the loop ends ``u`` is appended to ``finish_order``. The recursion
    is run on an explicit stack of ``(vertex, next neighbour index)`` frames, so deep
    graphs cannot overflow Python's stack and the orders are exactly the recursive ones.

    References
    ----------
    .. [1] T. H. Cormen, C. E. Leiserson, R. L. Rivest, C. Stein, *Introduction to
       Algorithms*, 3rd ed., section 22.3 "Depth-first search".
    """
    _, neighbours = search_input(vertices, edges, source, directed)
    order = [source]
    finish_order: list[str] = []
    visited = {source}
    stack: list[tuple[str, int]] = [(source, 0)]
    while stack:
        u, index = stack[-1]
        out = neighbours[u]
        while index < len(out) and out[index] in visited:
            index += 1
        if index == len(out):
            stack.pop()
            finish_order.append(u)
            continue
        v = out[index]
        stack[-1] = (u, index + 1)
        visited.add(v)
        order.append(v)
        stack.append((v, 0))
    return {"order": order, "finish_order": finish_order}
