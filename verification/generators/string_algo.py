"""Input generators for the string-search scaffolds.

``size`` is the length of the text. Alphabets are small ("AB", "ABC") so that occurrences
happen and the failure function matters.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from verification.generators.base import Tier
from verification.reference.string_algo import failure_function, kmp_search

__all__ = ["EDGE_KINDS_KMP", "generate_kmp"]

EDGE_KINDS_KMP = ("longer_than_text", "absent", "equal_to_text", "single_char", "repeated")
"""The degenerate KMP instances the edge tier draws from."""

_MAX_TRIES = 1000


def _word(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


def _bordered_pattern(rng: random.Random, alphabet: str, length: int) -> str:
    """A pattern of ``length`` whose failure function ends above 0 (a proper border)."""
    for _ in range(_MAX_TRIES):
        pattern = _word(rng, alphabet, length)
        if failure_function(pattern)[-1] > 0 and len(set(pattern)) > 1:
            return pattern
    raise RuntimeError(f"no bordered pattern of length {length} over {alphabet!r}")


def _plant(text: list[str], at: int, word: str) -> None:
    text[at : at + len(word)] = list(word)


def _has_overlap(positions: list[int], m: int) -> bool:
    return any(b - a < m for a, b in itertools.pairwise(positions))


def _simple(rng: random.Random, size: int) -> dict[str, Any]:
    """A pattern of 2-3 letters planted in a text that uses both letters."""
    for _ in range(_MAX_TRIES):
        pattern = _word(rng, "AB", rng.randint(2, 3))
        text = list(_word(rng, "AB", size))
        _plant(text, rng.randrange(size - len(pattern) + 1), pattern)
        if len(set(text)) == 2:
            return {"text": "".join(text), "pattern": pattern}
    raise RuntimeError("could not draw a simple KMP instance")


def _standard(rng: random.Random, size: int) -> dict[str, Any]:
    """At least two occurrences, two of them overlapping, and a bordered pattern."""
    alphabet = rng.choice(("AB", "ABC"))
    length = rng.randint(max(size - 4, 10), size + 6)
    for _ in range(_MAX_TRIES):
        pattern = _bordered_pattern(rng, alphabet, rng.randint(3, 5))
        border = failure_function(pattern)[-1]
        overlapped = pattern + pattern[border:]
        text = list(_word(rng, alphabet, length))
        _plant(text, rng.randrange(length - len(overlapped) + 1), overlapped)
        candidate = {"text": "".join(text), "pattern": pattern}
        positions = kmp_search(**candidate)["positions"]
        # Many matches make the answer long without making it harder.
        if 2 <= len(positions) <= 5 and _has_overlap(positions, len(pattern)):
            return candidate
    raise RuntimeError("could not draw a standard KMP instance")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(EDGE_KINDS_KMP)
    alphabet = rng.choice(("AB", "ABC"))
    if kind == "longer_than_text":
        text = _word(rng, alphabet, rng.randint(1, 4))
        pattern = _word(rng, alphabet, len(text) + rng.randint(1, 3))
        # Sometimes the text is a prefix of the pattern: a match that runs out of text.
        if rng.random() < 0.5:
            pattern = text + pattern[len(text) :]
        return {"text": text, "pattern": pattern}
    if kind == "absent":
        # At most 12 windows of length 4 cannot cover all 16 words over "AB".
        text = _word(rng, "AB", min(size, 15))
        words = ("".join(letters) for letters in itertools.product("AB", repeat=4))
        return {"text": text, "pattern": rng.choice([w for w in words if w not in text])}
    if kind == "equal_to_text":
        text = _word(rng, alphabet, rng.randint(3, 6))
        return {"text": text, "pattern": text}
    if kind == "single_char":
        return {"text": _word(rng, alphabet, size), "pattern": rng.choice(alphabet)}
    letter = rng.choice(alphabet)
    pattern = letter * rng.randint(1, 3)
    if rng.random() < 0.3:
        pattern = pattern + rng.choice(alphabet.replace(letter, ""))
    return {"text": letter * size, "pattern": pattern}


def generate_kmp(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """A KMP input ``{"text": str, "pattern": str}``.

    ``simple``: a text of ``size`` letters over "AB" and a pattern of 2-3 letters that
    occurs. ``standard``: a text of about ``size`` letters (``size - 4`` to ``size + 6``)
    over "AB" or "ABC", a 3-5 letter pattern with a proper border, 2 to 5 occurrences, two
    of them overlapping. ``edge``: one of :data:`EDGE_KINDS_KMP`.
    """
    if size < 6:
        raise ValueError(f"kmp needs a text size of at least 6, got {size}")
    if tier == "simple":
        return _simple(rng, size)
    if tier == "standard":
        return _standard(rng, size)
    if tier == "edge":
        return _edge(rng, size)
    raise ValueError(f"unknown tier {tier!r}")
