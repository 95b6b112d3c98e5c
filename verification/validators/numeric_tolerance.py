"""Validators for numbers compared within a documented absolute tolerance."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from verification.cases import TestCase
from verification.validators.base import FieldValidator, ValidationResult
from verification.validators.exact_match import json_differences

__all__ = ["NumericToleranceValidator"]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class NumericToleranceValidator(FieldValidator):
    """Numbers (or objects and arrays of them) equal within ``tolerance``; ``null`` only
    matches ``null``; anything else must match exactly."""

    kind = "numeric"

    def __init__(self, tolerance: float = 1e-6, field: str | None = None) -> None:
        if not tolerance >= 0 or math.isinf(tolerance):
            raise ValueError(f"tolerance must be a finite number >= 0, got {tolerance!r}")
        super().__init__(field)
        self.tolerance = tolerance

    @property
    def tolerances(self) -> Mapping[str, float]:
        return {self.field or "value": self.tolerance}

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        where = self.where
        problem = self._compare(*self.picked(actual, expected), where)
        if problem:
            return ValidationResult(False, problem, {"tolerance": self.tolerance})
        return ValidationResult(True, f"{where} within {self.tolerance:g}")

    def _compare(self, actual: Any, expected: Any, where: str) -> str | None:
        if _is_number(expected) and _is_number(actual):
            if not math.isfinite(actual):
                return f"{where}: expected {expected!r}, got non-finite {actual!r}"
            error = abs(float(actual) - float(expected))
            if error > self.tolerance:
                return (
                    f"{where}: expected {expected!r}, got {actual!r} "
                    f"(off by {error:.3g} > tolerance {self.tolerance:g})"
                )
            return None
        if isinstance(expected, Mapping) and isinstance(actual, Mapping):
            if set(map(str, actual)) != set(map(str, expected)):
                return json_differences(actual, expected, where)[0]
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
        diffs = json_differences(actual, expected, where)
        return diffs[0] if diffs else None
