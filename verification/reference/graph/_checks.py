"""The input checks the graph references share: unique vertex labels, edges of known
vertices, integer weights, and the adjacency each algorithm walks. Each raises
``ValueError`` naming what is wrong."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from verification.reference._inputs import label_order, vertex_labels

__all__ = [
    "check_edge",
    "check_vertices",
    "edge_list",
    "lightest_arcs",
    "search_input",
    "weighted_edges",
]


def check_vertices(vertices: Any, source: Any, directed: Any) -> list[str]:
    """The unique labels, with ``source`` one of them and ``directed`` a bool."""
    vertices = vertex_labels(vertices)
    if not isinstance(directed, bool):
        raise ValueError(f"directed must be true or false, got {directed!r}")
    if not isinstance(source, str) or source not in vertices:
        raise ValueError(f"source {source!r} is not one of the vertices")
    return list(vertices)


def edge_list(edges: Any) -> Sequence[Any]:
    """``edges`` when it is a list (or tuple)."""
    if not isinstance(edges, list | tuple):
        raise ValueError(f"edges must be a list, got {type(edges).__name__}")
    return edges


def check_edge(edge: Any, known: set[str], arity: int) -> Sequence[Any]:
    """``[u, v]`` (``arity`` 2) or ``[u, v, weight]`` (3) with both ends in ``known``."""
    kind = type(edge)
    if (kind is list or kind is tuple) and len(edge) == arity:  # the common case first
        u, v = edge[0], edge[1]
        if type(u) is str and type(v) is str and u in known and v in known:
            checked: Sequence[Any] = edge
            return checked
    return _checked_edge(edge, known, arity)


def _checked_edge(edge: Any, known: set[str], arity: int) -> Sequence[Any]:
    """:func:`check_edge` checked step by step (with the message of the first fault)."""
    if not isinstance(edge, list | tuple) or len(edge) != arity:
        shape = "[u, v, weight]" if arity == 3 else "[u, v]"
        raise ValueError(f"each edge must be {shape}, got {edge!r}")
    for end in edge[:2]:
        if not isinstance(end, str) or end not in known:
            raise ValueError(f"edge {edge!r} names an unknown vertex {end!r}")
    return edge


def search_input(
    vertices: Any, edges: Any, source: Any, directed: Any
) -> tuple[list[str], dict[str, list[str]]]:
    """Checked labels and sorted out-neighbour lists of an unweighted search input:
    deduplicated, in ascending label order (:func:`~verification.reference._inputs.label_order`:
    a shorter label first)."""
    labels = check_vertices(vertices, source, directed)
    known = set(labels)
    neighbours: dict[str, set[str]] = {v: set() for v in labels}
    for edge in edge_list(edges):
        u, v = check_edge(edge, known, 2)
        neighbours[u].add(v)
        if not directed:
            neighbours[v].add(u)
    if len({len(label) for label in labels}) <= 1:
        # Labels of one length: label order is string order, sorted in C without a key
        # call per label (the same order: label_order's first part is equal throughout).
        return labels, {v: sorted(out) for v, out in neighbours.items()}
    return labels, {v: sorted(out, key=label_order) for v, out in neighbours.items()}


def weighted_edges(labels: list[str], edges: Any, *, negative: bool) -> list[tuple[str, str, int]]:
    """``edges`` as ``(u, v, weight)`` in their given order, each weight an int (not below
    zero unless ``negative``)."""
    known = set(labels)
    checked: list[tuple[str, str, int]] = []
    for edge in edge_list(edges):
        u, v, weight = check_edge(edge, known, 3)
        if isinstance(weight, bool) or not isinstance(weight, int) or (weight < 0 and not negative):
            kind = "an integer" if negative else "a non-negative integer"
            raise ValueError(f"edge {edge!r} needs {kind} weight")
        checked.append((u, v, weight))
    return checked


def lightest_arcs(
    labels: list[str], edges: Any, directed: bool, *, negative: bool
) -> dict[str, dict[str, int]]:
    """The lightest weight of each arc ``u -> v`` (both ways for an undirected edge)."""
    lightest: dict[str, dict[str, int]] = {v: {} for v in labels}
    for u, v, weight in weighted_edges(labels, edges, negative=negative):
        for a, b in ((u, v), (v, u)) if not directed else ((u, v),):
            if weight < lightest[a].get(b, weight + 1):
                lightest[a][b] = weight
    return lightest
