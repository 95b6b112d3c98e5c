"""``count_solutions`` (the sudoku generator's uniqueness check, a bit-mask search that
fills the most constrained blank first) held to brute force over every filling of the
blanks, on many small grids with none, one and several completions."""

from __future__ import annotations

import random
from itertools import product

import pytest

from verification.catalog.backtracking.sudoku import _full_grid, count_solutions


def _units(side: int, height: int, width: int) -> list[list[tuple[int, int]]]:
    units = [[(r, c) for c in range(side)] for r in range(side)]
    units += [[(r, c) for r in range(side)] for c in range(side)]
    units += [
        [(top + i, left + j) for i in range(height) for j in range(width)]
        for top in range(0, side, height)
        for left in range(0, side, width)
    ]
    return units


def _brute_count(grid: list[list[int]], units: list[list[tuple[int, int]]]) -> int:
    """Every filling of the blanks by digits not given in their units tried, counted when
    each unit holds 1..n once."""
    side = len(grid)
    blanks = [(r, c) for r in range(side) for c in range(side) if not grid[r][c]]
    candidates = [
        [d for d in range(1, side + 1) if not _in_units(grid, units, r, c, d)] for r, c in blanks
    ]
    count = 0
    for digits in product(*candidates):
        filled = [row[:] for row in grid]
        for (r, c), digit in zip(blanks, digits, strict=True):
            filled[r][c] = digit
        count += all(len({filled[r][c] for r, c in unit}) == side for unit in units)
    return count


def _in_units(
    grid: list[list[int]], units: list[list[tuple[int, int]]], r: int, c: int, digit: int
) -> bool:
    """Whether ``digit`` is given in a unit of cell ``(r, c)`` (the cell itself included)."""
    return any(grid[i][j] == digit for unit in units if (r, c) in unit for i, j in unit)


@pytest.mark.parametrize(("height", "width", "most"), [(2, 2, 10), (2, 3, 16)])
def test_count_solutions_matches_brute_force(height: int, width: int, most: int) -> None:
    """Grids the generator could count (no digit given twice in a unit): complete grids
    with blanks emptied, and half the time one given changed (often no completion)."""
    rng = random.Random(f"count-solutions:{height}x{width}")
    side = height * width
    units = _units(side, height, width)
    seen: set[int] = set()
    for _ in range(40):
        grid = _full_grid(rng, height, width)
        blanks = rng.randint(0, most)
        cells = rng.sample([(r, c) for r in range(side) for c in range(side)], blanks + 1)
        for r, c in cells[:blanks]:
            grid[r][c] = 0
        if rng.random() < 0.5:
            r, c = cells[blanks]
            # A given changed to a digit no other given of its units holds: often no
            # completion (a clashing given is never counted by the generator).
            free = [d for d in range(1, side + 1) if not _in_units(grid, units, r, c, d)]
            if free:
                grid[r][c] = rng.choice(free)
        truth = _brute_count(grid, units)
        seen.add(min(truth, 2))
        for cap in (1, 2, 3, 10_000):
            assert count_solutions(grid, height, width, cap) == min(truth, cap), grid
    assert seen == {0, 1, 2}
