"""Reference implementations of greedy algorithms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["kruskal_mst"]


def kruskal_mst(
    vertices: Sequence[str], edges: Sequence[Sequence[Any]], directed: bool = False
) -> dict[str, Any]:
    """Minimum spanning tree (or forest) of an undirected weighted graph by Kruskal's method.

    Parameters
    ----------
    vertices : sequence of str
        The distinct vertex labels.
    edges : sequence of [str, str, int]
        Undirected edges ``[u, v, weight]`` between two different listed vertices; integer
        weights, which may be zero or negative; at most one edge per pair of vertices.
    directed : bool, default False
        Must be false: a spanning tree of a directed graph is an arborescence, another problem.

    Returns
    -------
    dict
        ``{"edges": [[u, v, weight], ...], "total_weight": int}``: the edges of a minimum
        spanning tree, or of a minimum spanning forest (one tree per connected component)
        when the graph is disconnected, in the order Kruskal's method accepts them, each
        written with the smaller label first.

    Raises
    ------
    ValueError
        If the graph is directed, a label repeats or is not a string, an edge is not
        ``[u, v, int]``, names an unknown vertex, is a self loop, or repeats a pair.

    Examples
    --------
    >>> kruskal_mst(
    ...     vertices=["A", "B", "C", "D"],
    ...     edges=[["A", "B", 1], ["B", "C", 2], ["A", "C", 2], ["C", "D", 3]],
    ... )
    {'edges': [['A', 'B', 1], ['A', 'C', 2], ['C', 'D', 3]], 'total_weight': 6}
    >>> kruskal_mst(vertices=["A", "B", "C"], edges=[["B", "A", 5]])
    {'edges': [['A', 'B', 5]], 'total_weight': 5}

    Notes
    -----
    Edges are sorted by ``(weight, smaller label, larger label)`` (labels compared as
    strings), so among tied minimum spanning forests the one accepted is the one whose
    sorted edge keys come first; an edge is accepted when its endpoints lie in different
    components. Components are a union-find with path compression and union by rank:
    O(E log E) for the sort and O(E alpha(V)) for the finds. The scan stops early once
    ``|V| - 1`` edges are accepted.

    References
    ----------
    .. [1] J. B. Kruskal, "On the shortest spanning subtree of a graph and the traveling
       salesman problem", Proc. AMS 7(1), 1956, pp. 48-50.
    .. [2] R. E. Tarjan, "Efficiency of a good but not linear set union algorithm",
       J. ACM 22(2), 1975, pp. 215-225.
    """
    if directed:
        raise ValueError("kruskal_mst needs an undirected graph; got directed=True")
    labels = _check_vertices(vertices)
    keyed = sorted(_check_edges(edges, labels))

    parent = {label: label for label in labels}
    rank = dict.fromkeys(labels, 0)

    def find(label: str) -> str:
        root = label
        while parent[root] != root:
            root = parent[root]
        while parent[label] != root:
            parent[label], label = root, parent[label]
        return root

    accepted: list[list[Any]] = []
    for weight, u, v in keyed:
        if len(accepted) == len(labels) - 1:
            break
        root_u, root_v = find(u), find(v)
        if root_u == root_v:
            continue
        if rank[root_u] < rank[root_v]:
            root_u, root_v = root_v, root_u
        parent[root_v] = root_u
        if rank[root_u] == rank[root_v]:
            rank[root_u] += 1
        accepted.append([u, v, weight])
    return {"edges": accepted, "total_weight": sum(edge[2] for edge in accepted)}


def _check_vertices(vertices: Sequence[str]) -> list[str]:
    if isinstance(vertices, str) or not isinstance(vertices, Sequence):
        raise ValueError(f"vertices must be a list of labels, got {type(vertices).__name__}")
    labels = list(vertices)
    for label in labels:
        if not isinstance(label, str):
            raise ValueError(f"vertex label {label!r} is not a string")
    if len(set(labels)) != len(labels):
        repeated = sorted({label for label in labels if labels.count(label) > 1})
        raise ValueError(f"vertex labels repeat: {repeated}")
    return labels


def _check_edges(edges: Sequence[Sequence[Any]], labels: list[str]) -> list[tuple[int, str, str]]:
    """``(weight, smaller label, larger label)`` per edge, the order Kruskal scans them in."""
    known = set(labels)
    seen: set[tuple[str, str]] = set()
    keyed: list[tuple[int, str, str]] = []
    for edge in edges:
        if isinstance(edge, str) or not isinstance(edge, Sequence) or len(edge) != 3:
            raise ValueError(f"edge {edge!r} is not [u, v, weight]")
        u, v, weight = edge
        if isinstance(weight, bool) or not isinstance(weight, int):
            raise ValueError(f"edge {list(edge)!r} has a weight that is not an integer")
        for end in (u, v):
            if not isinstance(end, str) or end not in known:
                raise ValueError(f"edge {list(edge)!r} names an unknown vertex {end!r}")
        if u == v:
            raise ValueError(f"edge {list(edge)!r} is a self loop")
        pair = (min(u, v), max(u, v))
        if pair in seen:
            raise ValueError(f"edge {list(edge)!r} repeats the pair {list(pair)!r}")
        seen.add(pair)
        keyed.append((weight, *pair))
    return keyed
