"""Shared input-generator helpers for array scaffolds (binary search, merge sort,
quickselect): ascending runs, shuffled distinct values, values with repeats.

Values are small integers, so a model reads them at a glance and equal values happen
where a tier wants duplicates.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

__all__ = [
    "array_length",
    "ascending",
    "distinct_values",
    "values_with_repeats",
]


def array_length(test_input: Mapping[str, Any]) -> int:
    """An array input's size (``SizeAxis.measure``): the length of its ``array``."""
    return len(test_input["array"])


def ascending(
    rng: random.Random, n: int, start: int, *, repeat: float, max_gap: int = 5
) -> list[int]:
    """``n`` non-decreasing integers from ``start``: each next one is the same with
    probability ``repeat``, else ``1..max_gap`` larger."""
    values: list[int] = []
    value = start
    for index in range(n):
        if index:
            value += 0 if rng.random() < repeat else rng.randint(1, max_gap)
        values.append(value)
    return values


def distinct_values(rng: random.Random, n: int, low: int, high: int) -> list[int]:
    """``n`` distinct integers of ``low..high`` in random order."""
    return rng.sample(range(low, high + 1), n)


def values_with_repeats(rng: random.Random, n: int, low: int, high: int) -> list[int]:
    """``n`` integers of ``low..high`` in random order, at least one value repeated
    (``n >= 2``): a pool of about two thirds of ``n`` distinct values (all of
    ``low..high`` when that is fewer), each used once, the rest drawn from the pool again."""
    pool = rng.sample(range(low, high + 1), max(1, min(n - 1, (2 * n) // 3, high - low + 1)))
    values = pool + [rng.choice(pool) for _ in range(n - len(pool))]
    rng.shuffle(values)
    return values
