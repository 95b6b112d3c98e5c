"""Matrix-chain multiplication: the ``matrix_chain`` scaffold (the least number of scalar
multiplications and any one optimal parenthesization)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping, Sequence
from itertools import repeat
from operator import add, mul
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import distinct_answers, drawing_first, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.reference.dynamic_programming import matrix_chain_multiplication
from verification.validators.base import ValidationResult, Validator, pick
from verification.validators.form import FormRule, with_form_rules

__all__ = [
    "MATRIX_CHAIN_EDGE_KINDS",
    "PLAIN_ORDER",
    "SPEC",
    "MatrixChainAnswer",
    "MatrixChainValidator",
    "count_matrices",
    "generate_matrix_chain",
    "optimal_parenthesizations",
    "parenthesization_cost",
]


class MatrixChainAnswer(AnswerSchema):
    """``{"min_cost": 4500, "parenthesization": "((A1A2)A3)"}``."""

    min_cost: int
    """The least number of scalar multiplications."""
    parenthesization: str
    """An order reaching it: ``expr := "A" index | "(" expr expr ")"``, ``"A1"`` alone for
    one matrix."""


MATRIX_CHAIN_EDGE_KINDS = (
    "one_matrix",
    "two_matrices",
    "equal_dimensions",
    "vector_ends",
    "tied_optima",
    "left_to_right_optimal",
)
"""The degenerate instances the edge tier draws from (``equal_dimensions`` and
``tied_optima`` have several optimal parenthesizations)."""

_ATTEMPTS = 500


def count_matrices(test_input: Mapping[str, Any]) -> int:
    """A ``matrix_chain`` input's size: the number of matrices, ``len(dimensions) - 1``."""
    return len(test_input["dimensions"]) - 1


def _costs(d: Sequence[int]) -> list[list[int]]:
    """``cost[i][j]``, the least cost of ``Ai..Aj`` (1-based)."""
    n = len(d) - 1
    cost = [[0] * (n + 1) for _ in range(n + 1)]
    # The columns too (``below[j][k]`` is ``cost[k][j]``): each split's two parts are then
    # two slices zipped, not two lookups per split (code mode draws 100 matrices).
    below = [[0] * (n + 1) for _ in range(n + 1)]
    for span in range(2, n + 1):
        for i in range(1, n - span + 2):
            j = i + span - 1
            # left + right + d[i-1] * d[k] * d[j] for each split k, summed in C (integers).
            splits = map(add, cost[i][i:j], below[j][i + 1 : j + 1])
            # mul, not the product's own __mul__: an int's gives NotImplemented for a float
            # (a hand-edited case's dimension), where the operator falls back to float's.
            outer = map(mul, repeat(d[i - 1] * d[j]), d[i:j])
            cost[i][j] = below[j][i] = min(map(add, splits, outer))
    return cost


def _one_optimal_order(d: Sequence[int], cost: Sequence[Sequence[int]]) -> bool:
    """Whether exactly one parenthesization of the whole chain reaches ``cost[1][n]``:
    the optimal orders counted down the optimal splits only, and only up to two (a chain
    worth asking has one, so n - 1 intervals are visited), not for every interval."""
    counted: dict[tuple[int, int], int] = {}

    def orders(i: int, j: int) -> int:  # 1, or 2 for two or more (never 0)
        if i == j:
            return 1
        known = counted.get((i, j))
        if known is None:
            outer, least, known = d[i - 1] * d[j], cost[i][j], 0
            for k in range(i, j):
                if cost[i][k] + cost[k + 1][j] + outer * d[k] == least:
                    known += orders(i, k) * orders(k + 1, j)
                    if known >= 2:
                        known = 2
                        break
            counted[i, j] = known
        return known

    return orders(1, len(d) - 1) == 1


def _chain(n: int, *, left: bool) -> str:
    """The left-to-right order ``(((A1A2)A3)A4)``, or right-to-left ``(A1(A2(A3A4)))``."""
    if left:
        text = "A1"
        for i in range(2, n + 1):
            text = f"({text}A{i})"
        return text
    text = f"A{n}"
    for i in range(n - 1, 0, -1):
        text = f"(A{i}{text})"
    return text


def generate_matrix_chain(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """``dimensions`` of a chain of ``size`` matrices (``size + 1`` positive integers).

    - ``simple``: dimensions in ``2..12``.
    - ``standard``: dimensions in ``2..30``.

    Both are instances worth asking: exactly one parenthesization is optimal, and from four
    matrices on it beats both multiplying left to right and right to left.

    - ``edge``: one of :data:`MATRIX_CHAIN_EDGE_KINDS`, at most ``size`` matrices (one
      matrix, cost 0; two, one product; all dimensions equal, every order ties; 1 at both
      ends; several optimal orders; left to right optimal).
    """
    if size < 1:
        raise ValueError(f"matrix_chain needs at least one matrix, got size {size}")
    if tier == "edge":
        return _edge(rng, size)
    high = 12 if tier == "simple" else 30
    for _ in range(_ATTEMPTS):
        d = [rng.randint(2, high) for _ in range(size + 1)]
        if _worth_asking(d):
            return {"dimensions": d}
    raise RuntimeError(f"no {tier} matrix_chain instance of {size} matrices")


def _worth_asking(d: list[int]) -> bool:
    n = len(d) - 1
    cost = _costs(d)
    if not _one_optimal_order(d, cost):
        return False
    if n < 4:
        return True
    naive = (parenthesization_cost(_chain(n, left=side), d) for side in (True, False))
    return all(isinstance(c, int) and c > cost[1][n] for c in naive)


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kinds = [k for k in MATRIX_CHAIN_EDGE_KINDS if size >= 3 or k == "one_matrix"]
    if size == 2:
        kinds.append("two_matrices")
    kind = rng.choice(kinds)
    n = rng.randint(3, size) if size >= 3 else 1
    if kind == "one_matrix":
        return {"dimensions": [rng.randint(1, 12), rng.randint(1, 12)]}
    if kind == "two_matrices":
        return {"dimensions": [rng.randint(1, 12) for _ in range(3)]}
    if kind == "equal_dimensions":
        return {"dimensions": [rng.randint(2, 6)] * (n + 1)}
    if kind == "vector_ends":
        return {"dimensions": [1, *(rng.randint(2, 12) for _ in range(n - 1)), 1]}
    for _ in range(_ATTEMPTS):
        d = [rng.randint(1, 6) for _ in range(n + 1)]
        cost = _costs(d)
        if kind == "tied_optima" and not _one_optimal_order(d, cost):
            return {"dimensions": d}
        if (
            kind == "left_to_right_optimal"
            and parenthesization_cost(_chain(n, left=True), d) == cost[1][n]
            and _one_optimal_order(d, cost)
        ):
            return {"dimensions": d}
    # Decreasing dimensions make left to right optimal; equal ones tie every order.
    if kind == "left_to_right_optimal":
        return {"dimensions": sorted(rng.sample(range(2, 40), n + 1), reverse=True)}
    return {"dimensions": [2] * (n + 1)}


_INDEX = re.compile(r"[1-9][0-9]*")
"""A matrix's index after its "A" (compiled once: the parser meets one per factor)."""


class _Unparsable(Exception):
    pass


def parenthesization_cost(text: str, dimensions: Sequence[int]) -> int | str:
    """The cost of multiplying the chain in the order ``text`` gives, or why ``text`` is no
    parenthesization of ``A1 .. An`` (whitespace is ignored; no ``eval``).

    >>> parenthesization_cost("((A1A2)A3)", [10, 30, 5, 60])
    4500
    >>> parenthesization_cost("(A1A2A3)", [10, 30, 5, 60])
    'expected ")" at index 5, found "A"'
    """
    n = len(dimensions) - 1
    flat = "".join(text.split())
    if len(flat) > 8 * n + 16:
        return f"{len(flat)} characters is too long for a chain of {n} matrices"
    position = 0

    def product() -> tuple[int, int, int]:
        # One factor: (first matrix, last matrix, cost of computing it).
        nonlocal position
        if position >= len(flat):
            raise _Unparsable(f"ends early at index {position}: a factor is missing")
        if flat[position] == "A":
            match = _INDEX.match(flat, position + 1)
            if match is None:
                raise _Unparsable(f'"A" at index {position} is not followed by an index')
            position = match.end()
            index = int(match.group())
            if index > n:
                raise _Unparsable(f"A{index} does not exist: the chain is A1 .. A{n}")
            return index, index, 0
        if flat[position] == "(":
            position += 1
            first, middle, left_cost = product()
            start, last, right_cost = product()
            if position >= len(flat) or flat[position] != ")":
                found = flat[position] if position < len(flat) else "the end"
                raise _Unparsable(f'expected ")" at index {position}, found "{found}"')
            position += 1
            if start != middle + 1:
                raise _Unparsable(
                    f"A{middle} is multiplied by A{start}: the matrices must stay in the order "
                    f"A1 .. A{n}, each once"
                )
            step = dimensions[first - 1] * dimensions[middle] * dimensions[last]
            return first, last, left_cost + right_cost + step
        raise _Unparsable(f'unexpected "{flat[position]}" at index {position}')

    try:
        first, last, cost = product()
    except _Unparsable as problem:
        return str(problem)
    if position != len(flat):
        return f'unexpected "{flat[position:][:10]}" after a complete product at index {position}'
    if (first, last) != (1, n):
        return f"multiplies A{first} .. A{last}, not the whole chain A1 .. A{n}"
    return cost


class MatrixChainValidator(Validator):
    """Any optimal parenthesization: parsed (never evaluated) and its cost recomputed.

    With ``case``: ``parenthesization`` follows the grammar
    ``expr := "A" index | "(" expr expr ")"`` (no blanks, as the scaffold asks) over ``A1 .. An`` in
    order, each once; multiplying in that order costs exactly ``min_cost``, and that is the
    optimum ``expected["min_cost"]``. Without ``case``: the same cost and the same string
    as ``expected``.
    """

    kind = "matrix_chain"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        stated, text = pick(actual, "min_cost"), pick(actual, "parenthesization")
        optimum = pick(expected, "min_cost")
        if isinstance(stated, bool) or not isinstance(stated, int):
            return ValidationResult(False, f"min_cost: expected an integer, got {stated!r:.40}")
        if not isinstance(text, str):
            return ValidationResult(False, f"parenthesization: expected a string, got {text!r:.40}")
        if any(char.isspace() for char in text):
            return ValidationResult(
                False, f"parenthesization {text!r:.60} has blanks: the scaffold asks for none"
            )
        if case is None:
            note = "(no test input: compared with the expected answer only)"
            if stated != optimum or text != pick(expected, "parenthesization"):
                return ValidationResult(False, f"{text!r:.60} ({stated}) differs {note}")
            return ValidationResult(True, f"the expected answer {note}")
        cost = parenthesization_cost(text, case.input["dimensions"])
        if isinstance(cost, str):
            return ValidationResult(False, f"parenthesization {text!r:.60}: {cost}")
        details = {"cost_of_order": cost, "min_cost": stated, "optimum": optimum}
        if cost != stated:
            return ValidationResult(
                False, f"{text!r:.60} costs {cost}, but min_cost says {stated}", details
            )
        if stated != optimum:
            return ValidationResult(
                False, f"min_cost is {stated}; the least cost is {optimum}", details
            )
        return ValidationResult(True, f"an optimal order of cost {cost}", details)


def optimal_parenthesizations(dimensions: Sequence[int], limit: int = 50) -> list[str]:
    """Optimal parenthesizations of the chain (at most ``limit``), sorted."""
    n = len(dimensions) - 1
    cost = _costs(dimensions)
    d = dimensions

    def orders(i: int, j: int) -> list[str]:
        if i == j:
            return [f"A{i}"]
        found = [
            f"({left}{right})"
            for k in range(i, j)
            if cost[i][k] + cost[k + 1][j] + d[i - 1] * d[k] * d[j] == cost[i][j]
            for left in orders(i, k)
            for right in orders(k + 1, j)
        ]
        return sorted(found)[:limit]

    return orders(1, n)


def matrix_chain_alternatives(case: TestCase, rng: random.Random) -> Sequence[dict[str, Any]]:
    """Other optimal parenthesizations (the edge tier's ties)."""
    optimum: int = case.expected["min_cost"]
    orders = optimal_parenthesizations(case.input["dimensions"])
    picked = rng.sample(orders, min(6, len(orders)))
    answers = [{"min_cost": optimum, "parenthesization": text} for text in picked]
    return distinct_answers(answers, unlike=[case.expected])


@drawing_first
def matrix_chain_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The cost one off; a worse order (left to right, right to left, the costliest) with
    its own cost or claiming the optimum; two matrices swapped, one dropped, the outer
    parentheses left out, the chain written flat, or the right order written with blanks."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Every draw first (the alternatives draw after these), then the answers one at a
    # time: a run's calibration judges the first few and makes no more.
    d: list[int] = case.input["dimensions"]
    n = len(d) - 1
    optimum: int = case.expected["min_cost"]
    best: str = case.expected["parenthesization"]
    tokens = re.findall(r"A[0-9]+|[()]", best)
    names = [i for i, token in enumerate(tokens) if token.startswith("A")]
    if n >= 2:
        i, j = sorted(rng.sample(names, 2))
        # One draw per token, as the filter that drops a matrix always drew.
        left_in = [k != rng.choice(names) for k in range(len(tokens))]
    yield {"min_cost": optimum + 1, "parenthesization": best}
    yield {"min_cost": max(0, optimum - 1), "parenthesization": best}
    for text in _worse_orders(d):
        cost = parenthesization_cost(text, d)
        if isinstance(cost, int) and cost != optimum:
            yield {"min_cost": cost, "parenthesization": text}
            yield {"min_cost": optimum, "parenthesization": text}
    if n >= 2:
        swapped = list(tokens)
        swapped[i], swapped[j] = tokens[j], tokens[i]
        yield {"min_cost": optimum, "parenthesization": "".join(swapped)}
        dropped = [t for t, kept in zip(tokens, left_in, strict=True) if kept]
        yield {"min_cost": optimum, "parenthesization": "".join(dropped)}
        yield {"min_cost": optimum, "parenthesization": best[1:-1]}
    if n >= 3:
        flat = "(" + "".join(f"A{i}" for i in range(1, n + 1)) + ")"
        yield {"min_cost": optimum, "parenthesization": flat}
    spaced = " ".join(tokens)
    yield {"min_cost": optimum, "parenthesization": f" {spaced}\t" if n == 1 else spaced}
    if n == 1:
        yield {"min_cost": optimum, "parenthesization": "(A1)"}
        yield {"min_cost": optimum, "parenthesization": "A2"}
        yield {"min_cost": d[0] * d[1], "parenthesization": best}


def _worse_orders(d: Sequence[int]) -> Iterator[str]:
    """Left to right, right to left, the costliest (each made only when asked for)."""
    n = len(d) - 1
    yield _chain(n, left=True)
    yield _chain(n, left=False)
    yield _costliest(d)


def _costliest(d: Sequence[int]) -> str:
    """The most expensive parenthesization (the split maximising the cost at every span)."""
    n = len(d) - 1
    most = [[0] * (n + 1) for _ in range(n + 1)]
    split = [[0] * (n + 1) for _ in range(n + 1)]
    for span in range(2, n + 1):
        for i in range(1, n - span + 2):
            j = i + span - 1
            split[i][j] = max(
                range(i, j), key=lambda k: most[i][k] + most[k + 1][j] + d[i - 1] * d[k] * d[j]
            )
            k = split[i][j]
            most[i][j] = most[i][k] + most[k + 1][j] + d[i - 1] * d[k] * d[j]

    def written(i: int, j: int) -> str:
        if i == j:
            return f"A{i}"
        return f"({written(i, split[i][j])}{written(split[i][j] + 1, j)})"

    return written(1, n)


_SIGNS = "*\u00d7\u00b7\u22c5"
"""The signs of a product a model may write between factors: an asterisk, the multiplication
sign, the middle dot and the dot operator."""
_NO_SIGNS = str.maketrans("", "", _SIGNS)


def _plain_order(answer: Any) -> Any:
    text = answer["parenthesization"]
    return {**answer, "parenthesization": "".join(text.split()).translate(_NO_SIGNS)}


def _with_a_blank_or_sign(answer: Any, rng: random.Random) -> Any:
    text: str = answer["parenthesization"]
    at = rng.randrange(1, len(text)) if len(text) > 1 else len(text)
    return {**answer, "parenthesization": text[:at] + rng.choice(" *") + text[at:]}


PLAIN_ORDER = FormRule("no spaces, `*` or other characters", _plain_order, _with_a_blank_or_sign)
"""A right order written with blanks or signs of a product (``"(A1 A2)"``, ``"(A1*A2)"``) is a
form breach (level 2), as the Output Format forbids both in one rule (hunt oo)."""


SPEC = ScaffoldSpec(
    name="matrix_chain",
    category="dynamic_programming",
    title="Matrix-chain multiplication",
    graded_conventions={
        "cost of a product": "costs p \u00b7 q \u00b7 r scalar multiplications",
        "any optimal order": "any one of them is right",
    },
    description="fewest scalar multiplications and an optimal parenthesization, interval DP",
    reference=matrix_chain_multiplication,
    generator=generate_matrix_chain,
    answer_schema=MatrixChainAnswer,
    validator=with_form_rules(MatrixChainValidator(), PLAIN_ORDER),
    sizes={"simple": 4, "standard": 6, "edge": 5},
    size=SizeAxis(
        unit="matrices",
        measure=count_matrices,
        ranges={"simple": (3, 6), "standard": (4, 8), "edge": (1, 8)},
        stress=(9, 27),
        stress_limit=(
            "every split of every sub-chain is written (about n**3 / 6 totals at n"
            " matrices): past 27 its budget passes what a model writes in one reply"
        ),
    ),
    mutants=matrix_chain_mutants,
    alternatives=matrix_chain_alternatives,
    max_output_tokens=8192,
    # The work is a line per sub-chain with every split, its total alone past 8: 1,209 tokens at
    # 8, 15,719 at 27 (python benchmarks/stress_budgets.py matrix_chain --exponent 3). The flat
    # budget holds the standard maximum; each size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=1.2, exponent=3, base=7350),
    code_rules={
        "parenthesization": (
            "any optimal order (as the scaffold accepts), written as a string of the grammar "
            "`expr := 'A' index | '(' expr expr ')'`, indices from "
            "1 in decimal, one pair of parentheses around every product including the "
            "outermost, with no spaces, `*` or other characters (`((A1(A2A3))A4)`)"
        ),
    },
    code_sizes=(16, 50, 100),
    code_size_limit=(
        "a cubic table: 1,000 matrices would be about 70 s of reference time per case "
        "(0.07 s at 100)"
    ),
)
