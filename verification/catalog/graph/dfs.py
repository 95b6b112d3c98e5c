"""Depth-first search: the ``dfs`` scaffold (discovery and finishing orders)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import (
    LazyHook,
    dropped_items,
    duplicated_items,
    each_distinct,
    swapped_items,
)
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
from verification.reference.graph import bfs, dfs
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import PathMatchValidator

__all__ = ["DFS_EDGE_KINDS", "SPEC", "DfsAnswer", "generate_dfs"]

DFS_EDGE_KINDS = (
    "single",
    "unreachable",
    "isolated_source",
    "source_in_edges_only",
    "repeated_edges",
    "path",
)
"""The degenerate instances the edge tier draws from."""


class DfsAnswer(AnswerSchema):
    """``{"order": ["A", "B", "C"], "finish_order": ["C", "B", "A"]}``."""

    order: list[str]
    """The reachable vertices in the order they are first visited, the source first."""
    finish_order: list[str]
    """The same vertices in the order their visits finish, the source last."""


def generate_dfs(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``dfs`` input: ``vertices``, ``edges`` ``[u, v]``, ``directed``, ``source``.

    - ``simple``: ``size`` vertices, a connected undirected graph searched from ``"A"``,
      with at least one backtrack (a finished vertex whose parent then visits another one).
    - ``standard``: ``size`` vertices, every one reachable from a random source (directed
      about a third of the time), at least two of them three or more hops away; the
      search backtracks at least twice, and the order differs from the breadth-first
      order, from the descending tie-break and from a stack that marks vertices when they
      are pushed.
    - ``edge``: at most ``size`` vertices, one of :data:`DFS_EDGE_KINDS`.
    """
    if tier == "simple":
        labels = vertex_labels(size, least=3)
        for _ in range(MAX_ATTEMPTS):
            pairs = connected_pairs(rng, labels, labels[0], rng.randint(0, 2))
            if _backtracks(labels, pairs, labels[0], False) >= 1:
                return source_input(rng, labels, pairs, labels[0], False)
        raise RuntimeError(f"no simple dfs graph on {size} vertices")
    if tier == "standard":
        return _standard_dfs(rng, vertex_labels(size, least=6))
    labels = vertex_labels(size, least=4)
    kind = rng.choice(DFS_EDGE_KINDS)
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
    if kind == "source_in_edges_only":
        pairs = in_edges_only_pairs(rng, labels, source)
        return source_input(rng, labels, pairs, source, True)
    if kind == "repeated_edges":
        directed = rng.random() < 0.5
        pairs = connected_pairs(rng, labels, source, 1)
        pairs += rng.sample(pairs, 2)
        pairs += [(v, v) for v in rng.sample(labels, 2)]
        if not directed:
            pairs.append(pairs[0][::-1])
        return source_input(rng, labels, pairs, source, directed)
    # A path: the search goes all the way down, then unwinds without a single branch.
    line = labels[:]
    rng.shuffle(line)
    pairs = [(line[i], line[i + 1]) for i in range(len(line) - 1)]
    return source_input(rng, labels, pairs, line[0], rng.random() < 0.5)


def _run(labels: list[str], pairs: Sequence[Pair], source: str, directed: bool) -> dict[str, Any]:
    result: dict[str, Any] = dfs(labels, [list(p) for p in pairs], source, directed)
    return result


def _backtracks(labels: list[str], pairs: Sequence[Pair], source: str, directed: bool) -> int:
    """How many times the search resumes a vertex and then discovers another from it: the
    steps a model that only walks forward gets wrong."""
    return _backtracks_of(_run(labels, pairs, source, directed))


def _backtracks_of(result: Mapping[str, Any]) -> int:
    """:func:`_backtracks` of a run's result (its ``order`` and ``finish_order``)."""
    order, finished = result["order"], {v: i for i, v in enumerate(result["finish_order"])}
    # A descendant finishes before its ancestor: ``order[i + 1]`` is no child of
    # ``order[i]`` exactly when ``order[i]`` finished first.
    return sum(1 for u, v in pairwise(order) if finished[u] < finished[v])


def _descending(
    labels: list[str], pairs: Sequence[Pair], source: str, directed: bool
) -> dict[str, list[str]]:
    """Both orders under the opposite tie-break: relabel so label order reverses."""
    flip = dict(zip(labels, reversed(labels), strict=True))
    result = _run(labels, [(flip[u], flip[v]) for u, v in pairs], flip[source], directed)
    return {key: [flip[v] for v in result[key]] for key in ("order", "finish_order")}


def _mark_on_push(
    labels: list[str], pairs: Sequence[Pair], source: str, directed: bool
) -> list[str]:
    """The order of a stack that marks vertices when pushed (all unvisited neighbours at
    once, in ascending order, so the largest is popped first): not a depth-first order."""
    out: dict[str, set[str]] = {v: set() for v in labels}
    for u, v in pairs:
        out[u].add(v)
        if not directed:
            out[v].add(u)
    seen, stack, order = {source}, [source], []
    while stack:
        u = stack.pop()
        order.append(u)
        for v in sorted(out[u] - seen):
            seen.add(v)
            stack.append(v)
    return order


def _standard_dfs(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    for attempt in range(MAX_ATTEMPTS):
        directed = rng.random() < 0.3
        source = rng.choice(labels)
        # On six or seven vertices, n/2 extra edges rarely leave two vertices three hops
        # away and two backtracks (1 draw in 100 on six, so about 1 case in 30 ran out of
        # attempts); halfway through, at most one extra edge keeps the graph deep (about 1
        # in 15 then). The first half is unchanged, so every case that drew before still
        # draws the same graph.
        extra = len(labels) // 2 if attempt < MAX_ATTEMPTS // 2 else rng.randint(0, 1)
        pairs = connected_pairs(rng, labels, source, extra)
        # The checks draw nothing: the search is run once, and only for a deep graph.
        if far_count(hop_counts(labels, pairs, source, directed)) < 2:
            continue
        result = _run(labels, pairs, source, directed)
        order = result["order"]
        graph = [list(p) for p in pairs]
        if (
            _backtracks_of(result) >= 2
            and order != bfs(labels, graph, source, directed)["order"]
            and order != _descending(labels, pairs, source, directed)["order"]
            and order != _mark_on_push(labels, pairs, source, directed)
        ):
            return source_input(rng, labels, pairs, source, directed)
    raise RuntimeError(f"no standard dfs graph on {len(labels)} vertices")


@LazyHook
def dfs_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Orders with swapped, dropped or repeated vertices; the descending tie-break; the
    breadth-first order; a stack marking vertices on push; the order sorted by label; the
    finishing order written as the reversed discovery order or as the discovery order."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    order: list[str] = case.expected["order"]
    finish: list[str] = case.expected["finish_order"]
    inp = case.input
    pairs = [(str(u), str(v)) for u, v in inp["edges"]]
    labels, source, directed = inp["vertices"], inp["source"], inp["directed"]
    for made in (
        *swapped_items(order, rng),
        *dropped_items(order, rng),
        *duplicated_items(order, rng),
    ):
        yield {"order": made, "finish_order": finish}
    yield {"order": bfs(labels, inp["edges"], source, directed)["order"], "finish_order": finish}
    yield {"order": _mark_on_push(labels, pairs, source, directed), "finish_order": finish}
    yield {"order": sorted(order), "finish_order": finish}
    for made in (
        *swapped_items(finish, rng),
        *dropped_items(finish, rng, count=1),
        order[::-1],
        order,
    ):
        yield {"order": order, "finish_order": made}
    yield _descending(labels, pairs, source, directed)


SPEC = ScaffoldSpec(
    name="dfs",
    category="graph",
    title="Depth-first search",
    graded_conventions={
        "recursive": "the convention is the recursive one",
        "neighbour order": "neighbours in ascending label order",
        "finishing order": "when u's list is used up, append u to the finishing order",
    },
    description="discovery and finishing orders, neighbours in ascending label order",
    reference=dfs,
    generator=generate_dfs,
    answer_schema=DfsAnswer,
    validator=CompositeValidator(
        [PathMatchValidator(field="order"), PathMatchValidator(field="finish_order")]
    ),
    sizes={"simple": 5, "standard": 8, "edge": 5},
    size=SizeAxis(
        unit="vertices",
        measure=count_vertices,
        ranges={"simple": (3, 16), "standard": (6, 16), "edge": (4, 16)},
        stress=(17, 64),
    ),
    mutants=dfs_mutants,
    max_output_tokens=6144,
    # The graph scaffolds' rule (benchmarks/stress_budgets.py dfs --cases 20): the flat
    # budget past the standard maximum's work, plus 1.5x the work each size adds. A careful
    # answer (sorted lists, an At line with the stack per step) is 758 tokens at 16, 5,231
    # at 64.
    output_budget=OutputBudget(per_unit=140, base=3904),
    code_rules={
        "order": (
            "the discovery order of the scaffold's depth-first search: neighbour lists "
            "deduplicated, self loops dropped, sorted in ascending label order (a shorter "
            "label first: `sorted(labels, key=lambda label: (len(label), label))`), searched"
            " from `source` only (never restarted from another vertex)"
        ),
        "finish_order": ("the order vertices finish in that same search"),
    },
    code_sizes=(50, 100, 300, 1000),
)
