"""A* search: the ``astar`` scaffold (any least-cost path to the goal, or none)."""

from __future__ import annotations

import heapq
import itertools
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Annotated, Any

from pydantic import Field

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, drawing_nothing, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.graph import (
    MAX_ATTEMPTS,
    Pair,
    connected_pairs,
    count_vertices,
    cut_off_pairs,
    hop_counts,
    source_input,
    split_unreachable,
    tree_path_indices,
    vertex_labels,
)
from verification.reference.graph import astar
from verification.validators.base import ValidationResult, Validator, pick
from verification.validators.exact_match import compared_with_expected

__all__ = [
    "ASTAR_EDGE_KINDS",
    "SPEC",
    "AstarAnswer",
    "AstarPathValidator",
    "generate_astar",
    "greedy_best_first_path",
]

ASTAR_EDGE_KINDS = (
    "source_is_goal",
    "unreachable",
    "misleading",
    "ties",
    "zero_weight",
    "zero_heuristic",
    "exact_heuristic",
)
"""The degenerate instances the edge tier draws from."""

Arcs = dict[str, dict[str, int]]


class AstarAnswer(AnswerSchema):
    """``{"path": ["S", "B", "G"], "cost": 6}`` or ``{"path": null, "cost": null}``."""

    path: list[str] | None
    """A least-cost path ``[source, ..., goal]``, no vertex twice; ``null`` when none exists."""
    cost: Annotated[int, Field(ge=0)] | None
    """The path's total weight; ``null`` when the goal cannot be reached."""


def generate_astar(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``astar`` input: ``vertices``, ``edges`` ``[u, v, w]``, ``directed``, ``source``,
    ``goal`` and a consistent ``heuristic`` table (one non-negative integer per vertex).

    The heuristic is the true distance to the goal in a copy of the graph whose weights
    are randomly lowered, so it is consistent (and admissible) by construction and varies
    from vertex to vertex like a real estimate.

    - ``simple``: ``size`` vertices, connected and undirected, weights 1..9, the goal two
      or more hops from the source, exactly one least-cost path.
    - ``standard``: ``size`` vertices, every one reachable from the source, weights 1..20,
      directed in about one case in three; the goal three or more hops away, exactly one
      least-cost path of three or more edges, and a heuristic that misleads a greedy search
      (expanding by ``h`` alone reaches the goal by a dearer path).
    - ``edge``: at most ``size`` vertices, one of :data:`ASTAR_EDGE_KINDS`: the source is
      the goal; the goal is unreachable; ``misleading``: a detour whose estimates are all 0
      (greedy search follows it, A* must not); ``ties``: two or more least-cost paths;
      zero-weight edges on the way; an all-zero heuristic (A* is then Dijkstra); the exact
      distance as heuristic.
    """
    if tier == "simple":
        return _connected(rng, vertex_labels(size, least=4), tier)
    if tier == "standard":
        return _connected(rng, vertex_labels(size, least=6), tier)
    return _edge(rng, vertex_labels(size, least=4))


def _connected(rng: random.Random, labels: list[str], tier: Tier) -> dict[str, Any]:
    standard = tier == "standard"
    for _ in range(MAX_ATTEMPTS):
        directed = standard and rng.random() < 0.35
        source = rng.choice(labels)
        pairs = connected_pairs(rng, labels, source, len(labels) // 2 - (0 if standard else 1))
        hops = hop_counts(labels, pairs, source, directed)
        far = [v for v in labels if hops[v] is not None and hops[v] >= (3 if standard else 2)]
        if not far:
            continue
        goal = rng.choice(far)
        weights = [rng.randint(1, 20 if standard else 9) for _ in pairs]
        heuristic = lowered_heuristic(rng, labels, pairs, weights, goal, directed)
        test_input = _input(rng, labels, pairs, weights, directed, source, goal, heuristic)
        arcs = arc_weights(test_input)
        paths = optimal_paths(arcs, source, goal, limit=2)
        if len(paths) != 1 or (standard and len(paths[0]) < 4):
            continue
        if standard:
            greedy = greedy_best_first_path(arcs, heuristic, source, goal)
            if greedy is None or path_cost(arcs, greedy) == path_cost(arcs, paths[0]):
                continue
        return test_input
    raise RuntimeError(f"no {tier} astar graph on {len(labels)} vertices")


def _input(
    rng: random.Random,
    labels: list[str],
    pairs: list[Pair],
    weights: list[int],
    directed: bool,
    source: str,
    goal: str,
    heuristic: Mapping[str, int],
) -> dict[str, Any]:
    return {
        **source_input(rng, labels, pairs, source, directed, weights),
        "goal": goal,
        "heuristic": {v: heuristic[v] for v in labels},
    }


def lowered_heuristic(
    rng: random.Random,
    labels: list[str],
    pairs: list[Pair],
    weights: list[int],
    goal: str,
    directed: bool,
    *,
    lowered: Sequence[int] | None = None,
) -> dict[str, int]:
    """The distance to ``goal`` when every weight ``w`` is lowered to a random ``0..w``
    (or to ``lowered``): consistent, since ``h(u) <= w' + h(v) <= w + h(v)`` on every arc.

    A vertex no path takes to the goal gets one value above all others: a constant is
    consistent among such vertices, and no arc leads from them to the others.
    """
    if lowered is None:
        floor = rng.choice((0.3, 0.5, 0.7))
        lowered = [rng.randint(math.ceil(w * floor), w) for w in weights]
    to_goal: Arcs = {v: {} for v in labels}
    for (u, v), w in zip(pairs, lowered, strict=True):
        for a, b in ((u, v), (v, u)) if not directed else ((u, v),):
            # Distances *to* the goal: search from it along arcs read backwards.
            to_goal[b][a] = min(w, to_goal[b].get(a, w))
    distances, _ = shortest_paths(to_goal, goal)
    top = max(distances.values()) + 1
    return {v: distances.get(v, top) for v in labels}


def _edge(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    kind = rng.choice(ASTAR_EDGE_KINDS)
    if kind == "misleading":
        return _misleading(rng, labels)
    if kind == "ties":
        return _tied(rng, labels)
    directed = rng.random() < 0.5
    source = rng.choice(labels)
    if kind == "unreachable":
        near, far = split_unreachable(rng, labels, source)
        pairs = cut_off_pairs(rng, near, far, source, directed)
        goal = rng.choice(far)
    else:
        pairs = connected_pairs(rng, labels, source, rng.randint(1, 3))
        hops = hop_counts(labels, pairs, source, directed)
        goal = source if kind == "source_is_goal" else max(labels, key=lambda v: hops[v])
    weights = [rng.randint(1, 9) for _ in pairs]
    lowered = None
    if kind == "zero_weight":
        tree_path = tree_path_indices(pairs, source, goal)
        for index in rng.sample(tree_path, min(2, len(tree_path))):
            weights[index] = 0
        for index in rng.sample(range(len(pairs)), 1):
            weights[index] = 0
    if kind == "zero_heuristic":
        lowered = [0] * len(pairs)
    if kind == "exact_heuristic":
        lowered = weights
    heuristic = lowered_heuristic(rng, labels, pairs, weights, goal, directed, lowered=lowered)
    return _input(rng, labels, pairs, weights, directed, source, goal, heuristic)


def _misleading(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    """A cheap route and a dear detour from source to goal; the detour's weights are
    lowered to 0 in the heuristic, so every detour vertex estimates 0 (greedy search by
    ``h`` takes it) while the cheap route's vertices estimate their true distance."""
    order = rng.sample(labels, len(labels))
    source, goal, *middle = order
    cut = rng.randint(1, len(middle) - 1) if len(middle) > 1 else 1
    cheap, detour = middle[:cut], middle[cut:]
    cheap_route = [source, *cheap, goal]
    pairs = list(itertools.pairwise(cheap_route))
    weights = [rng.randint(1, 4) for _ in pairs]
    cheap_cost = sum(weights)
    detour_route = [source, *detour[:3], goal]
    detour_pairs = list(itertools.pairwise(detour_route))
    each = cheap_cost // len(detour_pairs) + rng.randint(2, 5)
    lowered = [*weights, *([0] * len(detour_pairs))]
    pairs += detour_pairs
    weights += [each] * len(detour_pairs)
    for v in detour[3:]:
        pairs.append((rng.choice(detour_route[1:-1]), v))
        weights.append(rng.randint(1, 9))
        lowered.append(weights[-1])
    directed = rng.random() < 0.5
    heuristic = lowered_heuristic(rng, labels, pairs, weights, goal, directed, lowered=lowered)
    return _input(rng, labels, pairs, weights, directed, source, goal, heuristic)


def _tied(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    """A diamond ``s-x-t``, ``s-y-t`` of equal lengths ending at the goal ``t``; more
    vertices hang off it."""
    s, x, y, t, *tail = rng.sample(labels, len(labels))
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    c = rng.randint(1, a + b - 1)
    pairs = [(s, x), (x, t), (s, y), (y, t)]
    weights = [a, b, c, a + b - c]
    for v in tail:
        pairs.append((rng.choice([s, x, y, t]), v))
        weights.append(rng.randint(1, 6))
    directed = rng.random() < 0.5
    heuristic = lowered_heuristic(rng, labels, pairs, weights, t, directed)
    return _input(rng, labels, pairs, weights, directed, s, t, heuristic)


def arc_weights(test_input: Mapping[str, Any]) -> Arcs:
    """The lightest weight of each arc ``u -> v`` of an input (both ways if undirected)."""
    arcs: Arcs = {v: {} for v in test_input["vertices"]}
    for u, v, weight in test_input["edges"]:
        for a, b in ((u, v), (v, u)) if not test_input["directed"] else ((u, v),):
            arcs[a][b] = min(weight, arcs[a].get(b, weight))
    return arcs


def path_cost(arcs: Arcs, path: Sequence[str]) -> int | None:
    """The total weight of ``path`` along its lightest arcs; None if some arc is missing."""
    total = 0
    for u, v in itertools.pairwise(path):
        if v not in arcs.get(u, {}):
            return None
        total += arcs[u][v]
    return total


def shortest_paths(arcs: Arcs, source: str) -> tuple[dict[str, int], dict[str, str]]:
    """Dijkstra: the distance of every vertex ``source`` reaches, and a parent of each."""
    best, parent = {source: 0}, {}
    done: set[str] = set()
    heap = [(0, source)]
    while heap:
        distance, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        for v, weight in arcs[u].items():
            if v not in done and distance + weight < best.get(v, distance + weight + 1):
                best[v], parent[v] = distance + weight, u
                heapq.heappush(heap, (distance + weight, v))
    return best, parent


def optimal_paths(arcs: Arcs, source: str, goal: str, limit: int) -> list[list[str]]:
    """Up to ``limit`` least-cost paths with no vertex twice, in label order of choices:
    a depth-first walk along the tight arcs (``d(u) + w == d(v)``)."""
    distance, _ = shortest_paths(arcs, source)
    if goal not in distance:
        return []
    found: list[list[str]] = []
    stack = [[source]]
    while stack and len(found) < limit:
        path = stack.pop()
        u = path[-1]
        if u == goal:
            found.append(path)
            continue
        for v in sorted(arcs[u], reverse=True):
            tight = v in distance and distance[u] + arcs[u][v] == distance[v]
            if tight and v not in path and _reaches(arcs, v, goal, distance):
                stack.append([*path, v])
    return found


def _reaches(arcs: Arcs, start: str, goal: str, distance: Mapping[str, int]) -> bool:
    """Whether tight arcs lead from ``start`` to ``goal``."""
    seen, todo = {start}, [start]
    while todo:
        u = todo.pop()
        if u == goal:
            return True
        for v, weight in arcs[u].items():
            if v not in seen and v in distance and distance[u] + weight == distance[v]:
                seen.add(v)
                todo.append(v)
    return False


def greedy_best_first_path(
    arcs: Arcs, heuristic: Mapping[str, int], source: str, goal: str
) -> list[str] | None:
    """Greedy best-first search: expand the open vertex of least ``h`` (then label), a
    vertex's parent fixed when first seen; the path it finds, or None."""
    parent: dict[str, str] = {}
    seen = {source}
    heap = [(heuristic[source], source)]
    while heap:
        _, u = heapq.heappop(heap)
        if u == goal:
            path = [goal]
            while path[-1] != source:
                path.append(parent[path[-1]])
            return path[::-1]
        for v in arcs[u]:
            if v not in seen:
                seen.add(v)
                parent[v] = u
                heapq.heappush(heap, (heuristic[v], v))
    return None


class AstarPathValidator(Validator):
    """Any least-cost path, or ``null`` for an unreachable goal: properties checked against
    the input.

    With ``case``: when the goal is unreachable (``expected["cost"]`` is null), ``path``
    and ``cost`` must both be null. Otherwise ``cost`` must equal the least cost
    (``expected["cost"]``) and ``path`` must start at the source, end at the goal, repeat
    no vertex, use only arcs of the graph (respecting ``directed``) and weigh ``cost``.
    Without ``case``: equality with ``expected``.
    """

    kind = "astar_path"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        if case is None:
            return compared_with_expected(actual, expected)
        path, cost, least = pick(actual, "path"), pick(actual, "cost"), pick(expected, "cost")
        source, goal = case.input["source"], case.input["goal"]
        if least is None:
            if path is not None or cost is not None:
                return ValidationResult(
                    False, f"no path leads from {source} to {goal}: path and cost must be null"
                )
            return ValidationResult(True, f"{goal} is unreachable from {source}")
        if path is None or cost is None:
            return ValidationResult(
                False, f"{goal} is reachable from {source} (least cost {least}), not null"
            )
        if isinstance(cost, bool) or not isinstance(cost, int) or cost != least:
            return ValidationResult(False, f"cost {cost!r} is not the least cost {least}")
        if not isinstance(path, list) or not path or not all(isinstance(v, str) for v in path):
            return ValidationResult(False, "path must be a non-empty list of vertex labels")
        if path[0] != source or path[-1] != goal:
            return ValidationResult(
                False, f"path must run from {source} to {goal}, got {path[0]!r} ... {path[-1]!r}"
            )
        if len(set(path)) != len(path):
            return ValidationResult(False, "path visits a vertex twice")
        arcs = arc_weights(case.input)
        for u, v in itertools.pairwise(path):
            if v not in arcs.get(u, {}):
                return ValidationResult(
                    False, f"path uses {u!r} -> {v!r}, which is not an edge", {"edge": [u, v]}
                )
        weight = path_cost(arcs, path)
        if weight != cost:
            return ValidationResult(False, f"the path weighs {weight}, not the cost {cost}")
        return ValidationResult(True, f"a least-cost path of {len(path) - 1} edges, cost {cost}")


@LazyHook
def astar_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """A cost one off, "no path" for a reachable goal, the greedy best-first path (dearer),
    a path through another vertex (dearer), a vertex dropped or repeated, the path reversed
    or stopped short; for an unreachable goal, a made-up path."""
    test_input = case.input
    source, goal, cost = test_input["source"], test_input["goal"], case.expected["cost"]
    arcs = arc_weights(test_input)
    return (
        answer
        for answer in each_distinct(_wrong(case, rng, arcs), unlike=[case.expected])
        if cost is None or not _is_right(answer, arcs, source, goal, cost)
    )


def _wrong(case: TestCase, rng: random.Random, arcs: Arcs) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    test_input = case.input
    source, goal = test_input["source"], test_input["goal"]
    path, cost = case.expected["path"], case.expected["cost"]
    if cost is None:
        yield {"path": [source, goal], "cost": rng.randint(1, 9)}
        yield {"path": None, "cost": 0}
        yield {"path": [source], "cost": None}
        return
    yield {"path": path, "cost": cost + 1}
    yield {"path": None, "cost": None}
    if cost > 0:
        yield {"path": path, "cost": cost - 1}
    greedy = greedy_best_first_path(arcs, test_input["heuristic"], source, goal)
    candidates: list[list[str] | None] = [greedy]
    via = [v for v in test_input["vertices"] if v not in path]
    for v in rng.sample(via, min(3, len(via))):
        candidates.append(_path_via(arcs, source, v, goal))
    if len(path) > 2:
        drop = rng.randrange(1, len(path) - 1)
        candidates.append(path[:drop] + path[drop + 1 :])
    candidates += [path[:-1], [*path, path[-1]], path[::-1]]
    for candidate in candidates:
        if candidate:
            weight = path_cost(arcs, candidate)
            yield {"path": candidate, "cost": weight if weight is not None else cost}


def _path_via(arcs: Arcs, source: str, via: str, goal: str) -> list[str] | None:
    """A shortest path from ``source`` through ``via`` to ``goal`` with no vertex twice."""
    first, second = optimal_paths(arcs, source, via, 1), optimal_paths(arcs, via, goal, 1)
    if not first or not second:
        return None
    path = first[0] + second[0][1:]
    return path if len(set(path)) == len(path) else None


def _is_right(answer: Mapping[str, Any], arcs: Arcs, source: str, goal: str, cost: int) -> bool:
    """Whether a made-up answer happens to be right (a mutant must not be)."""
    path = answer["path"]
    if path is None or answer["cost"] != cost or len(set(path)) != len(path):
        return False
    return path[0] == source and path[-1] == goal and path_cost(arcs, path) == cost


@drawing_nothing
def astar_alternatives(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Other least-cost paths, where there are several."""
    cost = case.expected["cost"]
    if cost is None:
        return iter(())
    arcs = arc_weights(case.input)
    paths = optimal_paths(arcs, case.input["source"], case.input["goal"], limit=8)
    right = [{"path": path, "cost": cost} for path in paths]
    return itertools.islice(each_distinct(right, unlike=[case.expected]), 6)


SPEC = ScaffoldSpec(
    name="astar",
    category="graph",
    title="A* search",
    graded_conventions={
        "any cheapest path": "any one of them is right",
        "no path": "both path and cost are null",
    },
    description="a least-cost source-to-goal path guided by a consistent heuristic table",
    reference=astar,
    generator=generate_astar,
    answer_schema=AstarAnswer,
    validator=AstarPathValidator(),
    sizes={"simple": 5, "standard": 8, "edge": 6},
    size=SizeAxis(
        unit="vertices",
        measure=count_vertices,
        ranges={"simple": (4, 14), "standard": (6, 16), "edge": (4, 16)},
        stress=(17, 64),
    ),
    mutants=astar_mutants,
    alternatives=astar_alternatives,
    max_output_tokens=6144,
    # The graph scaffolds' rule (benchmarks/stress_budgets.py astar --cases 20): the flat
    # budget past the standard maximum's work, plus 1.5x the work each size adds. A careful
    # answer (lists, an Expand line with the open list per expansion) is 626 tokens at 16,
    # 2,230 at 64.
    output_budget=OutputBudget(per_unit=54, base=5280),
    code_sizes=(32, 100, 200),
    code_size_limit=(
        "drawing an instance (a consistent heuristic, its cheapest paths checked) takes "
        "4 s at 300 vertices and 19 s at 1,000"
    ),
)
