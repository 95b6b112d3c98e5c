"""The graph answer schemas and validators: right answers pass, every mutant is refused."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import networkx as nx
import pydantic
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.draws import shared_draw
from verification.catalog.graph.bfs import SPEC as BFS_SPEC
from verification.catalog.graph.bfs import BfsAnswer
from verification.catalog.graph.dijkstra import SPEC as DIJKSTRA_SPEC
from verification.catalog.graph.dijkstra import DijkstraAnswer
from verification.catalog.spec import ScaffoldSpec
from verification.generators.base import TIERS, TestCase
from verification.validators.base import ValidationResult

SPECS = (BFS_SPEC, DIJKSTRA_SPEC)
SPEC = {spec.name: spec for spec in SPECS}
CASES_PER_TIER = 40


def _cases(spec: ScaffoldSpec) -> Iterator[TestCase]:
    for tier in TIERS:
        for index in range(CASES_PER_TIER):
            yield shared_draw(spec, tier, index, seed=7)


def _accepts(spec: ScaffoldSpec, answer: Any, case: TestCase | None) -> bool:
    verdict = spec.validator.validate(answer, case.expected if case else answer, case=case)
    assert isinstance(verdict, ValidationResult)
    return verdict.is_valid


def _distance_mutants(distances: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    finite = [d for d in distances.values() if d is not None]
    for vertex, value in distances.items():
        if value is None:
            for wrong in (0, 1, max(finite) + 1):
                yield f"{vertex} unreachable set to {wrong}", {**distances, vertex: wrong}
        else:
            for wrong in (value + 1, value - 1, None):
                yield f"{vertex} {value} -> {wrong}", {**distances, vertex: wrong}
        dropped = {k: v for k, v in distances.items() if k != vertex}
        yield f"{vertex} left out", dropped
    yield "unknown label", {**distances, "Z" if "Z" not in distances else "a": 0}
    yield "lower-case labels", {k.lower(): v for k, v in distances.items()}


def _descending_order(case: TestCase) -> list[str]:
    inp = case.input
    graph: nx.Graph = nx.DiGraph() if inp["directed"] else nx.Graph()
    graph.add_nodes_from(inp["vertices"])
    graph.add_edges_from(tuple(edge) for edge in inp["edges"])
    reverse = nx.bfs_edges(graph, inp["source"], sort_neighbors=lambda it: sorted(it, reverse=True))
    return [inp["source"], *(v for _, v in reverse)]


def _order_mutants(case: TestCase) -> Iterator[tuple[str, list[str]]]:
    order: list[str] = case.expected["order"]
    distances = case.expected["distances"]
    for i in range(len(order)):
        for j in range(i + 1, len(order)):
            swapped = order[:]
            swapped[i], swapped[j] = swapped[j], swapped[i]
            yield f"swap {i} and {j}", swapped
        yield f"drop {order[i]}", order[:i] + order[i + 1 :]
        yield f"duplicate {order[i]}", order[: i + 1] + order[i:]
    yield "descending tie-break", _descending_order(case)
    yield "sorted by level then label", sorted(order, key=lambda v: (distances[v], v))
    yield "sorted by label", sorted(order)
    yield "unknown label appended", [*order, "Z" if "Z" not in order else "a"]
    for vertex in sorted(v for v, d in distances.items() if d is None):
        yield f"unreachable {vertex} appended", [*order, vertex]


def _rejected(spec: ScaffoldSpec, case: TestCase, wrong: dict[str, Any]) -> bool:
    """A mutant is refused at level 2 (schema) or 3 (validator); it must never pass both."""
    schema_ok = True
    try:
        spec.answer_schema.model_validate(wrong, strict=True)
    except pydantic.ValidationError:
        schema_ok = False
    return not (schema_ok and _accepts(spec, wrong, case))


@pytest.mark.parametrize("name", sorted(SPEC))
def test_reference_answers_pass_schema_and_validator(name: str) -> None:
    spec = SPEC[name]
    for case in _cases(spec):
        spec.answer_schema.model_validate(case.expected, strict=True)
        assert _accepts(spec, copy.deepcopy(case.expected), case), case.id
        assert _accepts(spec, case.expected, None), case.id


@pytest.mark.parametrize("name", sorted(SPEC))
def test_distances_in_another_key_order_pass(name: str) -> None:
    spec = SPEC[name]
    for case in _cases(spec):
        shuffled = dict(reversed(list(case.expected["distances"].items())))
        assert _accepts(spec, {**case.expected, "distances": shuffled}, case), case.id


@pytest.mark.parametrize("name", sorted(SPEC))
def test_distance_mutants_are_rejected(name: str) -> None:
    spec = SPEC[name]
    checked = 0
    for case in _cases(spec):
        for what, distances in _distance_mutants(case.expected["distances"]):
            wrong = {**case.expected, "distances": distances}
            assert not _accepts(spec, wrong, case), f"{case.id}: {what}"
            checked += 1
    assert checked > 1000


def test_bfs_order_mutants_are_rejected() -> None:
    spec = SPEC["bfs"]
    checked = 0
    for case in _cases(spec):
        for what, order in _order_mutants(case):
            if order == case.expected["order"]:
                continue  # e.g. a tie-break that happens to agree on this graph
            wrong = {**case.expected, "order": order}
            assert not _accepts(spec, wrong, case), f"{case.id}: {what}"
            assert _rejected(spec, case, wrong)
            checked += 1
    assert checked > 1000


def test_standard_bfs_rejects_the_opposite_tie_break() -> None:
    spec = SPEC["bfs"]
    for index in range(CASES_PER_TIER):
        case = shared_draw(spec, "standard", index, seed=7)
        wrong = {**case.expected, "order": _descending_order(case)}
        assert not _accepts(spec, wrong, case), case.id


def test_standard_dijkstra_rejects_direct_edge_answers() -> None:
    spec = SPEC["dijkstra"]
    for index in range(CASES_PER_TIER):
        case = shared_draw(spec, "standard", index, seed=7)
        greedy = dict(case.expected["distances"])
        source, directed = case.input["source"], case.input["directed"]
        for u, v, w in case.input["edges"]:
            if u == source:
                greedy[v] = w
            elif v == source and not directed:
                greedy[u] = w
        assert not _accepts(spec, {"distances": greedy}, case), case.id


@pytest.mark.parametrize(
    "answer",
    [
        {"distances": {"A": "3"}},
        {"distances": {"A": 3.5}},
        {"distances": {"A": 3.0}},
        {"distances": {"A": True}},
        {"distances": {"A": -1}},
        {"distances": {"A": "inf"}},
        {"distances": [["A", 0]]},
        {"distances": {"A": 0}, "paths": {}},
        {},
        {"distance": {"A": 0}},
    ],
)
def test_dijkstra_schema_refuses_wrong_shapes(answer: dict[str, Any]) -> None:
    with pytest.raises(pydantic.ValidationError):
        DijkstraAnswer.model_validate(answer, strict=True)


@pytest.mark.parametrize(
    "answer",
    [
        {"order": ["A"], "distances": {"A": "0"}},
        {"order": ["A"], "distances": {"A": 0.5}},
        {"order": ["A"], "distances": {"A": 0}, "visited": ["A"]},
        {"order": "A", "distances": {"A": 0}},
        {"order": ["A", 1], "distances": {"A": 0}},
        {"order": [["A"]], "distances": {"A": 0}},
        {"order": ["A"]},
        {"distances": {"A": 0}},
    ],
)
def test_bfs_schema_refuses_wrong_shapes(answer: dict[str, Any]) -> None:
    with pytest.raises(pydantic.ValidationError):
        BfsAnswer.model_validate(answer, strict=True)


def test_schemas_accept_the_documented_shapes() -> None:
    DijkstraAnswer.model_validate({"distances": {"A": 0, "B": 4, "C": None}}, strict=True)
    BfsAnswer.model_validate({"order": ["A"], "distances": {"A": 0, "B": None}}, strict=True)


labels = st.sampled_from(["A", "B", "C", "D", "E", "Z", "", "é"])
distance_maps = st.dictionaries(labels, st.none() | st.integers(0, 10**30), max_size=6)
junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(
    order=st.lists(labels, max_size=8),
    distances=distance_maps,
    index=st.integers(0, len(TIERS) * CASES_PER_TIER - 1),
)
def test_bfs_validator_never_raises_on_schema_shaped_answers(
    order: list[str], distances: dict[str, Any], index: int
) -> None:
    case = shared_draw(SPEC["bfs"], TIERS[index % 3], index // 3, seed=7)
    _accepts(SPEC["bfs"], {"order": order, "distances": distances}, case)


@settings(max_examples=150, deadline=None)
@given(distances=distance_maps, index=st.integers(0, len(TIERS) * CASES_PER_TIER - 1))
def test_dijkstra_validator_never_raises_on_schema_shaped_answers(
    distances: dict[str, Any], index: int
) -> None:
    case = shared_draw(SPEC["dijkstra"], TIERS[index % 3], index // 3, seed=7)
    _accepts(SPEC["dijkstra"], {"distances": distances}, case)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(answer=junk)
def test_validators_never_raise_on_junk(answer: Any) -> None:
    for spec in SPECS:
        case = shared_draw(spec, "simple", 0, seed=7)
        assert not _accepts(spec, answer, case)
