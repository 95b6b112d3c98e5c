"""Longest increasing subsequence: the ``lis`` scaffold (the length and any one strictly
increasing witness)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import (
    distinct_answers,
    drawing_first,
    duplicated_items,
    each_distinct,
    swapped_items,
)
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.arrays import ascending, distinct_values, values_with_repeats
from verification.reference.dynamic_programming import longest_increasing_subsequence
from verification.validators.base import ValidationResult, Validator, pick

__all__ = [
    "LIS_EDGE_KINDS",
    "SPEC",
    "LisAnswer",
    "LisValidator",
    "every_lis",
    "generate_lis",
    "sequence_length",
]


class LisAnswer(AnswerSchema):
    """``{"length": 4, "subsequence": [3, 4, 5, 9]}``."""

    length: int
    """The length of a longest strictly increasing subsequence."""
    subsequence: list[int]
    """The values of one such subsequence, in sequence order."""


LIS_EDGE_KINDS = (
    "empty",
    "single",
    "strictly_decreasing",
    "all_equal",
    "already_increasing",
    "plateaus",
    "two_equal",
)
"""The degenerate instances the edge tier draws from (``plateaus`` is non-decreasing with
repeats: its longest non-decreasing subsequence is longer than the strictly increasing
one)."""

_ATTEMPTS = 500


def sequence_length(test_input: Mapping[str, Any]) -> int:
    """An ``lis`` input's size: the length of its sequence."""
    return len(test_input["sequence"])


def generate_lis(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One ``sequence`` of ``size`` integers.

    - ``simple``: distinct values of ``1..20`` in random order (``1..1.5 size`` past
      13 values, the stress sizes).
    - ``standard``: values of ``1..30`` (``1..size`` past 30 values) with repeats,
      arranged so that a longest non-decreasing subsequence is longer than the longest
      strictly increasing one (strictness matters).

    Both are instances worth asking: the LIS has at least two elements (three in
    ``standard`` from size 6) and is shorter than the sequence; several witnesses may
    exist, and any is right.

    - ``edge``: one of :data:`LIS_EDGE_KINDS`, at most ``size`` values (empty, one value,
      strictly decreasing (LIS 1), all equal (LIS 1), strictly increasing (the whole
      sequence), non-decreasing with plateaus, two equal values).
    """
    if size < 1:
        raise ValueError(f"lis needs a size of at least 1, got {size}")
    if tier == "edge":
        return _edge(rng, size)
    least = 3 if tier == "standard" and size >= 6 else 2
    for _ in range(_ATTEMPTS):
        if tier == "simple":
            # 1..20 runs out of distinct values past 20 (stress sizes): widen it there.
            values = distinct_values(rng, size, 1, max(20, 3 * size // 2))
        else:
            values = (
                values_with_repeats(rng, size, 1, max(30, size))
                if size >= 2
                else [rng.randint(1, 30)]
            )
        length = longest_increasing_subsequence(values)["length"]
        if not least <= length < size:
            continue
        if tier == "standard" and len(_longest_non_decreasing(values)) == length:
            continue
        return {"sequence": values}
    raise RuntimeError(f"no {tier} lis instance of size {size}")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kinds = [k for k in LIS_EDGE_KINDS if size >= 2 or k not in ("plateaus", "two_equal")]
    kind = rng.choice(kinds)
    n = rng.randint(1, size)
    if kind == "empty":
        return {"sequence": []}
    if kind == "single":
        return {"sequence": [rng.randint(-5, 30)]}
    if kind == "strictly_decreasing":
        return {"sequence": sorted(distinct_values(rng, n, -5, 30), reverse=True)}
    if kind == "all_equal":
        return {"sequence": [rng.randint(1, 30)] * n}
    if kind == "already_increasing":
        return {"sequence": ascending(rng, n, rng.randint(-5, 10), repeat=0.0)}
    if kind == "plateaus":
        values = ascending(rng, max(2, n), rng.randint(1, 10), repeat=0.5)
        values[rng.randrange(1, len(values))] = values[0]
        return {"sequence": sorted(values)}
    value = rng.randint(1, 30)
    return {"sequence": [value, value]}


def _is_subsequence(part: Sequence[int], whole: Sequence[int]) -> bool:
    rest = iter(whole)
    return all(value in rest for value in part)


class LisValidator(Validator):
    """Any longest strictly increasing subsequence: properties checked against the input.

    With ``case``: ``subsequence`` is a list of exactly ``length`` integers, each strictly
    larger than the one before, that occur in ``sequence`` in that order (not necessarily
    adjacent), and ``length`` is the optimum (``expected["length"]``). Without ``case``: the
    same length and the same witness as ``expected``.
    """

    kind = "lis"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        length, witness = pick(actual, "length"), pick(actual, "subsequence")
        optimum = pick(expected, "length")
        if isinstance(length, bool) or not isinstance(length, int):
            return ValidationResult(False, f"length: expected an integer, got {length!r:.40}")
        if not isinstance(witness, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in witness
        ):
            return ValidationResult(False, f"subsequence: expected integers, got {witness!r:.60}")
        details = {"length": length, "witness_length": len(witness), "optimum": optimum}
        if len(witness) != length:
            return ValidationResult(
                False, f"length says {length}, but subsequence has {len(witness)} values", details
            )
        for before, after in itertools.pairwise(witness):
            if not before < after:
                return ValidationResult(
                    False, f"subsequence is not strictly increasing: {before} then {after}", details
                )
        if case is None:
            note = "(no test input: compared with the expected answer only)"
            if length != optimum or witness != pick(expected, "subsequence"):
                return ValidationResult(False, f"{witness!r:.60} differs from the expected {note}")
            return ValidationResult(True, f"the expected witness {note}")
        if not _is_subsequence(witness, case.input["sequence"]):
            return ValidationResult(
                False, f"{witness!r:.60} does not occur in sequence in that order", details
            )
        if length != optimum:
            return ValidationResult(
                False, f"length is {length}; the longest has {optimum} values", details
            )
        return ValidationResult(True, f"a strictly increasing subsequence of length {length}")


def every_lis(values: Sequence[int], limit: int = 50) -> list[list[int]]:
    """Distinct longest strictly increasing value sequences (at most ``limit``), sorted."""
    n = len(values)
    if n == 0:
        return [[]]
    ending = [1] * n
    for i in range(n):
        for j in range(i):
            if values[j] < values[i]:
                ending[i] = max(ending[i], ending[j] + 1)
    best = max(ending)
    chains: dict[int, set[tuple[int, ...]]] = {}
    for i in range(n):
        if ending[i] == 1:
            chains[i] = {(values[i],)}
        else:
            chains[i] = {
                (*chain, values[i])
                for j in range(i)
                if values[j] < values[i] and ending[j] == ending[i] - 1
                for chain in chains[j]
            }
            chains[i] = set(sorted(chains[i])[:limit])
    found = {chain for i in range(n) if ending[i] == best for chain in chains[i]}
    return [list(chain) for chain in sorted(found)[:limit]]


def lis_alternatives(case: TestCase, rng: random.Random) -> Sequence[dict[str, Any]]:
    """Other longest strictly increasing subsequences (a few, at random)."""
    witnesses = every_lis(case.input["sequence"])
    picked = rng.sample(witnesses, min(6, len(witnesses)))
    answers = [{"length": len(w), "subsequence": w} for w in picked]
    return distinct_answers(answers, unlike=[case.expected])


@drawing_first
def lis_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The length one off; a value dropped (increasing, not longest); a value repeated or
    two swapped (not strictly increasing); a value changed to one not in the sequence; a
    longest non-decreasing subsequence where that is longer (the strictness slip); the
    sequence itself where it is not increasing."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Every draw first (the alternatives draw after these), then the answers one at a
    # time: a run's calibration judges the first few and makes no more.
    values: list[int] = list(case.input["sequence"])
    length: int = case.expected["length"]
    witness: list[int] = case.expected["subsequence"]
    changed: list[int] = []
    if length > 0:
        index = rng.randrange(length)
        absent: list[int] = []
        spread = 3
        while not absent:  # a stress size's values may fill every number near the witness's
            near = range(witness[index] - spread, witness[index] + spread + 1)
            absent = [v for v in near if v not in values]
            spread *= 2
        changed = [*witness[:index], rng.choice(absent), *witness[index + 1 :]]
    edited = (*duplicated_items(witness, rng), *swapped_items(witness, rng, count=1))
    yield {"length": length + 1, "subsequence": witness}
    if length > 0:
        yield {"length": length - 1, "subsequence": witness}
        yield {"length": length - 1, "subsequence": witness[:index] + witness[index + 1 :]}
        yield {"length": length, "subsequence": changed}
    for items in edited:
        yield {"length": len(items), "subsequence": items}
    steady = _longest_non_decreasing(values)
    if len(steady) > length:
        yield {"length": len(steady), "subsequence": steady}
    if len(values) > length:
        yield {"length": len(values), "subsequence": values}


def _longest_non_decreasing(values: Sequence[int]) -> list[int]:
    n = len(values)
    ending, previous = [1] * n, [-1] * n
    for i in range(n):
        for j in range(i):
            if values[j] <= values[i] and ending[j] + 1 > ending[i]:
                ending[i], previous[i] = ending[j] + 1, j
    if not n:
        return []
    index, chain = ending.index(max(ending)), []
    while index >= 0:
        chain.append(values[index])
        index = previous[index]
    return chain[::-1]


SPEC = ScaffoldSpec(
    name="lis",
    category="dynamic_programming",
    title="Longest increasing subsequence",
    graded_conventions={
        "strictly": "increases strictly",
        "any longest": "any one of them is right",
    },
    description="length and one witness of a longest strictly increasing subsequence, O(n^2) DP",
    reference=longest_increasing_subsequence,
    generator=generate_lis,
    answer_schema=LisAnswer,
    validator=LisValidator(),
    sizes={"simple": 6, "standard": 10, "edge": 6},
    size=SizeAxis(
        unit="sequence length",
        measure=sequence_length,
        ranges={"simple": (3, 12), "standard": (4, 16), "edge": (1, 16)},
        stress=(17, 64),
    ),
    mutants=lis_mutants,
    alternatives=lis_alternatives,
    max_output_tokens=6144,
    # The work is a line per position listing every smaller earlier one: 493 tokens at 16, 4,587
    # at 64 (python benchmarks/stress_budgets.py lis). The flat budget holds the
    # standard maximum; each size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=128.0, base=4096),
    code_sizes=(32, 100, 300, 1000),
)
