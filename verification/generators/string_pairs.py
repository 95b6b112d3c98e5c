"""Shared input-generator helpers for the two-string DP scaffolds (``lcs``,
``edit_distance``): the input ``{"a": ..., "b": ...}`` and its size, the longer length."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from verification.generators.string_algo import random_word

__all__ = ["SHARED_EDGE_KINDS", "longer_length", "shared_edge", "string_pair"]

SHARED_EDGE_KINDS = (
    "both_empty",
    "one_empty",
    "identical",
    "no_common_character",
    "single_character",
)
"""The edge kinds both two-string scaffolds draw, built by :func:`shared_edge`."""


def string_pair(rng: random.Random, long: str, short: str) -> dict[str, Any]:
    """The input ``{"a": ..., "b": ...}`` with the longer string as ``a`` or ``b`` at random,
    so neither key is always the longer one."""
    return {"a": long, "b": short} if rng.random() < 0.5 else {"a": short, "b": long}


def longer_length(test_input: Mapping[str, Any]) -> int:
    """A two-string input's size (``SizeAxis.measure``): the length of the longer string."""
    return max(len(test_input["a"]), len(test_input["b"]))


def shared_edge(
    rng: random.Random, kind: str, n: int, *, letters: str, foreign: str, single: str
) -> dict[str, Any] | None:
    """The input of one of :data:`SHARED_EDGE_KINDS`: words of ``n`` of ``letters``, of
    ``foreign`` letters for the word with none in common, and a character of ``single``
    for the single-character word; ``None`` for a kind of the scaffold's own."""
    if kind == "both_empty":
        return {"a": "", "b": ""}
    if kind == "one_empty":
        return string_pair(rng, random_word(rng, letters, n), "")
    if kind == "identical":
        word = random_word(rng, letters, n)
        return {"a": word, "b": word}
    if kind == "no_common_character":
        other = random_word(rng, foreign, rng.randint(1, n))
        return string_pair(rng, random_word(rng, letters, n), other)
    if kind == "single_character":
        return string_pair(rng, random_word(rng, letters, n), rng.choice(single))
    return None
