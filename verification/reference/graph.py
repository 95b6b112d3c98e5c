"""Reference graph algorithms: traversals, shortest paths, topological sorting.

Each takes the plain JSON data a test case holds (string vertex labels, edge lists, a
``directed`` flag) and return the answer's exact JSON shape; an unreachable vertex is
``None``. Pure Python: importing this module loads no numpy or networkx.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from verification.reference._inputs import vertex_labels

__all__ = [
    "astar",
    "bellman_ford",
    "bfs",
    "dfs",
    "dijkstra",
    "floyd_warshall",
    "topological_sort",
]


def _check_vertices(vertices: Any, source: Any, directed: Any) -> list[str]:
    vertices = vertex_labels(vertices)
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


def _search_input(
    vertices: Any, edges: Any, source: Any, directed: Any
) -> tuple[list[str], dict[str, list[str]]]:
    """Checked labels and sorted out-neighbour lists of an unweighted search input."""
    labels = _check_vertices(vertices, source, directed)
    known = set(labels)
    if not isinstance(edges, list | tuple):
        raise ValueError(f"edges must be a list, got {type(edges).__name__}")
    pairs = [(str(e[0]), str(e[1])) for e in (_check_edge(e, known, 2) for e in edges)]
    return labels, _adjacency(labels, pairs, directed)


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
    each out-neighbour ``v`` of ``u`` in ascending label order (plain string order), calls
    ``visit(v)`` if ``v`` is still unvisited at that moment; when the loop ends ``u`` is
    appended to ``finish_order``. The recursion is run on an explicit stack of
    ``(vertex, next neighbour index)`` frames, so deep graphs cannot overflow Python's
    stack and the orders are exactly the recursive ones.

    References
    ----------
    .. [1] T. H. Cormen, C. E. Leiserson, R. L. Rivest, C. Stein, *Introduction to
       Algorithms*, 3rd ed., section 22.3 "Depth-first search".
    """
    _, neighbours = _search_input(vertices, edges, source, directed)
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


def topological_sort(vertices: Sequence[str], edges: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """A topological order of a directed graph, or a directed cycle showing there is none.

    Parameters
    ----------
    vertices : list of str
        Unique vertex labels (possibly none).
    edges : list of [str, str]
        Directed edges ``[u, v]``: ``u`` must come before ``v``. Repeated edges count once;
        a self loop ``[v, v]`` is a cycle.

    Returns
    -------
    dict
        ``{"order": [...], "has_cycle": False, "cycle": None}`` with every vertex once,
        each edge's tail before its head; or, when the graph has a directed cycle,
        ``{"order": None, "has_cycle": True, "cycle": [v1, ..., vk]}`` with edges
        ``v1 -> v2 -> ... -> vk -> v1`` and no vertex twice.

    Raises
    ------
    ValueError
        If the labels are not unique strings or an edge is not a pair of known vertices.

    Examples
    --------
    >>> topological_sort(["A", "B", "C", "D"], [["B", "A"], ["C", "A"], ["D", "C"]])
    {'order': ['B', 'D', 'C', 'A'], 'has_cycle': False, 'cycle': None}
    >>> topological_sort(["A", "B", "C", "D"], [["A", "B"], ["B", "C"], ["C", "D"], ["D", "B"]])
    {'order': None, 'has_cycle': True, 'cycle': ['B', 'C', 'D']}
    >>> topological_sort([], [])
    {'order': [], 'has_cycle': False, 'cycle': None}

    Notes
    -----
    Kahn's algorithm, O((V + E) log V): repeatedly output the vertex with no incoming edge
    from an unplaced vertex; among several, the smallest label (plain string order), so the
    order returned is the lexicographically smallest one. Any order respecting every edge
    is right; this tie-break only makes the reference deterministic. If vertices remain when
    none is free, each of them has a predecessor among them: walking from the smallest one
    to its smallest remaining predecessor, again and again, must revisit a vertex, and the
    walk between the two visits, read forwards, is the cycle returned (rotated to start at
    its smallest label). Any directed cycle of the graph is an equally right witness.

    References
    ----------
    .. [1] A. B. Kahn, "Topological sorting of large networks", Communications of the ACM
       5(11), 558-562 (1962).
    """
    if not isinstance(vertices, list | tuple):
        raise ValueError(f"vertices must be a list of labels, got {type(vertices).__name__}")
    # No source here: any label stands in so the shared label checks run.
    labels = _check_vertices(vertices, vertices[0], True) if vertices else []
    known = set(labels)
    if not isinstance(edges, list | tuple):
        raise ValueError(f"edges must be a list, got {type(edges).__name__}")
    pairs = {(str(e[0]), str(e[1])) for e in (_check_edge(e, known, 2) for e in edges)}
    successors: dict[str, list[str]] = {v: [] for v in labels}
    predecessors: dict[str, list[str]] = {v: [] for v in labels}
    for u, v in sorted(pairs):
        successors[u].append(v)
        predecessors[v].append(u)
    waiting = {v: len(predecessors[v]) for v in labels}
    free = [v for v in labels if waiting[v] == 0]
    heapq.heapify(free)
    order: list[str] = []
    while free:
        u = heapq.heappop(free)
        order.append(u)
        for v in successors[u]:
            waiting[v] -= 1
            if waiting[v] == 0:
                heapq.heappush(free, v)
    if len(order) == len(labels):
        return {"order": order, "has_cycle": False, "cycle": None}
    remaining = set(labels) - set(order)
    walk = [min(remaining)]
    seen = {walk[0]: 0}
    while True:
        back = min(p for p in predecessors[walk[-1]] if p in remaining)
        if back in seen:
            cycle = walk[seen[back] :][::-1]
            start = cycle.index(min(cycle))
            return {"order": None, "has_cycle": True, "cycle": cycle[start:] + cycle[:start]}
        seen[back] = len(walk)
        walk.append(back)


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
    labels = _check_vertices(vertices, source, directed)
    known = set(labels)
    if not isinstance(edges, list | tuple):
        raise ValueError(f"edges must be a list, got {type(edges).__name__}")
    arcs: list[tuple[str, str, int]] = []
    for edge in edges:
        u, v, weight = _check_edge(edge, known, 3)
        if isinstance(weight, bool) or not isinstance(weight, int):
            raise ValueError(f"edge {edge!r} needs an integer weight")
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


def _weighted_arcs(
    labels: list[str], edges: Any, directed: bool, *, negative: bool
) -> dict[str, dict[str, int]]:
    """The lightest weight of each arc ``u -> v`` (both ways for an undirected edge)."""
    if not isinstance(edges, list | tuple):
        raise ValueError(f"edges must be a list, got {type(edges).__name__}")
    known = set(labels)
    lightest: dict[str, dict[str, int]] = {v: {} for v in labels}
    for edge in edges:
        u, v, weight = _check_edge(edge, known, 3)
        if isinstance(weight, bool) or not isinstance(weight, int) or (weight < 0 and not negative):
            kind = "an integer" if negative else "a non-negative integer"
            raise ValueError(f"edge {edge!r} needs {kind} weight")
        for a, b in ((u, v), (v, u)) if not directed else ((u, v),):
            if weight < lightest[a].get(b, weight + 1):
                lightest[a][b] = weight
    return lightest


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
    next, the smaller label first among equal ``f``; the search stops when ``goal`` is
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
    labels = _check_vertices(vertices, source, directed)
    if not isinstance(goal, str) or goal not in labels:
        raise ValueError(f"goal {goal!r} is not one of the vertices")
    arcs = _weighted_arcs(labels, edges, directed, negative=False)
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
    heap: list[tuple[int, str]] = [(h[source], source)]
    while heap:
        _, u = heapq.heappop(heap)
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
                heapq.heappush(heap, (candidate + h[v], v))
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
    labels = _check_vertices(vertices, vertices[0], directed) if vertices else []
    arcs = _weighted_arcs(labels, edges, directed, negative=True)
    dist: dict[str, dict[str, int | None]] = {
        u: {v: 0 if u == v else arcs[u].get(v) for v in labels} for u in labels
    }
    for u in labels:
        loop = arcs[u].get(u)
        if loop is not None and loop < 0:
            dist[u][u] = loop
    for k in labels:
        for u in labels:
            through = dist[u][k]
            if through is None:
                continue
            for v in labels:
                onward = dist[k][v]
                current = dist[u][v]
                if onward is not None and (current is None or through + onward < current):
                    dist[u][v] = through + onward
    if any((dist[v][v] or 0) < 0 for v in labels):
        return {"negative_cycle": True, "distances": None}
    return {"negative_cycle": False, "distances": dist}
