"""Dijkstra's single-source shortest paths: the ``dijkstra`` scaffold."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Annotated, Any

from pydantic import Field

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, each_distinct, nudged_values
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.graph import (
    MAX_ATTEMPTS,
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
from verification.reference.graph import dijkstra
from verification.validators.exact_match import DictMatchValidator

__all__ = ["DIJKSTRA_EDGE_KINDS", "SPEC", "DijkstraAnswer", "Distance", "generate_dijkstra"]

DIJKSTRA_EDGE_KINDS = ("single", "unreachable", "zero_weight", "ties", "source_in_edges_only")
"""The degenerate instances the edge tier draws from."""

Distance = Annotated[int, Field(ge=0)]
"""A path length or hop count: a non-negative integer; ``null`` stands for unreachable."""


class DijkstraAnswer(AnswerSchema):
    """``{"distances": {"A": 0, "B": 4, "C": null}}``."""

    distances: dict[str, Distance | None]
    """Every vertex's shortest distance from the source; ``null`` when unreachable."""


def generate_dijkstra(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``dijkstra`` input: ``vertices``, ``edges`` ``[u, v, w]``, ``directed``, ``source``.

    - ``simple``: ``size`` vertices, a connected undirected graph searched from ``"A"``,
      weights 1..10.
    - ``standard``: ``size`` vertices, every one reachable from a random source, at least
      two of them three or more hops away, weights 1..20, and a direct edge from the source
      that is not the shortest path to its end (a trap for taking the first edge found).
    - ``edge``: at most ``size`` vertices, one of :data:`DIJKSTRA_EDGE_KINDS`.
    """
    if tier == "simple":
        labels = vertex_labels(size, least=3)
        pairs = connected_pairs(rng, labels, labels[0], rng.randint(1, 2))
        weights = [rng.randint(1, 10) for _ in pairs]
        return source_input(rng, labels, pairs, labels[0], False, weights)
    if tier == "standard":
        return _standard_dijkstra(rng, vertex_labels(size, least=6))
    labels = vertex_labels(size, least=4)
    kind = rng.choice(DIJKSTRA_EDGE_KINDS)
    source = rng.choice(labels)
    if kind == "single":
        return source_input(rng, [source], [], source, rng.random() < 0.5, [])
    if kind == "unreachable":
        directed = rng.random() < 0.5
        near, far = split_unreachable(rng, labels, source)
        pairs = cut_off_pairs(rng, near, far, source, directed)
        weights = [rng.randint(1, 9) for _ in pairs]
        return source_input(rng, labels, pairs, source, directed, weights)
    if kind == "zero_weight":
        pairs = connected_pairs(rng, labels, source, rng.randint(1, 2))
        weights = [rng.randint(1, 9) for _ in pairs]
        # The first pair leaves the source: a second vertex at distance 0.
        for index in {0, *rng.sample(range(len(pairs)), 2)}:
            weights[index] = 0
        return source_input(rng, labels, pairs, source, rng.random() < 0.5, weights)
    if kind == "ties":
        return _tied_dijkstra(rng, labels)
    pairs = in_edges_only_pairs(rng, labels, source)
    weights = [rng.randint(1, 9) for _ in pairs]
    return source_input(rng, labels, pairs, source, True, weights)


def _standard_dijkstra(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    for _ in range(MAX_ATTEMPTS):
        directed = rng.random() < 0.3
        source = rng.choice(labels)
        pairs = connected_pairs(rng, labels, source, len(labels) // 2 - 1)
        weights = [rng.randint(1, 20) for _ in pairs]
        graph = [[u, v, w] for (u, v), w in zip(pairs, weights, strict=True)]
        distances = dijkstra(labels, graph, source, directed)["distances"]
        hops = hop_counts(labels, pairs, source, directed)
        # A direct edge from the source, heavier than the real distance: a trap for
        # answers that take the first edge found.
        joined = {v for pair in pairs if source in pair for v in pair}
        traps = [v for v in labels if v not in joined and hops[v] >= 2 and distances[v] < 20]
        if not traps:
            continue
        target = rng.choice(traps)
        pairs.append((source, target))
        weights.append(rng.randint(distances[target] + 1, 20))
        if far_count(hop_counts(labels, pairs, source, directed)) >= 2:
            return source_input(rng, labels, pairs, source, directed, weights)
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
    return source_input(rng, labels, pairs, s, rng.random() < 0.5, weights)


@LazyHook
def dijkstra_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Distances one off, a reachable vertex called unreachable, a vertex left out, an
    unknown vertex added."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    distances: dict[str, Any] = case.expected["distances"]
    for nudged in nudged_values(distances, rng):
        yield {"distances": nudged}
    reachable = [v for v, d in distances.items() if d is not None and v != case.input["source"]]
    if reachable:
        yield {"distances": {**distances, rng.choice(reachable): None}}
    if len(distances) > 1:
        dropped = rng.choice(list(distances))
        yield {"distances": {v: d for v, d in distances.items() if v != dropped}}
    yield {"distances": {**distances, "Z" if "Z" not in distances else "a": 0}}


SPEC = ScaffoldSpec(
    name="dijkstra",
    category="graph",
    title="Dijkstra's shortest paths",
    graded_conventions={
        "unreachable": "null when no path reaches it",
        "source": "0 for the source itself",
    },
    description="single-source shortest path distances, non-negative integer weights",
    reference=dijkstra,
    generator=generate_dijkstra,
    answer_schema=DijkstraAnswer,
    validator=DictMatchValidator(),
    sizes={"simple": 5, "standard": 8, "edge": 5},
    size=SizeAxis(
        unit="vertices",
        measure=count_vertices,
        ranges={"simple": (3, 16), "standard": (6, 16), "edge": (4, 16)},
        stress=(17, 64),
    ),
    mutants=dijkstra_mutants,
    max_output_tokens=6144,
    # The rule of every graph scaffold (benchmarks/stress_budgets.py dijkstra --cases 20):
    # the flat budget holds the work at 16 vertices (about 470 tokens of lists and settle
    # lines) with room for prose; each vertex past it adds 1.5x its measured work (about 30
    # tokens: 1,884 at 64).
    output_budget=OutputBudget(per_unit=45, base=5424),
    code_sizes=(25, 50, 100, 250, 1000),
)
