"""Bellman-Ford shortest paths: the ``bellman_ford`` scaffold (negative weights, and a
negative cycle reachable from the source reported as such)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, each_distinct, nudged_values
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.graph import (
    MAX_ATTEMPTS,
    Pair,
    connected_pairs,
    count_vertices,
    cut_off_pairs,
    far_count,
    hop_counts,
    in_edges_only_pairs,
    source_input,
    split_unreachable,
    vertex_labels,
)
from verification.reference.graph import bellman_ford
from verification.validators.exact_match import DictMatchValidator

__all__ = ["BELLMAN_FORD_EDGE_KINDS", "SPEC", "BellmanFordAnswer", "generate_bellman_ford"]

BELLMAN_FORD_EDGE_KINDS = (
    "single",
    "unreachable",
    "zero_cycle",
    "unreachable_negative_cycle",
    "undirected",
    "undirected_negative_edge",
    "negative_self_loop",
    "source_in_edges_only",
)
"""The degenerate instances the edge tier draws from."""


class BellmanFordAnswer(AnswerSchema):
    """``{"negative_cycle": false, "distances": {"A": 0, "B": -2, "C": null}}`` or
    ``{"negative_cycle": true, "distances": null}``."""

    negative_cycle: bool
    """Whether a cycle of negative total weight can be reached from the source."""
    distances: dict[str, int | None] | None
    """Every vertex's shortest distance (``null`` when unreachable); the whole field is
    ``null`` when ``negative_cycle`` is true."""


def generate_bellman_ford(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``bellman_ford`` input: ``vertices``, ``edges`` ``[u, v, w]`` (integer weights,
    some negative), ``directed``, ``source``.

    - ``simple``: ``size`` vertices, directed, every vertex reachable from ``"A"``, at
      least one negative edge, no negative cycle; weights within -9..12.
    - ``standard``: ``size`` vertices, directed, every vertex reachable from a random
      source, at least two of them three or more hops away, negative edges that matter (a
      settle-once Dijkstra gets some distance wrong). Three in four have no negative cycle;
      one in four has a negative cycle of three or more vertices, away from the source,
      weighing -1 to -3 in total.
    - ``edge``: at most ``size`` vertices, one of :data:`BELLMAN_FORD_EDGE_KINDS`
      (``zero_cycle`` has a cycle of total weight exactly 0, which is not negative).
    """
    if tier == "simple":
        labels = vertex_labels(size, least=3)
        for _ in range(MAX_ATTEMPTS):
            pairs = connected_pairs(rng, labels, labels[0], rng.randint(1, 2))
            weights = _potential_weights(rng, labels, pairs)
            if min(weights) < 0:
                return source_input(rng, labels, pairs, labels[0], True, weights)
        raise RuntimeError(f"no simple bellman_ford graph on {size} vertices")
    if tier == "standard":
        labels = vertex_labels(size, least=5)
        return _standard(rng, labels, negative_cycle=rng.random() < 0.25)
    return _edge(rng, vertex_labels(size, least=4))


def _potential_weights(
    rng: random.Random, labels: list[str], pairs: Sequence[Pair], lowest: int = 1
) -> list[int]:
    """``w(u, v) = base + p(u) - p(v)`` with ``base >= lowest``: every cycle weighs the sum
    of its bases, so none is negative, while single edges often are."""
    potential = {v: rng.randint(0, 6) for v in labels}
    return [rng.randint(lowest, 6) + potential[u] - potential[v] for u, v in pairs]


def _cycle_through(
    rng: random.Random, pairs: list[Pair], weights: list[int], avoid: str, total: int
) -> tuple[Pair, int] | None:
    """A new edge ``(c, a)`` closing a shortest path ``a -> b -> c`` (no vertex ``avoid``,
    no edge ``a -> c``) into a cycle weighing ``total``, with the new edge's weight;
    ``None`` when no path fits. Every cycle the new edge closes then weighs ``total`` or
    more and has three or more vertices; the graph had no negative cycle before."""
    weight_of = dict(zip(pairs, weights, strict=True))
    graph = [[u, v, w] for (u, v), w in weight_of.items()]
    labels = sorted({v for pair in pairs for v in pair})
    paths = [
        (a, c, weight_of[(a, b)] + weight_of[(b, c)])
        for a, b in pairs
        for b2, c in pairs
        if b2 == b
        and len({a, b, c, avoid}) == 4
        and (c, a) not in weight_of
        and (a, c) not in weight_of
    ]
    rng.shuffle(paths)
    for a, c, length in paths:
        if bellman_ford(labels, graph, a)["distances"][c] == length:
            return (c, a), total - length
    return None


def _settle_once(test_input: Mapping[str, Any]) -> dict[str, int | None]:
    """Dijkstra run as if weights were non-negative: each vertex is settled the first time
    it is the closest open one and never revised (the wrong method for this scaffold)."""
    arcs = _arcs(test_input)
    best: dict[str, int] = {test_input["source"]: 0}
    settled: dict[str, int] = {}
    while True:
        open_ = [(d, v) for v, d in best.items() if v not in settled]
        if not open_:
            break
        distance, u = min(open_)
        settled[u] = distance
        for a, b, w in arcs:
            if a == u and b not in settled and distance + w < best.get(b, distance + w + 1):
                best[b] = distance + w
    return {v: settled.get(v) for v in test_input["vertices"]}


def _arcs(test_input: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    arcs = []
    for u, v, w in test_input["edges"]:
        arcs.append((u, v, w))
        if not test_input["directed"]:
            arcs.append((v, u, w))
    return arcs


def _relaxed(test_input: Mapping[str, Any], rounds: int) -> dict[str, int | None]:
    """The distances after ``rounds`` rounds of relaxing every edge in input order."""
    arcs = _arcs(test_input)
    best: dict[str, int] = {test_input["source"]: 0}
    for _ in range(rounds):
        for u, v, w in arcs:
            if u in best and best[u] + w < best.get(v, best[u] + w + 1):
                best[v] = best[u] + w
    return {v: best.get(v) for v in test_input["vertices"]}


def _standard(rng: random.Random, labels: list[str], *, negative_cycle: bool) -> dict[str, Any]:
    for _ in range(MAX_ATTEMPTS):
        source = rng.choice(labels)
        pairs = connected_pairs(rng, labels, source, len(labels) // 2)
        weights = _potential_weights(rng, labels, pairs)
        if min(weights) >= 0 or far_count(hop_counts(labels, pairs, source, True)) < 2:
            continue
        if negative_cycle:
            closing = _cycle_through(rng, pairs, weights, source, -rng.randint(1, 3))
            if closing is None:
                continue
            pairs, weights = [*pairs, closing[0]], [*weights, closing[1]]
        else:
            pairs, weights = _plant_trap(rng, labels, pairs, weights, source)
        inp = source_input(rng, labels, pairs, source, True, weights)
        answer = bellman_ford(**inp)
        if answer["negative_cycle"] or answer["distances"] != _settle_once(inp):
            return inp
    raise RuntimeError(f"no standard bellman_ford graph on {len(labels)} vertices")


def _plant_trap(
    rng: random.Random, labels: list[str], pairs: list[Pair], weights: list[int], source: str
) -> tuple[list[Pair], list[int]]:
    """Add an edge ``source -> v`` a little heavier than ``v``'s distance but lighter than
    the distance of ``x``, where ``x -> v`` is a negative last edge of ``v``'s shortest
    path: a settle-once Dijkstra then fixes ``v`` too early."""
    graph = [[u, v, w] for (u, v), w in zip(pairs, weights, strict=True)]
    distance = bellman_ford(labels, graph, source)["distances"]
    joined = {v for u, v in pairs if u == source}
    traps = [
        (x, v)
        for (x, v), w in zip(pairs, weights, strict=True)
        if source not in (x, v)
        and v not in joined
        and distance[x] + w == distance[v]
        and distance[x] >= distance[v] + 2
    ]
    if not traps:
        return pairs, weights
    x, v = rng.choice(traps)
    return [*pairs, (source, v)], [*weights, rng.randint(distance[v] + 1, distance[x] - 1)]


def _edge(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    kind = rng.choice(BELLMAN_FORD_EDGE_KINDS)
    source = rng.choice(labels)
    if kind == "single":
        return source_input(rng, [source], [], source, True, [])
    if kind in ("unreachable", "unreachable_negative_cycle"):
        near, far = split_unreachable(rng, labels, source)
        if kind == "unreachable_negative_cycle" and len(far) < 2:
            far, near = [*far, *near[1:]], near[:1]
        pairs = cut_off_pairs(rng, near, far, source, True)
        if kind == "unreachable":
            return source_input(
                rng, labels, pairs, source, True, _potential_weights(rng, labels, pairs)
            )
        # Far side: a two-vertex cycle weighing -1..-3 that no path from the source enters.
        a, b = far[0], far[1]
        pairs = [p for p in pairs if p not in ((a, b), (b, a))]
        weights = _potential_weights(rng, labels, pairs)
        back = rng.randint(1, 5)
        pairs += [(a, b), (b, a)]
        weights += [-back - rng.randint(1, 3), back]
        return source_input(rng, labels, pairs, source, True, weights)
    if kind == "zero_cycle":
        for _ in range(MAX_ATTEMPTS):
            pairs = connected_pairs(rng, labels, source, 1)
            weights = _potential_weights(rng, labels, pairs, lowest=0)
            closing = _cycle_through(rng, pairs, weights, source, 0)
            if closing is not None and closing[1] < 0:
                pairs, weights = [*pairs, closing[0]], [*weights, closing[1]]
                return source_input(rng, labels, pairs, source, True, weights)
        raise RuntimeError(f"no bellman_ford graph with a zero cycle on {len(labels)} vertices")
    if kind == "undirected":
        pairs = connected_pairs(rng, labels, source, 1)
        weights = [rng.randint(0, 9) for _ in pairs]
        weights[rng.randrange(len(weights))] = 0
        return source_input(rng, labels, pairs, source, False, weights)
    if kind == "undirected_negative_edge":
        pairs = connected_pairs(rng, labels, source, 1)
        weights = [rng.randint(1, 9) for _ in pairs]
        weights[rng.randrange(len(weights))] = -rng.randint(1, 4)
        return source_input(rng, labels, pairs, source, False, weights)
    if kind == "negative_self_loop":
        pairs = connected_pairs(rng, labels, source, 1)
        weights = _potential_weights(rng, labels, pairs)
        pairs.append((loop := rng.choice(labels), loop))
        weights.append(-rng.randint(1, 3))
        return source_input(rng, labels, pairs, source, True, weights)
    pairs = in_edges_only_pairs(rng, labels, source)
    return source_input(rng, labels, pairs, source, True, _potential_weights(rng, labels, pairs))


@LazyHook
def bellman_ford_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """No cycle: distances one off, a reachable vertex called unreachable, the settle-once
    Dijkstra distances, the distances after one round, a negative cycle claimed. Cycle:
    "no negative cycle" with the distances after ``V - 1`` rounds or Dijkstra's, both
    fields filled, both null."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    inp = case.input
    rounds = max(1, len(inp["vertices"]) - 1)
    if case.expected["negative_cycle"]:
        after = _relaxed(inp, rounds)
        yield {"negative_cycle": False, "distances": after}
        yield {"negative_cycle": False, "distances": _settle_once(inp)}
        yield {"negative_cycle": True, "distances": after}
        yield {"negative_cycle": False, "distances": None}
        return
    distances: dict[str, Any] = case.expected["distances"]
    for nudged in nudged_values(distances, rng, least=None):
        yield {"negative_cycle": False, "distances": nudged}
    reachable = [v for v, d in distances.items() if d is not None and v != inp["source"]]
    if reachable:
        yield {"negative_cycle": False, "distances": {**distances, rng.choice(reachable): None}}
    yield {"negative_cycle": False, "distances": _settle_once(inp)}
    yield {"negative_cycle": False, "distances": _relaxed(inp, 1)}
    yield {"negative_cycle": True, "distances": None}
    yield {"negative_cycle": True, "distances": distances}


SPEC = ScaffoldSpec(
    name="bellman_ford",
    category="graph",
    title="Bellman-Ford shortest paths",
    graded_conventions={
        "reachable cycle": "a negative cycle counts only when it can be reached from the source",
        "undirected negative edge": "a negative edge is itself a negative cycle",
    },
    description="single-source distances with negative weights; reachable negative cycles",
    reference=bellman_ford,
    generator=generate_bellman_ford,
    answer_schema=BellmanFordAnswer,
    validator=DictMatchValidator(),
    sizes={"simple": 5, "standard": 7, "edge": 5},
    size=SizeAxis(
        unit="vertices",
        measure=count_vertices,
        ranges={"simple": (3, 8), "standard": (5, 10), "edge": (4, 10)},
        stress=(11, 40),
    ),
    mutants=bellman_ford_mutants,
    max_output_tokens=8192,
    # The graph scaffolds' rule (benchmarks/stress_budgets.py --cases 20): the flat budget
    # past the standard maximum's work, plus 1.5x the work each size adds. A careful answer
    # (the arc list, a line of changes per round: up to V - 1 rounds with a negative cycle)
    # is 670 tokens at 10, up to 3,428 at 25 and 4,833 at 40.
    output_budget=OutputBudget(per_unit=276, base=5432),
    code_sizes=(20, 50, 100, 300, 500),
    code_size_limit=(
        "drawing an instance (its reachable negative cycles checked) takes 4 s at 1,000 "
        "vertices, past a few seconds for the ladder's cases"
    ),
)
