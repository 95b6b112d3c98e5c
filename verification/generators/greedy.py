"""Input generators of the greedy scaffolds."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from verification.generators.base import Tier

__all__ = ["KRUSKAL_EDGE_KINDS", "generate_kruskal", "has_unique_minimum_spanning_forest"]

KRUSKAL_EDGE_KINDS = (
    "disconnected",
    "single_vertex",
    "equal_weights",
    "already_tree",
    "negative_weights",
)
"""The degenerate instances the edge tier draws from."""

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_UNIQUE_ATTEMPTS = 50


def generate_kruskal(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """An undirected weighted graph with integer weights and no parallel edges.

    ``simple``: ``size`` vertices, connected, distinct weights 1..9 (1..number of edges on
    bigger graphs), one or two edges to reject. ``standard``: ``size`` vertices, connected,
    weights 1..20 (1..number of edges on bigger graphs) with at least one tie, about twice as
    many edges as the tree keeps, shuffled, endpoints in either order. Both have exactly one
    minimum spanning tree: standard graphs are redrawn until no tie could change it.
    ``edge``: at most ``size`` vertices, one of :data:`KRUSKAL_EDGE_KINDS`
    (``equal_weights`` has several minimum spanning trees).
    """
    if not 1 <= size <= len(_LETTERS):
        raise ValueError(f"kruskal needs 1..{len(_LETTERS)} vertices, got {size}")
    if tier == "simple":
        return _simple(rng, max(size, 3))
    if tier == "standard":
        return _standard(rng, max(size, 4))
    return _edge(rng, size)


def _graph(vertices: list[str], edges: list[list[Any]]) -> dict[str, Any]:
    return {"vertices": vertices, "edges": edges, "directed": False}


def _spanning_pairs(rng: random.Random, vertices: list[str]) -> set[tuple[str, str]]:
    """The pairs of a random spanning tree: each vertex joins one placed before it."""
    order = list(vertices)
    rng.shuffle(order)
    return {
        _pair(vertex, rng.choice(order[:index])) for index, vertex in enumerate(order) if index > 0
    }


def _pair(u: str, v: str) -> tuple[str, str]:
    return (u, v) if u < v else (v, u)


def _connected_pairs(rng: random.Random, vertices: list[str], count: int) -> list[tuple[str, str]]:
    """``count`` distinct pairs (capped at all pairs) that include a spanning tree, sorted."""
    pairs = _spanning_pairs(rng, vertices)
    others = sorted(set(combinations(vertices, 2)) - pairs)
    pairs.update(rng.sample(others, min(len(others), max(0, count - len(pairs)))))
    return sorted(pairs)


def _simple(rng: random.Random, n: int) -> dict[str, Any]:
    vertices = list(_LETTERS[:n])
    pairs = _connected_pairs(rng, vertices, n - 1 + rng.randint(1, 2))
    # Distinct weights: exactly one minimum spanning tree.
    weights = rng.sample(range(1, max(9, len(pairs)) + 1), len(pairs))
    return _graph(vertices, [[u, v, w] for (u, v), w in zip(pairs, weights, strict=True)])


def _standard(rng: random.Random, n: int) -> dict[str, Any]:
    vertices = list(_LETTERS[:n])
    pairs = _connected_pairs(rng, vertices, 2 * (n - 1))
    top = max(20, len(pairs))
    for _ in range(_UNIQUE_ATTEMPTS):
        weights = [rng.randint(1, top) for _ in pairs]
        if len(set(weights)) == len(weights):
            # Ties are where a scaffold's ordering convention is tested; make sure there is one.
            first, second = rng.sample(range(len(weights)), 2)
            weights[second] = weights[first]
        # ... but only ties that cannot change which tree is minimal.
        if has_unique_minimum_spanning_forest(_weighted(pairs, weights)):
            break
    else:
        # Distinct weights, then the lightest two (both always in the tree) made equal.
        weights = rng.sample(range(1, top + 1), len(pairs))
        lightest, second = sorted(range(len(weights)), key=weights.__getitem__)[:2]
        weights[second] = weights[lightest]
    edges = [[*_either_order(rng, u, v), w] for (u, v), w in zip(pairs, weights, strict=True)]
    rng.shuffle(edges)
    return _graph(vertices, edges)


def _weighted(pairs: list[tuple[str, str]], weights: list[int]) -> list[tuple[str, str, int]]:
    return [(u, v, w) for (u, v), w in zip(pairs, weights, strict=True)]


def has_unique_minimum_spanning_forest(edges: Iterable[Sequence[Any]]) -> bool:
    """Whether an undirected graph's ``[u, v, weight]`` edges have one minimum spanning forest.

    Kruskal by weight class: the forest is unique exactly when, within every class, each edge
    that joins two components as the class begins is still joining two when its turn comes
    (else an equal edge of the class could take its place).

    >>> has_unique_minimum_spanning_forest([["A", "B", 1], ["B", "C", 2], ["A", "C", 2]])
    False
    >>> has_unique_minimum_spanning_forest([["A", "B", 2], ["B", "C", 2], ["A", "C", 3]])
    True
    """
    parent: dict[Any, Any] = {}

    def find(x: Any) -> Any:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    ordered = sorted((edge[2], edge[0], edge[1]) for edge in edges)
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and ordered[end][0] == ordered[start][0]:
            end += 1
        group = ordered[start:end]
        candidates = sum(find(u) != find(v) for _, u, v in group)
        joined = 0
        for _, u, v in group:
            root_u, root_v = find(u), find(v)
            if root_u != root_v:
                parent[root_u] = root_v
                joined += 1
        if joined != candidates:
            return False
        start = end
    return True


def _either_order(rng: random.Random, u: str, v: str) -> list[str]:
    return [u, v] if rng.random() < 0.5 else [v, u]


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(KRUSKAL_EDGE_KINDS)
    if kind == "single_vertex" or size < 3:
        return _graph([rng.choice(_LETTERS[:size])], [])
    n = rng.randint(3, size)
    vertices = list(_LETTERS[:n])
    if kind == "disconnected":
        return _disconnected(rng, vertices)
    if kind == "equal_weights":
        pairs = _connected_pairs(rng, vertices, n + 1)
        weight = rng.randint(1, 9)
        return _graph(vertices, [[u, v, weight] for u, v in pairs])
    if kind == "already_tree":
        pairs = sorted(_spanning_pairs(rng, vertices))
        return _graph(vertices, [[u, v, rng.randint(1, 9)] for u, v in pairs])
    pairs = _connected_pairs(rng, vertices, n + 1)
    weights = [rng.randint(-5, 5) for _ in pairs]
    weights[rng.randrange(len(weights))] = -rng.randint(1, 5)
    return _graph(vertices, [[u, v, w] for (u, v), w in zip(pairs, weights, strict=True)])


def _disconnected(rng: random.Random, vertices: list[str]) -> dict[str, Any]:
    """Two or more components; an isolated vertex is one of them when the cut leaves one."""
    cut = rng.randint(1, len(vertices) - 1)
    shuffled = list(vertices)
    rng.shuffle(shuffled)
    parts = [sorted(shuffled[:cut]), sorted(shuffled[cut:])]
    pairs: list[tuple[str, str]] = []
    for part in parts:
        if len(part) > 1:
            pairs.extend(_connected_pairs(rng, part, len(part)))
    edges = [[u, v, rng.randint(1, 9)] for u, v in sorted(pairs)]
    return _graph(vertices, edges)
