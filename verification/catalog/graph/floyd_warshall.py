"""Floyd-Warshall all-pairs shortest paths: the ``floyd_warshall`` scaffold."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.graph import (
    MAX_ATTEMPTS,
    Pair,
    count_vertices,
    deep_tree_pairs,
    edge_list,
    extra_pairs,
    vertex_labels,
)
from verification.reference.graph import floyd_warshall
from verification.validators.exact_match import DictMatchValidator

__all__ = [
    "FLOYD_WARSHALL_EDGE_KINDS",
    "SPEC",
    "FloydWarshallAnswer",
    "generate_floyd_warshall",
]

FLOYD_WARSHALL_EDGE_KINDS = (
    "single",
    "no_edges",
    "unreachable",
    "zero_weight",
    "negative_cycle",
    "negative_self_loop",
    "undirected_negative_edge",
)
"""The degenerate instances the edge tier draws from."""

Matrix = dict[str, dict[str, int | None]]


class FloydWarshallAnswer(AnswerSchema):
    """``{"negative_cycle": false, "distances": {"A": {"A": 0, "B": 3}, "B": {"A": null,
    "B": 0}}}`` or ``{"negative_cycle": true, "distances": null}``."""

    negative_cycle: bool
    """Whether the graph has a cycle of negative total weight anywhere."""
    distances: Matrix | None
    """Without a negative cycle: row ``u``, column ``v`` holds the least weight of a path
    from ``u`` to ``v`` (``null`` when none exists, ``0`` on the diagonal); with one, null."""


def generate_floyd_warshall(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``floyd_warshall`` input: ``vertices``, ``edges`` ``[u, v, w]``, ``directed``.

    - ``simple``: ``size`` vertices, positive weights 1..9, every vertex reaching every
      other (an undirected connected graph, or a directed one built on a cycle through all
      vertices), and some direct edge heavier than a path of two or more edges.
    - ``standard``: ``size`` vertices, directed and strongly connected, weights -5..12 but
      never 0, at least one negative edge on a shortest path, no negative cycle (weights are
      ``base + p(v) - p(u)`` with positive bases and vertex potentials ``p``, so every
      cycle weighs the sum of its bases), some direct edge beaten by a longer path, and a
      shortest path of three or more edges.
    - ``edge``: at most ``size`` vertices, one of :data:`FLOYD_WARSHALL_EDGE_KINDS`:
      ``unreachable`` pairs (null entries); zero-weight edges (distances of 0 between
      distinct vertices, not a negative cycle); a directed negative cycle; a negative
      self loop; an undirected negative edge (a negative cycle by itself).
    """
    if tier == "simple":
        return _simple(rng, vertex_labels(size, least=3))
    if tier == "standard":
        return _standard(rng, vertex_labels(size, least=4))
    return _edge(rng, vertex_labels(size))


def _input(
    rng: random.Random, labels: list[str], pairs: list[Pair], weights: list[int], directed: bool
) -> dict[str, Any]:
    return {
        "vertices": labels,
        "edges": edge_list(rng, pairs, directed, weights),
        "directed": directed,
    }


def _cycle_pairs(rng: random.Random, labels: list[str], extra: int) -> list[Pair]:
    """A directed cycle through every vertex in random order, plus ``extra`` arcs."""
    order = rng.sample(labels, len(labels))
    cycle = [(order[i - 1], order[i]) for i in range(len(order))]
    return cycle + extra_pairs(rng, labels, cycle, extra)


def _beaten_direct_edge(test_input: dict[str, Any], distances: Matrix) -> bool:
    return any(distances[u][v] != w for u, v, w in test_input["edges"])


def _longest_path_edges(test_input: dict[str, Any], distances: Matrix) -> int:
    """The most edges a shortest path needs (fewest-edge count, maximised over pairs)."""
    weights = {(u, v): w for u, v, w in test_input["edges"]}
    edges_needed = {(v, v): 0 for v in test_input["vertices"]}
    # Relax by edge count: a pair's fewest edges among its shortest paths. A round that
    # changes nothing leaves the next ones nothing to change: the counts are final.
    for _ in test_input["vertices"]:
        changed = False
        for (u, x), w in weights.items():
            for v in test_input["vertices"]:
                tail = edges_needed.get((x, v))
                total = distances[x][v]
                if tail is None or total is None or distances[u][v] != w + total:
                    continue
                if (u, v) not in edges_needed or edges_needed[(u, v)] > tail + 1:
                    edges_needed[(u, v)] = tail + 1
                    changed = True
        if not changed:
            break
    return max(edges_needed.values())


def _simple(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    for _ in range(MAX_ATTEMPTS):
        directed = rng.random() < 0.5
        if directed:
            pairs = _cycle_pairs(rng, labels, rng.randint(1, len(labels) - 1))
        else:
            pairs = deep_tree_pairs(rng, labels, labels[0])
            pairs += extra_pairs(rng, labels, pairs, rng.randint(1, len(labels) - 1))
        weights = [rng.randint(1, 9) for _ in pairs]
        test_input = _input(rng, labels, pairs, weights, directed)
        distances = floyd_warshall(**test_input)["distances"]
        if _beaten_direct_edge(test_input, distances):
            return test_input
    raise RuntimeError(f"no simple floyd_warshall graph on {len(labels)} vertices")


def _potential_weights(rng: random.Random, labels: list[str], pairs: list[Pair]) -> list[int]:
    """``base + p(v) - p(u)``: every cycle weighs the sum of its (positive) bases. A base
    that would make a weight 0 grows by one (zero weights belong to the edge tier)."""
    potential = {v: rng.randint(0, 6) for v in labels}
    weights = [rng.randint(1, 6) + potential[v] - potential[u] for u, v in pairs]
    return [w or 1 for w in weights]


def _standard(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    for _ in range(MAX_ATTEMPTS):
        pairs = _cycle_pairs(rng, labels, rng.randint(len(labels) // 2, len(labels)))
        weights = _potential_weights(rng, labels, pairs)
        test_input = _input(rng, labels, pairs, weights, True)
        distances = floyd_warshall(**test_input)["distances"]
        negative_used = any(w < 0 and distances[u][v] == w for u, v, w in test_input["edges"])
        if (
            negative_used
            and _beaten_direct_edge(test_input, distances)
            and _longest_path_edges(test_input, distances) >= 3
            and sum(w < 0 for w in weights) <= len(weights) // 3
        ):
            return test_input
    raise RuntimeError(f"no standard floyd_warshall graph on {len(labels)} vertices")


def _edge(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    n = len(labels)
    kinds = [k for k in FLOYD_WARSHALL_EDGE_KINDS if n >= _LEAST_VERTICES[k]]
    kind = rng.choice(kinds)
    if kind == "single":
        pairs = [(labels[0], labels[0])] if rng.random() < 0.5 else []
        weights = [rng.randint(0, 9) for _ in pairs]
        return _input(rng, labels[:1], pairs, weights, rng.random() < 0.5)
    if kind == "no_edges":
        return {"vertices": labels, "edges": [], "directed": rng.random() < 0.5}
    if kind == "unreachable":
        directed = rng.random() < 0.5
        order = rng.sample(labels, n)
        if directed:
            # Arcs only forward in a random order: nothing leads back.
            pairs = [(order[i], order[i + 1]) for i in range(n - 1)]
            later = [(order[i], order[j]) for i in range(n) for j in range(i + 2, n)]
            pairs += rng.sample(later, min(len(later), rng.randint(0, n - 1)))
            weights = _potential_weights(rng, labels, pairs)
        else:
            cut = rng.randint(1, n - 1)
            pairs = deep_tree_pairs(rng, order[:cut], order[0]) if cut > 1 else []
            pairs += deep_tree_pairs(rng, order[cut:], order[cut]) if n - cut > 1 else []
            weights = [rng.randint(1, 9) for _ in pairs]
        return _input(rng, labels, pairs, weights, directed)
    if kind == "zero_weight":
        directed = rng.random() < 0.5
        pairs = _cycle_pairs(rng, labels, rng.randint(0, n - 1))
        weights = [rng.randint(1, 9) for _ in pairs]
        # Zero-weight arcs: distances of 0 between distinct vertices, no negative cycle.
        for index in range(rng.randint(1, min(3, len(pairs)))):
            weights[index] = 0
        return _input(rng, labels, pairs, weights, directed)
    if kind == "negative_cycle":
        pairs = _cycle_pairs(rng, labels, rng.randint(0, n - 1))
        weights = _potential_weights(rng, labels, pairs)
        u, v = rng.choice(pairs[:n])
        # The whole cycle's bases sum to at least n; this one arc takes it below 0.
        cycle_weight = sum(weights[:n])
        index = pairs.index((u, v))
        weights[index] -= cycle_weight + rng.randint(1, 3)
        return _input(rng, labels, pairs, weights, True)
    if kind == "negative_self_loop":
        pairs = _cycle_pairs(rng, labels, rng.randint(0, n - 1)) if n > 1 else []
        weights = [rng.randint(1, 9) for _ in pairs]
        loop = rng.choice(labels)
        pairs.append((loop, loop))
        weights.append(-rng.randint(1, 5))
        return _input(rng, labels, pairs, weights, rng.random() < 0.5)
    pairs = deep_tree_pairs(rng, labels, labels[0])
    weights = [rng.randint(1, 9) for _ in pairs]
    weights[rng.randrange(len(weights))] = -rng.randint(1, 4)
    return _input(rng, labels, pairs, weights, False)


_LEAST_VERTICES = {
    "single": 1,
    "no_edges": 2,
    "unreachable": 2,
    "zero_weight": 2,
    "negative_cycle": 2,
    "negative_self_loop": 1,
    "undirected_negative_edge": 2,
}


def _rounds(test_input: dict[str, Any], upto: int) -> Matrix:
    """The Floyd-Warshall table after the first ``upto`` intermediates (0: direct edges)."""
    labels: list[str] = test_input["vertices"]
    dist: Matrix = {u: {v: 0 if u == v else None for v in labels} for u in labels}
    for u, v, w in test_input["edges"]:
        for a, b in ((u, v), (v, u)) if not test_input["directed"] else ((u, v),):
            current = dist[a][b]
            if a != b or w < 0:
                dist[a][b] = w if current is None else min(current, w)
    for k in labels[:upto]:
        row_k = dist[k]
        for u in labels:
            row_u = dist[u]
            left = row_u[k]
            if left is None:  # stays None: only v == k could change it, and it skips too
                continue
            for v in labels:
                right = row_k[v]
                if right is None:
                    continue
                current = row_u[v]
                if current is None or left + right < current:
                    shorter = row_u[v] = left + right
                    if v == k:  # d(u, k) itself shortened (a negative cycle through k)
                        left = shorter
    return dist


@LazyHook
def floyd_warshall_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """One entry one off, a reachable pair made null and a null made a number, the direct
    edges only, the table before the last intermediate, rows and columns swapped, a row
    dropped; a negative cycle missed (the raw table reported) or claimed where none is."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    test_input = case.input
    labels: list[str] = test_input["vertices"]
    distances: Matrix | None = case.expected["distances"]
    if distances is None:
        raw = _rounds(test_input, len(labels))
        yield {"negative_cycle": False, "distances": raw}
        yield {"negative_cycle": False, "distances": _rounds(test_input, 0)}
        yield {"negative_cycle": True, "distances": raw}
        yield {"negative_cycle": False, "distances": None}
        return
    cells = [(u, v) for u in labels for v in labels]
    for u, v in rng.sample(cells, min(3, len(cells))):
        value = distances[u][v]
        changed = rng.randint(0, 9) if value is None else value + rng.choice((-1, 1))
        yield _with(distances, u, v, changed)
    reachable = [(u, v) for u, v in cells if u != v and distances[u][v] is not None]
    if reachable:
        u, v = rng.choice(reachable)
        yield _with(distances, u, v, None)
    yield {"negative_cycle": False, "distances": _rounds(test_input, 0)}
    yield {"negative_cycle": False, "distances": _rounds(test_input, len(labels) - 1)}
    yield {
        "negative_cycle": False,
        "distances": {u: {v: distances[v][u] for v in labels} for u in labels},
    }
    if len(labels) > 1:
        dropped = rng.choice(labels)
        yield {
            "negative_cycle": False,
            "distances": {u: row for u, row in distances.items() if u != dropped},
        }
    yield {"negative_cycle": True, "distances": None}
    yield {"negative_cycle": True, "distances": distances}


def _with(distances: Matrix, u: str, v: str, value: int | None) -> dict[str, Any]:
    table = {row: dict(columns) for row, columns in distances.items()}
    table[u][v] = value
    return {"negative_cycle": False, "distances": table}


SPEC = ScaffoldSpec(
    name="floyd_warshall",
    category="graph",
    title="Floyd-Warshall all-pairs shortest paths",
    description="all-pairs shortest distances, negative edges allowed, negative cycles reported",
    graded_conventions={
        "no path": "is null when no path leads from u to v",
        "negative self loop": "a negative self loop counts",
        "undirected negative edge": "any negative edge of an undirected graph",
        "zero cycle": "a cycle of total weight 0 is not negative",
    },
    reference=floyd_warshall,
    generator=generate_floyd_warshall,
    answer_schema=FloydWarshallAnswer,
    validator=DictMatchValidator(),
    sizes={"simple": 4, "standard": 6, "edge": 5},
    size=SizeAxis(
        unit="vertices",
        measure=count_vertices,
        ranges={"simple": (3, 6), "standard": (4, 8), "edge": (1, 8)},
        stress=(9, 26),
        stress_limit=(
            "the work is n-by-n tables: a careful answer (the first and last table, each "
            "round's changes) is 14,094 tokens at 26 vertices and 16,890 at 28, and its "
            "budget with the 1.5x margin passes the 32,000 a model writes from 28 on"
        ),
    ),
    mutants=floyd_warshall_mutants,
    max_output_tokens=8192,
    # The graph scaffolds' rule (benchmarks/stress_budgets.py floyd_warshall --cases 20
    # --exponent 2): the flat budget past the standard maximum's work, plus 1.5x the work
    # each size adds, which grows with the square of the size: 867 tokens at 8, 5,174 at
    # 17, 14,094 at 26.
    output_budget=OutputBudget(per_unit=32.6, exponent=2, base=6105),
    code_sizes=(16, 32, 50),
    code_size_limit=(
        "cubic, and the answer is a V x V matrix; drawing an instance takes 0.4 s at 50 "
        "vertices and over 40 s at 100"
    ),
)
