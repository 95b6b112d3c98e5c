"""Longest common subsequence: the ``lcs`` scaffold (the length and any one witness)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import distinct_answers, drawing_first, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.string_algo import random_word
from verification.generators.string_pairs import (
    SHARED_EDGE_KINDS,
    longer_length,
    shared_edge,
    string_pair,
)
from verification.reference.dynamic_programming import lcs_length, longest_common_subsequence
from verification.validators.base import ValidationResult, Validator, pick

__all__ = [
    "LCS_EDGE_KINDS",
    "SPEC",
    "LcsAnswer",
    "LcsValidator",
    "every_lcs",
    "generate_lcs",
]


class LcsAnswer(AnswerSchema):
    """``{"length": 4, "subsequence": "BCBA"}``."""

    length: int
    """The length of a longest common subsequence."""
    subsequence: str
    """One common subsequence of that length (``""`` when there is none)."""


LCS_EDGE_KINDS = (
    *SHARED_EDGE_KINDS,
    "subsequence_of_other",
    "repeated_letter",
)
"""The degenerate instances the edge tier draws from."""

_ATTEMPTS = 500


def generate_lcs(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """Two strings ``a`` and ``b``; ``size`` is the length of the longer one.

    - ``simple``: letters of ``ABC``, the other string 0-1 letters shorter.
    - ``standard``: letters of ``ABCD``, the other string 0-2 letters shorter.

    Both are instances worth asking: the strings differ, the LCS has at least two letters
    (at least three in ``standard`` from size 6) and is shorter than either string (neither
    is a subsequence of the other); several witnesses may exist, and any is right.

    - ``edge``: one of :data:`LCS_EDGE_KINDS`, the longer string at most ``size`` letters
      (``both_empty`` and ``one_empty`` have LCS ``""``; ``identical`` strings are their own
      LCS; ``no_common_character`` uses disjoint alphabets; ``subsequence_of_other`` makes
      the shorter string the whole LCS).
    """
    if size < 1:
        raise ValueError(f"lcs needs a size of at least 1, got {size}")
    if tier == "edge":
        return _edge(rng, size)
    alphabet, shorter, least = ("ABC", 1, 2) if tier == "simple" else ("ABCD", 2, 2)
    if tier == "standard" and size >= 6:
        least = 3
    for _ in range(_ATTEMPTS):
        long = random_word(rng, alphabet, size)
        short = random_word(rng, alphabet, max(1, size - rng.randint(0, shorter)))
        if long == short:
            continue
        length = lcs_length(long, short)  # the reference's length, without its table
        if least <= length < len(short):
            return string_pair(rng, long, short)
    raise RuntimeError(f"no {tier} lcs instance of size {size}")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(LCS_EDGE_KINDS)
    n = rng.randint(1, size)
    shared = shared_edge(rng, kind, n, letters="ABC", foreign="XYZ", single="ABCD")
    if shared is not None:
        return shared
    if kind == "subsequence_of_other":
        long = random_word(rng, "ABC", n)
        keep = sorted(rng.sample(range(n), rng.randint(0, n)))
        return string_pair(rng, long, "".join(long[i] for i in keep))
    letter = rng.choice("ABC")
    return string_pair(rng, letter * n, letter * rng.randint(1, n))


def _is_subsequence(part: str, whole: str) -> bool:
    rest = iter(whole)
    return all(letter in rest for letter in part)


class LcsValidator(Validator):
    """Any longest common subsequence: properties checked against the input.

    With ``case``: ``subsequence`` is a string with exactly ``length`` characters, a
    subsequence of ``a`` and of ``b``, and ``length`` is the optimum
    (``expected["length"]``). Without ``case``: the same length and the same witness as
    ``expected`` (another witness cannot be checked and fails).
    """

    kind = "lcs"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        length, witness = pick(actual, "length"), pick(actual, "subsequence")
        optimum = pick(expected, "length")
        if isinstance(length, bool) or not isinstance(length, int):
            return ValidationResult(False, f"length: expected an integer, got {length!r:.40}")
        if not isinstance(witness, str):
            return ValidationResult(False, f"subsequence: expected a string, got {witness!r:.40}")
        details = {"length": length, "witness_length": len(witness), "optimum": optimum}
        if len(witness) != length:
            return ValidationResult(
                False,
                f"length says {length}, but subsequence {witness!r:.60} has {len(witness)} "
                "characters",
                details,
            )
        if case is None:
            note = "(no test input: compared with the expected answer only)"
            if length != optimum or witness != pick(expected, "subsequence"):
                return ValidationResult(
                    False, f"{witness!r:.60} (length {length}) differs from the expected {note}"
                )
            return ValidationResult(True, f"the expected witness {note}")
        for key in ("a", "b"):
            if not _is_subsequence(witness, case.input[key]):
                return ValidationResult(
                    False, f"{witness!r:.60} is not a subsequence of {key}", details
                )
        if length != optimum:
            return ValidationResult(
                False, f"length is {length}; the longest common subsequence has {optimum}", details
            )
        return ValidationResult(True, f"a common subsequence of the optimal length {length}")


def every_lcs(a: str, b: str, limit: int = 50) -> list[str]:
    """Distinct longest common subsequences of ``a`` and ``b`` (at most ``limit``), sorted."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            if a[i] == b[j]:
                table[i][j] = table[i + 1][j + 1] + 1
            else:
                table[i][j] = max(table[i + 1][j], table[i][j + 1])

    @cache
    def suffixes(i: int, j: int) -> frozenset[str]:
        # Every LCS of a[i:] and b[j:]: the table says which moves keep the optimum.
        if table[i][j] == 0:
            return frozenset({""})
        if a[i] == b[j]:
            return frozenset(a[i] + rest for rest in suffixes(i + 1, j + 1))
        found: set[str] = set()
        if table[i + 1][j] == table[i][j]:
            found |= suffixes(i + 1, j)
        if table[i][j + 1] == table[i][j]:
            found |= suffixes(i, j + 1)
        return frozenset(sorted(found)[:limit])

    return sorted(suffixes(0, 0))[:limit]


def lcs_alternatives(case: TestCase, rng: random.Random) -> Sequence[dict[str, Any]]:
    """Other longest common subsequences (a few, at random)."""
    a, b = case.input["a"], case.input["b"]
    witnesses = every_lcs(a, b)
    picked = rng.sample(witnesses, min(6, len(witnesses)))
    answers = [{"length": len(w), "subsequence": w} for w in picked]
    return distinct_answers(answers, unlike=[case.expected])


@drawing_first
def lcs_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The length one off; a letter dropped (common, not longest); a letter replaced or
    added, or the witness reversed, where that is no common subsequence; a whole string
    that is not a subsequence of the other; the empty answer."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Every draw first (the alternatives draw after these), then the answers one at a
    # time: a run's calibration judges the first few and makes no more.
    a, b = case.input["a"], case.input["b"]
    length: int = case.expected["length"]
    witness: str = case.expected["subsequence"]
    letters = sorted(set(a + b) | {"A", "B"})

    def common(text: str) -> bool:
        return _is_subsequence(text, a) and _is_subsequence(text, b)

    if length > 0:
        index = rng.randrange(length)
        replacing = rng.sample(letters, len(letters))
    at = rng.randint(0, length)
    adding = rng.sample(letters, len(letters))
    yield {"length": length + 1, "subsequence": witness}
    if length > 0:
        yield {"length": length - 1, "subsequence": witness}
        yield {"length": length - 1, "subsequence": witness[:index] + witness[index + 1 :]}
        for letter in replacing:
            replaced = witness[:index] + letter + witness[index + 1 :]
            if not common(replaced):
                yield {"length": length, "subsequence": replaced}
                break
        if not common(witness[::-1]):
            yield {"length": length, "subsequence": witness[::-1]}
        yield {"length": 0, "subsequence": ""}
    for letter in adding:
        longer = witness[:at] + letter + witness[at:]
        if not common(longer):
            yield {"length": length + 1, "subsequence": longer}
            break
    for whole in (a, b):
        if whole and not common(whole):
            yield {"length": len(whole), "subsequence": whole}


SPEC = ScaffoldSpec(
    name="lcs",
    category="dynamic_programming",
    title="Longest common subsequence",
    graded_conventions={
        "any longest": "any one of them is right",
    },
    description="length and one witness of a longest common subsequence, DP table",
    reference=longest_common_subsequence,
    generator=generate_lcs,
    answer_schema=LcsAnswer,
    validator=LcsValidator(),
    sizes={"simple": 5, "standard": 8, "edge": 6},
    size=SizeAxis(
        unit="length of the longer string",
        measure=longer_length,
        ranges={"simple": (3, 8), "standard": (4, 12), "edge": (1, 12)},
        stress=(13, 48),
    ),
    mutants=lcs_mutants,
    alternatives=lcs_alternatives,
    max_output_tokens=6144,
    # The work is every row of the table and the backward walk: 462 tokens at 12, 4,078 at 48
    # (python benchmarks/stress_budgets.py lcs). The flat budget holds the standard
    # maximum; each size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=150.7, base=4335),
    code_sizes=(24, 100, 300, 500),
    code_size_limit=(
        "a quadratic table: at 1,000 letters one case is about two seconds of reference "
        "time (four with its draw), past a few seconds for the ladder's cases"
    ),
)
