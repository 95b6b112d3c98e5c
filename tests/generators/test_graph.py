"""The graph generators: deterministic, JSON-only, and true to each tier's promise."""

from __future__ import annotations

import functools
import inspect
import random
import string
from collections import Counter
from collections.abc import Callable
from typing import Any

import networkx as nx
import pytest

from verification.catalog.graph.bfs import generate_bfs
from verification.catalog.graph.dijkstra import generate_dijkstra
from verification.generators.base import TIERS, Tier, to_json_data
from verification.generators.graph import MAX_VERTICES, vertex_labels
from verification.reference.graph import bfs, dijkstra

SIZES: dict[Tier, int] = {"simple": 5, "standard": 8, "edge": 5}
SEEDS = range(150)
Generator = Callable[[random.Random, Tier, int], dict[str, Any]]
PAIRS: list[tuple[Generator, Callable[..., dict[str, Any]]]] = [
    (generate_dijkstra, dijkstra),
    (generate_bfs, bfs),
]


def _fresh_draw(
    generator: Generator, tier: Tier, seed: int, size: int | None = None
) -> dict[str, Any]:
    return generator(random.Random(f"gen:{tier}:{seed}"), tier, size or SIZES[tier])


# Drawn once per process and shared: the tests below only read a drawn graph (the references
# leave their input as it is), and most draw the same 150 seeds of a tier again; drawing was
# two thirds of this module's time. The determinism test draws afresh to compare.
_draw = functools.cache(_fresh_draw)


def _graph(inp: dict[str, Any]) -> nx.Graph:
    graph: nx.Graph = nx.DiGraph() if inp["directed"] else nx.Graph()
    graph.add_nodes_from(inp["vertices"])
    for edge in inp["edges"]:
        graph.add_edge(edge[0], edge[1], weight=edge[2] if len(edge) == 3 else 1)
    return graph


def _hops(inp: dict[str, Any]) -> dict[str, int]:
    hops: dict[str, int] = nx.single_source_shortest_path_length(_graph(inp), inp["source"])
    return hops


@pytest.mark.parametrize(("generator", "reference"), PAIRS)
@pytest.mark.parametrize("tier", TIERS)
def test_deterministic_json_with_the_reference_parameters(
    generator: Generator, reference: Callable[..., dict[str, Any]], tier: Tier
) -> None:
    names = set(inspect.signature(reference).parameters)
    drawn = [_draw(generator, tier, seed) for seed in range(40)]
    for seed, inp in enumerate(drawn):
        assert inp == _fresh_draw(generator, tier, seed)
        assert to_json_data(inp) == inp
        assert set(inp) == names
    assert len({repr(inp) for inp in drawn}) > 30


@pytest.mark.parametrize(("generator", "reference"), PAIRS)
@pytest.mark.parametrize("tier", TIERS)
def test_well_formed_graphs(
    generator: Generator, reference: Callable[..., dict[str, Any]], tier: Tier
) -> None:
    arity = 3 if generator is generate_dijkstra else 2
    for seed in SEEDS:
        inp = _draw(generator, tier, seed)
        vertices = inp["vertices"]
        assert vertices == sorted(vertices)
        assert set(vertices) <= set(string.ascii_uppercase)
        assert len(vertices) in (1, SIZES[tier])
        assert isinstance(inp["directed"], bool)
        assert inp["source"] in vertices
        joined = [frozenset(edge[:2]) for edge in inp["edges"]]
        assert all(len(pair) == 2 for pair in joined), "self loop"
        assert len(set(joined)) == len(joined), "parallel edges"
        assert all(len(edge) == arity for edge in inp["edges"])
        reference(**inp)  # accepted as valid input


@pytest.mark.parametrize("generator", [generate_dijkstra, generate_bfs])
def test_simple_is_small_connected_undirected_from_a(generator: Generator) -> None:
    for seed in SEEDS:
        inp = _draw(generator, "simple", seed)
        assert inp["source"] == "A" and not inp["directed"]
        assert len(_hops(inp)) == len(inp["vertices"])
        if generator is generate_dijkstra:
            assert all(1 <= w <= 10 for *_, w in inp["edges"])


@pytest.mark.parametrize("generator", [generate_dijkstra, generate_bfs])
def test_standard_is_reachable_and_deep(generator: Generator) -> None:
    directed = Counter[bool]()
    for seed in SEEDS:
        inp = _draw(generator, "standard", seed)
        hops = _hops(inp)
        assert len(hops) == len(inp["vertices"]) == 8
        assert sum(1 for h in hops.values() if h >= 3) >= 2
        directed[inp["directed"]] += 1
    assert directed[True] and directed[False]


def test_standard_dijkstra_has_a_misleading_direct_edge() -> None:
    for seed in SEEDS:
        inp = _draw(generate_dijkstra, "standard", seed)
        assert all(1 <= w <= 20 for *_, w in inp["edges"])
        graph = _graph(inp)
        source = inp["source"]
        lengths = nx.single_source_dijkstra_path_length(graph, source)
        assert any(graph[source][v]["weight"] > lengths[v] for v in graph.neighbors(source)), inp


def test_standard_bfs_order_depends_on_the_tie_break() -> None:
    for seed in SEEDS:
        inp = _draw(generate_bfs, "standard", seed)
        graph, source = _graph(inp), inp["source"]
        ascending = list(nx.bfs_edges(graph, source, sort_neighbors=sorted))
        descending = list(
            nx.bfs_edges(graph, source, sort_neighbors=lambda it: sorted(it, reverse=True))
        )
        assert [v for _, v in ascending] != [v for _, v in descending], inp


def _dijkstra_edge_kinds(inp: dict[str, Any]) -> set[str]:
    graph, source = _graph(inp), inp["source"]
    lengths = nx.single_source_dijkstra_path_length(graph, source)
    kinds = set()
    if len(inp["vertices"]) == 1 and not inp["edges"]:
        kinds.add("single")
    if len(lengths) < len(inp["vertices"]):
        kinds.add("unreachable")
    if any(w == 0 for *_, w in inp["edges"]):
        kinds.add("zero_weight")
    if any(
        len(list(nx.all_shortest_paths(graph, source, v, weight="weight"))) > 1 for v in lengths
    ):
        kinds.add("ties")
    if inp["directed"] and graph.in_degree(source) > 0 and graph.out_degree(source) == 0:
        kinds.add("source_in_edges_only")
    return kinds


def test_dijkstra_edge_cases_are_degenerate_and_cover_every_kind() -> None:
    seen = Counter[str]()
    for seed in SEEDS:
        inp = _draw(generate_dijkstra, "edge", seed)
        kinds = _dijkstra_edge_kinds(inp)
        assert kinds, inp
        seen.update(kinds)
    assert set(seen) == {"single", "unreachable", "zero_weight", "ties", "source_in_edges_only"}


def test_bfs_edge_cases_are_degenerate_and_cover_every_kind() -> None:
    seen = Counter[str]()
    for seed in SEEDS:
        inp = _draw(generate_bfs, "edge", seed)
        graph, source = _graph(inp), inp["source"]
        if len(inp["vertices"]) == 1:
            seen["single"] += 1
            continue
        assert len(_hops(inp)) < len(inp["vertices"]), inp
        seen["unreachable"] += 1
        if graph.degree(source) == 0 and graph.number_of_edges():
            seen["isolated_source"] += 1
        if inp["directed"] and graph.in_degree(source) and not graph.out_degree(source):
            seen["source_in_edges_only"] += 1
    assert set(seen) == {"single", "unreachable", "isolated_source", "source_in_edges_only"}


def test_standard_vertices_are_not_all_reached_in_label_order() -> None:
    orders = [bfs(**_draw(generate_bfs, "standard", seed))["order"] for seed in SEEDS]
    assert sum(order == sorted(order) for order in orders) < len(orders) // 10


@pytest.mark.parametrize("generator", [generate_dijkstra, generate_bfs])
@pytest.mark.parametrize("size", [6, 7, 12, 26])
def test_standard_keeps_its_promise_at_every_size(generator: Generator, size: int) -> None:
    for seed in range(25):
        inp = _draw(generator, "standard", seed, size)
        hops = _hops(inp)
        assert len(hops) == len(inp["vertices"]) == size
        assert sum(1 for h in hops.values() if h >= 3) >= 2


@pytest.mark.parametrize("generator", [generate_dijkstra, generate_bfs])
@pytest.mark.parametrize(
    ("tier", "size"), [("simple", 2), ("standard", 5), ("edge", 3), ("edge", MAX_VERTICES + 1)]
)
def test_sizes_out_of_range_are_refused(generator: Generator, tier: Tier, size: int) -> None:
    with pytest.raises(ValueError, match="size"):
        generator(random.Random(0), tier, size)


def test_labels_past_26_vertices_are_unique_spreadsheet_columns() -> None:
    """Code mode's size ladder draws graphs of 1,000 vertices: A..Z, then AA, AB, ..."""
    labels = vertex_labels(1000)
    assert len(set(labels)) == 1000
    assert labels[:26] == list(string.ascii_uppercase)
    assert labels[26:28] == ["AA", "AB"] and labels[701:703] == ["ZZ", "AAA"]
    graph = generate_dijkstra(random.Random(0), "standard", 300)
    assert len(set(graph["vertices"])) == 300


def _listed_extra_pairs(
    rng: random.Random, labels: list[str], taken: list[tuple[str, str]], count: int
) -> list[tuple[str, str]]:
    """extra_pairs as it was: every free pair listed, then sampled."""
    joined = {frozenset(p) for p in taken}
    free = [(u, v) for i, u in enumerate(labels) for v in labels[i + 1 :] if {u, v} not in joined]
    chosen = rng.sample(free, min(count, len(free)))
    return [(v, u) if rng.random() < 0.5 else (u, v) for u, v in chosen]


def test_extra_pairs_draws_the_pairs_listing_every_free_pair_drew() -> None:
    """The free pairs are found by bisection, not listed (half a million at 1,000 vertices):
    the same pairs come out of the same rng, whatever is joined and however many are asked,
    the sample's small-population and large-population ways both."""
    from verification.generators.graph import _FreePairs, deep_tree_pairs, extra_pairs

    shapes = random.Random(3)
    for trial in range(100):
        n = shapes.choice([1, 2, 3, 5, 8, 13, 30, 60])
        labels = vertex_labels(n)
        shapes.shuffle(labels)
        taken = deep_tree_pairs(shapes, labels, labels[0]) if n > 1 else []
        taken += [
            (shapes.choice(labels), shapes.choice(labels)) for _ in range(shapes.randint(0, 4))
        ]
        taken += [("outside", labels[0])]
        count = shapes.choice([0, 1, 3, n, n * n])
        joined = {frozenset(p) for p in taken}
        listed = [
            (u, v) for i, u in enumerate(labels) for v in labels[i + 1 :] if {u, v} not in joined
        ]
        assert list(_FreePairs(labels, taken)) == listed, (trial, labels, taken)
        seed = f"extra:{trial}"
        drawn = extra_pairs(random.Random(seed), labels, taken, count)
        assert drawn == _listed_extra_pairs(random.Random(seed), labels, taken, count), trial
