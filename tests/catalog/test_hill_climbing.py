"""hill_climbing against an independent numpy replay of the stated convention, brute-force
properties of peaks, and edge and bad inputs."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest

from tests.support.per_input import per_input
from tests.support.stress import stress_case, stress_cells
from verification.cases import TIERS, Tier
from verification.catalog.optimization.hill_climbing import SPEC, generate_hill_climbing
from verification.reference.optimization import hill_climbing

SEEDS = range(200)

# Up, left, right, down: the scaffold's neighbour order.
_OFFSETS = ((-1, 0), (0, -1), (0, 1), (1, 0))


def _replay(grid: list[list[int]], starts: list[list[int]]) -> dict[str, Any]:
    """The convention with a padded numpy array: -inf outside the grid, ``argmax`` over
    the four offsets (its first maximum is the earliest neighbour in the order)."""
    values = np.asarray(grid, dtype=float)
    padded = np.pad(values, 1, constant_values=-np.inf)
    paths = []
    for row, column in starts:
        path = [[row, column]]
        while True:
            around = [padded[row + 1 + dr, column + 1 + dc] for dr, dc in _OFFSETS]
            pick = int(np.argmax(around))
            if around[pick] <= values[row, column]:
                break
            row, column = row + _OFFSETS[pick][0], column + _OFFSETS[pick][1]
            path.append([row, column])
        paths.append(path)
    ends = [values[p[-1][0], p[-1][1]] for p in paths]
    winner = int(np.argmax(ends))  # the earliest start on a tie
    best = paths[winner][-1]
    return {"paths": paths, "best_state": best, "best_value": grid[best[0]][best[1]]}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"paths", "best_state"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """True when ``answer`` equals the replayed climb exactly (the convention makes the
    answer unique) and its integers are JSON integers."""
    if set(answer) != {"paths", "best_state", "best_value"}:
        return False
    cells = [cell for path in answer["paths"] for cell in path] + [answer["best_state"]]
    if not all(isinstance(c, list) and len(c) == 2 and all(map(_is_int, c)) for c in cells):
        return False
    if not _is_int(answer["best_value"]):
        return False
    return answer == per_input(
        "test_hill_climbing._replay",
        test_input,
        lambda: _replay(test_input["grid"], test_input["starts"]),
    )


def _random_input(seed: int) -> dict[str, Any]:
    rng = random.Random(f"hill_climbing:{seed}")
    rows, columns = rng.randint(1, 7), rng.randint(1, 7)
    spread = rng.choice((3, 10, 100))  # a small spread makes ties and plateaus
    grid = [[rng.randint(0, spread) for _ in range(columns)] for _ in range(rows)]
    starts = [[rng.randrange(rows), rng.randrange(columns)] for _ in range(rng.randint(1, 4))]
    return {"grid": grid, "starts": starts}


def test_reference_matches_an_independent_replay() -> None:
    for seed in SEEDS:
        test_input = _random_input(seed)
        answer = hill_climbing(**test_input)
        assert oracle(test_input, answer), (test_input, answer)


def _neighbour_values(grid: list[list[int]], row: int, column: int) -> list[int]:
    return [
        grid[row + dr][column + dc]
        for dr, dc in _OFFSETS
        if 0 <= row + dr < len(grid) and 0 <= column + dc < len(grid[0])
    ]


def test_paths_climb_steepest_and_end_on_peaks() -> None:
    for seed in range(100):
        test_input = _random_input(seed)
        grid = test_input["grid"]
        answer = hill_climbing(**test_input)
        for start, path in zip(test_input["starts"], answer["paths"], strict=True):
            assert path[0] == start
            for (r, c), (r2, c2) in itertools.pairwise(path):
                assert abs(r - r2) + abs(c - c2) == 1
                assert grid[r2][c2] == max(_neighbour_values(grid, r, c)) > grid[r][c]
            end_r, end_c = path[-1]
            assert all(v <= grid[end_r][end_c] for v in _neighbour_values(grid, end_r, end_c))
        assert answer["best_value"] == max(grid[p[-1][0]][p[-1][1]] for p in answer["paths"])


def test_starting_everywhere_finds_the_global_maximum() -> None:
    for seed in range(60):
        grid = _random_input(seed)["grid"]
        every_cell = [[r, c] for r in range(len(grid)) for c in range(len(grid[0]))]
        answer = hill_climbing(grid=grid, starts=every_cell)
        assert answer["best_value"] == max(max(row) for row in grid)


def test_callables_agree_with_the_grid() -> None:
    for seed in range(50):
        test_input = _random_input(seed)
        grid = test_input["grid"]
        rows, columns = len(grid), len(grid[0])

        def around(cell: tuple[int, int], rows: int = rows, columns: int = columns) -> list[Any]:
            return [
                (cell[0] + dr, cell[1] + dc)
                for dr, dc in _OFFSETS
                if 0 <= cell[0] + dr < rows and 0 <= cell[1] + dc < columns
            ]

        answer = hill_climbing(
            f=lambda cell, g=grid: g[cell[0]][cell[1]],
            neighbours=around,
            starts=[tuple(s) for s in test_input["starts"]],
        )
        expected = hill_climbing(**test_input)
        assert [[list(c) for c in p] for p in answer["paths"]] == expected["paths"]
        assert list(answer["best_state"]) == expected["best_state"]
        assert answer["best_value"] == expected["best_value"]


@pytest.mark.parametrize(
    ("test_input", "expected"),
    [
        # One cell: no neighbours.
        ({"grid": [[7]], "starts": [[0, 0]]}, {"paths": [[[0, 0]]], "best_value": 7}),
        # A plateau: an equal neighbour is no move.
        ({"grid": [[5, 5, 9]], "starts": [[0, 0]]}, {"paths": [[[0, 0]]], "best_value": 5}),
        # Tied neighbours: up beats right.
        (
            {"grid": [[0, 8, 0], [0, 1, 8], [0, 0, 0]], "starts": [[1, 1]]},
            {"paths": [[[1, 1], [0, 1]]], "best_value": 8},
        ),
        # Tied peaks: the earlier start's peak is best although the later one is a new cell.
        (
            {"grid": [[9, 1, 9]], "starts": [[0, 1], [0, 2]]},
            {"paths": [[[0, 1], [0, 0]], [[0, 2]]], "best_value": 9},
        ),
    ],
)
def test_edge_conventions(test_input: dict[str, Any], expected: dict[str, Any]) -> None:
    answer = hill_climbing(**test_input)
    assert answer["paths"] == expected["paths"]
    assert answer["best_value"] == expected["best_value"]
    assert answer["best_state"] == answer["paths"][0][-1]
    assert oracle(test_input, answer)


def test_oracle_rejects_near_misses() -> None:
    test_input = {
        "grid": [[78, 95, 94, 84], [58, 66, 68, 88], [40, 56, 27, 50], [15, 48, 10, 34]],
        "starts": [[3, 3], [3, 0]],
    }
    answer = hill_climbing(**test_input)
    assert oracle(test_input, answer)
    assert not oracle(test_input, {**answer, "best_state": [1, 3], "best_value": 88})
    assert not oracle(test_input, {**answer, "paths": answer["paths"][::-1]})
    assert not oracle(
        test_input, {**answer, "paths": [answer["paths"][0][:-1], answer["paths"][1]]}
    )
    assert not oracle(test_input, {**answer, "best_value": 95.0})


@pytest.mark.parametrize(
    "bad",
    [
        {"grid": [], "starts": [[0, 0]]},
        {"grid": [[]], "starts": [[0, 0]]},
        {"grid": [[1, 2], [3]], "starts": [[0, 0]]},
        {"grid": [[1, "2"]], "starts": [[0, 0]]},
        {"grid": [[1, 2]], "starts": []},
        {"grid": [[1, 2]], "starts": [[0, 2]]},
        {"grid": [[1, 2]], "starts": [[0]]},
        {"grid": [[1, 2]], "starts": [[0, True]]},
        {"grid": [[1, 2]]},
        {"grid": [[1, 2]], "starts": [[0, 0]], "f": abs},
        {"f": abs, "starts": [0]},
        {"grid": [[1, 2]], "starts": [[0, 0]], "max_iterations": 0},
    ],
)
def test_bad_inputs_raise_value_error(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        hill_climbing(**bad)


@pytest.mark.parametrize("tier", TIERS)
def test_generated_cases_agree_with_the_oracle_and_keep_their_promises(tier: Tier) -> None:
    low, high = SPEC.size.ranges[tier]
    for size in range(low, high + 1):
        for seed in range(8):
            test_input = generate_hill_climbing(random.Random(f"hc:{tier}:{seed}"), tier, size)
            answer = hill_climbing(**test_input)
            assert oracle(test_input, answer), test_input
            if tier == "edge":
                continue
            values = [v for row in test_input["grid"] for v in row]
            assert len(set(values)) == len(values) == size * size  # no ties anywhere
            assert all(len(path) >= 2 for path in answer["paths"])
            if tier == "standard":
                assert len({tuple(path[-1]) for path in answer["paths"]}) >= 2


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("hill_climbing"))
def test_stress_grids_hold_distinct_values_and_the_reference_agrees_with_the_oracle(
    tier: Tier, size: int, index: int
) -> None:
    case = stress_case("hill_climbing", tier, size, index)
    grid = case.input["grid"]
    assert len(grid) == size and all(len(row) == size for row in grid)
    values = [value for row in grid for value in row]
    assert len(set(values)) == len(values)  # one best peak, no ties to break
    assert oracle(case.input, case.expected), case.id
