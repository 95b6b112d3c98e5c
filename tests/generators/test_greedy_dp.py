"""Generators of ``kruskal`` and ``knapsack_01``: pure, JSON-only, tier promises kept."""

from __future__ import annotations

import random
from collections import Counter
from itertools import islice, pairwise
from math import prod
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.catalog.dynamic_programming import knapsack_01 as dynamic_programming
from verification.catalog.dynamic_programming.knapsack_01 import (
    KNAPSACK_EDGE_KINDS,
    count_optimal_sets,
    generate_knapsack_01,
    optimal_item_sets,
)
from verification.catalog.greedy import kruskal as greedy
from verification.catalog.greedy.kruskal import KRUSKAL_EDGE_KINDS, generate_kruskal
from verification.catalog.spec import InputGenerator
from verification.generators.base import TIERS, Tier, to_json_data
from verification.generators.graph import MAX_VERTICES, has_unique_minimum_spanning_forest
from verification.registry import get_spec

SEEDS = range(150)
MANY_SEEDS = range(500)
UNIQUE_TIERS: tuple[Tier, ...] = ("simple", "standard")
GENERATORS: dict[str, InputGenerator] = {
    "kruskal": generate_kruskal,
    "knapsack_01": generate_knapsack_01,
}


def draw(name: str, tier: Tier, seed: int) -> dict[str, Any]:
    return GENERATORS[name](random.Random(seed), tier, get_spec(name).sizes[tier])


@pytest.mark.parametrize("name", GENERATORS)
@pytest.mark.parametrize("tier", TIERS)
def test_deterministic_json_only_and_accepted_by_the_reference(name: str, tier: Tier) -> None:
    reference = get_spec(name).reference
    for seed in range(40):
        first = draw(name, tier, seed)
        assert first == draw(name, tier, seed)
        assert to_json_data(first) == first
        assert type(to_json_data(first)) is dict
        reference(**first)


def test_spec_sizes() -> None:
    assert dict(get_spec("kruskal").sizes) == {"simple": 4, "standard": 7, "edge": 5}
    assert dict(get_spec("knapsack_01").sizes) == {"simple": 4, "standard": 7, "edge": 5}


# kruskal


def as_graph(graph: dict[str, Any]) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(graph["vertices"])
    g.add_weighted_edges_from(graph["edges"])
    return g


def assert_simple_graph(graph: dict[str, Any]) -> None:
    assert graph["directed"] is False
    labels = graph["vertices"]
    assert len(set(labels)) == len(labels)
    assert all(len(label) == 1 and "A" <= label <= "Z" for label in labels)
    pairs = [frozenset(edge[:2]) for edge in graph["edges"]]
    assert len(set(pairs)) == len(pairs)
    for u, v, w in graph["edges"]:
        assert u != v and u in labels and v in labels
        assert isinstance(w, int) and not isinstance(w, bool)


def kruskal_kind(graph: dict[str, Any]) -> str | None:
    """Which degenerate kind an edge-tier graph is, or None if it is none of them."""
    g = as_graph(graph)
    weights = [w for _, _, w in graph["edges"]]
    if len(graph["vertices"]) == 1:
        return "single_vertex"
    if not nx.is_connected(g):
        return "disconnected"
    if any(w < 0 for w in weights):
        return "negative_weights"
    if nx.is_tree(g):
        return "already_tree"
    if len(set(weights)) == 1:
        return "equal_weights"
    return None


def test_kruskal_simple_is_small_connected_with_edges_to_reject() -> None:
    for seed in SEEDS:
        graph = draw("kruskal", "simple", seed)
        assert_simple_graph(graph)
        assert len(graph["vertices"]) == 4
        assert nx.is_connected(as_graph(graph))
        assert len(graph["edges"]) > 3


def test_kruskal_standard_is_connected_with_ties_and_many_rejections() -> None:
    for seed in SEEDS:
        graph = draw("kruskal", "standard", seed)
        assert_simple_graph(graph)
        n = len(graph["vertices"])
        assert n == 7
        assert nx.is_connected(as_graph(graph))
        assert len(graph["edges"]) - (n - 1) >= n - 2
        weights = [w for _, _, w in graph["edges"]]
        assert all(1 <= w <= 20 for w in weights)
        assert len(set(weights)) < len(weights)  # a tie, but one that cannot change the tree


def minimum_spanning_forests(graph: dict[str, Any]) -> int:
    """How many minimum spanning forests the graph has, counted up to 2 (networkx)."""
    g = as_graph(graph)
    counts = []
    for component in nx.connected_components(g):
        sub = g.subgraph(component)
        if sub.number_of_edges() == 0:
            continue
        trees = list(islice(nx.SpanningTreeIterator(sub, minimum=True), 2))
        weights = [tree.size(weight="weight") for tree in trees]
        counts.append(2 if len(weights) == 2 and weights[0] == weights[1] else 1)
    return min(2, prod(counts))


def minimum_spanning_forests_by_swaps(graph: dict[str, Any]) -> int:
    """:func:`minimum_spanning_forests` by the cycle property, a few times cheaper than
    networkx's enumeration of spanning trees (the two agree on every graph of
    ``test_kruskal_uniqueness_check_agrees_with_networkx``): one minimum spanning forest
    has company exactly when an edge left out of it weighs as much as the heaviest edge on
    the forest's path between its ends (swapping the two keeps the weight)."""
    g = as_graph(graph)
    forest = nx.minimum_spanning_tree(g)
    for u, v, weight in graph["edges"]:
        if forest.has_edge(u, v):
            continue
        path = nx.shortest_path(forest, u, v)
        if max(forest[a][b]["weight"] for a, b in pairwise(path)) == weight:
            return 2
    return 1


@pytest.mark.slow
@pytest.mark.parametrize("tier", UNIQUE_TIERS)
def test_kruskal_simple_and_standard_have_exactly_one_minimum_spanning_tree(tier: Tier) -> None:
    for seed in MANY_SEEDS:
        graph = draw("kruskal", tier, seed)
        assert minimum_spanning_forests_by_swaps(graph) == 1, (seed, graph)


def test_kruskal_edge_tier_still_has_tied_minimum_spanning_trees() -> None:
    tied = 0
    for seed in SEEDS:
        graph = draw("kruskal", "edge", seed)
        several = minimum_spanning_forests_by_swaps(graph) > 1
        if kruskal_kind(graph) == "equal_weights":
            assert several, (seed, graph)
        tied += several
    assert tied >= 0.1 * len(SEEDS)


@st.composite
def weighted_graphs(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 6))
    vertices = [chr(ord("A") + i) for i in range(n)]
    pairs = [(u, v) for i, u in enumerate(vertices) for v in vertices[i + 1 :]]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    edges = [[u, v, draw(st.integers(-3, 4))] for u, v in chosen]
    return {"vertices": vertices, "edges": edges, "directed": False}


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(weighted_graphs())
def test_kruskal_uniqueness_check_agrees_with_networkx(graph: dict[str, Any]) -> None:
    forests = minimum_spanning_forests(graph)
    assert has_unique_minimum_spanning_forest(graph["edges"]) == (forests == 1)
    assert minimum_spanning_forests_by_swaps(graph) == forests


def test_kruskal_edge_tier_is_degenerate_and_covers_every_kind() -> None:
    kinds: Counter[str | None] = Counter()
    for seed in SEEDS:
        graph = draw("kruskal", "edge", seed)
        assert_simple_graph(graph)
        assert 1 <= len(graph["vertices"]) <= 5
        kinds[kruskal_kind(graph)] += 1
    assert None not in kinds
    assert set(kinds) == set(KRUSKAL_EDGE_KINDS)


def test_kruskal_rejects_impossible_sizes() -> None:
    for size in (0, MAX_VERTICES + 1):
        with pytest.raises(ValueError, match="vertices"):
            generate_kruskal(random.Random(0), "standard", size)


# knapsack_01


def greedy_by_ratio(case: dict[str, Any]) -> int:
    order = sorted(
        range(len(case["weights"])), key=lambda i: -case["values"][i] / case["weights"][i]
    )
    room, value = case["capacity"], 0
    for i in order:
        if case["weights"][i] <= room:
            room -= case["weights"][i]
            value += case["values"][i]
    return value


def assert_items(case: dict[str, Any]) -> None:
    assert len(case["weights"]) == len(case["values"])
    for number in [*case["weights"], *case["values"], case["capacity"]]:
        assert isinstance(number, int) and not isinstance(number, bool) and number >= 0


def knapsack_kind(case: dict[str, Any]) -> str | None:
    weights, capacity = case["weights"], case["capacity"]
    if not weights:
        return "no_items"
    if capacity == 0:
        return "zero_capacity"
    if all(w > capacity for w in weights):
        return "all_too_heavy"
    if capacity in weights:
        return "weight_equals_capacity"
    if len(optimal_item_sets(**case)[1]) > 1:
        return "tied_optima"
    return None


@pytest.mark.parametrize("tier", ["simple", "standard"])
def test_knapsack_capacity_is_about_half_the_total_weight(tier: Tier) -> None:
    size = get_spec("knapsack_01").sizes[tier]
    greedy_misses = 0
    for seed in SEEDS:
        case = draw("knapsack_01", tier, seed)
        assert_items(case)
        assert len(case["weights"]) == size
        assert all(w >= 1 for w in case["weights"])
        total = sum(case["weights"])
        assert 0.4 * total - 0.5 <= case["capacity"] <= 0.6 * total + 0.5
        optimum, _ = optimal_item_sets(**case)
        greedy_misses += greedy_by_ratio(case) < optimum
    if tier == "standard":
        assert 0.1 * len(SEEDS) <= greedy_misses <= 0.9 * len(SEEDS)


@pytest.mark.parametrize("tier", UNIQUE_TIERS)
def test_knapsack_simple_and_standard_have_exactly_one_optimal_set(tier: Tier) -> None:
    for seed in MANY_SEEDS:
        case = draw("knapsack_01", tier, seed)
        assert len(optimal_item_sets(**case)[1]) == 1, (seed, case)


def test_knapsack_edge_tier_still_has_tied_optima() -> None:
    tied = sum(len(optimal_item_sets(**draw("knapsack_01", "edge", seed))[1]) > 1 for seed in SEEDS)
    assert tied >= 0.1 * len(SEEDS)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 5)), max_size=8),
    st.integers(0, 20),
)
def test_knapsack_optimum_count_agrees_with_brute_force(
    items: list[tuple[int, int]], capacity: int
) -> None:
    weights, values = [w for w, _ in items], [v for _, v in items]
    sets = optimal_item_sets(weights, values, capacity)[1]
    assert count_optimal_sets(weights, values, capacity) == min(2, len(sets))


def test_the_optimum_count_on_arrays_is_the_loop_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """Large instances count on whole arrays: the same counts as the loop, ties, items
    heavier than the capacity and weightless items included."""
    from verification.catalog.dynamic_programming.knapsack_01 import (
        _count_optimal_sets_in_arrays,
    )

    rng = random.Random(4)
    for trial in range(80):
        n = rng.randint(0, 12)
        weights = [rng.randint(0, 9) for _ in range(n)]
        values = [rng.randint(0, rng.choice((3, 50))) for _ in range(n)]
        capacity = rng.randint(0, 30)
        cap = rng.choice((1, 2, 5))
        loop = count_optimal_sets(weights, values, capacity, cap)
        assert _count_optimal_sets_in_arrays(weights, values, capacity, cap) == loop, trial
    weights = [rng.randint(1, 60) for _ in range(60)]
    values = [rng.randint(1, 60) for _ in range(60)]
    arrays = count_optimal_sets(weights, values, sum(weights) // 2)  # past _ARRAY_CELLS
    # The same instance counted by the loop: no instance is large enough for the arrays.
    monkeypatch.setattr(dynamic_programming, "_ARRAY_CELLS", len(weights) * sum(weights))
    assert arrays == count_optimal_sets(weights, values, sum(weights) // 2)


def test_knapsack_edge_tier_is_degenerate_and_covers_every_kind() -> None:
    kinds: Counter[str | None] = Counter()
    for seed in SEEDS:
        case = draw("knapsack_01", "edge", seed)
        assert_items(case)
        assert len(case["weights"]) <= 5
        kinds[knapsack_kind(case)] += 1
    assert None not in kinds
    assert set(kinds) == set(KNAPSACK_EDGE_KINDS)


def test_knapsack_edge_tier_of_size_one_stays_within_one_item() -> None:
    for seed in range(60):
        case = generate_knapsack_01(random.Random(seed), "edge", 1)
        assert len(case["weights"]) <= 1


# the fallbacks once the draws run out (not reached in practice)


def test_fallbacks_keep_the_promises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(greedy, "_UNIQUE_ATTEMPTS", 0)
    monkeypatch.setattr(dynamic_programming, "_UNIQUE_ATTEMPTS", 0)
    for seed in range(60):
        graph = draw("kruskal", "standard", seed)
        weights = [w for _, _, w in graph["edges"]]
        assert len(set(weights)) < len(weights)
        assert all(1 <= w <= 20 for w in weights)
        assert minimum_spanning_forests(graph) == 1
        for tier in UNIQUE_TIERS:
            case = draw("knapsack_01", tier, seed)
            assert_items(case)
            total = sum(case["weights"])
            assert 0.4 * total - 0.5 <= case["capacity"] <= 0.6 * total + 0.5
            assert len(optimal_item_sets(**case)[1]) == 1
