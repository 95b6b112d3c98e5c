"""``SizeAxis``: what a scaffold's size measures, and which sizes each tier and option accepts.

A spec's :attr:`~verification.catalog.spec.ScaffoldSpec.size`: the range each tier's
generator honours, the stress range past the standard maximum, and the sizes ``--size`` and
``--sizes`` may name (shown by ``list``). :mod:`verification.catalog.spec` re-exports every
name here, where the API reference documents them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from verification.cases import TIERS, Tier
from verification.errors import SpecError

__all__ = [
    "MAX_AXIS_SIZE",
    "STRESS_FACTOR",
    "STRESS_TIERS",
    "SWEEP_TIERS",
    "SizeAxis",
    "in_units",
]


def in_units(sizes: object, unit: str) -> str:
    """``sizes`` (a size, a range or a list of them) with a size axis's ``unit``, as a
    sentence reads them: a count before its noun, a measure named before its value (hunt
    mm: "up to 48 length of the longer string").

    Examples
    --------
    >>> in_units(12, "vertices"), in_units("8 to 16", "text length")
    ('12 vertices', 'text length 8 to 16')
    """
    return f"{unit} {sizes}" if " " in unit.strip() else f"{sizes} {unit}"


MAX_AXIS_SIZE = 1_000_000
"""The largest size an axis may name (the catalog's largest is 1,024): the sizes a tier
accepts are listed to check a ``--size``, and a plugin's range to 10**9 took every byte of
the machine's memory at ``list``."""

STRESS_FACTOR = 4
"""How far past the standard maximum a stress range reaches where the scaffold allows."""

STRESS_TIERS: tuple[Tier, ...] = ("simple", "standard")
"""The tiers whose inputs a stress range scales; edge cases stay small by design."""

SWEEP_TIERS: tuple[Tier, ...] = ("simple", "standard")
"""The tiers a size sweep (``--sizes``) draws its cases from, interleaved at each size: the
edge tier stays out (its generator may draw smaller inputs than asked)."""


def _runs(sizes: set[int]) -> list[tuple[int, int]]:
    """``sizes`` as ascending runs of consecutive sizes, ``(low, high)`` each."""
    runs: list[tuple[int, int]] = []
    for size in sorted(sizes):
        if runs and runs[-1][1] == size - 1:
            runs[-1] = (runs[-1][0], size)
        else:
            runs.append((size, size))
    return runs


def _shown_runs(runs: Sequence[tuple[int, int]]) -> str:
    return ",".join(f"{low}-{high}" for low, high in runs) or "none"


@dataclass(frozen=True, kw_only=True)
class SizeAxis:
    """What a scaffold's size measures, and the sizes its generator honours.

    ``measure(generator(rng, tier, s)) == s`` for every ``s`` of a simple or standard
    tier's range, and of the stress range; an edge case may be smaller (an empty or
    one-element input is the point), never larger. ``check`` draws cases at every size of
    every range, and across the stress range.
    """

    unit: str
    """What is counted, in prose: ``vertices``, ``items``, ``text length``."""
    measure: Callable[[Mapping[str, Any]], int]
    """The size of an input, read back from the input alone."""
    ranges: Mapping[Tier, tuple[int, int]]
    """Per tier, the lowest and highest size (inclusive) the generator honours and the
    output budget fits."""
    stress: tuple[int, int] | None = None
    """Sizes past the standard maximum that the :data:`STRESS_TIERS`' generators also
    honour (the case ids carry the size), reaching :data:`STRESS_FACTOR` times it where the
    answer stays checkable and its work fits
    :data:`~verification.catalog.spec.MODEL_OUTPUT_CEILING`; ``None``: none."""
    stress_limit: str = ""
    """Why the stress range stops short of :data:`STRESS_FACTOR` times the standard maximum
    (or why there is none): required then, shown by ``list``."""

    def __post_init__(self) -> None:
        missing = set(TIERS) - set(self.ranges)
        if missing:
            raise SpecError(f"size axis has no range for tiers {sorted(missing)}")
        for tier, (low, high) in self.ranges.items():
            if not 0 <= low <= high:
                raise SpecError(f"size range of tier {tier!r} is empty: {low}..{high}")
            if high > MAX_AXIS_SIZE:
                raise SpecError(
                    f"size range of tier {tier!r} reaches {high}, past {MAX_AXIS_SIZE:,}"
                )
        if self.stress is not None:
            low, high = self.stress
            top = self.ranges["standard"][1]
            if not top < low <= high:
                raise SpecError(
                    f"stress range {low}..{high} must lie past the standard maximum {top}"
                )
            if high > MAX_AXIS_SIZE:
                raise SpecError(f"stress range {low}..{high} reaches past {MAX_AXIS_SIZE:,}")
        if not isinstance(self.stress_limit, str) or not self.stress_limit.isprintable():
            raise SpecError(f"size axis ({self.unit}): stress_limit must be one line of text")

    def stress_problem(self) -> str | None:
        """Why the stress range falls short of what ``check`` asks of a scaffold: a range
        short of :data:`STRESS_FACTOR` times the standard maximum (or none) that does not say
        why; ``None`` when it holds."""
        top = self.ranges["standard"][1]
        if self.stress_limit.strip() or (
            self.stress is not None and self.stress[1] >= STRESS_FACTOR * top
        ):
            return None
        reach = "no stress range" if self.stress is None else f"a stress range to {self.stress[1]}"
        return (
            f"{reach}, short of {STRESS_FACTOR}x the standard maximum ({STRESS_FACTOR * top} "
            f"{self.unit}), and no stress_limit saying why"
        )

    def check(self, tier: Tier, size: int) -> str | None:
        """Why ``size`` is out of ``tier``'s range, stress included, or None when it is in
        it."""
        low, high = self.ranges[tier]
        if low <= size <= high or self.in_stress(tier, size):
            return None
        honoured = self.honoured(tier)
        if honoured != (low, high):
            return (
                f"size {size} is outside the {tier} range {low}..{high} and its stress range "
                f"{self.stress[0]}..{self.stress[1]} ({self.unit})"  # type: ignore[index]
            )
        return f"size {size} is outside the {tier} range {low}..{high} ({self.unit})"

    def in_stress(self, tier: Tier, size: int) -> bool:
        """Whether ``size`` is one of ``tier``'s stress sizes."""
        return (
            self.stress is not None
            and tier in STRESS_TIERS
            and self.stress[0] <= size <= self.stress[1]
        )

    def honoured(self, tier: Tier) -> tuple[int, int]:
        """The lowest and highest size ``tier`` accepts, its stress range included when it
        meets the tier's own range (a simple range that stops short of the standard maximum
        leaves a gap no size of which is drawn: the stress range is then not counted, so
        every size between the two ends is one the tier accepts)."""
        low, high = self.ranges[tier]
        if self.stress is not None and tier in STRESS_TIERS and self.stress[0] <= high + 1:
            return low, max(high, self.stress[1])
        return low, high

    def _accepted(self, tier: Tier) -> set[int]:
        low, high = self.ranges[tier]
        sizes = set(range(low, high + 1))
        if self.stress is not None and tier in STRESS_TIERS:
            sizes.update(range(self.stress[0], self.stress[1] + 1))
        return sizes

    def shared(self, tiers: Sequence[Tier]) -> list[tuple[int, int]]:
        """The sizes every one of ``tiers`` accepts (:meth:`check`), stress included, as
        ascending ``(low, high)`` runs: what ``--size N`` may be on a run that asks them
        all (empty: they share none)."""
        return _runs(set.intersection(*(self._accepted(tier) for tier in tiers)))

    def spanned(self, tiers: Sequence[Tier]) -> list[tuple[int, int]]:
        """The sizes some one of ``tiers`` accepts, stress included, as ascending ``(low,
        high)`` runs: what ``--sizes`` may name over the sweep's tiers."""
        return _runs(set().union(*(self._accepted(tier) for tier in tiers)))

    def options_text(self) -> str:
        """Which sizes each option accepts, for ``list``: ``--size`` on a run of every
        tier, ``--sizes`` over the :data:`SWEEP_TIERS` (the stress range named when there
        is one)."""
        text = f"{self.unit}: --size {_shown_runs(self.shared(TIERS))}"
        text += f", --sizes {_shown_runs(self.spanned(SWEEP_TIERS))}"
        if self.stress is not None:
            text += f" (stress {self.stress[0]}-{self.stress[1]})"
        return text

    def default_sizes(self) -> dict[Tier, int]:
        """The sizes of a spec that declares none: the midpoint of the simple and standard
        ranges (a typical input, which the generator and the output budget honour by the
        range's promise, where the lower end is often a degenerate one or two), and the
        lower end of the edge range (edge cases are about the smallest inputs)."""
        sizes: dict[Tier, int] = {}
        for tier, (low, high) in self.ranges.items():
            sizes[tier] = low if tier == "edge" else (low + high) // 2
        return sizes
