"""The backtracking references against brute force, on inputs beyond what the generators
draw but within the references' input checks: placed queens that attack each other,
zeros and repeats in subset sums, self loops, repeated edges and a single colour, sudoku
grids whose givens clash or leave several solutions."""

from __future__ import annotations

import itertools
import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.reference.backtracking import (
    graph_coloring,
    n_queens,
    solve_sudoku,
    subset_sum,
)


@st.composite
def boards(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 7))
    rows = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=min(n, 3)))
    return {"n": n, "placed": [[row, draw(st.integers(0, n - 1))] for row in rows]}


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(boards())
def test_n_queens_lists_every_solution_that_keeps_the_placed_queens(inp: dict[str, Any]) -> None:
    n = inp["n"]
    pairs = list(itertools.combinations(range(n), 2))
    # The placed queens first: they rule out most permutations at a glance.
    truth = [
        list(p)
        for p in itertools.permutations(range(n))
        if all(p[row] == column for row, column in inp["placed"])
        and all(abs(p[i] - p[j]) != j - i for i, j in pairs)
    ]
    assert n_queens(**inp) == {"solutions": sorted(truth), "count": len(truth)}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    numbers=st.lists(st.integers(0, 12), max_size=10),
    target=st.integers(0, 40),
)
def test_subset_sum_finds_a_subset_exactly_when_one_exists(numbers: list[int], target: int) -> None:
    exists = any(
        sum(numbers[i] for i in chosen) == target
        for size in range(len(numbers) + 1)
        for chosen in itertools.combinations(range(len(numbers)), size)
    )
    answer = subset_sum(numbers, target)
    assert answer["found"] is exists
    if exists:
        indices = answer["indices"]
        assert indices == sorted(set(indices))
        assert all(0 <= i < len(numbers) for i in indices)
        assert sum(numbers[i] for i in indices) == target
    else:
        assert answer["indices"] is None


@st.composite
def colourings(draw: st.DrawFn) -> dict[str, Any]:
    labels = draw(
        st.lists(
            st.text(string.ascii_letters + " é", min_size=1, max_size=2),
            unique=True,
            min_size=1,
            max_size=6,
        )
    )
    end = st.sampled_from(labels)
    edges = draw(st.lists(st.tuples(end, end).map(list), max_size=10))
    return {"vertices": labels, "edges": edges, "num_colors": draw(st.integers(1, 4))}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(colourings())
def test_graph_coloring_is_proper_exactly_when_brute_force_finds_one(inp: dict[str, Any]) -> None:
    vertices, k = inp["vertices"], inp["num_colors"]
    ends = [(vertices.index(u), vertices.index(v)) for u, v in inp["edges"]]
    proper = any(
        all(colours[a] != colours[b] for a, b in ends)
        for colours in itertools.product(range(1, k + 1), repeat=len(vertices))
    )
    answer = graph_coloring(**inp)
    assert answer["colorable"] is proper
    if proper:
        coloring = answer["coloring"]
        assert list(coloring) == vertices
        assert all(1 <= coloring[v] <= k for v in vertices)
        assert all(coloring[u] != coloring[v] for u, v in inp["edges"])
    else:
        assert answer["coloring"] is None


def _completions(grid: list[list[int]], limit: int) -> list[list[list[int]]]:
    """Up to ``limit`` filled 4x4 grids keeping the givens, every blank tried in turn."""
    blanks = [(r, c) for r in range(4) for c in range(4) if grid[r][c] == 0]
    found: list[list[list[int]]] = []

    def fits(g: list[list[int]]) -> bool:
        units = [g[r] for r in range(4)]
        units += [[g[r][c] for r in range(4)] for c in range(4)]
        units += [
            [g[r][c] for r in range(br, br + 2) for c in range(bc, bc + 2)]
            for br in (0, 2)
            for bc in (0, 2)
        ]
        return all(len([v for v in unit if v]) == len({v for v in unit if v}) for unit in units)

    def fill(at: int, g: list[list[int]]) -> None:
        if len(found) == limit or not fits(g):
            return
        if at == len(blanks):
            found.append([row[:] for row in g])
            return
        r, c = blanks[at]
        for value in range(1, 5):
            g[r][c] = value
            fill(at + 1, g)
        g[r][c] = 0

    fill(0, [row[:] for row in grid])
    return found


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 4]), min_size=16, max_size=16))
def test_sudoku_solves_exactly_the_grids_that_have_a_completion(cells: list[int]) -> None:
    grid = [cells[i : i + 4] for i in range(0, 16, 4)]
    completions = _completions(grid, limit=1)
    answer = solve_sudoku(grid)
    assert answer["solvable"] is bool(completions)
    if completions:
        solution = answer["solution"]
        assert _completions(solution, limit=1) == [solution]
        assert all(grid[r][c] in (0, solution[r][c]) for r in range(4) for c in range(4))
    else:
        assert answer["solution"] is None
