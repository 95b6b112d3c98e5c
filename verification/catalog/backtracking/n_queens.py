"""N-queens: the ``n_queens`` scaffold (every solution of a small board, in any order)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from verification.calibration import distinct_answers
from verification.cases import TestCase, Tier
from verification.reference.backtracking import n_queens
from verification.spec import AnswerSchema, ScaffoldSpec, SizeAxis
from verification.validators.base import ValidationResult, Validator, pick, repeated

__all__ = [
    "N_QUEENS_EDGE_KINDS",
    "SPEC",
    "NQueensAnswer",
    "NQueensValidator",
    "board_side",
    "generate_n_queens",
]


class NQueensAnswer(AnswerSchema):
    """``{"solutions": [[1, 3, 0, 2], [2, 0, 3, 1]], "count": 2}``."""

    solutions: list[list[int]]
    """Every solution once, as the 0-based column of the queen in rows 0, 1, ..."""
    count: int
    """How many solutions there are."""


N_QUEENS_EDGE_KINDS = ("one", "two", "three")
"""The edge boards: ``n`` = 1 (one solution, ``[[0]]``), 2 and 3 (no solution)."""


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
                False, f"count is {count} but {len(solutions)} solutions are listed"
            )
        if case is None:
            want = {tuple(s) for s in pick(expected, "solutions") or []}
            if set(keys) != want:
                return ValidationResult(
                    False, "the solutions differ from the expected set (no test input)"
                )
            return ValidationResult(True, f"the same {count} solutions (no test input)")
        n = case.input["n"]
        for solution in solutions:
            if len(solution) != n or not all(_is_int(c) and 0 <= c < n for c in solution):
                return ValidationResult(False, f"{solution!r:.80} is not {n} columns in 0..{n - 1}")
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
        return ValidationResult(True, f"all {total} solutions, each valid, none twice", details)


def generate_n_queens(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``n_queens`` input, ``{"n": side}``.

    - ``simple``: ``n = size`` (4 or 5: 2 or 10 solutions, at most 53 placements tried;
      the default is 5, since the scaffold's worked example solves 4).
    - ``standard``: ``n = size`` (5 or 6: 10 or 4 solutions, at most 152 placements, 46 of
      them dead ends). Larger boards are outside the output budget: 7 has 40 solutions
      and 551 placements to show, 8 has 92 and 2,056.
    - ``edge``: ``n`` of 1..min(size, 3), one of :data:`N_QUEENS_EDGE_KINDS`: ``n = 1``
      has the one solution ``[[0]]``; 2 and 3 have none.

    The board is the whole input, so every case of a size is the same board (the rng is
    used only by the edge tier).
    """
    if size < 1:
        raise ValueError(f"n_queens needs a board side of at least 1, got {size}")
    if tier == "edge":
        return {"n": rng.randint(1, min(size, len(N_QUEENS_EDGE_KINDS)))}
    return {"n": size}


def board_side(test_input: Mapping[str, Any]) -> int:
    """An ``n_queens`` input's size: the board side ``n``."""
    side: int = test_input["n"]
    return side


def _answer(solutions: list[list[int]]) -> dict[str, Any]:
    return {"solutions": solutions, "count": len(solutions)}


def n_queens_mutants(case: TestCase, rng: random.Random) -> Sequence[dict[str, Any]]:
    """A solution dropped, repeated, or with two queens swapped between rows; every column
    counted from 1; only the solutions whose first queen is in the left half (the mirror
    images forgotten); the count one off; on a board with no solution, the main diagonal
    claimed as one."""
    n: int = case.input["n"]
    solutions: list[list[int]] = case.expected["solutions"]
    count = len(solutions)
    wrong: list[dict[str, Any]] = [
        {"solutions": solutions, "count": count + 1},
        _answer([list(range(n))]),
    ]
    if count:
        wrong.append({"solutions": solutions, "count": count - 1})
        index = rng.randrange(count)
        wrong.append(_answer(solutions[:index] + solutions[index + 1 :]))
        wrong.append(_answer([*solutions, solutions[index]]))
        wrong.append(_answer([[c + 1 for c in s] for s in solutions]))
        if n >= 2:
            r1, r2 = rng.sample(range(n), 2)
            swapped = list(solutions[index])
            swapped[r1], swapped[r2] = swapped[r2], swapped[r1]
            wrong.append(_answer([*solutions[:index], swapped, *solutions[index + 1 :]]))
            wrong.append(_answer([s for s in solutions if 2 * s[0] < n]))
    else:
        wrong.append({"solutions": [], "count": 1})
    return distinct_answers(wrong, unlike=[case.expected])


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
    description="every placement of n non-attacking queens, row-by-row backtracking",
    reference=n_queens,
    generator=generate_n_queens,
    answer_schema=NQueensAnswer,
    validator=NQueensValidator(),
    sizes={"simple": 5, "standard": 6, "edge": 3},
    size=SizeAxis(
        unit="board side",
        measure=board_side,
        ranges={"simple": (4, 5), "standard": (5, 6), "edge": (1, 3)},
    ),
    mutants=n_queens_mutants,
    alternatives=n_queens_alternatives,
    max_output_tokens=8192,
)
