"""fractional_knapsack's validator: any optimal list of fractions, each share held to some
optimal load of the test input within the tolerances the scaffold states."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from verification.cases import TestCase
from verification.validators.base import Tolerance, ValidationResult, Validator, finite_number, pick

__all__ = ["FRACTION_TOLERANCE", "VALUE_TOLERANCE", "FractionalKnapsackValidator"]

VALUE_TOLERANCE = 1e-3
"""Absolute tolerance on ``max_value``: twenty times the rounding the Output Format asks
for (4 decimals), and the figure it states (``check`` compares the two)."""
FRACTION_TOLERANCE = 1e-4
"""Tolerance on each fraction (written to 4 decimals). The fractions' weight may exceed the
capacity, and their value differ from ``max_value``, by what this much per item allows."""
_SLACK = Fraction(str(FRACTION_TOLERANCE))
"""The share tolerance as the decimal the Output Format writes."""

_VALUE_BOUNDS = Tolerance(VALUE_TOLERANCE)


def _close(a: float, b: float) -> bool:
    return _VALUE_BOUNDS.allows(a, b)


def _exact(value: float) -> Fraction:
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def _best_first(groups: dict[Fraction, list[int]]) -> list[tuple[Fraction, list[int]]]:
    """``sorted(groups.items(), reverse=True)``: by ratio, best first (no two alike)."""
    try:
        return sorted(groups.items(), key=_by_ratio, reverse=True)
    except OverflowError:  # a ratio past the doubles
        return sorted(groups.items(), reverse=True)


def _by_ratio(item: tuple[Fraction, list[int]]) -> tuple[float, Fraction]:
    # The double nearest a ratio orders ratios as they are, but may tie two of them: the
    # ratio itself then decides. Comparing doubles first spares most Fraction comparisons.
    return float(item[0]), item[0]


@functools.lru_cache(maxsize=64)
def _optimal_loads(weights: tuple[Any, ...], values: tuple[Any, ...], capacity: Any) -> Any:
    """Per case: each share (0 or 1) every optimal load gives, and the cut group, if any."""
    groups: dict[Fraction, list[int]] = {}
    for i, (v, w) in enumerate(zip(values, weights, strict=True)):
        if type(v) is int and type(w) is int and w:  # the same ratio, one Fraction made
            groups.setdefault(Fraction(v, w), []).append(i)
        else:
            groups.setdefault(_exact(v) / _exact(w), []).append(i)
    exact = [w if isinstance(w, int) else _exact(w) for w in weights]
    room = capacity if isinstance(capacity, int) else _exact(capacity)
    fixed: dict[int, int] = {}
    cut = None
    for level, group in _best_first(groups):
        load = sum(exact[i] for i in group)
        if room <= 0:
            fixed.update((i, 0) for i in group)
        elif level > 0 and load <= room:
            fixed.update((i, 1) for i in group)
            room -= load
        else:
            cut, room = (level, group, [exact[i] for i in group], room), Fraction(0)
    return sorted(fixed.items()), cut


def _off(share: float, want: int) -> bool:
    """``abs(_exact(share) - want) > _SLACK``, in floats where they cannot disagree."""
    gap = abs(share - want)  # FRACTION_TOLERANCE is the double nearest _SLACK
    if abs(gap - FRACTION_TOLERANCE) > 1e-9:  # the decimal is within 1e-16 of the double
        return gap > FRACTION_TOLERANCE
    return abs(_exact(share) - want) > _SLACK


def _box_clearly_loads(cut: Any, shares: Sequence[float]) -> bool:
    """Whether doubles alone show what the exact test of :func:`_off_every_optimal_load`
    finds: each share of the cut group within the slack of some share in 0..1, and the box
    of them loading the room (at most, for a group worth nothing). False when the doubles
    come within 1e-9 (relative) of a bound: the fractions then decide, as for an answer
    that fails (its message is written from them)."""
    level, group, weights, room = cut
    slack, least, most, scale = FRACTION_TOLERANCE, 0.0, 0.0, 1.0
    for i, weight in zip(group, weights, strict=True):
        share = float(shares[i])
        if not (share - slack <= 1 - 1e-9 and share + slack >= 1e-9):
            return False
        w = float(weight)
        least += w * max(0.0, share - slack)
        most += w * min(1.0, share + slack)
        scale += abs(w)
    target = float(room)
    margin = 1e-9 * (scale + abs(target))
    return least <= target - margin and (level <= 0 or most >= target + margin)


def _off_every_optimal_load(test_input: Mapping[str, Any], shares: Sequence[float]) -> str | None:
    """Why no optimal load lies within :data:`FRACTION_TOLERANCE` of ``shares`` share by
    share, or None when one does (the words "each share is accepted within 0.0001 of its
    exact value"; with tied ratios any optimal split of the room is an exact value). The
    load and the worth alone would let one share drift where others make up for it.

    By ratio, best first: a group that fits is taken whole; the group the capacity runs out
    in shares the room left exactly (any split, each share in ``[0, 1]``), and the groups
    after it are left out; a group worth nothing (ratio 0) may take any part of the room
    left."""
    weights = test_input["weights"]
    fixed, cut = _optimal_loads(tuple(weights), tuple(test_input["values"]), test_input["capacity"])
    slack = _SLACK
    if cut is not None and not _box_clearly_loads(cut, shares):
        level, group, exact, room = cut
        # The shares within the slack, as a box: some point loads the room (at most, worth 0)
        low = [max(Fraction(0), _exact(shares[i]) - slack) for i in group]
        high = [min(Fraction(1), _exact(shares[i]) + slack) for i in group]
        least = sum(w * lo for w, lo in zip(exact, low, strict=True))
        most = sum(w * hi for w, hi in zip(exact, high, strict=True))
        if any(lo > hi for lo, hi in zip(low, high, strict=True)):
            return f"a share of items {group} lies outside 0..1"
        if least > room or (level > 0 and most < room):
            return (
                f"items {group} (value per weight {float(level):g}) share the "
                f"{float(room):g} of capacity left; these shares load "
                f"{float(least):g} to {float(most):g}"
            )
    for i, want in fixed:
        if _off(shares[i], want):
            return f"fractions[{i}] is {shares[i]}; every optimal load gives it {float(want):g}"
    return None


class FractionalKnapsackValidator(Validator):
    """Any optimal list of fractions, checked against the input within stated tolerances.

    With ``case``: one fraction per item, each within :data:`FRACTION_TOLERANCE` of the
    same item's share in some optimal load (as the scaffold states); their weight within
    the capacity and their value equal to
    ``max_value`` (give or take that tolerance per item); and ``max_value`` within
    :data:`VALUE_TOLERANCE` of the optimum ``expected["max_value"]``.
    Without ``case``: every number within those tolerances of ``expected``.
    """

    kind = "fractional_knapsack"

    @property
    def tolerances(self) -> Mapping[str, Tolerance]:
        return {
            "max_value": Tolerance(VALUE_TOLERANCE),
            "fractions": Tolerance(FRACTION_TOLERANCE),
        }

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        stated, fractions = pick(actual, "max_value"), pick(actual, "fractions")
        optimum = pick(expected, "max_value")
        if not finite_number(stated):
            return ValidationResult(False, f"max_value must be a number, got {stated!r:.40}")
        if not isinstance(fractions, list) or not all(finite_number(x) for x in fractions):
            return ValidationResult(False, "fractions must be a list of numbers")
        if not finite_number(optimum):
            return ValidationResult(False, "the expected answer has no max_value")
        if case is None:
            return self._compare(stated, fractions, optimum, pick(expected, "fractions"))
        weights, values = case.input["weights"], case.input["values"]
        capacity = case.input["capacity"]
        if len(fractions) != len(weights):
            return ValidationResult(
                False, f"fractions has {len(fractions)} numbers for {len(weights)} items"
            )
        for index, share in enumerate(fractions):
            if not -FRACTION_TOLERANCE <= share <= 1 + FRACTION_TOLERANCE:
                return ValidationResult(
                    False, f"fractions[{index}] is {share}, outside 0..1", {"item": index}
                )
        off = _off_every_optimal_load(case.input, fractions)
        if off is not None:
            return ValidationResult(False, f"not an optimal load: {off}")
        load = sum(w * x for w, x in zip(weights, fractions, strict=True))
        worth = sum(v * x for v, x in zip(values, fractions, strict=True))
        details = {"weight": load, "capacity": capacity, "value": worth, "optimum": optimum}
        if load > capacity + FRACTION_TOLERANCE * sum(weights):
            return ValidationResult(
                False, f"the fractions weigh {load:g}, over the capacity {capacity}", details
            )
        if abs(worth - stated) > VALUE_TOLERANCE + FRACTION_TOLERANCE * sum(values):
            return ValidationResult(
                False, f"the fractions are worth {worth:g}, but max_value says {stated}", details
            )
        if not _close(stated, optimum):
            return ValidationResult(
                False,
                f"max_value is {stated}; the optimum is {optimum} (tolerance {VALUE_TOLERANCE:g})",
                details,
            )
        return ValidationResult(True, f"an optimal load worth {stated}", details)

    def _compare(
        self, stated: float, fractions: list[Any], optimum: float, expected: Any
    ) -> ValidationResult:
        note = "(no test input: compared with the expected answer only)"
        if not _close(stated, optimum):
            return ValidationResult(False, f"max_value is {stated}, expected {optimum} {note}")
        if not isinstance(expected, list) or len(expected) != len(fractions):
            return ValidationResult(False, f"fractions differ in length from the expected {note}")
        for index, (got, want) in enumerate(zip(fractions, expected, strict=True)):
            if abs(got - want) > FRACTION_TOLERANCE:
                return ValidationResult(
                    False, f"fractions[{index}] is {got}, expected {want} {note}"
                )
        return ValidationResult(True, f"the expected fractions {note}")
