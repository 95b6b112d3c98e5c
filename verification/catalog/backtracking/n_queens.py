"""N-queens: the ``n_queens`` scaffold (every solution that keeps the placed queens, in any
order)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import distinct_answers, drawing_first, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.reference.backtracking import n_queens
from verification.validators.base import ValidationResult, Validator, pick, repeated

__all__ = [
    "MAX_SOLUTIONS",
    "N_QUEENS_EDGE_KINDS",
    "SEARCH_BUDGET",
    "SPEC",
    "NQueensAnswer",
    "NQueensValidator",
    "board_side",
    "generate_n_queens",
    "search_lines",
]


class NQueensAnswer(AnswerSchema):
    """``{"solutions": [[1, 3, 0, 2], [2, 0, 3, 1]], "count": 2}``."""

    solutions: list[list[int]]
    """Every solution once, as the 0-based column of the queen in rows 0, 1, ..."""
    count: int
    """How many solutions there are."""


N_QUEENS_EDGE_KINDS = ("one", "two", "three", "blocked", "one_row_left")
"""The edge boards: ``n`` = 1 (one solution, ``[[0]]``), 2 and 3 (no solution), placed
queens that attack no other yet leave no solution, and all rows but one placed (one
solution)."""

SEARCH_BUDGET = {"simple": 40, "standard": 160, "edge": 60}
"""The most partial placements (lines of the shown search) a case of each tier asks for."""
MAX_SOLUTIONS = 8
"""The most solutions a simple or standard case has."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _attacks(solution: Sequence[int]) -> tuple[int, int] | None:
    """The first pair of rows whose queens share a column or a diagonal, or None."""
    for r1 in range(len(solution)):
        for r2 in range(r1 + 1, len(solution)):
            if abs(solution[r1] - solution[r2]) in (0, r2 - r1):
                return r1, r2
    return None


class NQueensValidator(Validator):
    """The set of all n-queens solutions, in any order.

    With ``case``: every solution is a list of ``n`` integers ``0..n-1`` whose queens attack
    no other; no solution is listed twice; ``count`` is the number listed; and that number
    is the true total ``expected["count"]`` (distinct valid solutions as many as exist are
    all of them). Without ``case``: the same set of solutions as ``expected``.
    """

    kind = "n_queens"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        solutions, count = pick(actual, "solutions"), pick(actual, "count")
        total = pick(expected, "count")
        if not isinstance(solutions, list) or not all(isinstance(s, list) for s in solutions):
            return ValidationResult(False, "solutions: expected a list of lists")
        if not _is_int(count):
            return ValidationResult(False, f"count: expected an integer, got {count!r:.40}")
        keys = [tuple(s) for s in solutions]
        if len(set(keys)) != len(keys):
            twice = repeated(keys)
            return ValidationResult(False, f"solutions repeats {list(twice[0])}")
        if count != len(solutions):
            return ValidationResult(
                False,
                f"count is {count} but {_solutions(len(solutions))} "
                f"{'is' if len(solutions) == 1 else 'are'} listed",
            )
        if case is None:
            want = {tuple(s) for s in pick(expected, "solutions") or []}
            if set(keys) != want:
                return ValidationResult(
                    False, "the solutions differ from the expected set (no test input)"
                )
            return ValidationResult(True, f"the same {count} solutions (no test input)")
        n = case.input["n"]
        placed = case.input.get("placed") or []
        for solution in solutions:
            if len(solution) != n or not all(_is_int(c) and 0 <= c < n for c in solution):
                return ValidationResult(False, f"{solution!r:.80} is not {n} columns in 0..{n - 1}")
            moved = [[r, c] for r, c in placed if solution[r] != c]
            if moved:
                return ValidationResult(
                    False, f"{solution} moves the placed queen {moved[0]} (row, column)"
                )
            clash = _attacks(solution)
            if clash is not None:
                r1, r2 = clash
                return ValidationResult(
                    False, f"in {solution}, the queens of rows {r1} and {r2} attack each other"
                )
        details = {"n": n, "listed": count, "total": total}
        if count != total:
            return ValidationResult(
                False, f"{count} valid solutions listed; the {n}x{n} board has {total}", details
            )
        return ValidationResult(True, f"all {_solutions(total)}, each valid, none twice", details)


def search_lines(n: int, placed: Sequence[Sequence[int]], limit: int | None = None) -> int:
    """How many partial placements (lines of shown work) the scaffold's search visits,
    the empty one and the solutions included; counting stops just past ``limit``."""
    fixed = {row: col for row, col in placed}
    # Placed queens are on the board from the start (the scaffold's step 2): per row, the
    # columns they take there, as bits. Bit masks, not sets: the generator runs this search
    # for every placement it tries.
    marks = [0] * n
    for queen_row, queen_col in fixed.items():
        for row in range(n):
            offset = row - queen_row
            for col in (queen_col, queen_col + offset, queen_col - offset):
                if 0 <= col < n:
                    marks[row] |= 1 << col
    full = (1 << n) - 1
    visited = 0

    def visit(row: int, taken: int, down: int, up: int) -> None:
        nonlocal visited
        visited += 1
        if row == n or (limit is not None and visited > limit):
            return
        if row in fixed:  # always free: every earlier queen was chosen off its lines
            visit(row + 1, taken, down << 1 & full, up >> 1)
            return
        free = full & ~(taken | down | up | marks[row])
        while free:  # lowest column first, as the scaffold tries them
            bit = free & -free
            free ^= bit
            visit(row + 1, taken | bit, (down | bit) << 1 & full, (up | bit) >> 1)

    visit(0, 0, 0, 0)
    return visited


@cache
def _empty_board(n: int) -> list[list[int]]:
    solutions: list[list[int]] = n_queens(n)["solutions"]
    return solutions


def _placed_from(rng: random.Random, n: int, queens: int) -> list[list[int]]:
    """``queens`` queens of a random solution of the empty board, by row."""
    solution = rng.choice(_empty_board(n))
    return [[row, solution[row]] for row in sorted(rng.sample(range(n), queens))]


def _blocked(rng: random.Random, n: int) -> list[list[int]] | None:
    """Two queens that attack each other not, yet leave the board no solution."""
    for _ in range(200):
        (r1, r2), (c1, c2) = sorted(rng.sample(range(n), 2)), rng.sample(range(n), 2)
        if abs(c1 - c2) == r2 - r1:
            continue
        placed = [[r1, c1], [r2, c2]]
        budget = SEARCH_BUDGET["edge"]
        if not n_queens(n, placed)["count"] and search_lines(n, placed, budget) <= budget:
            return placed
    return None


@lru_cache(maxsize=4096)
def _fits(size: int, placed: tuple[tuple[int, ...], ...], budget: int) -> bool:
    """Whether ``placed`` keeps the search within ``budget`` lines and the board at most
    :data:`MAX_SOLUTIONS` solutions. Kept: the cases of a run try the same few queens of
    the same solutions again and again (a board of 8 has 64 single queens to place)."""
    queens = [list(queen) for queen in placed]
    return (
        search_lines(size, queens, budget) <= budget
        and n_queens(size, queens)["count"] <= MAX_SOLUTIONS
    )


def generate_n_queens(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``n_queens`` input, ``{"n": side, "placed": [[row, column], ...]}``.

    - ``simple`` and ``standard``: ``n = size`` with the fewest queens of a random
      solution placed (at least one) that keep the search within
      :data:`SEARCH_BUDGET` lines (40 simple, 160 standard) and at most
      :data:`MAX_SOLUTIONS` solutions: on 8x8, usually two or three placed queens, one to
      eight solutions and 25 to 160 lines. Without placed queens every case of a size would
      be the same board (and 8x8 alone has 92 solutions, 2,056 placements to show).
    - ``edge``: one of :data:`N_QUEENS_EDGE_KINDS`: ``n`` = 1, 2 or 3 with nothing placed
      (one solution, ``[[0]]``, then none twice); two placed queens on a board of side
      ``size`` (at least 4) that leave no solution; or every row but one placed from a
      solution (exactly one solution).
    """
    if size < 1:
        raise ValueError(f"n_queens needs a board side of at least 1, got {size}")
    if tier == "edge":
        kinds = [k for k in N_QUEENS_EDGE_KINDS[:3] if N_QUEENS_EDGE_KINDS.index(k) < size]
        if size >= 4:
            kinds += N_QUEENS_EDGE_KINDS[3:]
        kind = rng.choice(kinds)
        if kind == "blocked":
            placed = _blocked(rng, size)
            if placed is not None:
                return {"n": size, "placed": placed}
            kind = "one_row_left"
        if kind == "one_row_left":
            return {"n": size, "placed": _placed_from(rng, size, size - 1)}
        return {"n": N_QUEENS_EDGE_KINDS.index(kind) + 1, "placed": []}
    if size < 4:
        raise ValueError(f"the {tier} tier needs a board side of at least 4, got {size}")
    for queens in range(1, size + 1):
        for _ in range(20):
            placed = _placed_from(rng, size, queens)
            if _fits(size, tuple(map(tuple, placed)), SEARCH_BUDGET[tier]):
                return {"n": size, "placed": placed}
    raise AssertionError("every queen placed leaves one solution and a short search")


def board_side(test_input: Mapping[str, Any]) -> int:
    """An ``n_queens`` input's size: the board side ``n``."""
    side: int = test_input["n"]
    return side


def _answer(solutions: list[list[int]]) -> dict[str, Any]:
    return {"solutions": solutions, "count": len(solutions)}


@drawing_first
def n_queens_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """A solution dropped, repeated, or with two queens swapped between rows; every column
    counted from 1; only the solutions whose first queen is in the left half (the mirror
    images forgotten); the count one off; on a board with no solution, the main diagonal
    claimed as one; the placed queens ignored (the empty board's solutions) or one of
    them moved."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Every draw first (the alternatives draw after these), then the answers one at a
    # time: a run's calibration judges the first few and makes no more.
    n: int = case.input["n"]
    placed: list[list[int]] = case.input.get("placed") or []
    solutions: list[list[int]] = case.expected["solutions"]
    count = len(solutions)
    index = rng.randrange(count) if count else 0
    rows = rng.sample(range(n), 2) if count and n >= 2 else []
    yield {"solutions": solutions, "count": count + 1}
    yield _answer([list(range(n))])
    if placed and n <= 8:
        empty_board = _empty_board(n)
        yield _answer(empty_board)
        kept = {tuple(s) for s in solutions}
        yield _answer([*solutions, *[s for s in empty_board if tuple(s) not in kept][:1]])
    if count:
        yield {"solutions": solutions, "count": count - 1}
        yield _answer(solutions[:index] + solutions[index + 1 :])
        yield _answer([*solutions, solutions[index]])
        yield _answer([[c + 1 for c in s] for s in solutions])
        if n >= 2:
            r1, r2 = rows
            swapped = list(solutions[index])
            swapped[r1], swapped[r2] = swapped[r2], swapped[r1]
            yield _answer([*solutions[:index], swapped, *solutions[index + 1 :]])
            yield _answer([s for s in solutions if 2 * s[0] < n])
    else:
        yield {"solutions": [], "count": 1}


def n_queens_alternatives(case: TestCase, rng: random.Random) -> Sequence[dict[str, Any]]:
    """The same solutions in reverse and in a shuffled order."""
    solutions: list[list[int]] = case.expected["solutions"]
    shuffled = list(solutions)
    rng.shuffle(shuffled)
    return distinct_answers([_answer(solutions[::-1]), _answer(shuffled)], unlike=[case.expected])


SPEC = ScaffoldSpec(
    name="n_queens",
    category="backtracking",
    title="N-queens",
    graded_conventions={
        "complete": "every solution is listed, each once, in any order",
    },
    description="every placement of n non-attacking queens that keeps the queens placed, "
    "row-by-row backtracking",
    reference=n_queens,
    generator=generate_n_queens,
    answer_schema=NQueensAnswer,
    # The order of `solutions` is left ungraded (the guide's form rule 3): they are a set,
    # and the Output Format says they may come in any order.
    validator=NQueensValidator(),
    sizes={"simple": 5, "standard": 8, "edge": 5},
    size=SizeAxis(
        unit="board side",
        measure=board_side,
        ranges={"simple": (4, 6), "standard": (6, 10), "edge": (1, 8)},
        # A larger board with the answer still capped (at most MAX_SOLUTIONS solutions and
        # SEARCH_BUDGET lines of search): the placed queens keep it small.
        stress=(11, 12),
        stress_limit="the placed queens come from a random solution of the empty board, drawn "
        "from all of its solutions: 14,200 at 12 (a second), 73,712 at 13 (9 s a board); "
        "every solution unplaced is exponential, so the answer stays capped by placed queens",
    ),
    mutants=n_queens_mutants,
    alternatives=n_queens_alternatives,
    max_output_tokens=8192,
    # A line per partial placement (benchmarks/stress_budgets.py n_queens): 2,103 tokens at
    # a side of 10, 2,354 at 12 (longer lines; the search stays within SEARCH_BUDGET); the
    # flat budget holds the standard maximum, each side past it 1.5x its work.
    output_budget=OutputBudget(per_unit=190, base=6300),
    code_size_limit=(
        "exponential: a backtracking search, which no polynomial algorithm replaces, "
        "and every solution is listed: 724 of them at 10"
    ),
)


def _solutions(count: int) -> str:
    return f"{count} solution" + ("" if count == 1 else "s")
