"""Validators for unordered collections, and property validators built on them."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from verification.validators.base import ValidationResult, Validator, pick

if TYPE_CHECKING:
    from verification.generators.base import TestCase

__all__ = ["SetEquivalenceValidator", "canonical"]


def canonical(value: Any) -> str:
    """A hashable, order-insensitive-for-objects key of a JSON value (tuples as lists)."""
    if isinstance(value, set | frozenset):
        value = sorted(value, key=canonical)
    return json.dumps(value, sort_keys=True, default=_default)


def _default(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(value, key=canonical)
    raise TypeError(f"not JSON data: {type(value).__name__}")


class SetEquivalenceValidator(Validator):
    """Same elements in any order; a repeated element counts as a difference."""

    kind = "set"

    def __init__(self, field: str | None = None) -> None:
        self.field = field

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        got, want = pick(actual, self.field), pick(expected, self.field)
        if not isinstance(got, Iterable) or isinstance(got, str | bytes | dict):
            return ValidationResult(False, f"expected a collection, got {type(got).__name__}")
        got_counts = Counter(canonical(item) for item in got)
        want_counts = Counter(canonical(item) for item in want)
        if got_counts == want_counts:
            return ValidationResult(True, f"same {sum(want_counts.values())} elements")
        missing = sorted((want_counts - got_counts).elements())
        extra = sorted((got_counts - want_counts).elements())
        return ValidationResult(
            False,
            f"missing {missing[:5]}, unexpected {extra[:5]}",
            {"missing": missing[:20], "unexpected": extra[:20]},
        )
