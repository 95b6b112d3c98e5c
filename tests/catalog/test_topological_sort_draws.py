"""topological_sort's cyclic draws find the back edges that close a cycle of three or more
vertices from every vertex's reach at once (code mode draws 1,000 vertices): the same
edges, in the same order, as a path search per pair, so every case drawn is unchanged."""

from __future__ import annotations

import random
import time

import pytest

from verification.catalog.drawing import draw_case
from verification.catalog.graph import topological_sort as module
from verification.registry import get_spec


def _ends_of_long_paths(pairs: list[tuple[str, str]], start: str) -> set[str]:
    """The vertices a path of two or more edges leads to from ``start``: the search of
    ``_path_exists`` (``least=2``) from ``start``, every end it meets kept (one search per
    vertex instead of one per pair; held to the search per pair below, up to 16 vertices)."""
    out: dict[str, list[str]] = {}
    for u, v in pairs:
        out.setdefault(u, []).append(v)
    ends: set[str] = set()
    frontier = {(start, 0)}
    while frontier:
        ends |= {v for v, length in frontier if length >= 2}
        frontier = {(w, min(length + 1, 2)) for v, length in frontier for w in out.get(v, [])}
    return ends


@pytest.mark.parametrize("n", [3, 5, 8, 16, 40])
def test_the_reach_of_two_edges_is_the_path_search_s(n: int) -> None:
    rng = random.Random(n)
    for _ in range(20):
        ranked = [f"v{i}" for i in range(n)]
        rng.shuffle(ranked)
        pairs = module._dag_pairs(rng, ranked, n * 3 // 2)
        far = module._reached_in_two(ranked, pairs)
        for i in range(n):
            ends = _ends_of_long_paths(pairs, ranked[i])
            for j in range(n):
                searched = ranked[j] in ends
                if n <= 16:  # the search per pair, 1,600 of them a graph at 40 vertices
                    assert module._path_exists(pairs, ranked[i], ranked[j], least=2) == searched
                assert bool(far[i] >> j & 1) == searched


def test_a_cyclic_draw_of_1000_vertices_takes_well_under_a_second_of_cpu() -> None:
    spec = get_spec("topological_sort")
    started = time.process_time()
    cyclic = 0
    for index in range(2):
        case = draw_case(spec, "standard", index, seed=26, size=1000)
        cyclic += case.expected["has_cycle"]
    assert cyclic  # seed 26 draws a cyclic graph here: the slow path before
    assert time.process_time() - started < 5
