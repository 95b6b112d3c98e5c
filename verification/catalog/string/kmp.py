"""Knuth-Morris-Pratt search: the ``kmp`` scaffold."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from pydantic import NonNegativeInt

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, dropped_items, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.string_algo import has_overlap, plant, random_word, text_length
from verification.reference.string_algo import failure_function, kmp_search
from verification.validators.exact_match import ExactMatchValidator
from verification.validators.form import ascending, with_form_rules

__all__ = ["EDGE_KINDS_KMP", "SPEC", "KmpAnswer", "generate_kmp", "occurrences"]


class KmpAnswer(AnswerSchema):
    """``{"positions": [...]}``: 0-based starts of every occurrence, ascending."""

    positions: list[NonNegativeInt]


EDGE_KINDS_KMP = ("longer_than_text", "absent", "equal_to_text", "single_char", "repeated")
"""The degenerate KMP instances the edge tier draws from."""

_MAX_TRIES = 1000


def _bordered_pattern(rng: random.Random, alphabet: str, length: int) -> str:
    """A pattern of ``length`` whose failure function ends above 0 (a proper border)."""
    for _ in range(_MAX_TRIES):
        pattern = random_word(rng, alphabet, length)
        if failure_function(pattern)[-1] > 0 and len(set(pattern)) > 1:
            return pattern
    raise RuntimeError(f"no bordered pattern of length {length} over {alphabet!r}")


def occurrences(text: str, pattern: str) -> list[int]:
    """Where ``pattern`` (not empty) starts in ``text``, overlapping ones included: the
    ``positions`` :func:`kmp_search` finds, by ``str.find`` (the standard tier decides each
    candidate text from them, a Python loop over the whole text in the search)."""
    found: list[int] = []
    at = text.find(pattern)
    while at >= 0:
        found.append(at)
        at = text.find(pattern, at + 1)
    return found


def _simple(rng: random.Random, size: int) -> dict[str, Any]:
    """A pattern of 2-3 letters planted in a text that uses both letters."""
    for _ in range(_MAX_TRIES):
        pattern = random_word(rng, "AB", rng.randint(2, 3))
        text = list(random_word(rng, "AB", size))
        plant(text, rng.randrange(size - len(pattern) + 1), pattern)
        if len(set(text)) == 2:
            return {"text": "".join(text), "pattern": pattern}
    raise RuntimeError("could not draw a simple KMP instance")


def _standard(rng: random.Random, size: int) -> dict[str, Any]:
    """At least two occurrences, two of them overlapping, and a bordered pattern."""
    alphabet = rng.choice(("AB", "ABC"))
    length = size
    for _ in range(_MAX_TRIES):
        pattern = _bordered_pattern(rng, alphabet, rng.randint(3, 5))
        border = failure_function(pattern)[-1]
        overlapped = pattern + pattern[border:]
        text = list(random_word(rng, alphabet, length))
        plant(text, rng.randrange(length - len(overlapped) + 1), overlapped)
        candidate = {"text": "".join(text), "pattern": pattern}
        positions = occurrences(candidate["text"], pattern)
        # Many matches make the answer long without making it harder.
        if 2 <= len(positions) <= 5 and has_overlap(positions, len(pattern)):
            return candidate
    raise RuntimeError("could not draw a standard KMP instance")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(EDGE_KINDS_KMP)
    alphabet = rng.choice(("AB", "ABC"))
    if kind == "longer_than_text":
        text = random_word(rng, alphabet, rng.randint(1, 4))
        pattern = random_word(rng, alphabet, len(text) + rng.randint(1, 3))
        # Sometimes the text is a prefix of the pattern: a match that runs out of text.
        if rng.random() < 0.5:
            pattern = text + pattern[len(text) :]
        return {"text": text, "pattern": pattern}
    if kind == "absent":
        # At most 12 windows of length 4 cannot cover all 16 words over "AB".
        text = random_word(rng, "AB", min(size, 15))
        words = ("".join(letters) for letters in itertools.product("AB", repeat=4))
        return {"text": text, "pattern": rng.choice([w for w in words if w not in text])}
    if kind == "equal_to_text":
        text = random_word(rng, alphabet, rng.randint(3, 6))
        return {"text": text, "pattern": text}
    if kind == "single_char":
        return {"text": random_word(rng, alphabet, size), "pattern": rng.choice(alphabet)}
    letter = rng.choice(alphabet)
    pattern = letter * rng.randint(1, 3)
    if rng.random() < 0.3:
        pattern = pattern + rng.choice(alphabet.replace(letter, ""))
    return {"text": letter * size, "pattern": pattern}


def generate_kmp(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """A KMP input ``{"text": str, "pattern": str}``.

    ``simple``: a text of ``size`` letters over "AB" and a pattern of 2-3 letters that
    occurs. ``standard``: a text of ``size`` letters over "AB" or "ABC", a 3-5 letter
    pattern with a proper border, 2 to 5 occurrences, two of them overlapping.
    ``edge``: one of :data:`EDGE_KINDS_KMP`.
    """
    if size < 6 or (tier == "standard" and size < 10):
        raise ValueError(f"kmp needs a text of at least 6 letters (10 standard), got {size}")
    if tier == "simple":
        return _simple(rng, size)
    if tier == "standard":
        return _standard(rng, size)
    if tier == "edge":
        return _edge(rng, size)
    raise ValueError(f"unknown tier {tier!r}")


@LazyHook
def kmp_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """An occurrence dropped (the overlapping one, say), a position one off, a spurious
    position added, the positions 1-based."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    positions: list[int] = case.expected["positions"]
    text, pattern = case.input["text"], case.input["pattern"]
    for dropped in dropped_items(positions, rng):
        yield {"positions": dropped}
    if positions:
        yield {"positions": [p + 1 for p in positions]}
        index = rng.randrange(len(positions))
        nudged = positions[index] + rng.choice((-1, 1))
        if nudged >= 0:
            yield {"positions": sorted({*positions[:index], nudged, *positions[index + 1 :]})}
    absent = [i for i in range(max(1, len(text) - len(pattern) + 1)) if i not in positions]
    if absent:
        yield {"positions": sorted([*positions, rng.choice(absent)])}


SPEC = ScaffoldSpec(
    name="kmp",
    category="string",
    title="Knuth-Morris-Pratt search",
    graded_conventions={
        "overlapping": "every occurrence counts, overlapping ones included",
    },
    description="every occurrence of a pattern in a text, overlaps included",
    reference=kmp_search,
    generator=generate_kmp,
    answer_schema=KmpAnswer,
    validator=with_form_rules(ExactMatchValidator(), ascending("in ascending order", "positions")),
    sizes={"simple": 10, "standard": 24, "edge": 8},
    size=SizeAxis(
        unit="text length",
        measure=text_length,
        ranges={"simple": (6, 48), "standard": (10, 48), "edge": (6, 48)},
        stress=(49, 192),
    ),
    mutants=kmp_mutants,
    max_output_tokens=4096,
    # The work is the failure table and a line per text index: 558 tokens at 48, 2,356 at 192
    # (python benchmarks/stress_budgets.py kmp). The flat budget holds the standard maximum;
    # each size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=24.0, base=2944),
    code_rules={
        "positions": (
            "every 0-based start of a match, overlapping ones included, in ascending order"
        ),
    },
    code_sizes=(96, 300),
    code_size_limit=(
        "the standard generator asks for 2 to 5 matches, two of them overlapping, of a "
        "3-5 letter pattern over 2-3 letters: at 1,000 letters half its draws fail"
    ),
)
