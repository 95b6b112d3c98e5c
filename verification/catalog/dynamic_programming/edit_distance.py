"""Levenshtein edit distance: the ``edit_distance`` scaffold (unit-cost insert, delete,
replace)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.string_algo import random_word
from verification.generators.string_pairs import (
    SHARED_EDGE_KINDS,
    longer_length,
    shared_edge,
    string_pair,
)
from verification.reference.dynamic_programming import (
    edit_distance,
    levenshtein_distance,
    longest_common_subsequence,
)
from verification.validators.exact_match import DictMatchValidator

__all__ = [
    "EDIT_DISTANCE_EDGE_KINDS",
    "SPEC",
    "EditDistanceAnswer",
    "generate_edit_distance",
]


class EditDistanceAnswer(AnswerSchema):
    """``{"distance": 3}``."""

    distance: int
    """The fewest single-character inserts, deletes and replacements turning ``a`` into
    ``b``."""


EDIT_DISTANCE_EDGE_KINDS = (
    *SHARED_EDGE_KINDS,
    "prefix",
    "one_replacement",
)
"""The degenerate instances the edge tier draws from."""

_ATTEMPTS = 500


def _edited(rng: random.Random, word: str, alphabet: str, edits: int) -> str:
    """``word`` after ``edits`` random replacements, deletions and insertions."""
    letters = list(word)
    for _ in range(edits):
        move = rng.choice(("replace", "delete", "insert"))
        if move == "insert" or not letters:
            letters.insert(rng.randint(0, len(letters)), rng.choice(alphabet))
        elif move == "delete":
            del letters[rng.randrange(len(letters))]
        else:
            letters[rng.randrange(len(letters))] = rng.choice(alphabet)
    return "".join(letters)


def generate_edit_distance(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """Two lower-case strings ``a`` and ``b``; ``size`` is the length of the longer one.

    - ``simple``: letters of ``abc``; the other string is the first after random edits
      (about a third of its length), redrawn until it is 0-1 letters shorter.
    - ``standard``: letters of ``abcd``; half the time the other string is the first after
      random edits (about half its length), else an unrelated random string; 0-2 letters
      shorter.

    Both are instances worth asking: the strings differ, the distance is at least 2, larger
    than the difference of the lengths (some replacement or an insert-delete pair is
    needed) and smaller than the longer length (some letters can be kept).

    - ``edge``: one of :data:`EDIT_DISTANCE_EDGE_KINDS`, the longer string at most ``size``
      letters (an empty string, identical strings at distance 0, disjoint alphabets at the
      longer length, a prefix at the difference of the lengths, one replacement at 1).
    """
    if size < 1:
        raise ValueError(f"edit_distance needs a size of at least 1, got {size}")
    if tier == "edge":
        return _edge(rng, size)
    alphabet, shorter = ("abc", 1) if tier == "simple" else ("abcd", 2)
    for _ in range(_ATTEMPTS):
        long = random_word(rng, alphabet, size)
        target = size - rng.randint(0, shorter)
        if tier == "standard" and rng.random() < 0.5:
            short = random_word(rng, alphabet, target)
        else:
            fraction = 3 if tier == "simple" else 2
            short = _edited(rng, long, alphabet, max(2, size // fraction))
        if len(short) != target:
            continue
        distance = levenshtein_distance(long, short)  # the reference's, without its table
        if max(2, len(long) - len(short) + 1) <= distance < len(long):
            return string_pair(rng, long, short)
    raise RuntimeError(f"no {tier} edit_distance instance of size {size}")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(EDIT_DISTANCE_EDGE_KINDS)
    n = rng.randint(1, size)
    shared = shared_edge(rng, kind, n, letters="abc", foreign="xyz", single="abcd")
    if shared is not None:
        return shared
    word = random_word(rng, "abc", n)
    if kind == "prefix":
        return string_pair(rng, word, word[: rng.randint(0, n - 1)] if n > 1 else "")
    at = rng.randrange(n)
    other = rng.choice([c for c in "abc" if c != word[at]])
    return string_pair(rng, word, word[:at] + other + word[at + 1 :])


@LazyHook
def edit_distance_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The distance one off; the classic wrong formulas: the difference of the lengths,
    the longer length, insert-and-delete only (``len(a) + len(b) - 2 * LCS``), and position
    by position mismatches plus the difference of the lengths."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    a, b = case.input["a"], case.input["b"]
    right: int = case.expected["distance"]
    for guess in (right + 1, right - 1, abs(len(a) - len(b)), max(len(a), len(b))):
        if guess >= 0:
            yield {"distance": guess}
    lcs = longest_common_subsequence(a, b)["length"]
    positional = sum(x != y for x, y in zip(a, b, strict=False)) + abs(len(a) - len(b))
    for guess in (len(a) + len(b) - 2 * lcs, positional, right + rng.randint(2, 3)):
        if guess >= 0:
            yield {"distance": guess}


SPEC = ScaffoldSpec(
    name="edit_distance",
    category="dynamic_programming",
    title="Edit distance (Levenshtein)",
    graded_conventions={
        "unit costs": "inserting, deleting and replacing one character each cost 1",
    },
    description="fewest unit-cost inserts, deletes and replacements between two strings, DP table",
    reference=edit_distance,
    generator=generate_edit_distance,
    answer_schema=EditDistanceAnswer,
    validator=DictMatchValidator(),
    sizes={"simple": 5, "standard": 8, "edge": 6},
    size=SizeAxis(
        unit="length of the longer string",
        measure=longer_length,
        ranges={"simple": (3, 8), "standard": (4, 12), "edge": (1, 12)},
        stress=(13, 48),
    ),
    mutants=edit_distance_mutants,
    max_output_tokens=6144,
    # The work is every row of the table in full: 271 tokens at 12, 3,402 at 48 (python
    # benchmarks/stress_budgets.py edit_distance). The flat budget holds the
    # standard maximum; each size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=130.5, base=4578),
    code_sizes=(24, 100, 300, 500),
    code_size_limit=(
        "a quadratic table: at 1,000 letters one case is about a second of reference "
        "time (three with its draw), past a few seconds for the ladder's cases"
    ),
)
