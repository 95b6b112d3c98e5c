"""Hill climbing on a grid of values (or over callables), from each of several starts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from verification.reference._inputs import finite, plain_numbers
from verification.reference.optimization._checks import as_list, count

__all__ = ["grid_neighbours", "hill_climbing"]


def grid_neighbours(rows: int, columns: int, row: int, column: int) -> list[tuple[int, int]]:
    """The cells next to ``(row, column)`` in a ``rows x columns`` grid, in the scaffold's
    order: up, left, right, down (which is row-major order).

    Examples
    --------
    >>> grid_neighbours(3, 3, 1, 1)
    [(0, 1), (1, 0), (1, 2), (2, 1)]
    >>> grid_neighbours(3, 3, 0, 0)
    [(0, 1), (1, 0)]
    """
    around = [(row - 1, column), (row, column - 1), (row, column + 1), (row + 1, column)]
    return [(r, c) for r, c in around if 0 <= r < rows and 0 <= c < columns]


def _climb(
    value: Callable[[Any], float],
    neighbours: Callable[[Any], Sequence[Any]],
    start: Any,
    max_iterations: int,
) -> list[Any]:
    path = [start]
    current, current_value = start, value(start)
    for _ in range(max_iterations):
        chosen, chosen_value = None, current_value
        for candidate in neighbours(current):
            candidate_value = value(candidate)
            # Strictly greater: the first neighbour holding the highest value wins a tie,
            # and a neighbour only as good as the current state is no move.
            if candidate_value > chosen_value:
                chosen, chosen_value = candidate, candidate_value
        if chosen is None:
            break
        path.append(chosen)
        current, current_value = chosen, chosen_value
    return path


def _grid(grid: Any) -> list[list[float]]:
    rows = as_list(grid, "grid")
    if not rows:
        raise ValueError("grid must have at least one row")
    table = []
    for r, row in enumerate(rows):
        cells = as_list(row, f"grid[{r}]")
        if plain_numbers(cells):
            table.append([float(v) for v in cells])  # what finite returns for each
        else:
            table.append([finite(v, f"grid[{r}][{c}]") for c, v in enumerate(cells)])
    width = len(table[0])
    if width == 0 or any(len(row) != width for row in table):
        raise ValueError("grid must be rectangular with at least one column")
    return table


def _grid_start(start: Any, index: int, rows: int, columns: int) -> tuple[int, int]:
    cell = as_list(start, f"starts[{index}]")
    if len(cell) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell):
        raise ValueError(f"starts[{index}] must be [row, column] integers, got {start!r}")
    row, column = cell
    if not (0 <= row < rows and 0 <= column < columns):
        raise ValueError(f"starts[{index}] = {start!r} is outside the {rows}x{columns} grid")
    return row, column


def hill_climbing(
    f: Callable[[Any], float] | None = None,
    neighbours: Callable[[Any], Sequence[Any]] | None = None,
    starts: Sequence[Any] | None = None,
    *,
    grid: Sequence[Sequence[float]] | None = None,
    max_iterations: int = 10_000,
) -> dict[str, Any]:
    """Steepest-ascent hill climbing (maximisation) from each start, keeping the best peak.

    The landscape comes as data, a ``grid`` of values whose cells are the states, or as
    callables ``f`` (the value of a state) and ``neighbours`` (a state's neighbours, in
    the order ties are broken).

    Parameters
    ----------
    f : callable, optional
        The value of a state (with ``neighbours``; not with ``grid``).
    neighbours : callable, optional
        The neighbours of a state, as an ordered sequence.
    starts : list
        The restarts, in order: at least one. With ``grid``, ``[row, column]`` cells
        (0-based, row 0 first).
    grid : list of list of number, optional
        A rectangular table; the neighbours of a cell are the cells up, left, right and
        down from it (row-major order), inside the grid.
    max_iterations : int, default 10000
        At most this many moves per start (a guard for endless callable landscapes; a
        finite grid always stops sooner).

    Returns
    -------
    dict
        ``{"paths": [[state, ...], ...], "best_state": state, "best_value": number}``: per
        start, the states visited from the start to the peak where it stopped; the peak
        with the highest value, the earliest start winning a tie. Grid states are
        ``[row, column]`` lists.

    Raises
    ------
    ValueError
        If not exactly one of ``grid`` and ``f``/``neighbours`` is given, ``starts`` is
        empty, the grid is not rectangular numbers, a start is not a cell of it, or
        ``max_iterations`` is not an integer of at least 1.

    Examples
    --------
    >>> hill_climbing(grid=[[1, 2, 3], [2, 5, 4], [9, 1, 0]], starts=[[0, 0], [2, 2]])
    {'paths': [[[0, 0], [0, 1], [1, 1]], [[2, 2], [1, 2], [1, 1]]], 'best_state': [1, 1], \
'best_value': 5}
    >>> hill_climbing(f=lambda x: -(x - 3) ** 2, neighbours=lambda x: [x - 1, x + 1],
    ...               starts=[0])
    {'paths': [[0, 1, 2, 3]], 'best_state': 3, 'best_value': 0}

    Notes
    -----
    Each iteration looks at every neighbour of the current state and moves to the one with
    the highest value if that value is strictly higher than the current one; among equal
    highest neighbours the first in neighbour order wins. The run stops at a state no
    neighbour beats (a local maximum or the edge of a plateau). Each move costs one pass
    over the neighbours: O(4) on a grid. The peak reached depends on the start, hence the
    restarts.

    References
    ----------
    .. [1] S. Russell, P. Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed.,
       section 4.1.1 "Hill-climbing search", 2020.
    """
    limit = count(max_iterations, "max_iterations", 1)
    if starts is None:
        raise ValueError("starts must be given: a list of at least one start")
    start_list = as_list(starts, "starts")
    if not start_list:
        raise ValueError("starts must hold at least one start")
    if grid is not None:
        if f is not None or neighbours is not None:
            raise ValueError("give either grid or f and neighbours, not both")
        table = _grid(grid)
        rows, columns = len(table), len(table[0])
        cells = [_grid_start(s, i, rows, columns) for i, s in enumerate(start_list)]
        # The values as given, so an integer grid answers with an integer best_value.
        numbers: list[list[float]] = [list(row) for row in as_list(grid, "grid")]

        def value(cell: tuple[int, int]) -> float:
            return numbers[cell[0]][cell[1]]

        def around(cell: tuple[int, int]) -> list[tuple[int, int]]:
            return grid_neighbours(rows, columns, *cell)

        paths = [_climb(value, around, cell, limit) for cell in cells]
        peaks = [(path[-1], value(path[-1])) for path in paths]
        best, best_value = _best(peaks)
        return {
            "paths": [[list(cell) for cell in path] for path in paths],
            "best_state": list(best),
            "best_value": best_value,
        }
    if f is None or neighbours is None or not callable(f) or not callable(neighbours):
        raise ValueError("give grid, or both callables f and neighbours")
    callable_paths = [_climb(f, neighbours, start, limit) for start in start_list]
    best_state, best_score = _best([(path[-1], f(path[-1])) for path in callable_paths])
    return {"paths": callable_paths, "best_state": best_state, "best_value": best_score}


def _best(peaks: Sequence[tuple[Any, Any]]) -> tuple[Any, Any]:
    best, best_value = peaks[0]
    for state, score in peaks[1:]:
        if score > best_value:  # strictly: the earliest start keeps a tie
            best, best_value = state, score
    return best, best_value
