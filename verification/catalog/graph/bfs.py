"""Breadth-first search: the ``bfs`` scaffold (visiting order and hop counts)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import (
    LazyHook,
    dropped_items,
    duplicated_items,
    each_distinct,
    nudged_values,
    swapped_items,
)
from verification.catalog.graph.dijkstra import Distance
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
from verification.reference.graph import bfs
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import DictMatchValidator, PathMatchValidator

__all__ = ["BFS_EDGE_KINDS", "SPEC", "BfsAnswer", "generate_bfs"]

BFS_EDGE_KINDS = ("single", "unreachable", "isolated_source", "source_in_edges_only")
"""The degenerate instances the edge tier draws from."""


class BfsAnswer(AnswerSchema):
    """``{"order": ["A", "B"], "distances": {"A": 0, "B": 1, "C": null}}``."""

    order: list[str]
    """The reachable vertices in visiting order, the source first."""
    distances: dict[str, Distance | None]
    """Every vertex's hop count from the source; ``null`` when unreachable."""


def generate_bfs(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``bfs`` input: ``vertices``, ``edges`` ``[u, v]``, ``directed``, ``source``.

    - ``simple``: ``size`` vertices, a connected undirected graph searched from ``"A"``.
    - ``standard``: ``size`` vertices, every one reachable from a random source, at least
      two of them three or more hops away, and the neighbour order matters (a descending
      tie-break gives another visiting order).
    - ``edge``: at most ``size`` vertices, one of :data:`BFS_EDGE_KINDS`.
    """
    if tier == "simple":
        labels = vertex_labels(size, least=3)
        pairs = connected_pairs(rng, labels, labels[0], rng.randint(1, 2))
        return source_input(rng, labels, pairs, labels[0], False)
    if tier == "standard":
        return _standard_bfs(rng, vertex_labels(size, least=6))
    labels = vertex_labels(size, least=4)
    kind = rng.choice(BFS_EDGE_KINDS)
    source = rng.choice(labels)
    if kind == "single":
        return source_input(rng, [source], [], source, rng.random() < 0.5)
    if kind == "unreachable":
        directed = rng.random() < 0.5
        near, far = split_unreachable(rng, labels, source)
        pairs = cut_off_pairs(rng, near, far, source, directed)
        return source_input(rng, labels, pairs, source, directed)
    if kind == "isolated_source":
        others = [v for v in labels if v != source]
        pairs = connected_pairs(rng, others, rng.choice(others), rng.randint(0, 1))
        return source_input(rng, labels, pairs, source, False)
    return source_input(rng, labels, in_edges_only_pairs(rng, labels, source), source, True)


def _descending_order(
    labels: list[str], pairs: list[Pair], source: str, directed: bool
) -> list[str]:
    """The BFS order under the opposite tie-break: relabel so label order reverses."""
    flip = dict(zip(labels, reversed(labels), strict=True))
    flipped = [[flip[u], flip[v]] for u, v in pairs]
    order: list[str] = bfs(labels, flipped, flip[source], directed)["order"]
    return [flip[v] for v in order]


def _standard_bfs(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    for _ in range(MAX_ATTEMPTS):
        directed = rng.random() < 0.3
        source = rng.choice(labels)
        pairs = connected_pairs(rng, labels, source, len(labels) // 2)
        # The checks draw nothing: a shallow graph, which the first refuses, is not searched.
        if far_count(hop_counts(labels, pairs, source, directed)) < 2:
            continue
        order = bfs(labels, [list(p) for p in pairs], source, directed)["order"]
        if order != _descending_order(labels, pairs, source, directed):
            return source_input(rng, labels, pairs, source, directed)
    raise RuntimeError(f"no standard bfs graph on {len(labels)} vertices")


@LazyHook
def bfs_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Orders with swapped, dropped or repeated vertices, the descending tie-break, the
    order sorted by label; hop counts one off."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    order: list[str] = case.expected["order"]
    distances: dict[str, Any] = case.expected["distances"]
    inp = case.input
    for made in (
        *swapped_items(order, rng),
        *dropped_items(order, rng),
        *duplicated_items(order, rng),
    ):
        yield {"order": made, "distances": distances}
    edges = [tuple(e) for e in inp["edges"]]
    descending = _descending_order(inp["vertices"], edges, inp["source"], inp["directed"])
    yield {"order": descending, "distances": distances}
    yield {"order": sorted(order), "distances": distances}
    for nudged in nudged_values(distances, rng):
        yield {"order": order, "distances": nudged}


SPEC = ScaffoldSpec(
    name="bfs",
    category="graph",
    title="Breadth-first search",
    graded_conventions={
        "queue": "a first-in, first-out queue",
        "marked when queued": "a vertex is marked visited when it is put into the queue",
        "neighbour order": "its unvisited neighbours are put in in ascending label order",
    },
    description="visiting order and hop counts, neighbours in ascending label order",
    reference=bfs,
    generator=generate_bfs,
    answer_schema=BfsAnswer,
    validator=CompositeValidator(
        [PathMatchValidator(field="order"), DictMatchValidator(field="distances")]
    ),
    sizes={"simple": 5, "standard": 8, "edge": 5},
    size=SizeAxis(
        unit="vertices",
        measure=count_vertices,
        ranges={"simple": (3, 16), "standard": (6, 16), "edge": (4, 16)},
        stress=(17, 64),
    ),
    mutants=bfs_mutants,
    max_output_tokens=4096,
    # The graph scaffolds' rule (benchmarks/stress_budgets.py bfs --cases 20): the flat
    # budget past the standard maximum's work, plus 1.5x the work each size adds. A careful
    # answer (sorted lists, a Take line with the queue per vertex) is 552 tokens at 16,
    # 3,121 at 64.
    output_budget=OutputBudget(per_unit=81, base=2800),
    code_rules={
        "order": (
            "the visiting order of a queue-based search from `source` whose neighbour lists"
            " are deduplicated and sorted in ascending label order (a shorter label first:"
            " `sorted(labels, key=lambda label: (len(label), label))`), a vertex marked when"
            " put in the queue"
        ),
    },
    code_sizes=(50, 100, 300, 1000),
)
