"""What is peculiar to ``topological_sort``: its oracle (networkx decides acyclicity; the
order or the cycle is checked edge by edge), the reference against networkx's
lexicographical topological sort, and bad inputs."""

from __future__ import annotations

import random
import string
from collections import Counter
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.per_input import per_input
from tests.support.stress import in_label_order, stress_case, stress_cells
from verification.cases import TIERS, TestCase, Tier
from verification.catalog.graph.topological_sort import (
    SPEC,
    TOPOLOGICAL_EDGE_KINDS,
    generate_topological_sort,
)
from verification.generators.graph import vertex_labels
from verification.reference.graph import topological_sort

SEEDS = range(80)


def _graph(test_input: dict[str, Any]) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(test_input["vertices"])
    graph.add_edges_from(tuple(edge) for edge in test_input["edges"])
    return graph


def _acyclic(test_input: dict[str, Any]) -> tuple[nx.DiGraph, bool]:
    """The input's graph and whether networkx finds it acyclic (the oracle only reads
    them: once per input, for every answer to it)."""
    graph = _graph(test_input)
    return graph, nx.is_directed_acyclic_graph(graph)


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"cycle"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``has_cycle`` is what networkx says, and either ``order`` is a
    permutation of the vertices putting every edge's tail first (``cycle`` null), or
    ``order`` is null and ``cycle`` a list of distinct vertices joined round by edges."""
    graph, acyclic = per_input("topological_sort", test_input, lambda: _acyclic(test_input))
    if set(answer) != {"order", "has_cycle", "cycle"}:
        return False
    if answer["has_cycle"] is not (not acyclic):
        return False
    if answer["has_cycle"]:
        cycle = answer["cycle"]
        return (
            answer["order"] is None
            and isinstance(cycle, list)
            and len(cycle) > 0
            and len(set(cycle)) == len(cycle)
            and all(graph.has_edge(u, v) for u, v in zip(cycle, cycle[1:] + cycle[:1], strict=True))
        )
    order = answer["order"]
    if answer["cycle"] is not None or not isinstance(order, list):
        return False
    if Counter(order) != Counter(test_input["vertices"]):
        return False
    position = {v: i for i, v in enumerate(order)}
    return all(position[u] < position[v] for u, v in graph.edges)


def test_the_oracle_accepts_any_valid_order_and_any_cycle() -> None:
    dag = {"vertices": ["A", "B", "C"], "edges": [["A", "C"], ["B", "C"]]}
    for order in (["A", "B", "C"], ["B", "A", "C"]):
        assert oracle(dag, {"order": order, "has_cycle": False, "cycle": None})
    assert not oracle(dag, {"order": ["A", "C", "B"], "has_cycle": False, "cycle": None})
    assert not oracle(dag, {"order": None, "has_cycle": True, "cycle": ["A", "C"]})
    loop = {"vertices": ["A", "B", "C"], "edges": [["A", "B"], ["B", "C"], ["C", "A"]]}
    for cycle in (["A", "B", "C"], ["C", "A", "B"]):
        assert oracle(loop, {"order": None, "has_cycle": True, "cycle": cycle})
    assert not oracle(loop, {"order": None, "has_cycle": True, "cycle": ["A", "C", "B"]})
    assert not oracle(loop, {"order": None, "has_cycle": True, "cycle": ["A", "B", "C", "A"]})


def _check_reference(inp: dict[str, Any]) -> None:
    answer = topological_sort(**inp)
    assert oracle(inp, answer), inp
    graph = _graph(inp)
    if not answer["has_cycle"]:
        # Smallest label first is exactly networkx's lexicographical order.
        assert answer["order"] == list(nx.lexicographical_topological_sort(graph))
    else:
        assert answer["cycle"][0] == min(answer["cycle"])


@pytest.mark.parametrize("tier", TIERS)
def test_the_reference_matches_networkx_on_generated_cases(tier: Tier) -> None:
    for seed in SEEDS:
        size = random.Random(seed).randint(5, 16)
        _check_reference(generate_topological_sort(random.Random(f"ts:{tier}:{seed}"), tier, size))


def test_the_tiers_keep_their_promises() -> None:
    cyclic = 0
    for seed in range(200):
        simple = generate_topological_sort(random.Random(f"s:{seed}"), "simple", 7)
        assert nx.is_directed_acyclic_graph(_graph(simple))
        assert nx.is_weakly_connected(_graph(simple))
        standard = generate_topological_sort(random.Random(f"t:{seed}"), "standard", 9)
        graph = _graph(standard)
        assert nx.is_weakly_connected(graph)
        if nx.is_directed_acyclic_graph(graph):
            assert not all(
                graph.has_edge(u, v) for u, v in nx.utils.pairwise(nx.topological_sort(graph))
            ), "a single chain has one order only"
            position = {v: i for i, v in enumerate(standard["vertices"])}
            assert any(position[u] > position[v] for u, v in graph.edges), "alphabetical works"
        else:
            cyclic += 1
            assert all(len(c) >= 3 for c in nx.simple_cycles(graph))
            assert any(d == 0 for _, d in graph.in_degree), "Kahn places nothing"
    assert 20 <= cyclic <= 80


def test_the_edge_tier_draws_every_kind() -> None:
    seen = set()
    for seed in range(150):
        inp = generate_topological_sort(random.Random(f"e:{seed}"), "edge", 6)
        _check_reference(inp)
        graph = _graph(inp)
        if not inp["vertices"]:
            seen.add("empty")
        elif len(inp["vertices"]) == 1:
            seen.add("single")
        elif not inp["edges"]:
            seen.add("no_edges")
        if any(u == v for u, v in inp["edges"]):
            seen.add("self_loop")
        if any(len(c) == 2 for c in nx.simple_cycles(graph)):
            seen.add("two_cycle")
        if len(inp["vertices"]) > 1 and not nx.is_weakly_connected(graph):
            seen.add("disconnected")
        if len({tuple(e) for e in inp["edges"]}) < len(inp["edges"]):
            seen.add("repeated_edges")
        if nx.is_directed_acyclic_graph(graph) and nx.dag_longest_path_length(graph) == 5:
            seen.add("chain")
    assert seen == set(TOPOLOGICAL_EDGE_KINDS)


def test_the_validator_agrees_with_the_oracle_on_random_permutations() -> None:
    rng = random.Random(3)
    agreed = accepted = 0
    for seed in range(60):
        inp = generate_topological_sort(random.Random(f"p:{seed}"), "standard", 6)
        expected = topological_sort(**inp)
        case = TestCase(
            id="topological_sort-standard-000",
            scaffold="topological_sort",
            tier="standard",
            index=0,
            input=inp,
            expected=expected,
        )
        for _ in range(20):
            order = list(inp["vertices"])
            rng.shuffle(order)
            answer = {"order": order, "has_cycle": False, "cycle": None}
            verdict = SPEC.validator.validate(answer, expected, case=case).is_valid
            assert verdict == oracle(inp, answer), (inp, order)
            agreed += 1
            accepted += verdict
    assert agreed == 1200 and accepted > 0


@st.composite
def _graphs(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(0, 8))
    labels = list(string.ascii_uppercase[:n])
    if not labels:
        return {"vertices": [], "edges": []}
    pair = st.tuples(st.sampled_from(labels), st.sampled_from(labels)).map(list)
    return {"vertices": draw(st.permutations(labels)), "edges": draw(st.lists(pair, max_size=14))}


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(_graphs())
def test_the_reference_matches_networkx_on_any_graph(inp: dict[str, Any]) -> None:
    _check_reference(inp)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"vertices": "AB", "edges": []}, "list of labels"),
        ({"vertices": ["A", "A"], "edges": []}, "unique"),
        ({"vertices": ["A", 1], "edges": []}, "strings"),
        ({"vertices": [1], "edges": []}, "strings"),
        ({"vertices": ["A"], "edges": None}, "edges must be a list"),
        ({"vertices": ["A"], "edges": [["A", "Z"]]}, "unknown vertex"),
        ({"vertices": ["A", "B"], "edges": [["A"]]}, r"\[u, v\]"),
    ],
)
def test_bad_inputs_raise_value_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        topological_sort(**kwargs)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("topological_sort"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    case = stress_case("topological_sort", tier, size, index)
    assert len(case.input["vertices"]) == size
    assert oracle(case.input, case.expected), case.id


def test_the_reference_breaks_ties_in_ascending_label_order_past_z() -> None:
    labels = vertex_labels(30)
    shuffled = random.Random(3).sample(labels, len(labels))
    assert topological_sort(shuffled, [])["order"] == in_label_order(labels)
    assert topological_sort(shuffled, [[labels[0], labels[1]]])["order"] == in_label_order(labels)
