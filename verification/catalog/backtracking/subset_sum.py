"""Subset sum: the ``subset_sum`` scaffold (indices of numbers that add up to a target, or
"no subset" when none do)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import distinct_answers
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.arrays import distinct_values, values_with_repeats
from verification.reference.backtracking import subset_sum
from verification.validators.base import ValidationResult, Validator, pick

__all__ = [
    "MAX_STEPS",
    "SPEC",
    "STANDARD_MAX",
    "STRESS_MAX",
    "SUBSET_SUM_EDGE_KINDS",
    "SubsetSumAnswer",
    "SubsetSumValidator",
    "count_numbers",
    "generate_subset_sum",
    "search_effort",
    "subsets_summing_to",
]


class SubsetSumAnswer(AnswerSchema):
    """``{"found": true, "indices": [0, 2, 5]}`` or ``{"found": false, "indices": null}``."""

    found: bool
    """Whether some subset sums to the target."""
    indices: list[int] | None
    """0-based positions of one such subset, or null when there is none."""


SUBSET_SUM_EDGE_KINDS = (
    "empty_set",
    "zero_target",
    "no_subset",
    "above_total",
    "whole_set",
    "single_number",
    "zeros_and_repeats",
)
"""The edge instances: no numbers (target 0 or not); target 0; a target within the total
that no subset reaches; a target above the total; the target equal to the total; one
number; zeros and repeated values (several right index sets)."""

MAX_STEPS = {"simple": 30, "standard": 90, "no_subset": 60}
"""The most steps the scaffold's search shows before it stops, per tier (and for the edge
tier's ``no_subset`` instances, whose search runs to the end): the work fits the budget.
A stress size grows a tier's in proportion to the size past the standard maximum."""
_ATTEMPTS = 500
STANDARD_MAX = 14
"""The most numbers of a standard case; past it, up to four times as many (the stress
range)."""
STRESS_MAX = 4 * STANDARD_MAX


def _step_cap(tier: str, size: int) -> int:
    """The most steps a case's search shows: the tier's, grown in proportion to the size
    past the standard maximum."""
    return MAX_STEPS[tier] * max(size, STANDARD_MAX) // STANDARD_MAX


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class SubsetSumValidator(Validator):
    """Any subset that sums to the target; "no subset" only when none exists.

    With ``case``: when ``expected`` found one, ``found`` is true and ``indices`` are
    distinct integers in ``0..n-1``, in any order, whose numbers sum to the target; when it
    found none (its search is exhaustive), ``found`` is false and ``indices`` null. Without
    ``case``: the decision must agree and the index set equal ``expected``'s.
    """

    kind = "subset_sum"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        found, indices = pick(actual, "found"), pick(actual, "indices")
        if not isinstance(found, bool):
            return ValidationResult(False, f"found: expected true or false, got {found!r:.40}")
        if pick(expected, "found") is not True:
            if found or indices is not None:
                return ValidationResult(
                    False, "no subset sums to the target: expected found false, indices null"
                )
            return ValidationResult(True, "no subset, as reported")
        if not found:
            return ValidationResult(False, "a subset sums to the target, but found is false")
        if not isinstance(indices, list) or not all(_is_int(i) for i in indices):
            return ValidationResult(
                False, f"indices: expected a list of integers, got {indices!r:.60}"
            )
        if len(set(indices)) != len(indices):
            return ValidationResult(False, f"indices repeats an index: {indices}")
        if case is None:
            if set(indices) != set(pick(expected, "indices") or []):
                return ValidationResult(False, "another index set than expected (no test input)")
            return ValidationResult(True, "the expected index set (no test input)")
        numbers, target = case.input["numbers"], case.input["target"]
        outside = [i for i in indices if not 0 <= i < len(numbers)]
        if outside:
            return ValidationResult(
                False, f"indices {outside[:5]} are outside 0..{len(numbers) - 1}"
            )
        total = sum(numbers[i] for i in indices)
        if total != target:
            return ValidationResult(
                False, f"the chosen numbers sum to {total}, not {target}", {"sum": total}
            )
        return ValidationResult(True, f"{len(indices)} numbers summing to {target}")


def search_effort(numbers: Sequence[int], target: int, limit: int | None = None) -> tuple[int, int]:
    """The scaffold's search on this input: how many steps it shows (a take, a skip, a
    dead end, an undo, the success) and how many branches it abandons as dead ends; with
    ``limit``, the count stops just past it (a search too long to show is not followed to
    its end)."""
    after = [sum(numbers[i:]) for i in range(len(numbers) + 1)]
    steps = cuts = 0

    def search(index: int, total: int) -> bool:
        nonlocal steps, cuts
        steps += 1
        if total == target or (limit is not None and steps > limit):
            return True
        if index == len(numbers) or total + after[index] < target:
            cuts += 1
            return False
        if total + numbers[index] <= target:
            if search(index + 1, total + numbers[index]):
                return True
            steps += 1  # the undo
        return search(index + 1, total)

    search(0, 0)
    return steps, cuts


def subsets_summing_to(numbers: Sequence[int], target: int, limit: int = 10) -> list[list[int]]:
    """Up to ``limit`` index sets (ascending) whose numbers sum to ``target``, by brute
    force over every subset (for the small instances generated here)."""
    if not all(type(x) is int for x in numbers):  # not whole numbers: summed as listed
        return _subsets_by_listing(numbers, target, limit)
    found: list[list[int]] = []
    # Masks in ascending order, each sum made from the mask without its lowest bit (met
    # earlier; whole numbers sum exactly in any order): one addition a subset, and an
    # index list only for a match.
    sums = [0] * (1 << len(numbers))
    for mask in range(1 << len(numbers)):
        if mask:
            low = mask & -mask
            sums[mask] = sums[mask ^ low] + numbers[low.bit_length() - 1]
        if sums[mask] == target:
            found.append([i for i in range(len(numbers)) if mask >> i & 1])
            if len(found) == limit:
                break
    return found


def _subsets_by_listing(numbers: Sequence[int], target: int, limit: int) -> list[list[int]]:
    found: list[list[int]] = []
    for mask in range(1 << len(numbers)):
        chosen = [i for i in range(len(numbers)) if mask >> i & 1]
        if sum(numbers[i] for i in chosen) == target:
            found.append(chosen)
            if len(found) == limit:
                break
    return found


def generate_subset_sum(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``subset_sum`` input: ``numbers`` (non-negative integers) and ``target``.

    - ``simple``: ``size`` distinct numbers of 1..20 (3..8 of them); the target is the
      sum of 2..size-1 of them, and the search shows at most 30 steps.
    - ``standard``: ``size`` numbers of 1..(20 + 3 * size) with at least one repeat
      (6..14 of them); the target is the sum of about a third to a half of them; the
      search must go back (the take-whatever-fits pass in order misses the target) and
      shows at most 90 steps.
    - ``edge``: at most ``size`` numbers, one of :data:`SUBSET_SUM_EDGE_KINDS`. Only
      ``no_subset``, ``above_total``, ``empty_set`` with a positive target and
      ``single_number`` with another target have no subset; a ``no_subset`` search
      shows at most 60 steps before it gives up.
    - At a stress size (15..56, past the standard maximum): the simple tier's numbers are
      distinct of 1..3*size, and either tier's search shows at most its steps times
      ``size / 14``.
    """
    # Past the standard maximum (the stress range) the numbers reach higher, so that many
    # distinct ones exist, and the search may show more steps, in proportion to the size.
    stress = size > STANDARD_MAX
    if tier == "simple":
        if size < 3:
            raise ValueError(f"simple subset_sum needs at least 3 numbers, got {size}")
        for _ in range(_ATTEMPTS):
            numbers = distinct_values(rng, size, 1, 3 * size if stress else 20)
            target = sum(rng.sample(numbers, rng.randint(2, size - 1)))
            cap = _step_cap("simple", size)
            if search_effort(numbers, target, cap)[0] <= cap:
                return {"numbers": numbers, "target": target}
        raise RuntimeError(f"no simple subset_sum input of {size} numbers")
    if tier == "standard":
        if size < 6:
            raise ValueError(f"standard subset_sum needs at least 6 numbers, got {size}")
        for _ in range(_ATTEMPTS):
            numbers = values_with_repeats(rng, size, 1, 20 + 3 * size)
            picked = rng.sample(numbers, rng.randint(max(2, size // 3), size // 2))
            target = sum(picked)
            if _greedy_hits(numbers, target):
                continue
            cap = _step_cap("standard", size)
            steps, cuts = search_effort(numbers, target, cap)
            if cuts >= 1 and steps <= cap:
                return {"numbers": numbers, "target": target}
        raise RuntimeError(f"no standard subset_sum input of {size} numbers")
    return _edge(rng, size)


def _greedy_hits(numbers: Sequence[int], target: int) -> bool:
    total = 0
    for value in numbers:
        if total + value <= target:
            total += value
    return total == target


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    needs = {"empty_set": 0, "single_number": 1, "whole_set": 2, "zero_target": 2}
    kinds = [k for k in SUBSET_SUM_EDGE_KINDS if size >= needs.get(k, 3)]
    kind = rng.choice(kinds)
    if kind == "empty_set":
        return {"numbers": [], "target": rng.choice((0, rng.randint(1, 9)))}
    if kind == "single_number":
        value = rng.randint(1, 20)
        return {"numbers": [value], "target": rng.choice((value, value + rng.randint(1, 5)))}
    n = rng.randint(needs.get(kind, 3), size)
    numbers = distinct_values(rng, n, 1, 20 + 3 * n)
    if kind == "zero_target":
        return {"numbers": numbers, "target": 0}
    if kind == "whole_set":
        return {"numbers": numbers, "target": sum(numbers)}
    if kind == "above_total":
        return {"numbers": numbers, "target": sum(numbers) + rng.randint(1, 10)}
    if kind == "zeros_and_repeats":
        numbers = values_with_repeats(rng, n, 1, 12)
        for index in rng.sample(range(n), rng.randint(1, max(1, n // 3))):
            numbers[index] = 0
        chosen = rng.sample(range(n), rng.randint(1, n - 1))
        return {"numbers": numbers, "target": sum(numbers[i] for i in chosen)}
    return _no_subset(rng, n)


def _no_subset(rng: random.Random, n: int) -> dict[str, Any]:
    """A target between the smallest number and the total that no subset reaches: either
    every number even and the target odd, or drawn until brute force finds no subset."""
    for _ in range(_ATTEMPTS):
        if rng.random() < 0.3:
            numbers = [2 * v for v in distinct_values(rng, n, 1, 15)]
            target = rng.randrange(min(numbers) + 1, sum(numbers), 2)
        else:
            numbers = distinct_values(rng, n, 5, 10 + 4 * n)
            target = rng.randint(min(numbers) + 1, sum(numbers) - 1)
        if search_effort(numbers, target)[0] > MAX_STEPS["no_subset"]:
            continue  # too long a search to show by hand
        if not subsets_summing_to(numbers, target, limit=1):
            return {"numbers": numbers, "target": target}
    raise RuntimeError(f"no unreachable subset_sum target for {n} numbers")


def count_numbers(test_input: Mapping[str, Any]) -> int:
    """A ``subset_sum`` input's size: how many numbers it holds."""
    return len(test_input["numbers"])


def _sums(numbers: Sequence[int], indices: Sequence[int], target: int) -> bool:
    return len(set(indices)) == len(indices) and sum(numbers[i] for i in indices) == target


def subset_sum_mutants(case: TestCase, rng: random.Random) -> Sequence[dict[str, Any]]:
    """A non-zero number dropped from the subset or one added, an index repeated, every
    index counted from 1, an index past the end, a wrong "no subset"; when there is no
    subset, the closest subset claimed, the empty one claimed, and "found" with no
    indices."""
    numbers: list[int] = case.input["numbers"]
    target: int = case.input["target"]
    n = len(numbers)
    indices: list[int] | None = case.expected["indices"]
    if indices is None:
        closest = min(_all_subsets(numbers), key=lambda s: abs(sum(numbers[i] for i in s) - target))
        wrong: list[dict[str, Any]] = [
            {"found": True, "indices": closest},
            {"found": True, "indices": []},
            {"found": True, "indices": None},
            {"found": False, "indices": []},
        ]
        return distinct_answers(wrong, unlike=[case.expected])
    candidates: list[list[int]] = [[*indices, n]]
    candidates += [[i for i in indices if i != j] for j in indices if numbers[j]]
    candidates += [sorted([*indices, j]) for j in range(n) if j not in indices and numbers[j]]
    if indices:
        candidates.append(sorted([*indices, rng.choice(indices)]))
        candidates.append([i + 1 for i in indices])
    rng.shuffle(candidates)
    wrong = [{"found": False, "indices": None}]
    wrong += [
        {"found": True, "indices": c}
        for c in candidates
        if any(i >= n for i in c) or not _sums(numbers, c, target)
    ][:5]
    return distinct_answers(wrong, unlike=[case.expected])


def _all_subsets(numbers: Sequence[int]) -> list[list[int]]:
    """Every index set of ``numbers`` (only the edge tier has no subset; it is small)."""
    return [[i for i in range(len(numbers)) if m >> i & 1] for m in range(1 << len(numbers))]


def _swapped(numbers: Sequence[int], indices: Sequence[int], limit: int = 10) -> list[list[int]]:
    """Up to ``limit`` index sets with the same sum as ``indices``: one of them swapped for
    an index outside them that holds the same number."""
    chosen = set(indices)
    found = [
        sorted(chosen - {i} | {j})
        for i in indices
        for j in range(len(numbers))
        if j not in chosen and numbers[j] == numbers[i]
    ]
    return found[:limit]


def subset_sum_alternatives(case: TestCase, rng: random.Random) -> Sequence[dict[str, Any]]:
    """Up to three other index sets that reach the target (brute force; past the standard
    maximum, one index swapped for another of the same number), and the expected indices
    in descending order."""
    indices: list[int] | None = case.expected["indices"]
    if indices is None:
        return []
    numbers: list[int] = case.input["numbers"]
    if len(numbers) <= STANDARD_MAX:
        others = subsets_summing_to(numbers, case.input["target"])
    else:  # a stress size: too many subsets to try them all
        others = _swapped(numbers, indices)
    answers = [{"found": True, "indices": s} for s in rng.sample(others, min(3, len(others)))]
    answers.append({"found": True, "indices": indices[::-1]})
    return distinct_answers(answers, unlike=[case.expected])


SPEC = ScaffoldSpec(
    name="subset_sum",
    category="backtracking",
    title="Subset sum by backtracking",
    graded_conventions={
        "positions": "given by 0-based positions",
        "empty subset": "the empty subset sums to 0",
    },
    description="indices of numbers that sum to a target, or proof that none do",
    reference=subset_sum,
    generator=generate_subset_sum,
    answer_schema=SubsetSumAnswer,
    # Index order is left ungraded (the guide's form rule 3): the answer is a set, and the
    # Output Format says any order is accepted; ascending only makes the sum easier to check.
    validator=SubsetSumValidator(),
    sizes={"simple": 5, "standard": 9, "edge": 6},
    size=SizeAxis(
        unit="numbers",
        measure=count_numbers,
        ranges={"simple": (3, 8), "standard": (6, STANDARD_MAX), "edge": (0, 10)},
        stress=(STANDARD_MAX + 1, STRESS_MAX),
    ),
    mutants=subset_sum_mutants,
    alternatives=subset_sum_alternatives,
    max_output_tokens=6144,
    # The suffix sums and a line per step of the search (benchmarks/stress_budgets.py): 907
    # tokens at 14 numbers, 4,486 at 56 (the step cap grows with the size); the flat budget
    # holds the standard maximum, each number past it 1.5x its work (11,618 at 56).
    output_budget=OutputBudget(per_unit=128, base=4450),
    code_sizes=(28,),
    code_size_limit=(
        "exponential: a backtracking search, which no polynomial algorithm replaces "
        "(NP-complete); the generator draws no instance of 100 numbers"
    ),
)
