"""The size envelope: which sizes a sweep asks, and the cases it asks at each.

A sweep asks each size at least :data:`CASES_PER_SIZE` times, the simple and standard tiers
interleaved at that size (case ``k`` goes to the ``k mod m``-th of the ``m`` tiers whose
range holds the size). The edge tier stays out of the curve: its generator may draw an
input smaller than asked (an empty or one-element input is its point), which would blur
the rate at that size. Case ids at a size are the ordinary ones
(``dijkstra-standard-s12-004``), so resume, replay and the cache need nothing new.
"""

from __future__ import annotations

from collections.abc import Sequence

from verification.cases import TestCase, Tier
from verification.catalog.drawing import draw_case
from verification.catalog.spec import ScaffoldSpec
from verification.errors import ConfigurationError

__all__ = [
    "CASES_PER_SIZE",
    "SWEEP_POINTS",
    "SWEEP_TIERS",
    "honoured_sizes",
    "sweep_cases",
    "sweep_plan",
    "sweep_sizes",
]

CASES_PER_SIZE = 35
"""The fewest cases at which a perfect score is not borderline (Wilson lower bound of 35/35
is 90.1%)."""
SWEEP_POINTS = 4
"""Sizes an automatic sweep visits, from the smallest to the largest honoured."""
SWEEP_TIERS: tuple[Tier, ...] = ("simple", "standard")


def _tiers_at(spec: ScaffoldSpec, size: int) -> list[Tier]:
    return [tier for tier in SWEEP_TIERS if spec.size.check(tier, size) is None]


def honoured_sizes(spec: ScaffoldSpec) -> list[int]:
    """Every size some sweep tier of ``spec`` honours, ascending."""
    found: set[int] = set()
    for tier in SWEEP_TIERS:
        low, high = spec.size.ranges[tier]
        found.update(range(low, high + 1))
    return sorted(found)


def sweep_sizes(spec: ScaffoldSpec) -> list[int]:
    """:data:`SWEEP_POINTS` sizes evenly spread from the smallest to the largest honoured
    (each the nearest honoured size), or every size when fewer are honoured."""
    sizes = honoured_sizes(spec)
    if len(sizes) <= SWEEP_POINTS:
        return sizes
    low, high = sizes[0], sizes[-1]
    step = (high - low) / (SWEEP_POINTS - 1)
    return sorted({_nearest(sizes, low + i * step) for i in range(SWEEP_POINTS)})


def _nearest(sizes: Sequence[int], wanted: float) -> int:
    return min(sizes, key=lambda size: (abs(size - wanted), size))


def sweep_plan(
    spec: ScaffoldSpec, sizes: Sequence[int], *, per_size: int = CASES_PER_SIZE
) -> list[tuple[Tier, int, int]]:
    """``(tier, index, size)`` of ``per_size`` cases at each of ``sizes``, tiers
    interleaved. A size no sweep tier honours is a :class:`ConfigurationError` naming the
    range."""
    plan: list[tuple[Tier, int, int]] = []
    for size in sizes:
        tiers = _tiers_at(spec, size)
        if not tiers:
            known = honoured_sizes(spec)
            raise ConfigurationError(
                f"{spec.name}: size {size} is outside the range it honours "
                f"({known[0]}..{known[-1]} {spec.size.unit}); choose --sizes in it"
            )
        plan.extend((tiers[k % len(tiers)], k // len(tiers), size) for k in range(per_size))
    return plan


def sweep_cases(
    spec: ScaffoldSpec, sizes: Sequence[int], *, seed: int, per_size: int = CASES_PER_SIZE
) -> list[TestCase]:
    """The cases of :func:`sweep_plan`, drawn from ``seed``."""
    return [
        draw_case(spec, tier, index, seed=seed, size=size)
        for tier, index, size in sweep_plan(spec, sizes, per_size=per_size)
    ]
