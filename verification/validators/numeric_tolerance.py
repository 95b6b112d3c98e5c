"""Validators for numbers compared within documented absolute and relative tolerances."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from verification.cases import TestCase
from verification.validators.base import (
    FieldValidator,
    Tolerance,
    ValidationResult,
    finite_number,
    nearest_double,
)
from verification.validators.exact_match import json_differences

__all__ = ["NumericToleranceValidator"]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _as_json(value: Any) -> Any:
    """``value`` with each exact truth (a Fraction) as the double nearest it: what a message
    shows, as the answer would write it."""
    if isinstance(value, Fraction):
        return nearest_double(value)
    if isinstance(value, list):
        return [_as_json(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _as_json(item) for key, item in value.items()}
    return value


def _is_truth(value: Any) -> bool:
    """A number to measure from: one of the answer's kind, or an exact one (a ``truth``
    hook's :class:`~fractions.Fraction`, finer than a double)."""
    return _is_number(value) or isinstance(value, Fraction)


class NumericToleranceValidator(FieldValidator):
    """Numbers (or objects and arrays of them) equal within ``tolerance`` (absolute) or
    ``relative`` times the expected magnitude, whichever is wider; ``null`` only matches
    ``null``; anything else must match exactly.

    With ``places``, the expected numbers are first rounded to that many decimals, for an
    Output Format that says "accepted within ... of the exact value, rounded as asked"
    where the reference keeps every digit.

    With ``truth``, the window is measured around the exact values ``truth(case.input)``
    gives (shaped like the field; :class:`~fractions.Fraction` where a double would round
    them), where the expected answer holds them rounded: rounding must not shift the
    window. Without a case, or where ``truth`` gives ``None``, around ``expected``."""

    kind = "numeric"

    def __init__(
        self,
        tolerance: float = 1e-6,
        field: str | None = None,
        *,
        relative: float = 0.0,
        places: int | None = None,
        truth: Callable[[Mapping[str, Any]], Any] | None = None,
    ) -> None:
        super().__init__(field)
        self.bounds = Tolerance(tolerance, relative)
        self.tolerance = tolerance
        self.places = places
        self.truth = truth

    @property
    def tolerances(self) -> Mapping[str, Tolerance]:
        return {self.field or "value": self.bounds}

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        where = self.where
        got, want = self.picked(actual, expected)
        if self.truth is not None and case is not None:
            exact = self.truth(case.input)
            if exact is not None:
                want, where = exact, f"{where} (exact point)"
        problem = self._compare(got, want, where)
        if problem:
            return ValidationResult(False, problem, {"tolerance": str(self.bounds)})
        return ValidationResult(True, f"{where} within {self.bounds}")

    def _compare(self, actual: Any, expected: Any, where: str) -> str | None:
        if _is_truth(expected) and _is_number(actual):
            near = nearest_double(expected)
            if self.places is not None and math.isfinite(near):
                expected = near = round(near, self.places)
            if not finite_number(actual):
                got = "an integer past the doubles" if isinstance(actual, int) else actual
                return f"{where}: expected {_as_json(expected)!r}, got non-finite {got}"
            value = float(actual)
            if not self.bounds.allows(value, expected if isinstance(expected, Fraction) else near):
                error, shown = abs(value - near), _as_json(expected)  # shown only when wrong
                return (
                    f"{where}: expected {shown!r}, got {actual!r} "
                    f"(off by {error:.3g}, outside tolerance: {self.bounds})"
                )
            return None
        if isinstance(expected, Mapping) and isinstance(actual, Mapping):
            if set(map(str, actual)) != set(map(str, expected)):
                return json_differences(actual, _as_json(expected), where)[0]
            by_key = {str(k): v for k, v in actual.items()}
            for key, value in expected.items():
                problem = self._compare(by_key[str(key)], value, f"{where}.{key}")
                if problem:
                    return problem
            return None
        if isinstance(expected, list) and isinstance(actual, list):
            if len(actual) != len(expected):
                return f"{where}: expected {len(expected)} items, got {len(actual)}"
            for index, (a, e) in enumerate(zip(actual, expected, strict=True)):
                problem = self._compare(a, e, f"{where}[{index}]")
                if problem:
                    return problem
            return None
        diffs = json_differences(actual, _as_json(expected), where)
        return diffs[0] if diffs else None
