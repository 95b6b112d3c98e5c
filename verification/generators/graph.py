"""Input generators for the graph traversal scaffolds: ``dijkstra`` and ``bfs``.

Each generator is a pure function of a seeded ``random.Random``, a tier and a size (the
vertex count). Labels are ``"A"``, ``"B"``, ...; edge lists are shuffled and undirected
edges randomly oriented, so their order gives no hint of the answer. Tier promises:

- ``simple``: a small connected undirected graph searched from ``"A"``.
- ``standard``: ``size`` vertices, every one reachable from a random source, at least two
  of them three or more hops away. Dijkstra: weights 1..20 and a direct edge from the
  source that is not the shortest path to its end. BFS: the neighbour order matters (a
  descending tie-break gives another order).
- ``edge``: the degenerate instances, one kind drawn per case (see ``DIJKSTRA_EDGE_KINDS``
  and ``BFS_EDGE_KINDS``).
"""

from __future__ import annotations

import random
import string
from typing import Any

from verification.generators.base import Tier
from verification.reference.graph import bfs, dijkstra

__all__ = ["BFS_EDGE_KINDS", "DIJKSTRA_EDGE_KINDS", "generate_bfs", "generate_dijkstra"]

DIJKSTRA_EDGE_KINDS = ("single", "unreachable", "zero_weight", "ties", "source_in_edges_only")
BFS_EDGE_KINDS = ("single", "unreachable", "isolated_source", "source_in_edges_only")

Pair = tuple[str, str]
_MAX_ATTEMPTS = 500


def _labels(size: int, least: int = 1) -> list[str]:
    if not least <= size <= len(string.ascii_uppercase):
        raise ValueError(f"size must be between {least} and 26 vertices, got {size}")
    return list(string.ascii_uppercase[:size])


def _spanning_pairs(rng: random.Random, labels: list[str], source: str) -> list[Pair]:
    """A random tree grown from ``source``, oriented away from it.

    Each new vertex hangs off one of the two latest ones, so trees are deep: targets sit
    several hops away.
    """
    rest = [v for v in labels if v != source]
    rng.shuffle(rest)
    grown = [source]
    pairs: list[Pair] = []
    for v in rest:
        pairs.append((rng.choice(grown[-2:]), v))
        grown.append(v)
    return pairs


def _extra_pairs(
    rng: random.Random, labels: list[str], taken: list[Pair], count: int
) -> list[Pair]:
    """Up to ``count`` new pairs joining vertices not yet joined either way."""
    joined = {frozenset(p) for p in taken}
    free = [(u, v) for i, u in enumerate(labels) for v in labels[i + 1 :] if {u, v} not in joined]
    chosen = rng.sample(free, min(count, len(free)))
    return [(v, u) if rng.random() < 0.5 else (u, v) for u, v in chosen]


def _connected_pairs(rng: random.Random, labels: list[str], source: str, extra: int) -> list[Pair]:
    """Every vertex reachable from ``source`` even when the pairs are read as directed."""
    tree = _spanning_pairs(rng, labels, source)
    return tree + _extra_pairs(rng, labels, tree, extra)


def _edge_list(
    rng: random.Random, pairs: list[Pair], directed: bool, weights: list[int] | None = None
) -> list[list[Any]]:
    """Pairs as JSON edges, shuffled; undirected ones in a random orientation."""
    edges: list[list[Any]] = []
    for index, (u, v) in enumerate(pairs):
        if not directed and rng.random() < 0.5:
            u, v = v, u
        edges.append([u, v] if weights is None else [u, v, weights[index]])
    rng.shuffle(edges)
    return edges


def _hops(labels: list[str], pairs: list[Pair], source: str, directed: bool) -> dict[str, Any]:
    hops: dict[str, Any] = bfs(labels, [list(p) for p in pairs], source, directed)["distances"]
    return hops


def _far_count(hops: dict[str, Any], least: int = 3) -> int:
    return sum(1 for h in hops.values() if h is not None and h >= least)


def _split_unreachable(
    rng: random.Random, labels: list[str], source: str
) -> tuple[list[str], list[str]]:
    """The reachable side (with ``source``) and a non-empty side no path from it enters."""
    others = [v for v in labels if v != source]
    rng.shuffle(others)
    cut = rng.randint(0, len(others) - 1)
    return [source, *others[:cut]], others[cut:]


def _cut_off_pairs(
    rng: random.Random, near: list[str], far: list[str], source: str, directed: bool
) -> list[Pair]:
    """Connected ``near`` side, a ``far`` side; directed graphs add edges far -> near only."""
    pairs = _spanning_pairs(rng, near, source) if len(near) > 1 else []
    if len(far) > 1:
        pairs += _spanning_pairs(rng, far, far[0])
    if directed:
        # Edges into the reachable side tempt an answer that ignores direction.
        pairs += [(rng.choice(far), rng.choice(near)) for _ in range(rng.randint(1, 2))]
        pairs = list(dict.fromkeys(pairs))
    return pairs


def _in_edges_only_pairs(rng: random.Random, labels: list[str], source: str) -> list[Pair]:
    """A directed graph whose every edge at ``source`` points into it."""
    others = [v for v in labels if v != source]
    into = rng.sample(others, rng.randint(1, len(others)))
    pairs = [(v, source) for v in sorted(into)]
    pairs += _extra_pairs(rng, others, [], rng.randint(0, len(others) - 1))
    return pairs


def _choose_source(rng: random.Random, labels: list[str], tier: Tier) -> str:
    return labels[0] if tier == "simple" else rng.choice(labels)


def generate_dijkstra(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``dijkstra`` input: ``vertices``, ``edges`` ``[u, v, w]``, ``directed``, ``source``."""
    if tier == "simple":
        labels = _labels(size, least=3)
        pairs = _connected_pairs(rng, labels, labels[0], rng.randint(1, 2))
        weights = [rng.randint(1, 10) for _ in pairs]
        return _dijkstra_input(rng, labels, pairs, weights, labels[0], False)
    if tier == "standard":
        return _standard_dijkstra(rng, _labels(size, least=6))
    labels = _labels(size, least=4)
    kind = rng.choice(DIJKSTRA_EDGE_KINDS)
    source = rng.choice(labels)
    if kind == "single":
        return _dijkstra_input(rng, [source], [], [], source, rng.random() < 0.5)
    if kind == "unreachable":
        directed = rng.random() < 0.5
        near, far = _split_unreachable(rng, labels, source)
        pairs = _cut_off_pairs(rng, near, far, source, directed)
        weights = [rng.randint(1, 9) for _ in pairs]
        return _dijkstra_input(rng, labels, pairs, weights, source, directed)
    if kind == "zero_weight":
        pairs = _connected_pairs(rng, labels, source, rng.randint(1, 2))
        weights = [rng.randint(1, 9) for _ in pairs]
        # The first pair leaves the source: a second vertex at distance 0.
        for index in {0, *rng.sample(range(len(pairs)), 2)}:
            weights[index] = 0
        return _dijkstra_input(rng, labels, pairs, weights, source, rng.random() < 0.5)
    if kind == "ties":
        return _tied_dijkstra(rng, labels)
    pairs = _in_edges_only_pairs(rng, labels, source)
    weights = [rng.randint(1, 9) for _ in pairs]
    return _dijkstra_input(rng, labels, pairs, weights, source, True)


def _dijkstra_input(
    rng: random.Random,
    labels: list[str],
    pairs: list[Pair],
    weights: list[int],
    source: str,
    directed: bool,
) -> dict[str, Any]:
    return {
        "vertices": labels,
        "edges": _edge_list(rng, pairs, directed, weights),
        "directed": directed,
        "source": source,
    }


def _standard_dijkstra(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    for _ in range(_MAX_ATTEMPTS):
        directed = rng.random() < 0.3
        source = rng.choice(labels)
        pairs = _connected_pairs(rng, labels, source, len(labels) // 2 - 1)
        weights = [rng.randint(1, 20) for _ in pairs]
        graph = [[u, v, w] for (u, v), w in zip(pairs, weights, strict=True)]
        distances = dijkstra(labels, graph, source, directed)["distances"]
        hops = _hops(labels, pairs, source, directed)
        # A direct edge from the source, heavier than the real distance: a trap for
        # answers that take the first edge found.
        joined = {v for pair in pairs if source in pair for v in pair}
        traps = [v for v in labels if v not in joined and hops[v] >= 2 and distances[v] < 20]
        if not traps:
            continue
        target = rng.choice(traps)
        pairs.append((source, target))
        weights.append(rng.randint(distances[target] + 1, 20))
        if _far_count(_hops(labels, pairs, source, directed)) >= 2:
            return _dijkstra_input(rng, labels, pairs, weights, source, directed)
    raise RuntimeError(f"no standard dijkstra graph on {len(labels)} vertices")


def _tied_dijkstra(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    """A diamond ``s-x-t``, ``s-y-t`` of equal lengths; more vertices hang off ``t``."""
    order = labels[:]
    rng.shuffle(order)
    s, x, y, t, *tail = order
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    c = rng.randint(1, a + b - 1)
    pairs = [(s, x), (x, t), (s, y), (y, t)]
    weights = [a, b, c, a + b - c]
    for v in tail:
        pairs.append((t, v))
        weights.append(rng.randint(1, 6))
    return _dijkstra_input(rng, labels, pairs, weights, s, rng.random() < 0.5)


def generate_bfs(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``bfs`` input: ``vertices``, ``edges`` ``[u, v]``, ``directed``, ``source``."""
    if tier == "simple":
        labels = _labels(size, least=3)
        pairs = _connected_pairs(rng, labels, labels[0], rng.randint(1, 2))
        return _bfs_input(rng, labels, pairs, labels[0], False)
    if tier == "standard":
        return _standard_bfs(rng, _labels(size, least=6))
    labels = _labels(size, least=4)
    kind = rng.choice(BFS_EDGE_KINDS)
    source = rng.choice(labels)
    if kind == "single":
        return _bfs_input(rng, [source], [], source, rng.random() < 0.5)
    if kind == "unreachable":
        directed = rng.random() < 0.5
        near, far = _split_unreachable(rng, labels, source)
        pairs = _cut_off_pairs(rng, near, far, source, directed)
        return _bfs_input(rng, labels, pairs, source, directed)
    if kind == "isolated_source":
        others = [v for v in labels if v != source]
        pairs = _connected_pairs(rng, others, rng.choice(others), rng.randint(0, 1))
        return _bfs_input(rng, labels, pairs, source, False)
    return _bfs_input(rng, labels, _in_edges_only_pairs(rng, labels, source), source, True)


def _bfs_input(
    rng: random.Random, labels: list[str], pairs: list[Pair], source: str, directed: bool
) -> dict[str, Any]:
    return {
        "vertices": labels,
        "edges": _edge_list(rng, pairs, directed),
        "directed": directed,
        "source": source,
    }


def _descending_order(
    labels: list[str], pairs: list[Pair], source: str, directed: bool
) -> list[str]:
    """The BFS order under the opposite tie-break: relabel so label order reverses."""
    flip = dict(zip(labels, reversed(labels), strict=True))
    flipped = [[flip[u], flip[v]] for u, v in pairs]
    order: list[str] = bfs(labels, flipped, flip[source], directed)["order"]
    return [flip[v] for v in order]


def _standard_bfs(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    for _ in range(_MAX_ATTEMPTS):
        directed = rng.random() < 0.3
        source = rng.choice(labels)
        pairs = _connected_pairs(rng, labels, source, len(labels) // 2)
        order = bfs(labels, [list(p) for p in pairs], source, directed)["order"]
        if _far_count(_hops(labels, pairs, source, directed)) >= 2 and order != (
            _descending_order(labels, pairs, source, directed)
        ):
            return _bfs_input(rng, labels, pairs, source, directed)
    raise RuntimeError(f"no standard bfs graph on {len(labels)} vertices")
