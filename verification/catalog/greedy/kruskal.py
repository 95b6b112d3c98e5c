"""Kruskal's minimum spanning tree: the ``kruskal`` scaffold."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Annotated, Any

from pydantic import Strict, StrictInt, StrictStr

from verification.cases import TestCase, Tier
from verification.catalog.calibration import (
    distinct_answers,
    drawing_first,
    dropped_items,
    duplicated_items,
    each_distinct,
)
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.graph import (
    count_vertices,
    has_unique_minimum_spanning_forest,
    pairs_with_random_tree,
    random_tree_pairs,
    vertex_labels,
)
from verification.reference._inputs import label_order
from verification.reference.greedy import kruskal_mst
from verification.validators.base import ValidationResult, pick
from verification.validators.form import FormRule, with_form_rules
from verification.validators.set_equivalence import MSTValidator

__all__ = [
    "KRUSKAL_EDGE_KINDS",
    "KRUSKAL_FORM_RULES",
    "SPEC",
    "KruskalAnswer",
    "KruskalValidator",
    "WeightedEdge",
    "generate_kruskal",
]

WeightedEdge = Annotated[tuple[StrictStr, StrictStr, StrictInt], Strict(False)]
"""``[u, v, weight]``: lax only so a Python list fills the tuple too (strict JSON mode
accepts an array already); each item stays strict."""


class KruskalAnswer(AnswerSchema):
    """The edges of a minimum spanning tree (forest) and their total weight."""

    edges: list[WeightedEdge]
    total_weight: int


KRUSKAL_EDGE_KINDS = (
    "disconnected",
    "single_vertex",
    "equal_weights",
    "already_tree",
    "negative_weights",
)
"""The degenerate instances the edge tier draws from."""

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
    if size < 1:
        raise ValueError(f"kruskal needs 1 or more vertices, got {size}")
    if tier == "simple":
        return _simple(rng, max(size, 3))
    if tier == "standard":
        return _standard(rng, max(size, 4))
    return _edge(rng, size)


def _graph(vertices: list[str], edges: list[list[Any]]) -> dict[str, Any]:
    return {"vertices": vertices, "edges": edges, "directed": False}


def _simple(rng: random.Random, n: int) -> dict[str, Any]:
    vertices = vertex_labels(n)
    pairs = pairs_with_random_tree(rng, vertices, n - 1 + rng.randint(1, 2))
    # Distinct weights: exactly one minimum spanning tree.
    weights = rng.sample(range(1, max(9, len(pairs)) + 1), len(pairs))
    return _graph(vertices, [[u, v, w] for (u, v), w in zip(pairs, weights, strict=True)])


def _standard(rng: random.Random, n: int) -> dict[str, Any]:
    vertices = vertex_labels(n)
    pairs = pairs_with_random_tree(rng, vertices, 2 * (n - 1))
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


def _either_order(rng: random.Random, u: str, v: str) -> list[str]:
    return [u, v] if rng.random() < 0.5 else [v, u]


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(KRUSKAL_EDGE_KINDS)
    if kind == "single_vertex" or size < 3:
        return _graph([rng.choice(vertex_labels(size))], [])
    n = rng.randint(3, size)
    vertices = vertex_labels(n)
    if kind == "disconnected":
        return _disconnected(rng, vertices)
    if kind == "equal_weights":
        pairs = pairs_with_random_tree(rng, vertices, n + 1)
        weight = rng.randint(1, 9)
        return _graph(vertices, [[u, v, weight] for u, v in pairs])
    if kind == "already_tree":
        pairs = sorted(random_tree_pairs(rng, vertices))
        return _graph(vertices, [[u, v, rng.randint(1, 9)] for u, v in pairs])
    pairs = pairs_with_random_tree(rng, vertices, n + 1)
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
            pairs.extend(pairs_with_random_tree(rng, part, len(part)))
    edges = [[u, v, rng.randint(1, 9)] for u, v in sorted(pairs)]
    return _graph(vertices, edges)


class KruskalValidator(MSTValidator):
    """A minimum spanning tree (forest) in the form the Output Format asks: each edge with
    the smaller label first, listed in an order Kruskal's scan can accept them.

    :class:`MSTValidator` checks that each listed edge joins two components of the edges
    before it; this adds that weights never decrease, so the acceptance order is graded as
    a property: equal weights in any order, as ties in the scan allow.
    """

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        verdict = super().validate(actual, expected, case=case)
        if not verdict.is_valid:
            return verdict
        previous: Any = None
        for edge in pick(actual, "edges"):
            if isinstance(edge, str | bytes) or not isinstance(edge, Sequence) or len(edge) != 3:
                return ValidationResult(False, f"edge {edge!r:.60} is not [u, v, weight]")
            u, v, weight = edge
            if not (isinstance(u, str) and isinstance(v, str)) or label_order(u) >= label_order(v):
                return ValidationResult(
                    False, f"edge {list(edge)!r:.60}: write the smaller label first"
                )
            if previous is not None and weight < previous[2]:
                return ValidationResult(
                    False,
                    f"edge {list(edge)!r:.60} comes after {list(previous)!r:.60}: Kruskal "
                    "accepts edges in order of weight",
                )
            previous = edge
        return verdict


def _total(edges: Sequence[Sequence[Any]]) -> int:
    return sum(int(edge[2]) for edge in edges)


@drawing_first
def kruskal_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """A tree edge dropped or repeated, a tree edge swapped for a heavier non-tree edge that
    reconnects the tree (a spanning tree, not a minimum one), a total one off; an edge
    written larger label first; the edges listed heaviest first."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Every draw first (the alternatives draw after these), then the answers one at a
    # time: a run's calibration judges the first few and makes no more.
    tree: list[list[Any]] = case.expected["edges"]
    total: int = case.expected["total_weight"]
    off = rng.choice((-1, 1))
    changed = [*dropped_items(tree, rng), *duplicated_items(tree, rng)]
    index = rng.randrange(len(tree)) if tree else 0
    yield {"edges": tree, "total_weight": total + off}
    for edges in changed:
        yield {"edges": edges, "total_weight": _total(edges)}
    made = 1 + len(changed)
    if tree:
        u, v, w = tree[index]
        yield {"edges": [*tree[:index], [v, u, w], *tree[index + 1 :]], "total_weight": total}
        made += 1
    if len({edge[2] for edge in tree}) > 1:
        yield {"edges": tree[::-1], "total_weight": total}
        made += 1
    in_tree = {frozenset(edge[:2]) for edge in tree}
    for u, v, w in case.input["edges"]:
        if frozenset((u, v)) in in_tree or u == v:
            continue
        for index in range(len(tree)):
            if tree[index][2] >= w:
                continue
            swapped = [*tree[:index], [u, v, w], *tree[index + 1 :]]
            if _spans(swapped, tree):
                swapped = sorted(
                    ([*sorted(e[:2], key=label_order), e[2]] for e in swapped),
                    key=lambda e: e[2],
                )
                yield {"edges": swapped, "total_weight": _total(swapped)}
                made += 1
                break
        if made >= 8:
            break


def _spans(edges: Sequence[Sequence[Any]], tree: Sequence[Sequence[Any]]) -> bool:
    """Whether ``edges`` joins exactly the vertex groups ``tree`` joins, with no cycle."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    def groups() -> set[frozenset[str]]:
        # Each vertex's root once: comparing every pair of vertices was quadratic, and a
        # stress-size tree's mutants ask this of hundreds of swaps.
        members: dict[str, set[str]] = {}
        for x in list(parent):
            members.setdefault(find(x), set()).add(x)
        return {frozenset(group) for group in members.values()}

    for u, v, _ in edges:
        root_u, root_v = find(u), find(v)
        if root_u == root_v:
            return False
        parent[root_u] = root_v
    joined = groups()
    parent.clear()
    for u, v, _ in tree:
        parent[find(u)] = find(v)
    return joined == groups()


def kruskal_alternatives(case: TestCase, rng: random.Random) -> Sequence[dict[str, Any]]:
    """The same tree with the edges of each weight in another order (ties in the scan)."""
    edges = [list(edge) for edge in case.expected["edges"]]
    rng.shuffle(edges)
    edges.sort(key=lambda edge: edge[2])  # stable: equal weights stay shuffled
    return distinct_answers(
        [{"edges": edges, "total_weight": case.expected["total_weight"]}], unlike=[case.expected]
    )


def _smaller_label_first(answer: Any) -> Any:
    return {
        **answer,
        "edges": [[*sorted(edge[:2], key=label_order), edge[2]] for edge in answer["edges"]],
    }


def _one_edge_flipped(answer: Any, rng: random.Random) -> Any:
    flippable = [i for i, edge in enumerate(answer["edges"]) if edge[0] != edge[1]]
    if not flippable:
        return None
    index = rng.choice(flippable)
    u, v, w = answer["edges"][index]
    return {**answer, "edges": [*answer["edges"][:index], [v, u, w], *answer["edges"][index + 1 :]]}


def _in_acceptance_order(answer: Any) -> Any:
    return {**answer, "edges": sorted(answer["edges"], key=lambda edge: edge[2])}


def _heaviest_first(answer: Any, rng: random.Random) -> Any:
    edges = answer["edges"]
    return {**answer, "edges": edges[::-1]} if len({e[2] for e in edges}) > 1 else None


KRUSKAL_FORM_RULES = (
    FormRule("write the smaller label first", _smaller_label_first, _one_edge_flipped),
    FormRule(
        "list the edges in the order you accepted them", _in_acceptance_order, _heaviest_first
    ),
)
"""A right tree written against these is a form breach (level 2), not a reasoning bug."""


SPEC = ScaffoldSpec(
    name="kruskal",
    category="greedy",
    title="Kruskal's minimum spanning tree",
    graded_conventions={
        "acceptance order": "in the order kruskal's algorithm accepts them: by weight",
        "forest": "one minimum spanning tree inside each connected component",
        "smaller label first": "a shorter label is the smaller",
    },
    description="minimum spanning tree (forest) of an undirected graph, union-find",
    reference=kruskal_mst,
    generator=generate_kruskal,
    answer_schema=KruskalAnswer,
    validator=with_form_rules(KruskalValidator(), *KRUSKAL_FORM_RULES),
    sizes={"simple": 4, "standard": 7, "edge": 5},
    size=SizeAxis(
        unit="vertices",
        measure=count_vertices,
        ranges={"simple": (3, 14), "standard": (4, 14), "edge": (1, 14)},
        stress=(15, 56),
    ),
    mutants=kruskal_mutants,
    alternatives=kruskal_alternatives,
    max_output_tokens=4096,
    # The graph scaffolds' rule (benchmarks/stress_budgets.py kruskal --cases 20): the flat
    # budget past the standard maximum's work, plus 1.5x the work each size adds. A careful
    # answer (the sorted list, a scan line per edge with the components after each merge)
    # is 1,007 tokens at 14, 7,276 at 56.
    output_budget=OutputBudget(per_unit=224, base=960),
    code_rules={
        "edges": (
            "each tree edge as `[u, v, weight]` with `u` before `v` in ascending label order "
            "(a shorter label first: `(len(u), u) < (len(v), v)`), listed "
            "in the order Kruskal accepts them: edges sorted by weight (equal weights in any "
            "order among themselves: the scaffold's by label is right, and so is any other), "
            "scanned once, an edge accepted when it joins two components; not sorted by label "
            "afterwards"
        ),
    },
    code_sizes=(14, 56, 300, 1000),
)
