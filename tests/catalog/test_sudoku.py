"""What is peculiar to ``sudoku``: its oracle (the rules checked cell by cell, and an
integer program from ``scipy.optimize.milp`` for "no completion"), and the reference's
cross-checks against it and against brute force over row permutations."""

from __future__ import annotations

import random
from itertools import permutations, product
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csr_matrix

from tests.support.per_input import per_input
from tests.support.stress import stress_case, stress_cells
from verification.cases import DEFAULT_SEED, TestCase, Tier, generate_case
from verification.catalog import default_catalog
from verification.catalog.backtracking.sudoku import (
    SUDOKU_EDGE_KINDS,
    SudokuValidator,
    generate_sudoku,
)
from verification.reference.backtracking import solve_sudoku


def _boxes(test_input: dict[str, Any]) -> tuple[int, int]:
    side = len(test_input["grid"])
    if "box_rows" in test_input:
        return test_input["box_rows"], test_input["box_cols"]
    return {1: (1, 1), 4: (2, 2), 6: (2, 3), 9: (3, 3)}[side]


def _units(side: int, height: int, width: int) -> list[list[tuple[int, int]]]:
    rows = [[(r, c) for c in range(side)] for r in range(side)]
    cols = [[(r, c) for r in range(side)] for c in range(side)]
    boxes = [
        [(top + i, left + j) for i in range(height) for j in range(width)]
        for top in range(0, side, height)
        for left in range(0, side, width)
    ]
    return rows + cols + boxes


def _milp_completion(test_input: dict[str, Any]) -> list[list[int]] | None:
    """A completion by integer programming (x[r, c, d] = 1 when cell (r, c) holds d + 1),
    or None when the program is infeasible."""
    grid = test_input["grid"]
    side = len(grid)
    height, width = _boxes(test_input)

    def var(r: int, c: int, d: int) -> int:
        return (r * side + c) * side + d

    groups = [[var(r, c, d) for d in range(side)] for r in range(side) for c in range(side)]
    for unit in _units(side, height, width):
        groups += [[var(r, c, d) for r, c in unit] for d in range(side)]
    # Built from coordinates at once: setting the ones one by one cost most of the oracle.
    rows = [row for row, group in enumerate(groups) for _ in group]
    columns = [column for group in groups for column in group]
    matrix = csr_matrix((np.ones(len(columns)), (rows, columns)), shape=(len(groups), side**3))
    lower = np.zeros(side**3)
    for r, c in product(range(side), repeat=2):
        if grid[r][c]:
            lower[var(r, c, grid[r][c] - 1)] = 1
    result = milp(
        c=np.zeros(side**3),
        constraints=LinearConstraint(matrix, 1, 1),
        integrality=np.ones(side**3),
        bounds=Bounds(lower, 1),
    )
    if result.status != 0:
        return None
    x = np.round(result.x).reshape(side, side, side)
    return [[int(np.argmax(x[r, c])) + 1 for c in range(side)] for r in range(side)]


def _obeys_rules(test_input: dict[str, Any], solution: Any) -> bool:
    grid = test_input["grid"]
    side = len(grid)
    if not isinstance(solution, list) or len(solution) != side:
        return False
    for row in solution:
        if not isinstance(row, list) or len(row) != side:
            return False
        if any(isinstance(v, bool) or not isinstance(v, int) for v in row):
            return False
    if any(grid[r][c] not in (0, solution[r][c]) for r, c in product(range(side), repeat=2)):
        return False
    digits = set(range(1, side + 1))
    return all(
        {solution[r][c] for r, c in unit} == digits for unit in _units(side, *_boxes(test_input))
    )


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()  # any completion is right


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when a completion is claimed and it keeps the givens and obeys every rule, or
    when "not solvable" (with a null grid) is claimed and the integer program is
    infeasible."""
    solvable, solution = answer.get("solvable"), answer.get("solution")
    if set(answer) != {"solution", "solvable"} or not isinstance(solvable, bool):
        return False
    if solvable:
        return _obeys_rules(test_input, solution)
    return solution is None and per_input(
        "test_sudoku._milp_completion", test_input, lambda: _milp_completion(test_input) is None
    )


def test_the_oracle_checks_the_rules_and_the_claim_of_no_completion() -> None:
    puzzle = {"grid": [[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]}
    right = [[1, 3, 2, 4], [4, 2, 3, 1], [2, 4, 1, 3], [3, 1, 4, 2]]
    assert oracle(puzzle, {"solution": right, "solvable": True})
    relabelled = [[d % 4 + 1 for d in row] for row in right]  # valid grid, givens lost
    assert not oracle(puzzle, {"solution": relabelled, "solvable": True})
    assert not oracle(puzzle, {"solution": None, "solvable": False})
    clash = {"grid": [[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}
    assert oracle(clash, {"solution": None, "solvable": False})


def _completions_4x4(grid: list[list[int]]) -> list[list[list[int]]]:
    """Brute force over one permutation of 1..4 per row (rows that repeat a column value
    are pruned as they are stacked); boxes and givens checked on the full grids."""
    options = [
        [list(p) for p in permutations(range(1, 5)) if all(g in (0, p[c]) for c, g in enumerate(r))]
        for r in grid
    ]
    found: list[list[list[int]]] = []

    def stack(rows: list[list[int]]) -> None:
        if len(rows) == 4:
            if _obeys_rules({"grid": grid}, rows):
                found.append([row[:] for row in rows])
            return
        for option in options[len(rows)]:
            if all(option[c] != row[c] for row in rows for c in range(4)):
                stack([*rows, option])

    stack([])
    return found


@pytest.mark.parametrize("tier", ["simple", "standard", "edge"])
def test_the_reference_agrees_with_integer_programming(tier: Any) -> None:
    for k in range(20):
        rng = random.Random(f"sd:{tier}:{k}")
        size = {"simple": rng.randint(1, 10), "standard": rng.randint(6, 22)}.get(tier, 8)
        test_input = generate_sudoku(rng, tier, size)
        answer = solve_sudoku(**test_input)
        assert oracle(test_input, answer), test_input
        # Every generated puzzle has at most one completion, so both find the same grid.
        assert answer["solution"] == _milp_completion(test_input), test_input


def test_simple_puzzles_have_exactly_one_completion_by_brute_force() -> None:
    for k in range(30):
        rng = random.Random(f"sd-unique:{k}")
        test_input = generate_sudoku(rng, "simple", rng.randint(1, 10))
        completions = _completions_4x4(test_input["grid"])
        assert completions == [solve_sudoku(**test_input)["solution"]], test_input


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=16, max_size=16))
def test_any_4x4_grid_agrees_with_brute_force(cells: list[int]) -> None:
    grid = [cells[i : i + 4] for i in range(0, 16, 4)]
    answer = solve_sudoku(grid)
    completions = _completions_4x4(grid)
    assert answer["solvable"] is bool(completions)
    if completions:
        assert answer["solution"] in completions


def test_tiers_keep_their_promises() -> None:
    seen = set()
    for k in range(120):
        simple = generate_sudoku(random.Random(k), "simple", 8)
        assert len(simple["grid"]) == 4 and (simple["box_rows"], simple["box_cols"]) == (2, 2)
        assert sum(row.count(0) for row in simple["grid"]) == 8
        standard = generate_sudoku(random.Random(k), "standard", 14)
        assert (len(standard["grid"]), standard["box_rows"], standard["box_cols"]) in {
            (6, 2, 3),
            (9, 3, 3),
        }
        edge = generate_sudoku(random.Random(k), "edge", 6)
        blanks = sum(row.count(0) for row in edge["grid"])
        assert blanks <= 6
        solvable = solve_sudoku(**edge)["solvable"]
        if blanks == 1 and solvable:
            seen.add("single_blank")
        elif blanks == 0 and solvable:
            seen.add("no_blanks")
        elif not solvable and _has_clash(edge):
            seen.add("clashing_givens")
        elif not solvable:
            seen.add("unsolvable")
    assert seen == set(SUDOKU_EDGE_KINDS)


def _has_clash(test_input: dict[str, Any]) -> bool:
    grid = test_input["grid"]
    side = len(grid)
    for unit in _units(side, *_boxes(test_input)):
        digits = [grid[r][c] for r, c in unit if grid[r][c]]
        if len(set(digits)) != len(digits):
            return True
    return False


def test_the_validator_agrees_with_the_oracle_on_damaged_grids() -> None:
    validator = SudokuValidator()
    rng = random.Random(8)
    for k in range(40):
        test_input = generate_sudoku(random.Random(f"v{k}"), "standard", 12)
        expected = solve_sudoku(**test_input)
        case = TestCase(
            id="sudoku-standard-000",
            scaffold="sudoku",
            tier="standard",
            index=0,
            input=test_input,
            expected=expected,
        )
        side = len(test_input["grid"])
        damaged = [row[:] for row in expected["solution"]]
        r, c = rng.randrange(side), rng.randrange(side)
        damaged[r][c] = rng.randint(1, side)
        answer = {"solution": damaged, "solvable": True}
        verdict = validator.validate(answer, expected, case=case)
        assert verdict.is_valid is oracle(test_input, answer)


def test_edge_grids() -> None:
    one_blank = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 0]]
    assert solve_sudoku(one_blank)["solution"][3][3] == 1
    full = [[1, 2], [2, 1]]
    assert solve_sudoku(full, box_rows=1, box_cols=2) == {"solution": full, "solvable": True}
    assert solve_sudoku([[0]]) == {"solution": [[1]], "solvable": True}
    hidden = [[1, 2, 0, 0], [0, 0, 1, 2], [0, 0, 0, 0], [2, 0, 0, 1]]
    assert oracle({"grid": hidden}, solve_sudoku(hidden))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"grid": []}, "non-empty"),
        ({"grid": [[1, 2], [2]]}, "square"),
        ({"grid": [[1, 5], [0, 0]]}, r"grid\[0\]\[1\]"),
        ({"grid": [[1, True], [0, 0]]}, r"grid\[0\]\[1\]"),
        ({"grid": [[0] * 4] * 4, "box_rows": 2}, "both"),
        ({"grid": [[0] * 4] * 4, "box_rows": 3, "box_cols": 2}, "tile"),
        ({"grid": "1234"}, "list of rows"),
    ],
)
def test_bad_inputs_raise(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        solve_sudoku(**kwargs)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("sudoku"))
def test_stress_grids_are_9x9_with_that_many_blanks_and_the_reference_holds(
    tier: Tier, size: int, index: int
) -> None:
    case = stress_case("sudoku", tier, size, index)
    grid = case.input["grid"]
    assert len(grid) == 9 and sum(row.count(0) for row in grid) == size
    assert case.expected["solvable"]
    assert oracle(case.input, case.expected), case.id


def test_a_forced_blank_keeps_one_completion() -> None:
    """The generator skips the uniqueness search for a blank its row, column and box leave
    one digit: on grids with one completion, every such blank keeps one (the search says
    so too), while other blanks are left to the search."""
    from verification.catalog.backtracking.sudoku import _forced, _full_grid, count_solutions

    rng = random.Random(27)
    forced = 0
    for height, width in ((2, 2), (2, 3), (3, 3)):
        for _ in range(6):
            grid = _full_grid(rng, height, width)
            cells = [(r, c) for r in range(len(grid)) for c in range(len(grid))]
            rng.shuffle(cells)
            for r, c in cells[: len(cells) // 2]:
                digit, grid[r][c] = grid[r][c], 0
                if _forced(grid, r, c, height, width):
                    forced += 1
                    assert count_solutions(grid, height, width) == 1
                elif count_solutions(grid, height, width) != 1:
                    grid[r][c] = digit
    assert forced > 100


@pytest.mark.parametrize("index", range(4))
def test_a_broken_rule_names_rows_columns_and_cells_from_1_as_the_scaffold_does(
    index: int,
) -> None:
    # Hunt oo: the reasons counted from 0, where the scaffold counts from 1 (R1C1): a
    # duplicate in column 4 was reported in "column 3".
    spec = default_catalog()["sudoku"]
    case = generate_case(spec, "standard", index, seed=DEFAULT_SEED)
    assert case.expected["solvable"]
    grid, solution = case.input["grid"], [list(row) for row in case.expected["solution"]]
    row = next(r for r, cells in enumerate(grid) if sum(1 for v in cells if not v) >= 2)
    a, b = [c for c, v in enumerate(grid[row]) if not v][:2]
    swapped = [list(cells) for cells in solution]
    swapped[row][a], swapped[row][b] = swapped[row][b], swapped[row][a]
    said = spec.validator.validate(
        {"solvable": True, "solution": swapped}, case.expected, case=case
    )
    assert said.message == f"column {a + 1} is not 1..{len(grid)} once each"
    given = next((r, c) for r, cells in enumerate(grid) for c, v in enumerate(cells) if v)
    changed = [list(cells) for cells in solution]
    changed[given[0]][given[1]] = changed[given[0]][given[1]] % len(grid) + 1
    said = spec.validator.validate(
        {"solvable": True, "solution": changed}, case.expected, case=case
    )
    assert said.message.startswith(f"cell R{given[0] + 1}C{given[1] + 1} was given as ")
