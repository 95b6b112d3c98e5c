"""A validator's ``accepts`` (what a run's calibration asks: passed or not, without the
verdict's message) is its verdict's ``is_valid``: on every scaffold's expected answer,
mutants and alternatives, for cases of every tier; a subclass that judges in its own way,
and a plugin's validator that has only ``validate``, are asked for their verdict."""

from __future__ import annotations

import random
from typing import Any

import pytest

from verification.cases import DEFAULT_SEED, TIERS, TestCase, generate_case
from verification.certify.checks import CALIBRATION_SEED
from verification.registry import SPECS
from verification.validators.base import (
    CompositeValidator,
    ValidationResult,
    Validator,
    passes,
)
from verification.validators.exact_match import (
    DictMatchValidator,
    ExactMatchValidator,
    PathMatchValidator,
)
from verification.validators.form import FormRule, with_form_rules


@pytest.mark.parametrize("name", sorted(SPECS))
def test_accepts_is_the_verdict_on_every_calibration_answer(name: str) -> None:
    spec = SPECS[name]
    rng = random.Random(CALIBRATION_SEED)
    judged = 0
    for tier in TIERS:
        for index in range(2):
            case = generate_case(spec, tier, index, seed=DEFAULT_SEED)
            answers = [case.expected, *spec.mutants(case, rng), *spec.alternatives(case, rng)]
            for answer in answers:
                verdict = spec.validator.validate(answer, case.expected, case=case)
                assert spec.validator.accepts(answer, case.expected, case=case) == (
                    verdict.is_valid
                ), (case.id, answer)
                judged += 1
    assert judged > 6


class _Refusing(ExactMatchValidator):
    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        return ValidationResult(False, "never")


class _DuckTyped:
    """A plugin's validator that has only ``validate``."""

    def __init__(self, answer: bool) -> None:
        self.answer = answer

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        return ValidationResult(self.answer, "")


@pytest.mark.parametrize(
    "validator",
    [
        _Refusing(),
        type("RefusingPath", (PathMatchValidator,), {"validate": _Refusing.validate})(),
        type("RefusingDict", (DictMatchValidator,), {"validate": _Refusing.validate})(),
        type("RefusingAll", (CompositeValidator,), {"validate": _Refusing.validate})(
            [ExactMatchValidator()]
        ),
    ],
)
def test_a_subclass_judging_in_its_own_way_is_asked_its_verdict(validator: Validator) -> None:
    assert not validator.accepts([1, 2], [1, 2])
    assert ExactMatchValidator().accepts([1, 2], [1, 2])


def test_a_validator_with_only_validate_is_asked_its_verdict() -> None:
    for answer in (True, False):
        duck: Any = _DuckTyped(answer)
        assert passes(duck, 1, 2, case=None) is answer
        assert CompositeValidator([ExactMatchValidator(), duck]).accepts(1, 1) is answer


def test_a_form_breach_is_no_pass() -> None:
    rule = FormRule("in ascending order", lambda answer: sorted(answer))
    validator = with_form_rules(PathMatchValidator(), rule)
    verdict = validator.validate([2, 1], [1, 2])
    assert verdict.form_rule == "in ascending order"
    assert not verdict.is_valid
    assert not validator.accepts([2, 1], [1, 2])
    assert validator.accepts([1, 2], [1, 2])


@pytest.mark.parametrize(
    ("actual", "expected"),
    [
        ([1, 2], [1, 2]),
        ([1, 2], [1, 2, 3]),
        ([1, 2, 3], [1, 2]),
        ((1, 2.0), [1, 2]),
        ([True], [1]),
        ("ab", ["a", "b"]),
        ([1], "a"),
        ({"a": 1}, [1]),
        ([[1, {"a": None}]], [[1, {"a": None}]]),
        ([[1, {"a": None}]], [[1, {"a": 0}]]),
    ],
)
def test_a_path_passes_as_its_verdict_says(actual: Any, expected: Any) -> None:
    for validator in (PathMatchValidator(), PathMatchValidator("p")):
        answer, truth = ({"p": actual}, {"p": expected}) if validator.field else (actual, expected)
        assert validator.accepts(answer, truth) == validator.validate(answer, truth).is_valid
