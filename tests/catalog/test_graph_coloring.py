"""What is peculiar to ``graph_coloring``: its oracle (the colouring checked edge by edge
with networkx, and an integer program from ``scipy.optimize.milp`` for "not colourable"),
and the reference's cross-checks against it and against brute force over every colouring."""

from __future__ import annotations

import random
import string
from itertools import pairwise, product
from typing import Any

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import Bounds, LinearConstraint, milp

from tests.support.per_input import per_input
from tests.support.stress import stress_case, stress_cells
from verification.cases import DEFAULT_SEED, TestCase, Tier, generate_case
from verification.catalog import default_catalog
from verification.catalog.backtracking.graph_coloring import (
    GraphColoringValidator,
    generate_graph_coloring,
)
from verification.reference.backtracking import graph_coloring


def _graph(test_input: dict[str, Any]) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(test_input["vertices"])
    graph.add_edges_from(tuple(edge) for edge in test_input["edges"])
    return graph


def _colourable_by_milp(test_input: dict[str, Any]) -> bool:
    """Whether x[v, c] in {0, 1} exist with one colour per vertex and, per edge and colour,
    at most one end of that colour: solved once per input (the oracle, the test of its
    shortcut and the test of the reference ask the same input)."""
    return per_input(
        "test_graph_coloring._colourable_by_milp", test_input, lambda: _solved_by_milp(test_input)
    )


def _solved_by_milp(test_input: dict[str, Any]) -> bool:
    graph = _graph(test_input)
    if nx.number_of_selfloops(graph):
        return False
    vertices, k = list(graph.nodes), test_input["num_colors"]
    if not vertices:
        return True
    index = {v: i for i, v in enumerate(vertices)}
    size = len(vertices) * k
    rows, lower, upper = [], [], []
    for v in vertices:
        row = np.zeros(size)
        row[index[v] * k : index[v] * k + k] = 1
        rows.append(row)
        lower.append(1)
        upper.append(1)
    for u, v in graph.edges:
        for colour in range(k):
            row = np.zeros(size)
            row[index[u] * k + colour] = row[index[v] * k + colour] = 1
            rows.append(row)
            lower.append(0)
            upper.append(1)
    result = milp(
        c=np.zeros(size),
        constraints=LinearConstraint(np.array(rows), lower, upper),
        integrality=np.ones(size),
        bounds=Bounds(0, 1),
    )
    return bool(result.status == 0)


def _colourable(test_input: dict[str, Any]) -> bool:
    """As :func:`_colourable_by_milp`, cheaper where a colouring is easy to find: a proper
    colouring networkx's DSATUR finds within ``num_colors`` colours proves it (the integer
    program, which costs most of the oracle, runs only where none is found)."""
    graph = _graph(test_input)
    if not nx.number_of_selfloops(graph):
        found = nx.greedy_color(graph, strategy="DSATUR")
        proper = all(found[u] != found[v] for u, v in graph.edges)
        if proper and len(set(found.values())) <= test_input["num_colors"]:
            return True
    return _colourable_by_milp(test_input)


def _colourable_by_brute_force(test_input: dict[str, Any]) -> bool:
    """Whether any of the ``num_colors ** n`` colourings is proper: every one tried, each
    held as a tuple of colours by vertex position, each edge as a pair of positions."""
    graph = _graph(test_input)
    position = {vertex: i for i, vertex in enumerate(graph.nodes)}
    ends = [(position[u], position[v]) for u, v in graph.edges]
    return any(
        all(colours[a] != colours[b] for a, b in ends)
        for colours in product(range(1, test_input["num_colors"] + 1), repeat=len(position))
    )


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()  # any proper colouring is right


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when a colouring is claimed that gives every vertex (and nothing else) an
    integer of ``1..num_colors`` and the two ends of every edge different colours, or when
    "not colourable" (with a null colouring) is claimed and the integer program is
    infeasible."""
    colorable, coloring = answer.get("colorable"), answer.get("coloring")
    if set(answer) != {"colorable", "coloring"} or not isinstance(colorable, bool):
        return False
    if not colorable:
        return coloring is None and not per_input(
            "test_graph_coloring._colourable", test_input, lambda: _colourable(test_input)
        )
    if not isinstance(coloring, dict) or set(coloring) != set(test_input["vertices"]):
        return False
    k = test_input["num_colors"]
    if any(
        isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= k for c in coloring.values()
    ):
        return False
    return all(coloring[u] != coloring[v] for u, v in _graph(test_input).edges)


def test_the_oracle_checks_edges_range_and_the_claim_of_no_colouring() -> None:
    triangle = {"vertices": ["A", "B", "C"], "edges": [["A", "B"], ["B", "C"], ["C", "A"]]}
    three = {**triangle, "num_colors": 3}
    assert oracle(three, {"colorable": True, "coloring": {"A": 3, "B": 1, "C": 2}})
    assert not oracle(three, {"colorable": True, "coloring": {"A": 1, "B": 1, "C": 2}})
    assert not oracle(three, {"colorable": True, "coloring": {"A": 4, "B": 1, "C": 2}})
    assert not oracle(three, {"colorable": False, "coloring": None})
    two = {**triangle, "num_colors": 2}
    assert oracle(two, {"colorable": False, "coloring": None})


@pytest.mark.parametrize("tier", ["simple", "standard", "edge"])
def test_the_reference_agrees_with_integer_programming(tier: Any) -> None:
    for k in range(25):
        rng = random.Random(f"gc:{tier}:{k}")
        size = {"simple": rng.randint(3, 8), "standard": rng.randint(5, 12)}.get(tier, 10)
        test_input = generate_graph_coloring(rng, tier, size)
        answer = graph_coloring(**test_input)
        assert oracle(test_input, answer), test_input
        by_milp = _colourable_by_milp(test_input)
        assert answer["colorable"] is by_milp, test_input
        assert _colourable(test_input) is by_milp, test_input  # the oracle's shortcut


@st.composite
def graphs(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(0, 7))
    labels = list(string.ascii_uppercase[:n])
    edges = (
        draw(st.lists(st.tuples(st.sampled_from(labels), st.sampled_from(labels)), max_size=14))
        if labels
        else []
    )
    return {
        "vertices": labels,
        "edges": [list(e) for e in edges if e[0] != e[1]],
        "num_colors": draw(st.integers(1, 4)),
    }


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(graphs())
def test_any_small_graph_agrees_with_brute_force(test_input: dict[str, Any]) -> None:
    answer = graph_coloring(**test_input)
    assert answer["colorable"] is _colourable_by_brute_force(test_input)
    if answer["colorable"]:
        assert oracle(test_input, answer)
        assert list(answer["coloring"]) == test_input["vertices"]


def _chromatic_number(test_input: dict[str, Any]) -> int:
    for k in range(1, len(test_input["vertices"]) + 1):
        if _colourable_by_brute_force({**test_input, "num_colors": k}):
            return k
    return 0


def test_tiers_keep_their_promises() -> None:
    for k in range(25):
        tiers: tuple[tuple[Tier, int], ...] = (("simple", 6), ("standard", 8))
        for tier, size in tiers:
            test_input = generate_graph_coloring(random.Random(k), tier, size)
            graph = _graph(test_input)
            assert test_input["num_colors"] == 3 and len(graph) == size
            assert nx.is_connected(graph) and _chromatic_number(test_input) <= 3
            assert nx.number_of_selfloops(graph) == 0
            # First fit in vertex order (networkx's greedy colouring, colours from 0) needs
            # no going back on simple graphs and gets stuck with 3 colours on standard ones.
            order = test_input["vertices"]
            first_fit = nx.greedy_color(graph, strategy=lambda g, _, order=order: order)
            assert (max(first_fit.values()) < 3) is (tier == "simple")
            assert len(test_input["edges"]) == graph.number_of_edges()  # no repeats
    needs = set()
    for k in range(300):
        test_input = generate_graph_coloring(random.Random(k), "edge", 7)
        assert len(test_input["vertices"]) <= 7
        chromatic = _chromatic_number(test_input)
        needs.add(chromatic - test_input["num_colors"] if test_input["edges"] else None)
    # Exactly k colours (0), one more than allowed (1), and fewer than allowed (< 0) all occur.
    assert {0, 1, None} <= needs and any(n is not None and n < 0 for n in needs)


def test_the_validator_agrees_with_the_oracle_on_random_colourings() -> None:
    validator = GraphColoringValidator()
    rng = random.Random(4)
    for k in range(60):
        test_input = generate_graph_coloring(random.Random(f"v{k}"), "standard", 6)
        expected = graph_coloring(**test_input)
        case = TestCase(
            id="graph_coloring-standard-000",
            scaffold="graph_coloring",
            tier="standard",
            index=0,
            input=test_input,
            expected=expected,
        )
        coloring = {v: rng.randint(1, 3) for v in test_input["vertices"]}
        answer = {"colorable": True, "coloring": coloring}
        verdict = validator.validate(answer, expected, case=case)
        assert verdict.is_valid is oracle(test_input, answer), (test_input, coloring)


def test_edge_graphs() -> None:
    assert graph_coloring(["A"], [], 1) == {"colorable": True, "coloring": {"A": 1}}
    assert graph_coloring(["A", "B"], [["A", "B"]], 1)["colorable"] is False
    assert graph_coloring(["A", "B"], [["A", "A"]], 3)["colorable"] is False
    five_cycle = [["A", "B"], ["B", "C"], ["C", "D"], ["D", "E"], ["E", "A"]]
    assert graph_coloring(list("ABCDE"), five_cycle, 2)["colorable"] is False
    wheel: dict[str, Any] = {
        "vertices": list("ABCDEF"),
        "edges": five_cycle + [["F", v] for v in "ABCDE"],
    }
    assert graph_coloring(**wheel, num_colors=3)["colorable"] is False
    assert oracle({**wheel, "num_colors": 4}, graph_coloring(**wheel, num_colors=4))


def test_long_paths_do_not_hit_the_recursion_limit() -> None:
    labels = [f"v{i:04d}" for i in range(3000)]
    path = [[u, v] for u, v in pairwise(labels)]
    answer = graph_coloring(labels, path, 2)
    assert oracle({"vertices": labels, "edges": path, "num_colors": 2}, answer)
    assert [answer["coloring"][v] for v in labels[:4]] == [1, 2, 1, 2]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"vertices": ["A", "A"], "edges": [], "num_colors": 2}, "unique"),
        ({"vertices": ["A", 1], "edges": [], "num_colors": 2}, "strings"),
        ({"vertices": ["A"], "edges": [["A", "B"]], "num_colors": 2}, "unknown vertex"),
        ({"vertices": ["A"], "edges": [["A"]], "num_colors": 2}, r"\[u, v\]"),
        ({"vertices": ["A"], "edges": [], "num_colors": 0}, "num_colors"),
        ({"vertices": ["A"], "edges": [], "num_colors": True}, "num_colors"),
        ({"vertices": "AB", "edges": [], "num_colors": 2}, "list of labels"),
    ],
)
def test_bad_inputs_raise(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        graph_coloring(**kwargs)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("graph_coloring"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    case = stress_case("graph_coloring", tier, size, index)
    graph = _graph(case.input)
    assert len(graph) == size and nx.is_connected(graph)
    assert len(case.input["edges"]) == graph.number_of_edges()  # no pair twice, past Z too
    assert oracle(case.input, case.expected), case.id


def test_a_colouring_missing_a_vertex_names_only_what_is_wrong() -> None:
    # Hunt oo: "coloring misses ['H'] / names unknown vertices []".
    spec = default_catalog()["graph_coloring"]
    case = next(
        c
        for c in (generate_case(spec, "standard", i, seed=DEFAULT_SEED) for i in range(20))
        if c.expected.get("coloring")
    )
    coloring = dict(case.expected["coloring"])
    vertex = next(iter(coloring))
    del coloring[vertex]
    judge = spec.validator.validate
    said = judge({**case.expected, "coloring": coloring}, case.expected, case=case)
    assert said.message == f"coloring misses {[vertex]}"
    coloring[vertex], coloring["ZZ"] = case.expected["coloring"][vertex], 1
    said = judge({**case.expected, "coloring": coloring}, case.expected, case=case)
    assert said.message == "names unknown vertices ['ZZ']"
