"""The validator contract: compare an answer with the ground truth, never raise.

A validator is a small object named for what it compares. ``validate`` returns a
:class:`ValidationResult`; a wrong answer is a value, never an exception. The runner always
passes ``case``; property validators read ``case.input`` and fall back to what ``expected``
alone can show when it is missing.
"""

from __future__ import annotations

import inspect
import math
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from verification.cases import TestCase

__all__ = [
    "CompositeValidator",
    "FieldValidator",
    "Tolerance",
    "ValidationResult",
    "Validator",
    "accepts_case",
    "finite_number",
    "nearest_double",
    "passes",
    "pick",
    "repeated",
]


@dataclass(frozen=True)
class ValidationResult:
    """A verdict: passed or not, why, and what was compared."""

    is_valid: bool
    message: str
    details: dict[str, Any] = field(default_factory=dict)
    form_rule: str | None = None
    """The Output Format's rule the answer breaks, in its words, when it is wrong in form
    only (right in substance): a level 2 (contract) failure, not a level 3 one."""

    @property
    def passed(self) -> bool:
        """Alias of ``is_valid``."""
        return self.is_valid


class Validator(ABC):
    """Compares an actual answer with the expected one."""

    kind: ClassVar[str]
    """The name ``VALIDATOR_REGISTRY`` shows for this validator."""

    @abstractmethod
    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        """Judge ``actual``; never raise on a wrong answer."""

    def accepts(self, actual: Any, expected: Any, *, case: TestCase | None = None) -> bool:
        """Whether :meth:`validate` passes ``actual``: its verdict's ``is_valid``, which a
        subclass may find without writing the verdict's message (a run's calibration asks
        only this, of several answers per case). Where ``validate`` raises, this may raise
        or say ``False``."""
        return self.validate(actual, expected, case=case).is_valid

    @property
    def tolerances(self) -> Mapping[str, Tolerance]:
        """Numeric tolerances this validator applies, by what they apply to."""
        return {}


def passes(validator: Validator, actual: Any, expected: Any, *, case: TestCase | None) -> bool:
    """Whether ``validator`` passes ``actual``: :meth:`Validator.accepts`, or the verdict's
    ``is_valid`` for a validator that only has ``validate`` (a plugin's, by duck typing)."""
    if Validator in type(validator).__mro__:  # a subclass (an ABC's isinstance costs more)
        return validator.accepts(actual, expected, case=case)
    return validator.validate(actual, expected, case=case).is_valid


_NOISE = 1e-12
"""Below this (relative to the numbers compared), a float distance may be rounding."""


def finite_number(value: Any) -> bool:
    """Whether ``value`` is a JSON number a double holds: an int or float, not a bool, not
    infinite or NaN, and not an integer past the doubles (JSON puts no bound on one, and
    ``math.isfinite`` raises on it)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def nearest_double(value: float | Fraction) -> float:
    """``value`` as the double nearest it, or an infinity of its sign past the doubles
    (``float`` raises on a fraction there)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _as_written(value: float | Fraction) -> Fraction:
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


@dataclass(frozen=True)
class Tolerance:
    """How far a number may be from the truth: within ``absolute`` or within ``relative``
    times the true value's magnitude, whichever is wider (``math.isclose``'s rule)."""

    absolute: float
    relative: float = 0.0

    def __post_init__(self) -> None:
        for name, bound in (("absolute", self.absolute), ("relative", self.relative)):
            if not bound >= 0 or math.isinf(bound):
                raise ValueError(f"{name} tolerance must be a finite number >= 0, got {bound!r}")

    def allows(self, actual: float, expected: float | Fraction) -> bool:
        """Whether ``actual`` is close enough to ``expected`` (never for a non-finite one).

        "Within" includes the bound, on the numbers as their decimals write them: 6.001 is
        within 0.001 of 6.0 although the doubles differ by 0.001000000000000334. Floats
        decide unless the distance is within rounding noise of the bound; then fractions
        of the shortest decimals do, or of ``expected`` itself where it is an exact value
        (a :class:`~fractions.Fraction`, finer than any double)."""
        near = nearest_double(expected)
        if not (math.isfinite(actual) and math.isfinite(near)):
            return False
        bound = max(self.absolute, self.relative * max(abs(actual), abs(near)))
        gap = abs(actual - near) - bound
        if abs(gap) > _NOISE * max(1.0, abs(actual), abs(near)):
            return gap < 0
        a, e = _as_written(actual), _as_written(expected)
        exact_bound = max(
            _as_written(self.absolute), _as_written(self.relative) * max(abs(a), abs(e))
        )
        return abs(a - e) <= exact_bound

    def __str__(self) -> str:
        return f"absolute {self.absolute:g}, relative {self.relative:g}"


def accepts_case(validator: Validator) -> bool:
    """Whether ``validator.validate`` takes the ``case`` keyword the runner always passes."""
    parameters = inspect.signature(validator.validate).parameters.values()
    return any(p.name == "case" or p.kind is p.VAR_KEYWORD for p in parameters)


def repeated(items: Iterable[Hashable]) -> list[Any]:
    """The items listed more than once, sorted (in linear time: answers can be huge)."""
    return sorted(item for item, times in Counter(items).items() if times > 1)


def pick(value: Any, field_name: str | None) -> Any:
    """``value[field_name]`` when a field is named and present, else ``value``."""
    if field_name is None:
        return value
    if type(value) is dict:  # most answers: spares the Mapping check, a slow one
        return value.get(field_name)
    if isinstance(value, Mapping):
        return value.get(field_name)
    return None


class FieldValidator(Validator):
    """A validator that judges the whole answer, or one named field of it."""

    def __init__(self, field: str | None = None) -> None:
        self.field = field

    @property
    def where(self) -> str:
        """A JSON path for messages: ``$`` or ``$.field``."""
        return "$" if self.field is None else f"$.{self.field}"

    def picked(self, actual: Any, expected: Any) -> tuple[Any, Any]:
        """The compared values: the field of each, or each whole."""
        return pick(actual, self.field), pick(expected, self.field)


class CompositeValidator(Validator):
    """Passes when every one of its validators passes; reports the first failure."""

    kind = "composite"

    def __init__(self, validators: Sequence[Validator]) -> None:
        if not validators:
            raise ValueError("CompositeValidator needs at least one validator")
        self.validators = tuple(validators)

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        verdicts = [v.validate(actual, expected, case=case) for v in self.validators]
        for verdict in verdicts:
            if not verdict.is_valid:
                return verdict
        return ValidationResult(
            True, "; ".join(v.message for v in verdicts), {"checks": len(verdicts)}
        )

    def accepts(self, actual: Any, expected: Any, *, case: TestCase | None = None) -> bool:
        if type(self).validate is not CompositeValidator.validate:  # a subclass's own verdict
            return super().accepts(actual, expected, case=case)
        # Passed when every one passes: the first that does not decides (validate would ask
        # the rest too, for a verdict that is the first failure's).
        return all(passes(v, actual, expected, case=case) for v in self.validators)

    @property
    def tolerances(self) -> Mapping[str, Tolerance]:
        merged: dict[str, Tolerance] = {}
        for validator in self.validators:
            merged.update(validator.tolerances)
        return merged
