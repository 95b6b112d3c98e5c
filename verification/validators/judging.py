"""A validator's verdict on an answer, as the runner asks for it: a validator that raises or
returns no verdict fails the answer, never the run."""

from __future__ import annotations

import logging
from typing import Any

from verification.cases import TestCase
from verification.errors import ConfigurationError, PluginError
from verification.validators.base import ValidationResult, Validator, accepts_case

__all__ = ["check_validator", "failed_level", "judge_answer"]

logger = logging.getLogger("verification.runner")  # the logger these messages always had


def check_validator(validator: Validator) -> Validator:
    """A custom validator must take ``case``: the runner always passes it. Checked once, so
    a wrong signature is a clear error rather than a FAILED scaffold."""
    if not accepts_case(validator):
        raise ConfigurationError(
            f"{type(validator).__name__}.validate must accept the test case: define it as "
            "validate(self, actual, expected, *, case=None)"
        )
    return validator


def judge_answer(validator: Validator, answer: Any, case: TestCase) -> ValidationResult:
    """The validator's verdict; a validator that raises fails the answer, never the run."""
    try:
        verdict = validator.validate(answer, case.expected, case=case)
    except PluginError:
        raise  # a plugin's validator failed: its scaffold's case, not the answer, is at fault
    except Exception as exc:  # a harness bug must not pass an answer, nor stop the run
        logger.exception("validator for %s raised on case %s", case.scaffold, case.id)
        return ValidationResult(False, f"validator error: {type(exc).__name__}: {exc}"[:300])
    if not isinstance(verdict, ValidationResult):
        return ValidationResult(
            False, f"validator error: it returned {type(verdict).__name__}, not a verdict"
        )
    return verdict


def failed_level(verdict: ValidationResult) -> int:
    """The level a rejected answer fails at: 2 (the contract) when it breaks only a form
    rule its Output Format states, 3 (behaviour) otherwise."""
    return 2 if verdict.form_rule else 3
