"""Steepest-ascent hill climbing with restarts on a grid of values: the ``hill_climbing``
scaffold."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Annotated, Any

from pydantic import Field

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.reference.optimization import grid_neighbours, hill_climbing
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import ExactMatchValidator, PathMatchValidator

__all__ = [
    "EDGE_KINDS_HILL_CLIMBING",
    "SPEC",
    "STANDARD_MAX",
    "STRESS_MAX",
    "HillClimbingAnswer",
    "generate_hill_climbing",
    "grid_side",
    "landscape",
]

Cell = Annotated[list[int], Field(min_length=2, max_length=2)]
"""``[row, column]``, 0-based."""


class HillClimbingAnswer(AnswerSchema):
    """``{"paths": [[[r, c], ...], ...], "best_state": [r, c], "best_value": int}``."""

    paths: list[list[Cell]]
    """Per start, in order: the cells from the start to its peak."""
    best_state: Cell
    best_value: int


EDGE_KINDS_HILL_CLIMBING = (
    "single_cell",
    "start_at_peak",
    "plateau",
    "tied_neighbours",
    "tied_peaks",
    "single_row",
    "repeated_start",
)
"""The degenerate instances the edge tier draws from."""

_MAX_TRIES = 5_000
_LOW, _HIGH = 10, 99
"""Grid values: two-digit integers, easy to read and compare."""
STANDARD_MAX = 8
"""The largest side of a standard grid; the stress range reaches four times it."""
STRESS_MAX = 4 * STANDARD_MAX


def landscape(rng: random.Random, rows: int, columns: int, peaks: int = 2) -> list[list[int]]:
    """A ``rows x columns`` grid of distinct integers from 10 to 99 (past 90 cells, from
    10 to ``10 + 2 * cells``; at most :data:`STRESS_MAX` squared cells) that rise towards
    ``peaks`` random summits, with some noise, so climbs take several moves and different
    starts can reach different summits."""
    cells = rows * columns
    if cells > STRESS_MAX**2:
        raise ValueError(f"a {rows}x{columns} grid has more cells than distinct values")
    # Past 90 cells (the stress range) two digits run out: values reach 10 + 2 * cells.
    high = _HIGH if cells <= _HIGH - _LOW + 1 else _LOW + 2 * cells
    summits = [
        (rng.randrange(rows), rng.randrange(columns), rng.uniform(0.6, 1.2) * max(rows, columns))
        for _ in range(peaks)
    ]
    # h - abs(r - sr) - abs(c - sc) is (h - abs(r - sr)) - abs(c - sc): the first part is
    # the row's, computed once per row, the same doubles; the cells in the same order.
    # rng.uniform(0, 1.5) is 0 + (1.5 - 0) * rng.random() (Random.uniform's formula), here
    # without a call per cell when the generator's uniform is Random's.
    plain = type(rng).uniform is random.Random.uniform
    draw = rng.random
    height: dict[tuple[int, int], float] = {}
    for r in range(rows):
        rises = [(h - abs(r - sr), sc) for sr, sc, h in summits]
        for c in range(columns):
            noise = 0 + (1.5 - 0) * draw() if plain else rng.uniform(0, 1.5)
            height[r, c] = max([rise - abs(c - sc) for rise, sc in rises]) + noise
    values = sorted(rng.sample(range(_LOW, high + 1), cells))
    grid = [[0] * columns for _ in range(rows)]
    for (r, c), value in zip(sorted(height, key=height.__getitem__), values, strict=True):
        grid[r][c] = value
    return grid


def _climb(grid: list[list[int]], starts: list[list[int]]) -> dict[str, Any]:
    return hill_climbing(grid=grid, starts=starts)


def _cells(rows: int, columns: int) -> list[list[int]]:
    return [[r, c] for r in range(rows) for c in range(columns)]


def _simple(rng: random.Random, side: int) -> dict[str, Any]:
    for _ in range(_MAX_TRIES):
        grid = landscape(rng, side, side, peaks=rng.randint(1, 2))
        start = rng.choice(_cells(side, side))
        answer = _climb(grid, [start])
        if len(answer["paths"][0]) >= 3:
            return {"grid": grid, "starts": [start]}
    raise RuntimeError(f"could not draw a simple hill_climbing grid of side {side}")


def _standard(rng: random.Random, side: int) -> dict[str, Any]:
    for _ in range(_MAX_TRIES):
        grid = landscape(rng, side, side, peaks=rng.randint(2, 3))
        starts = rng.sample(_cells(side, side), rng.randint(2, 3))
        paths = _climb(grid, starts)["paths"]
        peaks = {tuple(path[-1]) for path in paths}
        moves = [len(path) - 1 for path in paths]
        if len(peaks) >= 2 and min(moves) >= 1 and max(moves) >= 3 and sum(moves) <= 4 * side:
            return {"grid": grid, "starts": starts}
    raise RuntimeError(f"could not draw a standard hill_climbing grid of side {side}")


def _is_peak(grid: list[list[int]], cell: Sequence[int]) -> bool:
    rows, columns = len(grid), len(grid[0])
    around = grid_neighbours(rows, columns, cell[0], cell[1])
    return all(grid[r][c] <= grid[cell[0]][cell[1]] for r, c in around)


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(EDGE_KINDS_HILL_CLIMBING)
    if size < 3 and kind != "single_cell":
        # The other shapes need a side of 3 (a peak apart from a start, two tied
        # neighbours); below it only the 1x1 grid and a row of ``size`` fit the size.
        kind = "single_row" if size == 2 else "single_cell"
    side = max(size, 3)
    if kind == "single_cell":
        return {"grid": [[rng.randint(_LOW, _HIGH)]], "starts": [[0, 0]] * rng.randint(1, 2)}
    if kind == "single_row":
        length = max(size, 2)
        return {"grid": landscape(rng, 1, length), "starts": [[0, rng.randrange(length)]]}
    for _ in range(_MAX_TRIES):
        grid = landscape(rng, side, side)
        cells = _cells(side, side)
        if kind == "start_at_peak":
            peaks = [cell for cell in cells if _is_peak(grid, cell)]
            others = [cell for cell in cells if cell not in peaks]
            return {"grid": grid, "starts": [rng.choice(peaks), rng.choice(others)]}
        if kind == "repeated_start":
            start = rng.choice(cells)
            return {"grid": grid, "starts": [start, start]}
        start = rng.choice(cells)
        around = grid_neighbours(side, side, *start)
        if kind == "plateau":
            # The start's best neighbour holds exactly the start's value: no move.
            grid[start[0]][start[1]] = _HIGH + 1
            r, c = rng.choice(around)
            grid[r][c] = _HIGH + 1
            return {"grid": grid, "starts": [start]}
        if kind == "tied_neighbours" and len(around) >= 2:
            # Two neighbours share the largest value above the start's: the earlier wins.
            grid[start[0]][start[1]] = _LOW - 1
            for r, c in rng.sample(around, 2):
                grid[r][c] = _HIGH + 1
            return {"grid": grid, "starts": [start]}
        if kind == "tied_peaks":
            tied = _tied_peaks(rng, grid)
            if tied is not None:
                return tied
    raise RuntimeError(f"could not draw a {kind} hill_climbing grid")


def _tied_peaks(rng: random.Random, grid: list[list[int]]) -> dict[str, Any] | None:
    """Raise a lower summit to the height of a higher one: two starts then end on
    different peaks of equal value, and the earlier start's peak is the best."""
    cells = _cells(len(grid), len(grid[0]))
    peaks = [cell for cell in cells if _is_peak(grid, cell)]
    if len(peaks) < 2:
        return None
    high, low = sorted(rng.sample(peaks, 2), key=lambda cell: -grid[cell[0]][cell[1]])
    grid[low[0]][low[1]] = grid[high[0]][high[1]]
    starts = rng.sample(cells, 2)
    ends = [path[-1] for path in _climb(grid, starts)["paths"]]
    if sorted(ends) != sorted([high, low]):
        return None
    return {"grid": grid, "starts": starts}


def generate_hill_climbing(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """A hill-climbing input: a ``grid`` of integers and the ``starts`` (``[row, column]``).

    ``simple``: a ``size x size`` grid of distinct two-digit values rising to one or two
    summits, one start that climbs at least two moves. ``standard``: a ``size x size`` grid
    of distinct values with two or three summits, two or three distinct starts, each
    climbing at least one move (one at least three), reaching at least two different peaks
    (so the restarts matter and, the values being distinct, the best peak is unique); at
    most ``4 * size`` moves in all. ``edge``: one of :data:`EDGE_KINDS_HILL_CLIMBING`: a
    1x1 grid, a start already on a peak, a plateau (an equal neighbour is no move), two
    tied best neighbours, two starts ending on different peaks of equal value, a single
    row, a repeated start (a side of ``size``, at least 3, or ``size`` for the row; at a
    size of 1 or 2 only the 1x1 grid and the row fit).
    """
    if size < 1:
        raise ValueError(f"hill_climbing needs a grid side of at least 1, got {size}")
    if tier == "simple":
        return _simple(rng, size)
    if tier == "standard":
        return _standard(rng, size)
    if tier == "edge":
        return _edge(rng, size)
    raise ValueError(f"unknown tier {tier!r}")


def grid_side(test_input: Mapping[str, Any]) -> int:
    """An input's size: the longer side of its grid."""
    grid = test_input["grid"]
    return max(len(grid), len(grid[0]))


@LazyHook
def hill_climbing_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """A path stopped one move early or taken one move too far, a first move to another
    neighbour (a wrong tie-break or a misread value), the best from the wrong start, the
    best value one off, the paths in reverse order, a transposed best cell."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    expected, grid = case.expected, case.input["grid"]
    rows, columns = len(grid), len(grid[0])
    paths: list[list[list[int]]] = expected["paths"]
    yield {**expected, "best_value": expected["best_value"] + rng.choice((-1, 1))}
    index = rng.randrange(len(paths))
    path = paths[index]

    def with_path(new_path: list[list[int]]) -> dict[str, Any]:
        return {**expected, "paths": [*paths[:index], new_path, *paths[index + 1 :]]}

    if len(path) >= 2:
        yield with_path(path[:-1])
    around = [list(cell) for cell in grid_neighbours(rows, columns, *path[-1])]
    if around:
        yield with_path([*path, rng.choice(around)])
    first = [
        list(c)
        for c in grid_neighbours(rows, columns, *path[0])
        if len(path) < 2 or list(c) != path[1]
    ]
    if first:
        yield with_path([path[0], rng.choice(first)])
    ends = {tuple(p[-1]) for p in paths}
    for end in ends - {tuple(expected["best_state"])}:
        yield {**expected, "best_state": list(end), "best_value": grid[end[0]][end[1]]}
    if len(paths) >= 2:
        yield {**expected, "paths": paths[::-1]}
    r, c = expected["best_state"]
    if r != c:
        yield {**expected, "best_state": [c, r]}


SPEC = ScaffoldSpec(
    name="hill_climbing",
    category="optimization",
    title="Hill climbing",
    description="steepest-ascent climbs on a grid from given restarts, with the best peak",
    graded_conventions={
        "neighbour order": "in this order: up [r\u22121, c], left [r, c\u22121], right [r, c+1]",
        "tie among neighbours": "the first in the order up, left, right, down among equals",
        "strict ascent": "only if its value is strictly greater than the current cell's",
        "best peak ties": "the peak of the earliest start in starts",
    },
    reference=hill_climbing,
    generator=generate_hill_climbing,
    answer_schema=HillClimbingAnswer,
    # The neighbour order and tie-breaks make the answer unique: compared exactly.
    validator=CompositeValidator(
        [
            PathMatchValidator(field="paths"),
            ExactMatchValidator(field="best_state"),
            ExactMatchValidator(field="best_value"),
        ]
    ),
    sizes={"simple": 4, "standard": 6, "edge": 4},
    size=SizeAxis(
        unit="grid side",
        measure=grid_side,
        ranges={"simple": (3, 5), "standard": (4, STANDARD_MAX), "edge": (1, 6)},
        stress=(STANDARD_MAX + 1, STRESS_MAX),
    ),
    mutants=hill_climbing_mutants,
    max_output_tokens=6144,
    # A line per cell of each climb (benchmarks/stress_budgets.py): 548 tokens at side 8,
    # 1,627 at 32; the flat budget holds the standard maximum, each side past it 1.5x its
    # work (7,768 at 32).
    output_budget=OutputBudget(per_unit=68, base=5592),
    code_rules={
        "paths": (
            "per start, in input order, the cells from the start to its peak; neighbours "
            "looked at in the fixed order up, left, right, down, the first of equal best "
            "values taken, a move made only to a strictly higher value"
        ),
        "best_state": "the peak (last cell of a path) of the highest value; on a tie, the "
        "peak of the earliest start in `starts`",
    },
    code_sizes=(8, 16, 32),
    code_size_limit=(
        "the size is the grid's side: 32 is 1,024 cells, and the generator's cells take "
        "distinct values, which it has for no 100 x 100 grid"
    ),
)
