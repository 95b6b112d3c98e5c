"""``MSTValidator``: accepts every minimum spanning forest, rejects every mutant."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache
from itertools import combinations, islice
from typing import Any

import networkx as nx
import pytest

from verification.cases import case_id
from verification.generators.base import TIERS, TestCase, generate_case
from verification.registry import VALIDATOR_REGISTRY, get_spec
from verification.validators.set_equivalence import MSTValidator

SPEC = get_spec("kruskal")
VALIDATOR = MSTValidator()
KEYS = [(tier, k) for tier in TIERS for k in range(40)]


@cache
def cases() -> list[TestCase]:
    """The cases of ``KEYS``, drawn when a test first asks, not at import: every xdist
    worker imports every module, and only the one that runs these tests needs them."""
    return [generate_case(SPEC, tier, k, seed=7) for tier, k in KEYS]


Edge = list[Any]


def input_graph(case: TestCase) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(case.input["vertices"])
    g.add_weighted_edges_from(case.input["edges"])
    return g


_GRAPHS: dict[str, tuple[nx.Graph, int, float]] = {}
"""A case's graph, its number of components and the weight of its minimum spanning forest
(networkx), by ``repr`` of the case's input (JSON data: equal reprs are equal inputs),
found once per case: the oracle judges some sixty answers to one case. Only read."""


def _graph_facts(case: TestCase) -> tuple[nx.Graph, int, float]:
    key = repr(case.input)
    if key not in _GRAPHS:
        g = input_graph(case)
        minimum = nx.minimum_spanning_tree(g).size(weight="weight")
        _GRAPHS[key] = g, nx.number_connected_components(g), minimum
    return _GRAPHS[key]


def oracle(case: TestCase, answer: dict[str, Any]) -> bool:
    """Is ``answer`` a minimum spanning forest of the case's graph? (networkx)"""
    g, components, minimum = _graph_facts(case)
    pairs = [frozenset(edge[:2]) for edge in answer["edges"]]
    if len(set(pairs)) != len(pairs):
        return False
    for u, v, w in answer["edges"]:
        if not g.has_edge(u, v) or g[u][v]["weight"] != w:
            return False
    chosen = nx.Graph([(u, v) for u, v, _ in answer["edges"]])
    chosen.add_nodes_from(g)
    weight = sum(w for _, _, w in answer["edges"])
    return bool(
        nx.is_forest(chosen)
        and nx.number_connected_components(chosen) == components
        and answer["total_weight"] == weight
        and weight == minimum
    )


def pairs(edges: list[Edge]) -> set[frozenset[str]]:
    return {frozenset(e[:2]) for e in edges}


def answer(edges: list[Edge], total: int | None = None) -> dict[str, Any]:
    return {"edges": edges, "total_weight": sum(e[2] for e in edges) if total is None else total}


def minimum_forests(case: TestCase, limit: int = 30) -> Iterator[list[Edge]]:
    """Minimum spanning forests other than the reference's ordering of them."""
    g = input_graph(case)
    best = case.expected["total_weight"]
    if nx.is_connected(g):
        trees = nx.SpanningTreeIterator(g, minimum=True)
        for tree in islice(trees, limit):
            if tree.size(weight="weight") != best:
                return
            yield [[u, v, d["weight"]] for u, v, d in tree.edges(data=True)]
        return
    # A disconnected (edge-tier) graph is small enough to try every edge subset.
    need = len(case.input["vertices"]) - nx.number_connected_components(g)
    for subset in combinations(case.input["edges"], need):
        candidate = answer([list(e) for e in subset])
        if oracle(case, candidate):
            yield candidate["edges"]


def rewritten(edges: list[Edge], rng: random.Random) -> list[Edge]:
    """The same edges in another order, endpoints either way round."""
    out = [[v, u, w] if rng.random() < 0.5 else [u, v, w] for u, v, w in edges]
    rng.shuffle(out)
    return out


def _is_forest(edges: list[Edge]) -> bool:
    """Whether ``edges`` (no two joining the same pair) close no cycle, by union-find:
    ``nx.is_forest`` of their graph, without building one for each of the many swaps
    :func:`mutants` tries."""
    parent: dict[str, str] = {}

    def root(v: str) -> str:
        while parent.setdefault(v, v) != v:
            v = parent[v]
        return v

    for u, v, _ in edges:
        a, b = root(u), root(v)
        if a == b:
            return False
        parent[a] = b
    return True


MUTANT_KINDS = {
    "total+1",
    "total-1",
    "missing edge",
    "missing edge, old total",
    "wrong weight",
    "wrong weight, old total",
    "duplicated edge",
    "heavier swap",
    "edge not in graph",
    "unknown vertex",
    "extra edge (cycle)",
    "extra edge (cycle), old total",
}


def mutants(case: TestCase, rng: random.Random) -> Iterator[tuple[str, dict[str, Any]]]:
    tree: list[Edge] = case.expected["edges"]
    total: int = case.expected["total_weight"]
    g = input_graph(case)
    tree_pairs = pairs(tree)
    others = [e for e in case.input["edges"] if frozenset(e[:2]) not in tree_pairs]
    yield "total+1", answer(tree, total + 1)
    yield "total-1", answer(tree, total - 1)
    for i, (u, v, w) in enumerate(tree):
        rest = tree[:i] + tree[i + 1 :]
        yield "missing edge", answer(rest)
        yield "missing edge, old total", answer(rest, total)
        for delta in (1, -1):
            wrong = [*rest, [u, v, w + delta]]
            yield "wrong weight", answer(wrong)
            yield "wrong weight, old total", answer(wrong, total)
        yield "duplicated edge", answer([*tree, [v, u, w]])
        for x, y, z in others:
            swapped = [*rest, [x, y, z]]
            reconnects = _is_forest(swapped)
            if z > w and reconnects:
                yield "heavier swap", answer(swapped)
        absent = [
            (a, b)
            for a, b in combinations(sorted(case.input["vertices"]), 2)
            if not g.has_edge(a, b)
        ]
        if absent:
            a, b = rng.choice(absent)
            yield "edge not in graph", answer([*rest, [a, b, w]], total)
        yield "unknown vertex", answer([*rest, [u, "Z", w]], total)
    for x, y, z in others:
        yield "extra edge (cycle)", answer([*tree, [x, y, z]])
        yield "extra edge (cycle), old total", answer([*tree, [x, y, z]], total)


def test_the_mutants_forest_check_is_networkx_s() -> None:
    for case in cases()[::6]:
        tree = case.expected["edges"]
        for i in range(len(tree)):
            for edge in case.input["edges"]:
                swapped = [*tree[:i], *tree[i + 1 :], edge]
                if len(pairs(swapped)) == len(swapped):
                    expected = nx.is_forest(nx.Graph([e[:2] for e in swapped]))
                    assert _is_forest(swapped) == expected, swapped


def test_registered_kind() -> None:
    assert VALIDATOR.kind == "mst"
    assert VALIDATOR_REGISTRY["kruskal"] == "mst"


@pytest.mark.parametrize(
    "index", range(len(KEYS)), ids=[case_id(SPEC.name, tier, k) for tier, k in KEYS]
)
def test_accepts_the_reference_answer_in_any_order(index: int) -> None:
    case = cases()[index]
    assert VALIDATOR.validate(case.expected, case.expected, case=case).is_valid
    shuffled = answer(rewritten(case.expected["edges"], random.Random(case.id)))
    assert VALIDATOR.validate(shuffled, case.expected, case=case).is_valid
    assert VALIDATOR.validate(shuffled, case.expected).is_valid


def test_accepts_every_alternative_minimum_spanning_forest() -> None:
    alternatives = {tier: 0 for tier in TIERS}
    rng = random.Random(0)
    for case in cases():
        for forest in minimum_forests(case):
            candidate = answer(rewritten(forest, rng))
            assert oracle(case, candidate)
            verdict = VALIDATOR.validate(candidate, case.expected, case=case)
            assert verdict.is_valid, (case.id, candidate, verdict.message)
            alternatives[case.tier] += pairs(forest) != pairs(case.expected["edges"])
    # Simple and standard graphs have one minimum spanning tree; the edge tier's ties
    # (equal weights above all) give many trees that differ from the reference's.
    assert alternatives["simple"] == alternatives["standard"] == 0
    assert alternatives["edge"] >= 50


@pytest.mark.slow
def test_rejects_every_mutant(rejects_every_mutant: Callable[..., object]) -> None:
    rejects_every_mutant(VALIDATOR, cases(), mutants, oracle, kinds=MUTANT_KINDS)


def test_rejects_every_mutant_without_case_too() -> None:
    # Every mutant changes the total, the set of endpoint pairs, or a stated weight.
    rng = random.Random(2)
    for case in cases():
        for kind, mutant in mutants(case, rng):
            verdict = VALIDATOR.validate(mutant, case.expected)
            assert not verdict.is_valid, (kind, case.id, mutant)


def test_api_reference_example_without_case() -> None:
    verdict = MSTValidator().validate(
        actual={"edges": [("A", "B"), ("B", "C")], "total_weight": 5},
        expected={"edges": [("B", "C"), ("A", "B")], "total_weight": 5},
    )
    assert verdict.is_valid
    assert "no test input" in verdict.message


def test_without_case_another_tied_tree_is_rejected_and_says_why() -> None:
    expected = {"edges": [["A", "B", 1], ["B", "C", 1]], "total_weight": 2}
    other = {"edges": [["A", "B", 1], ["A", "C", 1]], "total_weight": 2}
    verdict = VALIDATOR.validate(other, expected)
    assert not verdict.is_valid
    assert "no test input" in verdict.message


def test_forest_message_names_a_forest() -> None:
    case = next(c for c in cases() if not nx.is_connected(input_graph(c)))
    verdict = VALIDATOR.validate(case.expected, case.expected, case=case)
    assert verdict.is_valid
    assert "forest" in verdict.message


JUNK: list[Any] = [
    None,
    [],
    "edges",
    {},
    {"edges": None, "total_weight": 3},
    {"edges": "AB", "total_weight": 3},
    {"edges": [["A", "B", 1]], "total_weight": "1"},
    {"edges": [["A", "B", 1]], "total_weight": True},
    {"edges": [["A", "B", 1]], "total_weight": 1.0},
    {"edges": [["A", "B"]], "total_weight": 1},
    {"edges": [["A", "B", 1, 2]], "total_weight": 1},
    {"edges": [["A", "A", 1]], "total_weight": 1},
    {"edges": [[1, 2, 3]], "total_weight": 3},
    {"edges": [["A", "B", "1"]], "total_weight": 1},
    {"edges": [["A", "B", True]], "total_weight": 1},
    {"edges": [["A", "B", None]], "total_weight": 1},
    {"edges": [None, 5, "AB", {"u": "A"}], "total_weight": 1},
    {"edges": [[["A"], ["B"], 1]], "total_weight": 1},
    {"edges": [["A", "B", 10**100]], "total_weight": 10**100},
    {"edges": [], "total_weight": -(10**100)},
]


@pytest.mark.parametrize("junk", JUNK)
def test_never_raises_on_junk(junk: Any) -> None:
    for case in cases()[::10]:
        assert not VALIDATOR.validate(junk, case.expected, case=case).is_valid
        VALIDATOR.validate(junk, case.expected)
