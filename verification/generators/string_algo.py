"""Shared input-generator helpers for string scaffolds: random words over small alphabets,
planting a word into a text, overlap tests.

Alphabets are small ("AB", "ABC") so that occurrences happen and borders matter.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from typing import Any

__all__ = ["has_overlap", "plant", "random_word", "text_length"]


def random_word(rng: random.Random, alphabet: str, length: int) -> str:
    """``length`` letters drawn uniformly from ``alphabet``."""
    return "".join(rng.choice(alphabet) for _ in range(length))


def plant(text: list[str], at: int, word: str) -> None:
    """Overwrite ``text`` (a list of letters) with ``word`` from position ``at``."""
    text[at : at + len(word)] = list(word)


def has_overlap(positions: list[int], length: int) -> bool:
    """Whether two consecutive match positions of a ``length``-letter pattern overlap."""
    return any(b - a < length for a, b in itertools.pairwise(positions))


def text_length(test_input: Mapping[str, Any]) -> int:
    """A text-search input's size (``SizeAxis.measure``): the length of its text."""
    return len(test_input["text"])
