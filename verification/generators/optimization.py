"""Shared input-generator helpers for the optimization scaffolds: random draws in [0, 1)
with two decimals, kept far from the thresholds a hand-worked trace compares them with.

A draw that names an index by ``floor(u * k)`` keeps ``u * k`` at least 0.1 away from a
whole number; a draw compared with a threshold (a mutation rate, an acceptance
probability) keeps a stated margin from it. Either way careful hand arithmetic takes the
same branch as the reference.
"""

from __future__ import annotations

import random
from functools import cache, lru_cache

__all__ = [
    "INDEX_MARGIN",
    "away_choices",
    "draw_away_from",
    "index_choices",
    "index_draw",
    "uniform_draw",
]

INDEX_MARGIN = 0.1
"""``u * k`` stays at least this far from a whole number, so ``floor(u * k)`` is clear."""


def uniform_draw(rng: random.Random) -> float:
    """A draw with two decimals, 0.00 to 0.99."""
    return rng.randrange(100) / 100


def index_draw(rng: random.Random, count: int, index: int | None = None) -> float:
    """A two-decimal draw ``u`` whose ``floor(u * count)`` is clear (``u * count`` at least
    :data:`INDEX_MARGIN` from a whole number), naming ``index`` when one is given."""
    return rng.choice(index_choices(count, index))


def index_choices(count: int, index: int | None = None) -> tuple[float, ...]:
    """The draws :func:`index_draw` chooses from (``rng.choice`` of them is its draw), for
    a caller making many alike; the same errors."""
    if count < 1:
        raise ValueError(f"a draw names an index among at least 1, got {count}")
    choices = _index_choices(count, index)
    if not choices:
        raise ValueError(f"no two-decimal draw names index {index} of {count}")
    return choices


# The choices are tables kept per argument: a genetic_algorithm case makes tens of
# thousands of draws from a handful of them. ``rng.choice`` draws alike from a tuple.
@cache
def _index_choices(count: int, index: int | None) -> tuple[float, ...]:
    choices = [
        u / 100
        for u in range(100)
        if INDEX_MARGIN <= (u * count / 100) % 1 <= 1 - INDEX_MARGIN or count == 1
    ]
    return tuple(u for u in choices if index is None or int(u * count) == index)


def draw_away_from(
    rng: random.Random, threshold: float, margin: float, *, below: bool | None = None
) -> float:
    """A two-decimal draw at least ``margin`` from ``threshold``; strictly below it when
    ``below`` is true, at or above it when false, either when None. Raises ``ValueError``
    when no such draw exists."""
    return rng.choice(away_choices(threshold, margin, below=below))


def away_choices(
    threshold: float, margin: float, *, below: bool | None = None
) -> tuple[float, ...]:
    """The draws :func:`draw_away_from` chooses from (``rng.choice`` of them is its draw),
    for a caller making many alike; the same error."""
    choices = _away_choices(threshold, margin, below)
    if not choices:
        raise ValueError(f"no two-decimal draw is {margin} away from {threshold}")
    return choices


_HUNDREDTHS = tuple(u / 100 for u in range(100))
"""The two-decimal draws, 0.00 to 0.99, each the double ``u / 100`` gives."""


# Kept per argument for the fixed thresholds (a mutation rate); an acceptance probability
# is new almost every time, so the table is made in one pass over the draws made once,
# and the memo is bounded (a long run of simulated_annealing cases meets thousands).
@lru_cache(maxsize=4096)
def _away_choices(threshold: float, margin: float, below: bool | None) -> tuple[float, ...]:
    if below is None:
        return tuple([u for u in _HUNDREDTHS if abs(u - threshold) >= margin])
    return tuple(
        [u for u in _HUNDREDTHS if abs(u - threshold) >= margin and (u < threshold) == below]
    )
