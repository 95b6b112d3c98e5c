"""Sudoku: the ``sudoku`` scaffold (complete a grid by backtracking, or say it cannot be)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.reference.backtracking import solve_sudoku
from verification.validators.base import ValidationResult, Validator, pick

__all__ = [
    "SPEC",
    "STANDARD_MAX",
    "STRESS_MAX",
    "SUDOKU_EDGE_KINDS",
    "SudokuAnswer",
    "SudokuValidator",
    "count_blanks",
    "count_solutions",
    "generate_sudoku",
]


class SudokuAnswer(AnswerSchema):
    """``{"solution": [[1, 2, 3, 4], ...], "solvable": true}`` or ``{"solution": null,
    "solvable": false}``."""

    solution: list[list[int]] | None
    """The completed grid, or null when no completion exists."""
    solvable: bool
    """Whether the grid can be completed."""


SUDOKU_EDGE_KINDS = ("single_blank", "no_blanks", "unsolvable", "clashing_givens")
"""The edge grids: one blank left; already complete; givens that clash with no rule at a
glance yet admit no completion; two equal givens in one row, column or box."""

_BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}
_ATTEMPTS = 200


STANDARD_MAX = 22
"""The most blanks of a standard grid."""
STRESS_MAX = 48
"""The most blanks of a stress grid (9x9)."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _box_of(test_input: Mapping[str, Any]) -> tuple[int, int]:
    side = len(test_input["grid"])
    if "box_rows" in test_input:
        return int(test_input["box_rows"]), int(test_input["box_cols"])
    rows = max(d for d in range(1, side + 1) if side % d == 0 and d * d <= side)
    return rows, side // rows


def _rule_broken(grid: list[list[int]], height: int, width: int) -> str | None:
    """Which row, column or box of a full grid misses a digit, or None when none does,
    counted from 1 as the scaffold counts them (``R1C1`` the top-left cell: hunt oo)."""
    side = len(grid)
    digits = set(range(1, side + 1))
    for r in range(side):
        if set(grid[r]) != digits:
            return f"row {r + 1} is not 1..{side} once each"
    for c in range(side):
        if {grid[r][c] for r in range(side)} != digits:
            return f"column {c + 1} is not 1..{side} once each"
    for top in range(0, side, height):
        for left in range(0, side, width):
            box = {grid[r][c] for r in range(top, top + height) for c in range(left, left + width)}
            if box != digits:
                return (
                    f"the box of rows {top + 1}-{top + height}, columns {left + 1}-{left + width}"
                    f" is not 1..{side} once each"
                )
    return None


class SudokuValidator(Validator):
    """Any completion that keeps every given and obeys every rule; "unsolvable" only when
    the reference found no completion.

    With ``case``: when ``expected`` is solvable, ``solvable`` is true and ``solution`` is a
    grid of the input's side whose rows, columns and boxes (the input's box shape) each hold
    ``1..n`` once and which keeps every non-zero given; when it is not, ``solvable`` is false
    and ``solution`` null. Without ``case``: equal to ``expected``.
    """

    kind = "sudoku"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        solution, solvable = pick(actual, "solution"), pick(actual, "solvable")
        if not isinstance(solvable, bool):
            return ValidationResult(
                False, f"solvable: expected true or false, got {solvable!r:.40}"
            )
        if pick(expected, "solvable") is not True:
            if solvable or solution is not None:
                return ValidationResult(
                    False, "the grid has no completion: expected solvable false, solution null"
                )
            return ValidationResult(True, "no completion, as reported")
        if not solvable:
            return ValidationResult(False, "the grid has a completion, but solvable is false")
        if case is None:
            if solution != pick(expected, "solution"):
                return ValidationResult(False, "the grid differs from the expected one (no input)")
            return ValidationResult(True, "the expected grid (no test input)")
        grid = case.input["grid"]
        side = len(grid)
        if not isinstance(solution, list) or len(solution) != side:
            return ValidationResult(False, f"solution: expected {side} rows, got {solution!r:.60}")
        for r, row in enumerate(solution):
            if not isinstance(row, list) or len(row) != side:
                return ValidationResult(False, f"solution row {r + 1} does not hold {side} digits")
            if not all(_is_int(v) and 1 <= v <= side for v in row):
                return ValidationResult(
                    False, f"solution row {r + 1} holds a value outside 1..{side}"
                )
        for r in range(side):
            for c in range(side):
                if grid[r][c] and solution[r][c] != grid[r][c]:
                    return ValidationResult(
                        False,
                        f"cell R{r + 1}C{c + 1} was given as {grid[r][c]}, not {solution[r][c]}",
                    )
        broken = _rule_broken(solution, *_box_of(case.input))
        if broken:
            return ValidationResult(False, broken)
        return ValidationResult(True, "every given kept; rows, columns and boxes hold 1..n once")


def count_solutions(grid: list[list[int]], height: int, width: int, cap: int = 2) -> int:
    """How many completions ``grid`` has, counted up to ``cap``.

    Digits are bit masks per row, column and box, and the search fills the blank with the
    fewest candidates first: the count (capped) does not depend on the order, and the
    generator's stress grids (up to 48 blanks of 9x9) check their uniqueness thousands of
    times per case.

    >>> count_solutions([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]], 2, 2)
    1
    >>> count_solutions([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 2, 2)
    2
    """
    side = len(grid)
    stacks = side // width
    rows, cols, boxes = [0] * side, [0] * side, [0] * side
    blanks: list[tuple[int, int, int]] = []
    for r, row in enumerate(grid):
        for c, digit in enumerate(row):
            box = (r // height) * stacks + c // width
            if digit:
                bit = 1 << (digit - 1)
                rows[r] |= bit
                cols[c] |= bit
                boxes[box] |= bit
            else:
                blanks.append((r, c, box))
    full = (1 << side) - 1
    found = 0

    def search(left: int) -> None:
        nonlocal found
        if left == 0:
            found += 1
            return
        # The open blanks are blanks[:left]; the one with the fewest candidates goes last.
        best, best_free, best_count = 0, 0, side + 1
        for k in range(left):
            r, c, box = blanks[k]
            free = full & ~(rows[r] | cols[c] | boxes[box])
            count = free.bit_count()
            if count < best_count:
                best, best_free, best_count = k, free, count
                if count <= 1:
                    break
        if best_count == 0:
            return
        last = left - 1
        blanks[best], blanks[last] = blanks[last], blanks[best]
        r, c, box = blanks[last]
        while best_free and found < cap:
            bit = best_free & -best_free
            best_free ^= bit
            rows[r] |= bit
            cols[c] |= bit
            boxes[box] |= bit
            search(last)
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[box] ^= bit
        blanks[best], blanks[last] = blanks[last], blanks[best]

    search(len(blanks))
    return found


def _full_grid(rng: random.Random, height: int, width: int) -> list[list[int]]:
    """A random complete grid: the banded pattern, then digits, rows within bands, bands,
    columns within stacks and stacks shuffled (each keeps every rule)."""
    side = height * width
    digits = list(range(1, side + 1))
    rng.shuffle(digits)

    def shuffled_groups(size: int, count: int) -> list[int]:
        groups = list(range(count))
        rng.shuffle(groups)
        order = []
        for g in groups:
            inner = list(range(g * size, (g + 1) * size))
            rng.shuffle(inner)
            order += inner
        return order

    rows = shuffled_groups(height, width)  # ``width`` bands of ``height`` rows
    cols = shuffled_groups(width, height)  # ``height`` stacks of ``width`` columns
    pattern = [[(width * (r % height) + r // height + c) % side for c in range(side)] for r in rows]
    return [[digits[pattern[i][c]] for c in cols] for i in range(side)]


def _forced(grid: list[list[int]], r: int, c: int, height: int, width: int) -> bool:
    """Whether the blank at ``(r, c)`` can take one digit only, given its row, column and
    box."""
    seen = {*grid[r], *(row[c] for row in grid)}
    top, left = r - r % height, c - c % width
    seen.update(grid[i][j] for i in range(top, top + height) for j in range(left, left + width))
    seen.discard(0)
    return len(seen) == len(grid) - 1


def _puzzle(rng: random.Random, height: int, width: int, blanks: int) -> list[list[int]]:
    """A grid with exactly ``blanks`` blanks and exactly one completion."""
    side = height * width
    for _ in range(_ATTEMPTS):
        grid = _full_grid(rng, height, width)
        cells = [(r, c) for r in range(side) for c in range(side)]
        rng.shuffle(cells)
        removed = 0
        for r, c in cells:
            if removed == blanks:
                break
            digit, grid[r][c] = grid[r][c], 0
            # The grid had one completion; a blank its row, column and box leave one digit
            # keeps it at one, so only other blanks need the search.
            if _forced(grid, r, c, height, width) or count_solutions(grid, height, width) == 1:
                removed += 1
            else:
                grid[r][c] = digit
        if removed == blanks:
            return grid
    raise RuntimeError(f"no {side}x{side} sudoku with {blanks} blanks and one solution")


def _sudoku_input(grid: list[list[int]], height: int, width: int) -> dict[str, Any]:
    return {"grid": grid, "box_rows": height, "box_cols": width}


def generate_sudoku(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``sudoku`` input: ``grid`` (0 = blank), ``box_rows`` and ``box_cols``.

    The size is the number of blanks.

    - ``simple``: a 4x4 grid (2x2 boxes) with ``size`` blanks (1..10) and exactly one
      completion.
    - ``standard``: a 6x6 grid (boxes of 2 rows by 3 columns) or a 9x9 grid (3x3 boxes),
      each half the time, with ``size`` blanks (6..22) and exactly one completion.
    - ``edge``: one of :data:`SUDOKU_EDGE_KINDS` on a 4x4, 6x6 or 9x9 grid, with at most
      ``size`` blanks: a single blank; no blank; an unsolvable grid whose givens repeat no
      digit in any row, column or box; two equal givens in one row, column or box. Only
      the last two have no completion; the others have exactly one.
    - A stress size (23..48 blanks): either tier draws a 9x9 grid with exactly one
      completion.
    """
    if tier in ("simple", "standard") and size > STANDARD_MAX:
        return _sudoku_input(_puzzle(rng, 3, 3, size), 3, 3)  # a stress size: only 9x9 fits
    if tier == "simple":
        return _sudoku_input(_puzzle(rng, 2, 2, size), 2, 2)
    if tier == "standard":
        height, width = _BOXES[rng.choice((6, 9))]
        return _sudoku_input(_puzzle(rng, height, width, size), height, width)
    return _edge(rng, size)


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kinds = [k for k in SUDOKU_EDGE_KINDS if size >= 3 or k not in ("unsolvable",)]
    kind = rng.choice(kinds)
    height, width = _BOXES[rng.choice((4, 4, 6, 9))]
    side = height * width
    if kind == "single_blank":
        return _sudoku_input(_puzzle(rng, height, width, 1), height, width)
    if kind == "no_blanks":
        return _sudoku_input(_full_grid(rng, height, width), height, width)
    if kind == "unsolvable":
        return _unsolvable(rng, size)
    grid = _puzzle(rng, height, width, rng.randint(1, min(size, 2 * side)))
    # A blank takes a digit already given in its row, column or box.
    choices = [
        (r, c, d)
        for r in range(side)
        for c in range(side)
        if grid[r][c] == 0
        for d in range(1, side + 1)
        if _clashes(grid, height, width, r, c, d)
    ]
    r, c, d = rng.choice(choices)
    grid[r][c] = d
    return _sudoku_input(grid, height, width)


def _clashes(grid: list[list[int]], height: int, width: int, r: int, c: int, d: int) -> bool:
    side = len(grid)
    top, left = r - r % height, c - c % width
    return (
        any(grid[r][j] == d for j in range(side) if j != c)
        or any(grid[i][c] == d for i in range(side) if i != r)
        or any(
            grid[i][j] == d
            for i in range(top, top + height)
            for j in range(left, left + width)
            if (i, j) != (r, c)
        )
    )


def _unsolvable(rng: random.Random, size: int) -> dict[str, Any]:
    """A 4x4 or 6x6 grid with 3..size blanks, no given repeated in a unit, no completion:
    one given of a unique puzzle changed to a digit that clashes with no other given."""
    for _ in range(_ATTEMPTS):
        height, width = _BOXES[rng.choice((4, 6))]
        side = height * width
        blanks = rng.randint(3, min(size, side * side // 2))
        grid = _puzzle(rng, height, width, blanks)
        givens = [(r, c) for r in range(side) for c in range(side) if grid[r][c]]
        rng.shuffle(givens)
        for r, c in givens:
            others = [
                d
                for d in range(1, side + 1)
                if d != grid[r][c] and not _clashes(grid, height, width, r, c, d)
            ]
            if not others:
                continue
            changed = [row[:] for row in grid]
            changed[r][c] = rng.choice(others)
            if count_solutions(changed, height, width, cap=1) == 0:
                return _sudoku_input(changed, height, width)
    raise RuntimeError(f"no unsolvable sudoku with at most {size} blanks")


def count_blanks(test_input: Mapping[str, Any]) -> int:
    """A ``sudoku`` input's size: its number of blanks (zeros)."""
    return sum(row.count(0) for row in test_input["grid"])


@LazyHook
def sudoku_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """A completed grid with two non-given digits of a row swapped, a given overwritten,
    a blank left at 0, or every digit relabelled (a valid grid that drops the givens); a
    wrong "no completion"; on a grid with no completion, a filled grid claimed as one and
    "solvable" with no grid."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    grid: list[list[int]] = case.input["grid"]
    side = len(grid)
    solution: list[list[int]] | None = case.expected["solution"]
    if solution is None:
        filled = [
            [d if d else 1 + (r + c) % side for c, d in enumerate(row)]
            for r, row in enumerate(grid)
        ]
        yield {"solution": filled, "solvable": True}
        yield {"solution": None, "solvable": True}
        yield {"solution": grid, "solvable": False}
        return
    yield {"solution": None, "solvable": False}
    yield {"solution": solution, "solvable": False}
    blanks = [(r, c) for r in range(side) for c in range(side) if grid[r][c] == 0]
    givens = [(r, c) for r in range(side) for c in range(side) if grid[r][c]]
    rows = {r for r, _ in blanks}
    for r in rng.sample(sorted(rows), min(2, len(rows))):
        free = [c for c in range(side) if grid[r][c] == 0]
        if len(free) >= 2:
            c1, c2 = rng.sample(free, 2)
            swapped = [row[:] for row in solution]
            swapped[r][c1], swapped[r][c2] = swapped[r][c2], swapped[r][c1]
            yield {"solution": swapped, "solvable": True}
    if blanks:
        r, c = rng.choice(blanks)
        unfinished = [row[:] for row in solution]
        unfinished[r][c] = 0
        yield {"solution": unfinished, "solvable": True}
    if givens and side > 1:
        r, c = rng.choice(givens)
        overwritten = [row[:] for row in solution]
        overwritten[r][c] = solution[r][c] % side + 1
        yield {"solution": overwritten, "solvable": True}
        relabelled = [[d % side + 1 for d in row] for row in solution]
        yield {"solution": relabelled, "solvable": True}


SPEC = ScaffoldSpec(
    name="sudoku",
    category="backtracking",
    title="Sudoku by backtracking",
    graded_conventions={
        "any completion": "any completion that keeps every given digit in place",
    },
    description="complete a 4x4, 6x6 or 9x9 sudoku (or show it has no completion)",
    reference=solve_sudoku,
    generator=generate_sudoku,
    answer_schema=SudokuAnswer,
    validator=SudokuValidator(),
    sizes={"simple": 8, "standard": 14, "edge": 6},
    size=SizeAxis(
        unit="blanks",
        measure=count_blanks,
        ranges={"simple": (1, 10), "standard": (6, STANDARD_MAX), "edge": (1, 12)},
        stress=(STANDARD_MAX + 1, STRESS_MAX),
        stress_limit="the size is the blanks of a 9x9 grid, 81 cells: four times 22 does not "
        "fit, and a grid with exactly one completion is drawn quickly up to about 50 blanks "
        "(0.8 s at 50, 23 s at 56)",
    ),
    mutants=sudoku_mutants,
    max_output_tokens=8192,
    # Passes over the blanks, a line per blank looked at (benchmarks/stress_budgets.py):
    # 1,128 tokens at 22 blanks, 1,790 at 35, 6,566 at 48 (past about 40 the singles run
    # out and guesses add passes); the flat budget holds the standard maximum, and the line
    # through the rule's 8,192 at 22 and 16,349 at 48 holds every stress size.
    output_budget=OutputBudget(per_unit=314, base=1288),
    code_size_limit=(
        "exponential: a backtracking search, which no polynomial algorithm replaces; a "
        "9x9 grid has at most 81 blanks and the generator keeps a unique completion"
    ),
)
