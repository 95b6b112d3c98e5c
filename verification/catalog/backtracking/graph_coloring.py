"""Graph colouring: the ``graph_coloring`` scaffold (a proper colouring with at most k
colours, or "not colourable" when none exists)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import distinct_answers, drawing_first, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.graph import (
    MAX_ATTEMPTS,
    Pair,
    count_vertices,
    edge_list,
    vertex_labels,
)
from verification.reference.backtracking import graph_coloring
from verification.validators.base import ValidationResult, Validator, pick

__all__ = [
    "GRAPH_COLORING_EDGE_KINDS",
    "SPEC",
    "GraphColoringAnswer",
    "GraphColoringValidator",
    "generate_graph_coloring",
    "search_effort",
]


class GraphColoringAnswer(AnswerSchema):
    """``{"colorable": true, "coloring": {"A": 1, "B": 2}}`` or ``{"colorable": false,
    "coloring": null}``."""

    colorable: bool
    """Whether ``num_colors`` colours suffice."""
    coloring: dict[str, int] | None
    """A colour ``1..num_colors`` per vertex, or null when no proper colouring exists."""


GRAPH_COLORING_EDGE_KINDS = (
    "exactly_k",
    "not_colorable",
    "no_edges",
    "single_vertex",
    "one_color_with_edges",
    "disconnected",
)
"""The edge graphs: one needing exactly ``num_colors`` colours; one needing one more (an
odd cycle for 2, an odd wheel or a clique for 3); no edges; one vertex; one colour and an
edge; two components."""

_MAX_LINES = 60
"""The most lines the scaffold's search shows on a standard or edge graph (colours given,
dead ends, steps back), so the work fits the budget."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class GraphColoringValidator(Validator):
    """Any proper colouring within the colours allowed; "not colourable" only when true.

    With ``case``: when ``expected`` is colourable, ``colorable`` is true and ``coloring``
    gives exactly the input's vertices an integer ``1..num_colors`` each, the two ends of
    every edge differing; when it is not (the reference's exhaustive search found none),
    ``colorable`` is false and ``coloring`` null. Without ``case``: the decision must agree,
    and the colouring is checked for range only (its edges are unknown).
    """

    kind = "graph_coloring"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        colorable, coloring = pick(actual, "colorable"), pick(actual, "coloring")
        if not isinstance(colorable, bool):
            return ValidationResult(
                False, f"colorable: expected true or false, got {colorable!r:.40}"
            )
        if pick(expected, "colorable") is not True:
            if colorable or coloring is not None:
                return ValidationResult(
                    False, "no proper colouring exists: expected colorable false, coloring null"
                )
            return ValidationResult(True, "not colourable, as reported")
        if not colorable:
            return ValidationResult(False, "a proper colouring exists, but colorable is false")
        if not isinstance(coloring, dict):
            return ValidationResult(False, f"coloring: expected an object, got {coloring!r:.40}")
        if case is None:
            want = pick(expected, "coloring") or {}
            limit = max(want.values(), default=1)
            if set(coloring) != set(want) or not all(
                _is_int(c) and 1 <= c <= limit for c in coloring.values()
            ):
                return ValidationResult(False, "the colouring's vertices or colours are off")
            return ValidationResult(True, "vertices and colour range as expected (no input)")
        vertices, k = case.input["vertices"], case.input["num_colors"]
        missing = [v for v in vertices if v not in coloring]
        extra = [v for v in coloring if v not in set(vertices)]
        if missing or extra:
            return ValidationResult(
                False,
                " / ".join(
                    said
                    for said, names in (
                        (f"coloring misses {missing[:5]}", missing),
                        (f"names unknown vertices {extra[:5]}", extra),
                    )
                    if names
                ),
            )
        for vertex, colour in coloring.items():
            if not _is_int(colour) or not 1 <= colour <= k:
                return ValidationResult(
                    False, f"{vertex} has colour {colour!r:.20}, not one of 1..{k}"
                )
        for u, v in case.input["edges"]:
            if coloring[u] == coloring[v]:
                return ValidationResult(False, f"edge {u}-{v}: both ends have colour {coloring[u]}")
        used = len(set(coloring.values()))
        return ValidationResult(
            True, f"a proper colouring with {used} of {k} colours", {"used": used, "allowed": k}
        )


def search_effort(
    vertices: list[str], pairs: Sequence[Pair], k: int, limit: int | None = None
) -> tuple[int, int]:
    """The scaffold's search (vertices in the given order, smallest free colour first): how
    many lines it shows (a colour given, a dead end, a step back) and how many dead ends
    (a vertex with no free colour left to try) it meets before it stops; with ``limit``, it
    stops counting once the lines pass it (the generators want short searches only, and
    on stress sizes a long one runs to tens of thousands of lines)."""
    # Only the vertices before the current one hold a colour (the search colours them in
    # order and takes a colour back on return): each vertex's neighbours among those, by
    # position, hold all the colours it can find taken, gathered as bits of one int.
    position = {v: i for i, v in enumerate(vertices)}
    if len(position) != len(vertices):  # a label twice: searched by label, as it was
        return _search_effort_by_labels(vertices, pairs, k, limit)
    # A pair given twice (or both ways round) is read twice: taking a colour is idempotent.
    earlier: list[list[int]] = [[] for _ in vertices]
    for u, v in pairs:
        i, j = position[u], position[v]
        if i < j:
            earlier[j].append(i)
        elif j < i:
            earlier[i].append(j)
    colours = range(1, k + 1)
    colour = [0] * len(vertices)
    lines = stuck = 0

    def assign(index: int) -> bool:
        nonlocal lines, stuck
        if index == len(vertices):
            return True
        taken = 0
        for w in earlier[index]:
            taken |= 1 << colour[w]
        free = [c for c in colours if not taken >> c & 1]
        for candidate in free:
            lines += 1
            colour[index] = candidate
            if assign(index + 1) or (limit is not None and lines > limit):
                return True
        lines += 1
        stuck += not free
        return False

    assign(0)
    return lines, stuck


def _search_effort_by_labels(
    vertices: list[str], pairs: Sequence[Pair], k: int, limit: int | None
) -> tuple[int, int]:
    """:func:`search_effort` with the colours kept by label and each vertex's taken colours
    gathered from all its neighbours (the search it runs in bits, step for step)."""
    neighbours: dict[str, set[str]] = {v: set() for v in vertices}
    for u, v in pairs:
        neighbours[u].add(v)
        neighbours[v].add(u)
    colour: dict[str, int] = {}
    lines = stuck = 0

    def assign(index: int) -> bool:
        nonlocal lines, stuck
        if index == len(vertices):
            return True
        vertex = vertices[index]
        taken = {colour[w] for w in neighbours[vertex] if w in colour}
        free = [c for c in range(1, k + 1) if c not in taken]
        for candidate in free:
            lines += 1
            colour[vertex] = candidate
            if assign(index + 1) or (limit is not None and lines > limit):
                return True
            del colour[vertex]
        lines += 1
        stuck += not free
        return False

    assign(0)
    return lines, stuck


def _planted(rng: random.Random, vertices: list[str], classes: int, extra: float) -> list[Pair]:
    """A connected graph that a hidden colouring with ``classes`` colours makes proper:
    a spanning tree, then each other allowed pair with probability ``extra``."""
    hidden = {v: i % classes for i, v in enumerate(rng.sample(vertices, len(vertices)))}
    order = list(vertices)
    rng.shuffle(order)
    # The first two placed differ in hidden colour, so every later vertex can attach.
    second = next(i for i, v in enumerate(order) if hidden[v] != hidden[order[0]])
    order[1], order[second] = order[second], order[1]
    # Per hidden colour, the vertices placed so far of the other colours, in placing order:
    # the list a new vertex of that colour attaches to (built once, not per vertex).
    others: list[list[str]] = [[] for _ in range(classes)]
    pairs = set()
    tree: set[tuple[int, int]] = set()  # the tree's pairs as positions in ``vertices``
    position = {v: i for i, v in enumerate(vertices)}
    for index, v in enumerate(order):
        if index:
            u = rng.choice(others[hidden[v]])
            pairs.add((min(u, v), max(u, v)))
            tree.add((min(position[u], position[v]), max(position[u], position[v])))
        for colour in range(classes):
            if colour != hidden[v]:
                others[colour].append(v)
    # Only a tree pair can join two vertices before their turn here (combinations visits a
    # pair once); one is kept whichever way round its ends are.
    shade = [hidden[v] for v in vertices]
    draw = rng.random
    for i, j in combinations(range(len(vertices)), 2):
        if shade[i] != shade[j] and (i, j) not in tree and draw() < extra:
            pairs.add((vertices[i], vertices[j]))
    return sorted(pairs)


def _coloring_input(
    rng: random.Random, vertices: list[str], pairs: list[Pair], k: int
) -> dict[str, Any]:
    return {"vertices": vertices, "edges": edge_list(rng, pairs, False), "num_colors": k}


def generate_graph_coloring(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``graph_coloring`` input: ``vertices`` (``"A"``, ``"B"``, ... in order),
    undirected ``edges`` ``[u, v]`` (no repeats, no self loops) and ``num_colors``.

    - ``simple``: ``size`` vertices (3..8, or a stress size 13..48), connected,
      ``num_colors`` 3; a proper 3-colouring exists and the search never goes back
      (smallest free colour in vertex order succeeds at once).
    - ``standard``: ``size`` vertices (5..12, or a stress size 13..48), connected,
      ``num_colors`` 3; a proper 3-colouring exists, but the search runs out of colours at
      some vertex at least once before it finds one, and shows at most 60 lines.
    - ``edge``: at most ``size`` vertices, one of :data:`GRAPH_COLORING_EDGE_KINDS`:
      ``exactly_k`` (2..4 colours, a clique of that many vertices inside a graph a hidden
      colouring with that many colours makes proper), ``not_colorable`` (2 colours and an
      odd cycle of 5 or 7; or 3 colours and an odd wheel or a 4-clique), ``no_edges``,
      ``single_vertex``, ``one_color_with_edges`` (1 colour, an edge: not colourable),
      ``disconnected`` (two components, 3 colours, colourable). Only ``not_colorable`` and
      ``one_color_with_edges`` have no proper colouring. Every edge search shows at most
      60 lines (an uncolourable core placed late in the vertex order would make the search
      retry every colouring of the vertices before it).
    """
    if tier == "simple":
        vertices = vertex_labels(size, least=3)
        return _searched(rng, vertices, lambda lines, stuck: lines == len(vertices))
    if tier == "standard":
        return _searched(
            rng, vertex_labels(size, least=5), lambda lines, stuck: stuck and lines <= _MAX_LINES
        )
    for _ in range(MAX_ATTEMPTS):
        test_input = _edge(rng, vertex_labels(size))
        pairs = [(u, v) for u, v in test_input["edges"]]
        lines, _ = search_effort(test_input["vertices"], pairs, test_input["num_colors"])
        if lines <= _MAX_LINES:
            return test_input
    raise RuntimeError(f"no short edge graph_coloring search on {size} vertices")


def _searched(
    rng: random.Random, vertices: list[str], wanted: Callable[[int, int], Any]
) -> dict[str, Any]:
    for _ in range(MAX_ATTEMPTS):
        pairs = _planted(rng, vertices, 3, rng.uniform(0.25, 0.6))
        if wanted(*search_effort(vertices, pairs, 3, limit=_MAX_LINES + len(vertices))):
            return _coloring_input(rng, vertices, pairs, 3)
    raise RuntimeError(f"no graph_coloring input on {len(vertices)} vertices")


def _edge(rng: random.Random, labels: list[str]) -> dict[str, Any]:
    size = len(labels)
    kinds = [
        kind
        for kind in GRAPH_COLORING_EDGE_KINDS
        if size >= {"not_colorable": 5, "disconnected": 4, "single_vertex": 1}.get(kind, 2)
    ]
    kind = rng.choice(kinds)
    if kind == "single_vertex":
        return _coloring_input(rng, [rng.choice(labels)], [], rng.randint(1, 2))
    n = rng.randint(2, size)
    vertices = labels[:n]
    if kind == "no_edges":
        return _coloring_input(rng, vertices, [], rng.randint(1, 2))
    if kind == "one_color_with_edges":
        return _coloring_input(rng, vertices, _planted(rng, vertices, 2, 0.2), 1)
    if kind == "disconnected":
        n = max(n, 4)
        vertices = labels[:n]
        cut = rng.randint(2, n - 2)
        shuffled = rng.sample(vertices, n)
        pairs = _planted(rng, sorted(shuffled[:cut]), 2, 0.5)
        pairs += _planted(rng, sorted(shuffled[cut:]), 2, 0.5)
        return _coloring_input(rng, vertices, sorted(pairs), 3)
    if kind == "exactly_k":
        k = rng.randint(2, min(4, n))
        return _coloring_input(rng, vertices, _with_clique(rng, vertices, k), k)
    return _not_colorable(rng, labels[: rng.randint(5, size)])


def _with_clique(rng: random.Random, vertices: list[str], k: int) -> list[Pair]:
    """A ``k``-colourable graph that holds a ``k``-clique, so exactly ``k`` colours are
    needed: a planted graph and a clique, drawn again until the two agree."""
    for _ in range(MAX_ATTEMPTS):
        pairs = set(_planted(rng, vertices, k, 0.3))
        pairs.update(_pair(u, v) for u, v in combinations(rng.sample(vertices, k), 2))
        if graph_coloring(vertices, [list(p) for p in sorted(pairs)], k)["colorable"]:
            return sorted(pairs)
    raise RuntimeError(f"no {k}-chromatic graph on {len(vertices)} vertices")


def _not_colorable(rng: random.Random, vertices: list[str]) -> dict[str, Any]:
    """Needs one colour more than allowed: an odd cycle for 2 colours; an odd wheel (an
    odd cycle and a hub joined to all of it) or a 4-clique with a tail for 3."""
    n = len(vertices)
    order = rng.sample(vertices, n)
    shape = rng.choice(("odd_cycle", "odd_wheel", "clique") if n >= 6 else ("odd_cycle", "clique"))
    if shape == "odd_cycle":
        length = 7 if n >= 7 and rng.random() < 0.5 else 5
        ring = order[:length]
        pairs = {_pair(ring[i], ring[(i + 1) % length]) for i in range(length)}
        k = 2
    elif shape == "odd_wheel":
        length = 7 if n >= 8 and rng.random() < 0.5 else 5
        hub, ring = order[0], order[1 : length + 1]
        pairs = {_pair(ring[i], ring[(i + 1) % length]) for i in range(length)}
        pairs.update(_pair(hub, v) for v in ring)
        k = 3
    else:
        pairs = {_pair(u, v) for u, v in combinations(order[:4], 2)}
        k = 3
    placed = [v for v in order if any(v in p for p in pairs)]
    for v in order:
        if v not in placed:  # the rest hang off the core as a tree
            pairs.add(_pair(v, rng.choice(placed)))
            placed.append(v)
    return _coloring_input(rng, vertices, sorted(pairs), k)


def _pair(u: str, v: str) -> Pair:
    return (u, v) if u < v else (v, u)


def _first_fit(vertices: list[str], edges: list[list[str]], cap: int | None) -> dict[str, int]:
    """Smallest free colour in vertex order, never going back; past ``cap`` colours the
    vertex takes colour ``cap`` anyway (an improper colouring)."""
    colour: dict[str, int] = {}
    for v in vertices:
        taken = {
            colour[u] for a, b in edges for u in (a, b) if v in (a, b) and u != v and u in colour
        }
        free = next(c for c in range(1, len(vertices) + 2) if c not in taken)
        colour[v] = free if cap is None else min(free, cap)
    return colour


@drawing_first
def graph_coloring_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """A vertex given a neighbour's colour, colour 0, colour ``k + 1``, a vertex left out,
    a wrong "not colourable"; on a graph that is not colourable, a first-fit colouring
    with too many colours, one squeezed into ``k`` colours (improper), and "colourable"
    with no colouring."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Every draw first (the alternatives draw after these), then the answers one at a
    # time: a run's calibration judges the first few and makes no more.
    vertices: list[str] = case.input["vertices"]
    edges: list[list[str]] = case.input["edges"]
    k: int = case.input["num_colors"]
    coloring: dict[str, int] | None = case.expected["coloring"]
    if coloring is None:
        yield {"colorable": True, "coloring": _first_fit(vertices, edges, None)}
        yield {"colorable": True, "coloring": _first_fit(vertices, edges, k)}
        yield {"colorable": True, "coloring": None}
        return
    v = rng.choice(vertices) if vertices else ""
    ends = rng.sample(edges, min(2, len(edges)))
    yield {"colorable": False, "coloring": None}
    if vertices:
        yield {"colorable": True, "coloring": {**coloring, v: 0}}
        yield {"colorable": True, "coloring": {**coloring, v: k + 1}}
        yield {"colorable": True, "coloring": {u: c for u, c in coloring.items() if u != v}}
    for u, w in ends:
        if u != w:
            yield {"colorable": True, "coloring": {**coloring, u: coloring[w]}}


def graph_coloring_alternatives(case: TestCase, rng: random.Random) -> Sequence[dict[str, Any]]:
    """The colours renamed by a permutation of ``1..k``, and the colouring the same search
    finds with the vertices taken in reverse order."""
    coloring: dict[str, int] | None = case.expected["coloring"]
    if coloring is None:
        return []
    vertices: list[str] = case.input["vertices"]
    k: int = case.input["num_colors"]
    renamed = list(range(1, k + 1))
    rng.shuffle(renamed)
    answers = [{"colorable": True, "coloring": {v: renamed[c - 1] for v, c in coloring.items()}}]
    backwards = graph_coloring(vertices[::-1], case.input["edges"], k)["coloring"]
    answers.append({"colorable": True, "coloring": {v: backwards[v] for v in vertices}})
    return distinct_answers(answers, unlike=[case.expected])


SPEC = ScaffoldSpec(
    name="graph_coloring",
    category="backtracking",
    title="Graph colouring by backtracking",
    graded_conventions={
        "any proper coloring": "any proper coloring with colors from 1..k is right",
        "not colorable": "false is right only when no proper coloring",
    },
    description="a proper colouring with at most k colours, or proof that none exists",
    reference=graph_coloring,
    generator=generate_graph_coloring,
    answer_schema=GraphColoringAnswer,
    validator=GraphColoringValidator(),
    sizes={"simple": 5, "standard": 8, "edge": 6},
    size=SizeAxis(
        unit="vertices",
        measure=count_vertices,
        ranges={"simple": (3, 8), "standard": (5, 12), "edge": (1, 10)},
        stress=(13, 48),
    ),
    mutants=graph_coloring_mutants,
    alternatives=graph_coloring_alternatives,
    max_output_tokens=6144,
    # The graph scaffolds' rule (benchmarks/stress_budgets.py graph_coloring, over 5 and 20
    # cases a tier): the flat budget past the standard maximum's work, plus 1.5x the work
    # each size adds. A careful answer (lists, a line per colour given or dead end, at most
    # 60 in a standard search) is 1,096 to 1,247 tokens at 12 and 3,041 at 48.
    output_budget=OutputBudget(per_unit=82, base=5160),
    code_sizes=(24, 48),
    code_size_limit=(
        "exponential: a backtracking search, which no polynomial algorithm replaces; "
        "the generator draws no colouring instance at 100 vertices"
    ),
)
