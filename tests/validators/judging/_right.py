"""Right answers unlike the reference's, found by brute force from each scaffold's words,
so the differential tests see the validator judge many right answers, not only the spec's
few ``alternatives``: other colourings, subsets, optimal sets, longest subsequences,
optimal orders, cheapest paths, linear extensions and cycles, Huffman codes with ties broken
and branches labelled either way, Kruskal's runs with ties taken in any order.

``right_answers(oracles, name, input, rng)`` gives a few, drawn at random; an empty list
where the scaffold has no such enumeration here (its alternatives hook and the edits still
apply).
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
from typing import Any

import networkx as nx

__all__ = ["right_answers"]

Oracles = Mapping[str, ModuleType]
Found = Callable[[Oracles, dict[str, Any], random.Random], list[Any]]
PER_CASE = 6


def _some(answers: Iterator[Any] | list[Any], rng: random.Random, limit: int = 400) -> list[Any]:
    pool = list(itertools.islice(answers, limit))
    return rng.sample(pool, min(PER_CASE, len(pool)))


def _subsets(n: int) -> Iterator[tuple[int, ...]]:
    return itertools.chain.from_iterable(itertools.combinations(range(n), k) for k in range(n + 1))


def _graph_coloring(oracles: Oracles, inp: dict[str, Any], rng: random.Random) -> list[Any]:
    vertices, k = inp["vertices"], inp["num_colors"]
    draws = ([rng.randint(1, k) for _ in vertices] for _ in range(300))
    proper = (
        {"colorable": True, "coloring": dict(zip(vertices, colours, strict=True))}
        for colours in draws
        if all(colours[vertices.index(u)] != colours[vertices.index(v)] for u, v in inp["edges"])
    )
    return _some(proper, rng)


def _subset_sum(oracles: Oracles, inp: dict[str, Any], rng: random.Random) -> list[Any]:
    numbers, target = inp["numbers"], inp["target"]
    hits = [list(s) for s in _subsets(len(numbers)) if sum(numbers[i] for i in s) == target]
    for hit in hits:
        rng.shuffle(hit)  # "any order"
    return [{"found": True, "indices": hit} for hit in _some(hits, rng)]


def _knapsack_01(oracles: Oracles, inp: dict[str, Any], rng: random.Random) -> list[Any]:
    weights, values = inp["weights"], inp["values"]
    fitting = [s for s in _subsets(len(weights)) if sum(weights[i] for i in s) <= inp["capacity"]]
    best = max(sum(values[i] for i in s) for s in fitting)
    optimal = [s for s in fitting if sum(values[i] for i in s) == best]
    return [{"max_value": best, "selected_items": list(s)} for s in _some(optimal, rng)]


def _lcs(oracles: Oracles, inp: dict[str, Any], rng: random.Random) -> list[Any]:
    length, every = oracles["lcs"]._all_longest(inp["a"], inp["b"])
    return [{"length": length, "subsequence": s} for s in _some(sorted(every), rng)]


def _lis(oracles: Oracles, inp: dict[str, Any], rng: random.Random) -> list[Any]:
    every = sorted(oracles["lis"]._brute_force(inp["sequence"]))
    return [{"length": len(s), "subsequence": list(s)} for s in _some(every, rng)]


def _matrix_chain(oracles: Oracles, inp: dict[str, Any], rng: random.Random) -> list[Any]:
    orders = oracles["matrix_chain"]._orders(inp["dimensions"])
    least = min(orders.values())
    optimal = sorted(text for text, cost in orders.items() if cost == least)
    return [{"min_cost": least, "parenthesization": t} for t in _some(optimal, rng)]


def _astar(oracles: Oracles, inp: dict[str, Any], rng: random.Random) -> list[Any]:
    graph = oracles["astar"]._graph(inp)
    source, goal = inp["source"], inp["goal"]
    if not nx.has_path(graph, source, goal):
        return []
    cost = nx.shortest_path_length(graph, source, goal, weight="weight")
    paths = (
        path
        for path in nx.all_simple_paths(graph, source, goal, cutoff=8)
        if nx.path_weight(graph, path, weight="weight") == cost
    )
    return [{"path": path, "cost": cost} for path in _some(paths, rng, limit=50)]


def _topological_sort(oracles: Oracles, inp: dict[str, Any], rng: random.Random) -> list[Any]:
    graph = nx.DiGraph()
    graph.add_nodes_from(inp["vertices"])
    graph.add_edges_from(tuple(edge) for edge in inp["edges"])
    if nx.is_directed_acyclic_graph(graph):
        orders = nx.all_topological_sorts(graph)
        return [{"order": o, "has_cycle": False, "cycle": None} for o in _some(orders, rng, 200)]
    cycles = []
    for cycle in itertools.islice(nx.simple_cycles(graph), 50):
        turn = rng.randrange(len(cycle))  # "starting anywhere on it"
        cycles.append(cycle[turn:] + cycle[:turn])
    return [{"order": None, "has_cycle": True, "cycle": c} for c in _some(cycles, rng)]


def _activity_selection(oracles: Oracles, inp: dict[str, Any], rng: random.Random) -> list[Any]:
    activities = inp["activities"]
    compatible = [
        [activities[i] for i in chosen]
        for chosen in _subsets(len(activities))
        if all(
            a[2] <= b[1] or b[2] <= a[1]
            for a, b in itertools.combinations([activities[i] for i in chosen], 2)
        )
    ]
    largest = max(len(chosen) for chosen in compatible)
    best = [[a[0] for a in chosen] for chosen in compatible if len(chosen) == largest]
    for labels in best:
        rng.shuffle(labels)  # "any order is accepted"
    return [{"selected": labels, "count": largest} for labels in _some(best, rng)]


def _label(node: Any, prefix: str, codes: dict[str, str], rng: random.Random) -> None:
    """Codewords of a merge tree, each node's two branches labelled 0 and 1 either way."""
    if isinstance(node, str):
        codes[node] = prefix
        return
    left, right = node if rng.random() < 0.5 else node[::-1]
    _label(left, prefix + "0", codes, rng)
    _label(right, prefix + "1", codes, rng)


def _huffman(oracles: Oracles, inp: dict[str, Any], rng: random.Random) -> list[Any]:
    """Huffman's merging with ties broken at random and each node's branches labelled
    either way: "any optimal prefix-free code is accepted"."""
    frequencies: dict[str, int] = inp["frequencies"]
    if len(frequencies) < 2:
        return []  # one right answer at most: a lone symbol's code is "0"
    answers = []
    for _ in range(PER_CASE):
        heap: list[tuple[int, float, Any]] = [(f, rng.random(), s) for s, f in frequencies.items()]
        heapq.heapify(heap)
        while len(heap) > 1:
            first, second = heapq.heappop(heap), heapq.heappop(heap)
            heapq.heappush(heap, (first[0] + second[0], rng.random(), (first[2], second[2])))
        codes: dict[str, str] = {}
        _label(heap[0][2], "", codes, rng)
        total = sum(frequencies[s] * len(code) for s, code in codes.items())
        answers.append({"codes": codes, "total_bits": total})
    return answers


def _root(parent: dict[str, str], v: str) -> str:
    while parent[v] != v:
        v = parent[v]
    return v


def _kruskal(oracles: Oracles, inp: dict[str, Any], rng: random.Random) -> list[Any]:
    """Kruskal's scan with equal weights taken in a random order: every run the scaffold's
    words allow ("list the edges in the order you accepted them")."""
    answers = []
    for _ in range(PER_CASE):
        edges = [(w, rng.random(), min(u, v), max(u, v)) for u, v, w in inp["edges"]]
        parent = {v: v for v in inp["vertices"]}
        tree = []
        for w, _, u, v in sorted(edges):
            if _root(parent, u) != _root(parent, v):
                parent[_root(parent, u)] = _root(parent, v)
                tree.append([u, v, w])
        answers.append({"edges": tree, "total_weight": sum(e[2] for e in tree)})
    return answers


FOUND: dict[str, Found] = {
    "graph_coloring": _graph_coloring,
    "subset_sum": _subset_sum,
    "knapsack_01": _knapsack_01,
    "lcs": _lcs,
    "lis": _lis,
    "matrix_chain": _matrix_chain,
    "astar": _astar,
    "topological_sort": _topological_sort,
    "activity_selection": _activity_selection,
    "huffman": _huffman,
    "kruskal": _kruskal,
}


def right_answers(
    oracles: Oracles, name: str, inp: dict[str, Any], rng: random.Random
) -> list[Any]:
    """A few right answers of ``inp`` by the words of scaffold ``name``."""
    found = FOUND.get(name)
    return [] if found is None else found(oracles, inp, rng)
