"""What is peculiar to ``bellman_ford``: its oracle (networkx's Bellman-Ford), a brute
force over simple paths and cycles on small graphs, the tiers' promises, bad inputs."""

from __future__ import annotations

import random
import string
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import stress_case, stress_cells
from verification.cases import TIERS, Tier
from verification.catalog.graph.bellman_ford import (
    BELLMAN_FORD_EDGE_KINDS,
    generate_bellman_ford,
)
from verification.reference.graph import bellman_ford

SEEDS = range(80)


def _digraph(test_input: dict[str, Any]) -> nx.DiGraph:
    """Every edge as arcs (both ways when undirected), the lightest of parallel arcs."""
    graph = nx.DiGraph()
    graph.add_nodes_from(test_input["vertices"])
    for u, v, w in test_input["edges"]:
        for a, b in [(u, v)] if test_input["directed"] else [(u, v), (v, u)]:
            if not graph.has_edge(a, b) or w < graph[a][b]["weight"]:
                graph.add_edge(a, b, weight=w)
    return graph


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when it is ``{"negative_cycle": true, "distances": null}`` exactly when
    networkx finds the distances unbounded, and otherwise networkx's distances with
    ``None`` for unreachable vertices."""
    graph, source = _digraph(test_input), test_input["source"]
    try:
        lengths = nx.single_source_bellman_ford_path_length(graph, source, weight="weight")
    except nx.NetworkXUnbounded:
        return answer == {"negative_cycle": True, "distances": None}
    distances = {v: lengths.get(v) for v in test_input["vertices"]}
    return answer == {"negative_cycle": False, "distances": distances}


def _cycle_weight(graph: nx.DiGraph, cycle: list[str]) -> int:
    weight: int = nx.path_weight(graph, [*cycle, cycle[0]], "weight")
    return weight


def _brute_force(test_input: dict[str, Any]) -> dict[str, Any]:
    """Small graphs only: a negative simple cycle through a reachable vertex, else the
    lightest simple path to each vertex."""
    graph, source = _digraph(test_input), test_input["source"]
    reachable = {source} | nx.descendants(graph, source)
    for cycle in nx.simple_cycles(graph):
        if _cycle_weight(graph, cycle) < 0 and cycle[0] in reachable:
            return {"negative_cycle": True, "distances": None}
    distances: dict[str, int | None] = {}
    for target in test_input["vertices"]:
        if target == source:
            distances[target] = 0
        elif target not in reachable:
            distances[target] = None
        else:
            distances[target] = min(
                nx.path_weight(graph, path, "weight")
                for path in nx.all_simple_paths(graph, source, target)
            )
    return {"negative_cycle": False, "distances": distances}


def test_the_oracle_reports_reachable_negative_cycles_only() -> None:
    cycle = {
        "vertices": ["S", "A", "B"],
        "edges": [["S", "A", 1], ["A", "B", -2], ["B", "A", 1]],
        "directed": True,
        "source": "S",
    }
    assert oracle(cycle, {"negative_cycle": True, "distances": None})
    assert not oracle(cycle, {"negative_cycle": False, "distances": {"S": 0, "A": 1, "B": -1}})
    away = {**cycle, "source": "S", "edges": [["A", "S", 1], ["A", "B", -2], ["B", "A", 1]]}
    assert oracle(away, {"negative_cycle": False, "distances": {"S": 0, "A": None, "B": None}})
    undirected = {**cycle, "edges": [["S", "A", -1]], "directed": False}
    assert oracle(undirected, {"negative_cycle": True, "distances": None})


@pytest.mark.parametrize("tier", TIERS)
def test_the_reference_matches_networkx_on_generated_cases(tier: Tier) -> None:
    low, high = {"simple": (3, 8), "standard": (5, 10), "edge": (4, 10)}[tier]
    for seed in SEEDS:
        size = random.Random(seed).randint(low, high)
        inp = generate_bellman_ford(random.Random(f"bf:{tier}:{seed}"), tier, size)
        assert oracle(inp, bellman_ford(**inp)), inp


def test_the_reference_matches_a_brute_force_on_small_generated_cases() -> None:
    for tier in TIERS:
        for seed in range(25):
            inp = generate_bellman_ford(random.Random(f"brute:{tier}:{seed}"), tier, 6)
            assert bellman_ford(**inp) == _brute_force(inp), inp


def test_the_tiers_keep_their_promises() -> None:
    cycles = 0
    for seed in range(120):
        simple = generate_bellman_ford(random.Random(f"s:{seed}"), "simple", 6)
        answer = bellman_ford(**simple)
        assert not answer["negative_cycle"] and None not in answer["distances"].values()
        assert min(w for *_, w in simple["edges"]) < 0
        standard = generate_bellman_ford(random.Random(f"t:{seed}"), "standard", 8)
        graph = _digraph(standard)
        assert standard["directed"]
        assert nx.descendants(graph, standard["source"]) == set(standard["vertices"]) - {
            standard["source"]
        }
        if bellman_ford(**standard)["negative_cycle"]:
            cycles += 1
            weights = {tuple(c): _cycle_weight(graph, c) for c in nx.simple_cycles(graph)}
            assert all(len(c) >= 3 for c, w in weights.items() if w < 0)
            assert -3 <= min(weights.values()) <= -1
        else:
            # Negative edges matter: a Dijkstra that settles once gets one wrong.
            assert _settles_early(standard)
    assert 15 <= cycles <= 50


def _settles_early(test_input: dict[str, Any]) -> bool:
    """A settle-once Dijkstra (networkx's refuses negative weights) gets a distance wrong."""
    graph, source = _digraph(test_input), test_input["source"]
    settled: dict[str, int] = {}
    best = {source: 0}
    while len(settled) < len(best):
        u = min((d, v) for v, d in best.items() if v not in settled)[1]
        settled[u] = best[u]
        for v in graph.successors(u):
            if v not in settled:
                through = settled[u] + graph[u][v]["weight"]
                best[v] = min(best.get(v, through), through)
    return settled != dict(nx.single_source_bellman_ford_path_length(graph, source))


def test_the_edge_tier_draws_every_kind() -> None:
    seen = set()
    for seed in range(150):
        inp = generate_bellman_ford(random.Random(f"e:{seed}"), "edge", 6)
        answer = bellman_ford(**inp)
        assert oracle(inp, answer)
        graph = _digraph(inp)
        loops = [w for u, v, w in inp["edges"] if u == v]
        if len(inp["vertices"]) == 1:
            seen.add("single")
        elif not inp["directed"]:
            negative = min(w for *_, w in inp["edges"]) < 0
            seen.add("undirected_negative_edge" if negative else "undirected")
        elif loops and min(loops) < 0:
            seen.add("negative_self_loop")
        elif not any(u == inp["source"] for u, _, _ in inp["edges"]):
            seen.add("source_in_edges_only")
        elif None in (answer["distances"] or {}).values():
            cycle_weights = [_cycle_weight(graph, c) for c in nx.simple_cycles(graph)]
            has_negative = bool(cycle_weights) and min(cycle_weights) < 0
            seen.add("unreachable_negative_cycle" if has_negative else "unreachable")
        else:
            weights = [_cycle_weight(graph, c) for c in nx.simple_cycles(graph)]
            if 0 in weights:
                seen.add("zero_cycle")
    assert seen == set(BELLMAN_FORD_EDGE_KINDS)


@st.composite
def _graphs(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 6))
    labels = list(string.ascii_uppercase[:n])
    edge = st.tuples(st.sampled_from(labels), st.sampled_from(labels), st.integers(-4, 9))
    return {
        "vertices": draw(st.permutations(labels)),
        "edges": [list(e) for e in draw(st.lists(edge, max_size=10))],
        "directed": draw(st.booleans()),
        "source": draw(st.sampled_from(labels)),
    }


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(_graphs())
def test_the_reference_matches_networkx_and_the_brute_force_on_any_graph(
    inp: dict[str, Any],
) -> None:
    answer = bellman_ford(**inp)
    assert oracle(inp, answer)
    assert answer == _brute_force(inp)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"vertices": "SA", "edges": [], "source": "S"}, "list of labels"),
        ({"vertices": ["S", "S"], "edges": [], "source": "S"}, "unique"),
        ({"vertices": ["S"], "edges": [], "source": "A"}, "source"),
        ({"vertices": ["S"], "edges": [], "source": "S", "directed": 1}, "directed"),
        ({"vertices": ["S"], "edges": "", "source": "S"}, "edges must be a list"),
        ({"vertices": ["S"], "edges": [["S", "X", 1]], "source": "S"}, "unknown vertex"),
        ({"vertices": ["S"], "edges": [["S", "S"]], "source": "S"}, r"\[u, v, weight\]"),
        ({"vertices": ["S"], "edges": [["S", "S", 1.5]], "source": "S"}, "integer weight"),
        ({"vertices": ["S"], "edges": [["S", "S", True]], "source": "S"}, "integer weight"),
    ],
)
def test_bad_inputs_raise_value_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        bellman_ford(**kwargs)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("bellman_ford"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    case = stress_case("bellman_ford", tier, size, index)
    assert len(case.input["vertices"]) == size
    assert oracle(case.input, case.expected), case.id
