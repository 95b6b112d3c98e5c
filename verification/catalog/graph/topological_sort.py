"""Topological sorting: the ``topological_sort`` scaffold (any valid order, or a cycle)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import (
    LazyHook,
    drawing_first,
    dropped_items,
    duplicated_items,
    each_distinct,
)
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.graph import (
    MAX_ATTEMPTS,
    MaskedPairs,
    Pair,
    count_vertices,
    random_tree_pairs,
    vertex_labels,
)
from verification.reference._inputs import label_order
from verification.reference.graph import topological_sort
from verification.validators.base import ValidationResult, Validator, pick, repeated
from verification.validators.exact_match import compared_with_expected
from verification.validators.form import FormRule, with_form_rules

__all__ = [
    "CYCLE_NOT_CLOSED",
    "SPEC",
    "TOPOLOGICAL_EDGE_KINDS",
    "TopologicalSortAnswer",
    "TopologicalSortValidator",
    "generate_topological_sort",
]

TOPOLOGICAL_EDGE_KINDS = (
    "empty",
    "single",
    "no_edges",
    "self_loop",
    "two_cycle",
    "chain",
    "disconnected",
    "repeated_edges",
)
"""The degenerate instances the edge tier draws from."""


class TopologicalSortAnswer(AnswerSchema):
    """``{"order": ["B", "A"], "has_cycle": false, "cycle": null}`` or
    ``{"order": null, "has_cycle": true, "cycle": ["A", "B"]}``."""

    order: list[str] | None
    """Every vertex once, each edge's tail before its head; ``null`` when there is a cycle."""
    has_cycle: bool
    """Whether the graph has a directed cycle (then no topological order exists)."""
    cycle: list[str] | None
    """A directed cycle ``v1 -> v2 -> ... -> vk -> v1`` when there is one, else ``null``."""


def generate_topological_sort(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``topological_sort`` input: ``vertices`` and directed ``edges`` ``[u, v]``.

    - ``simple``: ``size`` vertices, acyclic and weakly connected, about one edge per
      vertex; alphabetical order is not a topological order.
    - ``standard``: ``size`` vertices, weakly connected, about 1.5 edges per vertex, labels
      unrelated to the order. Three in four are acyclic with several valid orders (no
      single chain) and alphabetical order invalid; one in four has directed cycles of
      three or more vertices downstream of acyclic ones, so Kahn's algorithm places some
      vertices before it stalls.
    - ``edge``: at most ``size`` vertices, one of :data:`TOPOLOGICAL_EDGE_KINDS` (``empty``
      has no vertex at all; ``no_edges`` accepts every order; ``self_loop`` and
      ``two_cycle`` have one- and two-vertex cycles; ``chain`` has exactly one order).
    """
    if tier == "simple":
        labels = vertex_labels(size, least=3)
        return _acyclic(rng, labels, len(labels) - 1 + rng.randint(0, 1), several=False)
    if tier == "standard":
        labels = vertex_labels(size, least=5)
        if rng.random() < 0.25:
            return _cyclic(rng, labels)
        return _acyclic(rng, labels, len(labels) * 3 // 2, several=True)
    return _edge(rng, vertex_labels(size, least=3))


def _input(rng: random.Random, labels: list[str], pairs: Sequence[Pair]) -> dict[str, Any]:
    edges = [[u, v] for u, v in pairs]
    rng.shuffle(edges)
    return {"vertices": labels, "edges": edges}


def _dag_pairs(rng: random.Random, ranked: list[str], count: int) -> list[Pair]:
    """A weakly connected DAG whose edges all point forward in ``ranked``: a random
    spanning tree (grown in an order of its own, so several vertices may have no incoming
    edge) plus forward edges."""
    rank = {v: i for i, v in enumerate(ranked)}
    pairs: set[Pair] = set()
    for u, v in random_tree_pairs(rng, ranked):
        pairs.add((u, v) if rank[u] < rank[v] else (v, u))
    # Every forward pair (i before j in ``ranked``) that is no tree pair either way round.
    masks = [((1 << len(ranked)) - 1) & ~((2 << i) - 1) for i in range(len(ranked))]
    for u, v in pairs:
        low, high = sorted((rank[u], rank[v]))
        masks[low] &= ~(1 << high)
    free = MaskedPairs(ranked, masks)
    pairs.update(rng.sample(free, min(len(free), max(0, count - len(pairs)))))
    return sorted(pairs, key=lambda p: (rank[p[0]], rank[p[1]]))


def _respects(order: Sequence[str], pairs: Sequence[Pair]) -> bool:
    position = {v: i for i, v in enumerate(order)}
    return all(position[u] < position[v] for u, v in pairs)


def _acyclic(rng: random.Random, labels: list[str], count: int, *, several: bool) -> dict[str, Any]:
    for _ in range(MAX_ATTEMPTS):
        ranked = labels[:]
        rng.shuffle(ranked)
        pairs = _dag_pairs(rng, ranked, count)
        if _respects(labels, pairs):
            continue
        # Several right answers: some consecutive pair of the order has no edge between.
        if several and all((ranked[i], ranked[i + 1]) in pairs for i in range(len(ranked) - 1)):
            continue
        return _input(rng, labels, pairs)
    raise RuntimeError(f"no acyclic topological_sort graph on {len(labels)} vertices")


def _cyclic(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    """A DAG plus one back edge that closes a cycle of three or more vertices, none of
    them among the first ranked (which Kahn's algorithm can place)."""
    for _ in range(MAX_ATTEMPTS):
        ranked = labels[:]
        rng.shuffle(ranked)
        pairs = _dag_pairs(rng, ranked, len(labels) * 3 // 2)
        far, rank = _reached_in_two(ranked, pairs), {v: i for i, v in enumerate(ranked)}
        # Back edges j -> i, i >= 1 and j >= i + 2, where a path of two or more edges leads
        # from i to j and no direct edge does (every cycle closed has 3+ vertices).
        masks = [0] + [far[i] & ~((4 << i) - 1) for i in range(1, len(ranked))]
        for u, v in pairs:
            masks[rank[u]] &= ~(1 << rank[v])
        closing = MaskedPairs(ranked, masks, flip=True)
        if closing:
            return _input(rng, labels, [*pairs, rng.choice(closing)])
    raise RuntimeError(f"no cyclic topological_sort graph on {len(labels)} vertices")


def _reached_in_two(ranked: Sequence[str], pairs: Sequence[Pair]) -> list[int]:
    """Per rank ``i``, the ranks a path of two or more edges leads to from ``ranked[i]``,
    as the bits of an int: what :func:`_path_exists` (``least=2``) says of every pair at
    once, in time linear in the edges times the vertices' words (a search per pair made
    code mode's 1,000-vertex draws take minutes). Every edge points forward in ``ranked``."""
    rank = {v: i for i, v in enumerate(ranked)}
    out: list[list[int]] = [[] for _ in ranked]
    for u, v in pairs:
        out[rank[u]].append(rank[v])
    below = [0] * len(ranked)  # ranks one or more edges lead to
    for i in reversed(range(len(ranked))):
        for j in out[i]:
            below[i] |= (1 << j) | below[j]
    far = [0] * len(ranked)
    for i in range(len(ranked)):
        for j in out[i]:
            far[i] |= below[j]
    return far


def _path_exists(pairs: Sequence[Pair], start: str, end: str, *, least: int) -> bool:
    """Whether a directed path of at least ``least`` edges leads from ``start`` to ``end``
    (a DAG's paths are finite, so a plain search over (vertex, length) states ends)."""
    out: dict[str, list[str]] = {}
    for u, v in pairs:
        out.setdefault(u, []).append(v)
    frontier = {(start, 0)}
    while frontier:
        if any(v == end and length >= least for v, length in frontier):
            return True
        frontier = {(w, min(length + 1, least)) for v, length in frontier for w in out.get(v, [])}
    return False


def _edge(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    kind = rng.choice(TOPOLOGICAL_EDGE_KINDS)
    if kind == "empty":
        return {"vertices": [], "edges": []}
    if kind == "single":
        return {"vertices": [rng.choice(labels)], "edges": []}
    if kind == "no_edges":
        return {"vertices": labels, "edges": []}
    if kind == "self_loop":
        pairs = _dag_pairs(rng, rng.sample(labels, len(labels)), len(labels))
        loop = rng.choice(labels)
        return _input(rng, labels, [*pairs, (loop, loop)])
    if kind == "two_cycle":
        ranked = rng.sample(labels, len(labels))
        pairs = _dag_pairs(rng, ranked, len(labels))
        u, v = rng.choice(pairs)
        return _input(rng, labels, [*pairs, (v, u)])
    if kind == "chain":
        ranked = rng.sample(labels, len(labels))
        pairs = [(ranked[i], ranked[i + 1]) for i in range(len(ranked) - 1)]
        pairs += [(ranked[0], ranked[-1])] if len(ranked) > 2 else []
        return _input(rng, labels, pairs)
    if kind == "disconnected":
        ranked = rng.sample(labels, len(labels))
        cut = rng.randint(1, len(ranked) - 1)
        pairs = _dag_pairs(rng, ranked[:cut], cut) if cut > 1 else []
        tail = ranked[cut:-1] if len(ranked) - cut > 2 else ranked[cut:]
        pairs += _dag_pairs(rng, tail, len(tail)) if len(tail) > 1 else []
        return _input(rng, labels, pairs)
    ranked = rng.sample(labels, len(labels))
    pairs = _dag_pairs(rng, ranked, len(labels))
    return _input(rng, labels, [*pairs, *rng.sample(pairs, min(2, len(pairs)))])


def _edge_set(test_input: Mapping[str, Any]) -> set[Pair]:
    return {(str(e[0]), str(e[1])) for e in test_input["edges"]}


class TopologicalSortValidator(Validator):
    """Any topological order, or any directed cycle: properties checked against the input.

    With ``case``: ``has_cycle`` must be the truth (``expected["has_cycle"]``). Without a
    cycle, ``order`` holds every vertex exactly once with each edge's tail before its head,
    and ``cycle`` is null. With one, ``order`` is null and ``cycle`` lists distinct vertices
    ``v1 .. vk`` with every edge ``v1 -> v2``, ..., ``vk -> v1`` in the input (``[v]`` for a
    self loop). Without ``case``: equality with ``expected``.
    """

    kind = "topological_order"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        if case is None:
            return compared_with_expected(actual, expected)
        has_cycle, truth = pick(actual, "has_cycle"), pick(expected, "has_cycle")
        if not isinstance(has_cycle, bool):
            return ValidationResult(False, f"has_cycle must be true or false, got {has_cycle!r}")
        if has_cycle != truth:
            return ValidationResult(
                False,
                "has_cycle is true, but the graph is acyclic"
                if has_cycle
                else "has_cycle is false, but the graph has a directed cycle",
            )
        if has_cycle:
            return self._check_cycle(pick(actual, "order"), pick(actual, "cycle"), case.input)
        return self._check_order(pick(actual, "order"), pick(actual, "cycle"), case.input)

    def _check_order(self, order: Any, cycle: Any, graph: Mapping[str, Any]) -> ValidationResult:
        if cycle is not None:
            return ValidationResult(False, "cycle must be null when has_cycle is false")
        if not isinstance(order, list) or not all(isinstance(v, str) for v in order):
            return ValidationResult(False, "order must be a list of vertex labels")
        vertices = list(graph["vertices"])
        if sorted(order) != sorted(vertices):
            missing = sorted(set(vertices) - set(order))
            unknown = sorted(set(order) - set(vertices))
            twice = repeated(order)
            return ValidationResult(
                False,
                f"order must hold every vertex exactly once: missing {missing[:5]}, "
                f"unknown {unknown[:5]}, repeated {twice[:5]}",
            )
        position = {v: i for i, v in enumerate(order)}
        for u, v in sorted(_edge_set(graph)):
            if position[u] > position[v]:
                return ValidationResult(
                    False, f"edge {u} -> {v}: {v} comes before {u} in order", {"edge": [u, v]}
                )
        return ValidationResult(True, f"a topological order of {len(order)} vertices")

    def _check_cycle(self, order: Any, cycle: Any, graph: Mapping[str, Any]) -> ValidationResult:
        if order is not None:
            return ValidationResult(False, "order must be null when has_cycle is true")
        if not isinstance(cycle, list) or not cycle or not all(isinstance(v, str) for v in cycle):
            return ValidationResult(False, "cycle must be a non-empty list of vertex labels")
        if len(set(cycle)) != len(cycle):
            return ValidationResult(
                False, "cycle must not repeat a vertex (the first is not written again at the end)"
            )
        edges = _edge_set(graph)
        for index, u in enumerate(cycle):
            v = cycle[(index + 1) % len(cycle)]
            if (u, v) not in edges:
                return ValidationResult(
                    False, f"cycle uses {u!r} -> {v!r}, which is not an edge", {"edge": [u, v]}
                )
        return ValidationResult(
            True, f"a directed cycle of {len(cycle)} vertex" + ("" if len(cycle) == 1 else "es")
        )


def _kahn(vertices: Sequence[str], pairs: set[Pair], rng: random.Random | None) -> list[str]:
    """Kahn's algorithm, taking a random free vertex (or the smallest without ``rng``);
    stops when none is free, so on a cyclic graph it returns the placeable vertices."""
    waiting = {v: 0 for v in vertices}
    for _, v in pairs:
        waiting[v] += 1
    free = sorted((v for v in vertices if waiting[v] == 0), key=label_order)
    order: list[str] = []
    while free:
        u = free.pop(rng.randrange(len(free))) if rng is not None else free.pop(0)
        order.append(u)
        for a, b in sorted(pairs):
            if a == u:
                waiting[b] -= 1
                if waiting[b] == 0:
                    free.append(b)
        free.sort(key=label_order)
    return order


def _some_cycle(remaining: set[str], pairs: set[Pair], rng: random.Random) -> list[str]:
    """A directed cycle among the vertices Kahn's algorithm could not place: walk back
    from a random one along random predecessors until a vertex repeats."""
    walk = [rng.choice(sorted(remaining))]
    while True:
        back = rng.choice(sorted(u for u, v in pairs if v == walk[-1] and u in remaining))
        if back in walk:
            return walk[walk.index(back) :][::-1]
        walk.append(back)


@LazyHook.capped(6)
def topological_sort_alternatives(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Other topological orders (Kahn's algorithm with random choices), or other directed
    cycles and rotations of the expected one."""
    return each_distinct(_right(case, rng), unlike=[case.expected])


def _right(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more. (At
    # most 4 orders: the cut at 6 keeps the cycles' rotations in check.)
    pairs = _edge_set(case.input)
    vertices = list(case.input["vertices"])
    if not case.expected["has_cycle"]:
        for _ in range(4):
            yield {"order": _kahn(vertices, pairs, rng), "has_cycle": False, "cycle": None}
        return
    cycle: list[str] = case.expected["cycle"]
    for shift in range(1, len(cycle)):
        yield {"order": None, "has_cycle": True, "cycle": cycle[shift:] + cycle[:shift]}
    remaining = set(vertices) - set(_kahn(vertices, pairs, None))
    for _ in range(3):
        yield {"order": None, "has_cycle": True, "cycle": _some_cycle(remaining, pairs, rng)}


@drawing_first
def topological_sort_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Acyclic: an edge's ends swapped in the order, a vertex dropped or repeated, the
    order reversed or sorted by label where that breaks an edge, a made-up cycle, the
    flags contradicting the lists. Cyclic: "no cycle" with an order of every vertex, a
    cycle with a vertex dropped or repeated or run backwards (where those edges are
    missing), an order given as well."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Every draw first (the alternatives draw after these), then the answers one at a
    # time: a run's calibration judges the first few and makes no more.
    pairs = _edge_set(case.input)
    vertices: list[str] = list(case.input["vertices"])
    if not case.expected["has_cycle"]:
        order: list[str] = case.expected["order"]
        position = {v: i for i, v in enumerate(order)}
        swaps = rng.sample(sorted(pairs), min(3, len(pairs)))
        changed = [*dropped_items(order, rng), *duplicated_items(order, rng)]
        for u, v in swaps:
            swapped = list(order)
            swapped[position[u]], swapped[position[v]] = v, u
            yield {"order": swapped, "has_cycle": False, "cycle": None}
        for made in changed:
            yield {"order": made, "has_cycle": False, "cycle": None}
        for made in (order[::-1], sorted(order)):
            if not _respects(made, sorted(pairs)):
                yield {"order": made, "has_cycle": False, "cycle": None}
        for u, v in sorted(pairs)[:1]:
            # Acyclic, so v -> u is no edge: a made-up two-vertex cycle.
            yield {"order": None, "has_cycle": True, "cycle": [u, v]}
        yield {"order": None, "has_cycle": True, "cycle": None}
        yield {"order": order, "has_cycle": True, "cycle": None}
        return
    cycle: list[str] = case.expected["cycle"]
    placed = _kahn(vertices, pairs, None)
    forced = placed + sorted(set(vertices) - set(placed))
    yield {"order": forced, "has_cycle": False, "cycle": None}
    yield {"order": None, "has_cycle": False, "cycle": cycle}
    yield {"order": forced, "has_cycle": True, "cycle": cycle}
    yield {"order": None, "has_cycle": True, "cycle": [*cycle, cycle[0]]}
    if len(cycle) > 2:
        for index in range(len(cycle)):
            before, after = cycle[index - 1], cycle[(index + 1) % len(cycle)]
            if (before, after) not in pairs:
                shorter = cycle[:index] + cycle[index + 1 :]
                yield {"order": None, "has_cycle": True, "cycle": shorter}
                break
        backwards = cycle[::-1]
        if any(
            (backwards[i], backwards[(i + 1) % len(cycle)]) not in pairs for i in range(len(cycle))
        ):
            yield {"order": None, "has_cycle": True, "cycle": backwards}


def _cycle_not_closed(answer: Any) -> Any:
    cycle = answer.get("cycle")
    if isinstance(cycle, list) and len(cycle) > 1 and cycle[0] == cycle[-1]:
        return {**answer, "cycle": cycle[:-1]}
    return answer


def _cycle_closed(answer: Any, rng: random.Random) -> Any:
    cycle = answer.get("cycle")
    return {**answer, "cycle": [*cycle, cycle[0]]} if cycle else None


CYCLE_NOT_CLOSED = FormRule(
    "the first vertex NOT written again at the end", _cycle_not_closed, _cycle_closed
)
"""A right cycle written closed (``[A, B, A]``) is a form breach (level 2)."""


SPEC = ScaffoldSpec(
    name="topological_sort",
    category="graph",
    title="Topological sort",
    description="any order respecting every directed edge, or a directed cycle (Kahn)",
    graded_conventions={
        "any order": "any order that puts each edge's tail before its head is right",
        "any cycle": "so is any directed cycle of the graph",
        "a self loop": "a self loop [v, v] is the cycle [v]",
    },
    reference=topological_sort,
    generator=generate_topological_sort,
    answer_schema=TopologicalSortAnswer,
    validator=with_form_rules(TopologicalSortValidator(), CYCLE_NOT_CLOSED),
    sizes={"simple": 5, "standard": 8, "edge": 5},
    size=SizeAxis(
        unit="vertices",
        measure=count_vertices,
        ranges={"simple": (3, 16), "standard": (5, 16), "edge": (3, 16)},
        stress=(17, 64),
    ),
    mutants=topological_sort_mutants,
    alternatives=topological_sort_alternatives,
    max_output_tokens=6144,
    # The graph scaffolds' rule (benchmarks/stress_budgets.py topological_sort --cases 20):
    # the flat budget past the standard maximum's work, plus 1.5x the work each size adds.
    # A careful answer (the in-degree table, a Place line with the free list and the order
    # so far per vertex) is 550 tokens at 16, 4,384 at 64.
    output_budget=OutputBudget(per_unit=120, base=4224),
    code_rules={
        "cycle": (
            "`None` without a cycle; else the cycle's distinct vertices `[v1, ..., vk]` "
            "with edges `v1->v2`, ..., `vk->v1`, the first vertex not repeated at the end "
            "(a self loop is `[v]`)"
        ),
    },
    code_sizes=(50, 100, 300, 1000),
)
