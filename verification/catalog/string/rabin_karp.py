"""Rabin-Karp search with a rolling hash: the ``rabin_karp`` scaffold."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from pydantic import NonNegativeInt

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, dropped_items, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.string_algo import has_overlap, plant, random_word, text_length
from verification.reference.string_algo import rabin_karp
from verification.validators.exact_match import ExactMatchValidator
from verification.validators.form import ascending, with_form_rules

__all__ = ["EDGE_KINDS_RABIN_KARP", "SPEC", "RabinKarpAnswer", "generate_rabin_karp"]


class RabinKarpAnswer(AnswerSchema):
    """``{"positions": [...], "spurious_hits": [...]}``: 0-based window starts, ascending."""

    positions: list[NonNegativeInt]
    spurious_hits: list[NonNegativeInt]


EDGE_KINDS_RABIN_KARP = (
    "small_modulus",
    "longer_than_text",
    "overlapping",
    "absent",
    "equal_to_text",
)
"""The degenerate Rabin-Karp instances the edge tier draws from."""

_BASES = (2, 3, 5, 10)
"""Small bases keep the hand arithmetic short."""
_MODULI = (11, 13, 17, 19, 23)
_SMALL_MODULI = (2, 3, 4, 5)
"""A modulus this small makes most windows collide with the pattern's hash."""
_MAX_TRIES = 2000


def _planted(rng: random.Random, alphabet: str, size: int, pattern: str, copies: int) -> str:
    text = list(random_word(rng, alphabet, size))
    for _ in range(copies):
        plant(text, rng.randrange(size - len(pattern) + 1), pattern)
    return "".join(text)


def _occurrences(text: str, pattern: str, most: int) -> int:
    """How many times ``pattern`` occurs in ``text``, overlaps included, counted up to
    ``most``."""
    count, at = 0, text.find(pattern)
    while at >= 0 and count < most:
        count += 1
        at = text.find(pattern, at + 1)
    return count


def _case(text: str, pattern: str, base: int, modulus: int) -> dict[str, Any]:
    return {"text": text, "pattern": pattern, "base": base, "modulus": modulus}


def _simple(rng: random.Random, size: int) -> dict[str, Any]:
    """A 2-3 letter pattern planted once or twice, at most two spurious hits."""
    for _ in range(_MAX_TRIES):
        pattern = random_word(rng, "AB", rng.randint(2, 3))
        text = _planted(rng, "AB", size, pattern, rng.randint(1, 2))
        candidate = _case(text, pattern, rng.choice(_BASES), rng.choice(_MODULI))
        answer = rabin_karp(**candidate)
        if len(set(text)) == 2 and len(answer["spurious_hits"]) <= 2:
            return candidate
    raise RuntimeError("could not draw a simple Rabin-Karp instance")


def _standard(rng: random.Random, size: int) -> dict[str, Any]:
    """1 to 4 matches and 1 to 3 spurious hits, so both lists matter."""
    drawn = _standard_from(rng, size, rng.choice(("ABC", "ABCD")), 3)
    # A long text over three letters holds a 3-letter pattern a dozen times (code mode's
    # ladder reaches 300 letters): then four letters and a 4-letter pattern, drawn on from
    # where the first tries stopped (a draw that succeeded before is the same).
    return drawn or _standard_from(rng, size, "ABCD", 4) or _no_standard()


def _no_standard() -> dict[str, Any]:
    raise RuntimeError("could not draw a standard Rabin-Karp instance")


def _standard_from(
    rng: random.Random, size: int, alphabet: str, shortest: int
) -> dict[str, Any] | None:
    for _ in range(_MAX_TRIES):
        pattern = random_word(rng, alphabet, rng.randint(shortest, 4))
        text = _planted(rng, alphabet, size, pattern, rng.randint(1, 3))
        candidate = _case(text, pattern, rng.choice(_BASES), rng.choice(_MODULI))
        # The answer's positions are every occurrence: counted first, by str.find, they
        # turn down most long texts (a 300-letter one holds several) without the hashes.
        if _occurrences(text, pattern, 5) > 4:
            continue
        answer = rabin_karp(**candidate)
        if 1 <= len(answer["positions"]) <= 4 and 1 <= len(answer["spurious_hits"]) <= 3:
            return candidate
    return None


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(EDGE_KINDS_RABIN_KARP)
    base, modulus = rng.choice(_BASES), rng.choice(_MODULI)
    if kind == "small_modulus":
        for _ in range(_MAX_TRIES):
            pattern = random_word(rng, "ABC", rng.randint(2, 3))
            text = _planted(rng, "ABC", size, pattern, 1)
            candidate = _case(text, pattern, base, rng.choice(_SMALL_MODULI))
            if len(rabin_karp(**candidate)["spurious_hits"]) >= 2:
                return candidate
        raise RuntimeError("could not draw a colliding Rabin-Karp instance")
    if kind == "longer_than_text":
        text = random_word(rng, "AB", rng.randint(0, 4))
        pattern = text + random_word(rng, "AB", rng.randint(1, 3))
        return _case(text, pattern, base, modulus)
    if kind == "overlapping":
        letter = rng.choice("AB")
        pattern = letter * rng.randint(2, 3)
        if rng.random() < 0.5:
            pattern = "ABA" if letter == "A" else "BAB"
        for _ in range(_MAX_TRIES):
            text = _planted(rng, "AB", size, pattern + pattern[1:], 1)
            positions = rabin_karp(**_case(text, pattern, base, modulus))["positions"]
            if has_overlap(positions, len(pattern)):
                return _case(text, pattern, base, modulus)
        raise RuntimeError("could not draw an overlapping Rabin-Karp instance")
    if kind == "absent":
        text = random_word(rng, "AB", size)
        return _case(text, "C" + random_word(rng, "AB", rng.randint(1, 2)), base, modulus)
    text = random_word(rng, "ABC", rng.randint(3, 6))
    return _case(text, text, base, modulus)


def generate_rabin_karp(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """A Rabin-Karp input ``{"text", "pattern", "base", "modulus"}``; letters hash by their
    code points (``ord``), the base is 2, 3, 5 or 10.

    ``simple``: a text of ``size`` letters over "AB", a 2-3 letter pattern that occurs,
    a prime modulus 11 to 23 and at most two spurious hits. ``standard``: a text of
    ``size`` letters over "ABC" or "ABCD", a 3-4 letter pattern with 1 to 4 occurrences
    and 1 to 3 spurious hits. ``edge``: one of :data:`EDGE_KINDS_RABIN_KARP`: a modulus of
    2 to 5 with at least two spurious hits, a pattern longer than the text (sometimes the
    text is empty), overlapping occurrences, an absent pattern, the pattern equal to the
    text.
    """
    if size < 6 or (tier == "standard" and size < 10):
        raise ValueError(f"rabin_karp needs a text of at least 6 letters (10 standard), got {size}")
    if tier == "simple":
        return _simple(rng, size)
    if tier == "standard":
        return _standard(rng, size)
    if tier == "edge":
        return _edge(rng, size)
    raise ValueError(f"unknown tier {tier!r}")


@LazyHook
def rabin_karp_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """A spurious hit reported as a match (the letters never compared), spurious hits left
    out, a match or a spurious hit dropped, positions 1-based, a window never hit added."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    positions: list[int] = case.expected["positions"]
    spurious: list[int] = case.expected["spurious_hits"]
    text, pattern = case.input["text"], case.input["pattern"]
    if spurious:
        yield {"positions": sorted(positions + spurious), "spurious_hits": []}
        yield {"positions": positions, "spurious_hits": []}
        for dropped in dropped_items(spurious, rng):
            yield {"positions": positions, "spurious_hits": dropped}
    for dropped in dropped_items(positions, rng):
        yield {"positions": dropped, "spurious_hits": spurious}
    if positions or spurious:
        yield {"positions": [p + 1 for p in positions], "spurious_hits": [s + 1 for s in spurious]}
    windows = range(max(1, len(text) - len(pattern) + 1))
    never = [i for i in windows if i not in positions and i not in spurious]
    if never:
        extra = rng.choice(never)
        yield {"positions": positions, "spurious_hits": sorted([*spurious, extra])}
        yield {"positions": sorted([*positions, extra]), "spurious_hits": spurious}


SPEC = ScaffoldSpec(
    name="rabin_karp",
    category="string",
    title="Rabin-Karp search",
    graded_conventions={
        "spurious": "a spurious hit otherwise",
        "every window": "every window of the pattern's length is hashed",
    },
    description="every occurrence of a pattern by rolling hash, with the spurious hits",
    reference=rabin_karp,
    generator=generate_rabin_karp,
    answer_schema=RabinKarpAnswer,
    validator=with_form_rules(
        ExactMatchValidator(), ascending("ascending", "positions", "spurious_hits")
    ),
    sizes={"simple": 10, "standard": 16, "edge": 10},
    size=SizeAxis(
        unit="text length",
        measure=text_length,
        ranges={"simple": (6, 30), "standard": (10, 30), "edge": (6, 30)},
        stress=(31, 120),
    ),
    mutants=rabin_karp_mutants,
    max_output_tokens=6144,
    # The work is a line per window: 507 tokens at 30, 1,983 at 120 (python
    # benchmarks/stress_budgets.py rabin_karp). The flat budget holds the standard maximum; each
    # size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=24.6, base=5406),
    code_rules={
        "positions": "every 0-based start of a match, in ascending order",
        "spurious_hits": (
            "the window starts whose hash equals the pattern's, with the scaffold's rolling"
            " hash (letter values `ord(c) % q`, base `b`, modulus `q`), but whose text "
            "differs, in increasing order"
        ),
    },
    code_sizes=(60, 100, 300),
    code_size_limit=(
        "the standard generator asks for few matches and spurious hits of a short "
        "pattern over a small alphabet, which a random text past a few hundred letters "
        "no longer has"
    ),
)
