"""A validator nothing checked does not certify (a helper's hunt): a plugin whose own
``mutants`` hook raised, gave nothing or gave only the right answer left its validator
uncalibrated, and one that accepted every answer certified an always-wrong model."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tests.support.records import attempt_record
from verification.cases import TestCase
from verification.catalog import default_catalog
from verification.certify.calibration import calibrate
from verification.certify.results import ScaffoldResults
from verification.runner import plan_cases
from verification.validators.base import ValidationResult, Validator


class _AcceptsAll(Validator):
    kind = "accepts_all"

    def validate(self, actual: Any, expected: Any, *, case: TestCase | None = None) -> Any:
        return ValidationResult(True, "fine")


def _raises(case: TestCase, rng: Any) -> list[dict[str, Any]]:
    raise RuntimeError("hook bug")


@pytest.mark.parametrize(
    "hook",
    [_raises, lambda case, rng: [], lambda case, rng: [dict(case.expected)]],
    ids=["raises", "nothing", "only the right answer"],
)
def test_a_validator_no_mutant_checked_certifies_nothing(hook: Any) -> None:
    spec = dataclasses.replace(default_catalog()["kmp"], validator=_AcceptsAll(), mutants=hook)
    cases = plan_cases(["kmp"], seed=1, cases=30)["kmp"]
    calibration = calibrate(spec, cases)
    assert calibration.mutants == 0 and calibration.unchecked
    records = [attempt_record(case.id, "passed") for case in cases]
    results = ScaffoldResults.from_records("kmp", records, planned=30, calibration=calibration)
    assert results.status == "INCOMPLETE" and results.incomplete_reason == "validator unchecked"


def test_the_packaged_scaffolds_hooks_check_their_validators() -> None:
    spec = default_catalog()["kmp"]
    calibration = calibrate(spec, plan_cases(["kmp"], seed=1, cases=6)["kmp"])
    assert calibration.mutants > 0 and not calibration.unchecked
