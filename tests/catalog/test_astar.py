"""What is peculiar to ``astar``: its oracle (networkx's shortest path length and the path
checked edge by edge), the reference against networkx on generated and hypothesis graphs,
the tier promises, bad inputs."""

from __future__ import annotations

import heapq
import random
import string
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import in_label_order, stress_case, stress_cells
from verification.cases import TIERS, Tier
from verification.catalog.graph.astar import ASTAR_EDGE_KINDS, generate_astar
from verification.reference.graph import astar

SEEDS = range(60)


def _graph(test_input: dict[str, Any]) -> nx.Graph:
    graph: nx.Graph = nx.DiGraph() if test_input["directed"] else nx.Graph()
    graph.add_nodes_from(test_input["vertices"])
    for u, v, weight in test_input["edges"]:
        if not graph.has_edge(u, v) or weight < graph[u][v]["weight"]:
            graph.add_edge(u, v, weight=weight)
    return graph


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()  # any cheapest path


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when the goal is unreachable (networkx) and both keys are null, or when
    ``path`` runs from source to goal along edges of the graph, repeats no vertex, and
    weighs ``cost``, networkx's shortest path length."""
    graph, source, goal = _graph(test_input), test_input["source"], test_input["goal"]
    if not nx.has_path(graph, source, goal):
        return answer == {"path": None, "cost": None}
    path, cost = answer.get("path"), answer.get("cost")
    if set(answer) != {"path", "cost"} or not isinstance(path, list) or not path:
        return False
    if path[0] != source or path[-1] != goal or len(set(path)) != len(path):
        return False
    if not nx.is_path(graph, path):
        return False
    length = nx.path_weight(graph, path, weight="weight") if len(path) > 1 else 0
    best = nx.shortest_path_length(graph, source, goal, weight="weight")
    return type(cost) is int and cost == length == best


def _networkx_cost(test_input: dict[str, Any]) -> int | None:
    graph = _graph(test_input)
    h = test_input["heuristic"]
    try:
        cost: int = nx.astar_path_length(
            graph, test_input["source"], test_input["goal"], lambda v, _: h[v], weight="weight"
        )
    except nx.NetworkXNoPath:
        return None
    return cost


def _is_consistent(test_input: dict[str, Any]) -> bool:
    graph, h = _graph(test_input), test_input["heuristic"]
    arcs = graph.edges(data="weight")
    pairs = list(arcs) + ([] if test_input["directed"] else [(v, u, w) for u, v, w in arcs])
    return h[test_input["goal"]] == 0 and all(h[u] <= w + h[v] for u, v, w in pairs)


def _greedy_cost(test_input: dict[str, Any]) -> int | None:
    """Greedy best-first search by ``h`` alone (ties by label), written afresh here."""
    graph, h = _graph(test_input), test_input["heuristic"]
    source, goal = test_input["source"], test_input["goal"]
    parent: dict[str, str] = {}
    heap, seen = [(h[source], source)], {source}
    while heap:
        _, u = heapq.heappop(heap)
        if u == goal:
            path = [goal]
            while path[-1] != source:
                path.append(parent[path[-1]])
            return int(nx.path_weight(graph, path[::-1], weight="weight"))
        for v in graph.successors(u) if graph.is_directed() else graph.neighbors(u):
            if v not in seen:
                seen.add(v)
                parent[v] = u
                heapq.heappush(heap, (h[v], v))
    return None


def _case(tier: Tier, seed: int, size: int | None = None) -> dict[str, Any]:
    size = size if size is not None else random.Random(seed).randint(6, 16)
    result: dict[str, Any] = generate_astar(random.Random(f"astar:{tier}:{seed}"), tier, size)
    return result


def test_the_oracle_accepts_any_cheapest_path_and_nothing_else() -> None:
    test_input = {
        "vertices": ["S", "A", "B", "G"],
        "edges": [["S", "A", 1], ["A", "G", 2], ["S", "B", 2], ["B", "G", 1], ["S", "G", 5]],
        "directed": False,
        "source": "S",
        "goal": "G",
        "heuristic": {"S": 2, "A": 2, "B": 1, "G": 0},
    }
    assert oracle(test_input, {"path": ["S", "A", "G"], "cost": 3})
    assert oracle(test_input, {"path": ["S", "B", "G"], "cost": 3})
    assert not oracle(test_input, {"path": ["S", "G"], "cost": 5})
    assert not oracle(test_input, {"path": ["S", "G"], "cost": 3})
    assert not oracle(test_input, {"path": ["S", "A", "G"], "cost": 4})
    assert not oracle(test_input, {"path": None, "cost": None})
    unreachable = {**test_input, "edges": [["S", "A", 1]]}
    assert oracle(unreachable, {"path": None, "cost": None})


@pytest.mark.parametrize("tier", TIERS)
def test_astar_matches_networkx_on_generated_cases(tier: Tier) -> None:
    for seed in SEEDS:
        test_input = _case(tier, seed)
        answer = astar(**test_input)
        assert oracle(test_input, answer), (test_input, answer)
        assert answer["cost"] == _networkx_cost(test_input)


@pytest.mark.parametrize("tier", TIERS)
def test_generated_heuristics_are_consistent(tier: Tier) -> None:
    for seed in SEEDS:
        assert _is_consistent(_case(tier, seed))


@pytest.mark.parametrize("tier", ["simple", "standard"])
def test_simple_and_standard_have_one_cheapest_path_to_a_distant_goal(tier: Tier) -> None:
    for seed in SEEDS:
        test_input = _case(tier, seed)
        graph, source, goal = _graph(test_input), test_input["source"], test_input["goal"]
        paths = list(nx.all_shortest_paths(graph, source, goal, weight="weight"))
        assert len(paths) == 1
        hops = nx.shortest_path_length(graph, source, goal)
        assert hops >= (3 if tier == "standard" else 2)
        if tier == "standard":
            assert nx.descendants(graph, source) | {source} == set(test_input["vertices"])
            # The heuristic misleads a greedy search: expanding by h alone pays more.
            greedy = _greedy_cost(test_input)
            assert greedy is not None and greedy > astar(**test_input)["cost"]


def test_the_edge_tier_draws_every_kind_of_degenerate_instance() -> None:
    seen = set()
    for seed in range(200):
        test_input = _case("edge", seed, size=6)
        answer = astar(**test_input)
        graph, source, goal = _graph(test_input), test_input["source"], test_input["goal"]
        h = test_input["heuristic"]
        if source == goal:
            seen.add("source_is_goal")
        elif answer["cost"] is None:
            seen.add("unreachable")
        else:
            if len(list(nx.all_shortest_paths(graph, source, goal, weight="weight"))) > 1:
                seen.add("ties")
            if any(graph[u][v]["weight"] == 0 for u, v in nx.utils.pairwise(answer["path"])):
                seen.add("zero_weight")
            if all(value == 0 for value in h.values()):
                seen.add("zero_heuristic")
            if h[source] == answer["cost"] and len(set(h.values())) > 1:
                seen.add("exact_heuristic")
            greedy = _greedy_cost(test_input)
            if greedy is not None and greedy > answer["cost"]:
                seen.add("misleading")
    assert seen == set(ASTAR_EDGE_KINDS)


def test_a_heuristic_function_gives_the_table_answer() -> None:
    test_input = _case("standard", 3)
    table = test_input["heuristic"]
    assert astar(**{**test_input, "heuristic": table.__getitem__}) == astar(**test_input)


@st.composite
def _graphs(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 8))
    labels = list(string.ascii_uppercase[:n])
    edges = draw(
        st.lists(
            st.tuples(st.sampled_from(labels), st.sampled_from(labels), st.integers(0, 9)),
            max_size=14,
        )
    )
    directed = draw(st.booleans())
    source, goal = draw(st.sampled_from(labels)), draw(st.sampled_from(labels))
    test_input = {
        "vertices": labels,
        "edges": [list(e) for e in edges],
        "directed": directed,
        "source": source,
        "goal": goal,
        "heuristic": dict.fromkeys(labels, 0),
    }
    if draw(st.booleans()):
        # The exact remaining distance: the strongest consistent heuristic.
        graph = _graph(test_input)
        back = graph.reverse() if directed else graph
        exact = nx.single_source_dijkstra_path_length(back, goal, weight="weight")
        top = max(exact.values()) + draw(st.integers(0, 5))
        test_input["heuristic"] = {v: exact.get(v, top) for v in labels}
    return test_input


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(_graphs())
def test_astar_matches_networkx_on_hypothesis_graphs(test_input: dict[str, Any]) -> None:
    answer = astar(**test_input)
    assert oracle(test_input, answer), (test_input, answer)


def _tiny() -> dict[str, Any]:
    return {
        "vertices": ["S", "A", "G"],
        "edges": [["S", "A", 2], ["A", "G", 3]],
        "directed": False,
        "source": "S",
        "goal": "G",
        "heuristic": {"S": 5, "A": 3, "G": 0},
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"goal": "X"}, "goal"),
        ({"source": "X"}, "source"),
        ({"edges": [["S", "A", -1]]}, "non-negative"),
        ({"edges": [["S", "A", True]]}, "non-negative"),
        ({"edges": [["S", "X", 1]]}, "unknown vertex"),
        ({"heuristic": {"S": 5, "A": 3}}, "no value"),
        ({"heuristic": {"S": 5, "A": 3, "G": 0, "X": 1}}, "unknown"),
        ({"heuristic": {"S": 5, "A": 3, "G": 1}}, "0 at the goal"),
        ({"heuristic": {"S": 6, "A": 3, "G": 0}}, "not consistent"),
        ({"heuristic": {"S": 5, "A": -1, "G": 0}}, "non-negative"),
        ({"heuristic": {"S": 5.0, "A": 3, "G": 0}}, "non-negative integer"),
        ({"heuristic": [5, 3, 0]}, "table or a function"),
        ({"directed": "no"}, "directed"),
        ({"vertices": ["S", "S", "A", "G"]}, "unique"),
    ],
)
def test_bad_inputs_raise_value_error(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        astar(**{**_tiny(), **change})


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("astar"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    case = stress_case("astar", tier, size, index)
    assert len(case.input["vertices"]) == size
    assert oracle(case.input, case.expected), case.id


def test_equal_f_values_expand_in_ascending_label_order_past_z() -> None:
    # Two equal routes from A to C, through B and through AA: the first expanded is kept.
    middles = ["AA", "B"]
    edges = [[end, middle, 1] for middle in middles for end in ("A", "C")]
    heuristic = dict.fromkeys(["A", "B", "C", "AA"], 0)
    answer = astar(["A", "B", "C", "AA"], edges, "A", "C", heuristic)
    assert answer == {"path": ["A", in_label_order(middles)[0], "C"], "cost": 2}
