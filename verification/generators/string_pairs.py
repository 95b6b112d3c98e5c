"""Shared input-generator helpers for the two-string DP scaffolds (``lcs``,
``edit_distance``): the input ``{"a": ..., "b": ...}`` and its size, the longer length."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

__all__ = ["longer_length", "string_pair"]


def string_pair(rng: random.Random, long: str, short: str) -> dict[str, Any]:
    """The input ``{"a": ..., "b": ...}`` with the longer string as ``a`` or ``b`` at random,
    so neither key is always the longer one."""
    return {"a": long, "b": short} if rng.random() < 0.5 else {"a": short, "b": long}


def longer_length(test_input: Mapping[str, Any]) -> int:
    """A two-string input's size (``SizeAxis.measure``): the length of the longer string."""
    return max(len(test_input["a"]), len(test_input["b"]))
