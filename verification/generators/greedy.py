"""Input generators of the greedy scaffolds."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from verification.generators.base import Tier

__all__ = ["KRUSKAL_EDGE_KINDS", "generate_kruskal"]

KRUSKAL_EDGE_KINDS = (
    "disconnected",
    "single_vertex",
    "equal_weights",
    "already_tree",
    "negative_weights",
)
"""The degenerate instances the edge tier draws from."""

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def generate_kruskal(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """An undirected weighted graph with integer weights and no parallel edges.

    ``simple``: ``size`` vertices, connected, distinct weights 1..9, one or two edges to
    reject. ``standard``: ``size`` vertices, connected, weights 1..20 with at least one tie,
    about twice as many edges as the tree keeps, shuffled, endpoints in either order.
    ``edge``: at most ``size`` vertices, one of :data:`KRUSKAL_EDGE_KINDS`.
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
    weights = rng.sample(range(1, 10), len(pairs)) if len(pairs) <= 9 else None
    if weights is None:
        weights = [rng.randint(1, 9) for _ in pairs]
    return _graph(vertices, [[u, v, w] for (u, v), w in zip(pairs, weights, strict=True)])


def _standard(rng: random.Random, n: int) -> dict[str, Any]:
    vertices = list(_LETTERS[:n])
    pairs = _connected_pairs(rng, vertices, 2 * (n - 1))
    weights = [rng.randint(1, 20) for _ in pairs]
    if len(set(weights)) == len(weights):
        # Ties are where a scaffold's ordering convention is tested; make sure there is one.
        first, second = rng.sample(range(len(weights)), 2)
        weights[second] = weights[first]
    edges = [[*_either_order(rng, u, v), w] for (u, v), w in zip(pairs, weights, strict=True)]
    rng.shuffle(edges)
    return _graph(vertices, edges)


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
