"""A validator nothing checked does not certify (a helper's hunt): a plugin whose own
``mutants`` hook raised, gave nothing or gave only the right answer left its validator
uncalibrated, and one that accepted every answer certified an always-wrong model; so did one
that declared no hook, whose generic mutants a run's calibration left out."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import pytest

from tests.support.checked import checked
from tests.support.records import attempt_record
from verification.cases import TestCase
from verification.catalog import default_catalog
from verification.catalog.spec import AnswerSchema, ScaffoldSpec
from verification.certify.calibration import PER_CASE, Calibration, calibrate
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


def _generic(spec: ScaffoldSpec, **changes: Any) -> ScaffoldSpec:
    """``spec`` as a plugin that declares no ``mutants`` hook declares it."""
    default = ScaffoldSpec.__dataclass_fields__["mutants"].default
    made = dataclasses.replace(spec, mutants=default, **changes)
    assert made.generic_mutants
    return made


def _all_passed(validator: Validator) -> tuple[Calibration, ScaffoldResults, int]:
    """kmp with generic mutants judged by ``validator``: its calibration on 30 cases, the
    results of every one answered right, and the case count."""
    spec = _generic(default_catalog()["kmp"], validator=validator)
    cases = plan_cases(["kmp"], seed=1, cases=30)["kmp"]
    calibration = calibrate(spec, cases)
    records = [attempt_record(case.id, "passed") for case in cases]
    results = ScaffoldResults.from_records("kmp", records, planned=30, calibration=calibration)
    return calibration, results, len(cases)


def test_a_validator_that_accepts_every_generic_mutant_certifies_nothing() -> None:
    calibration, results, _ = _all_passed(_AcceptsAll())
    assert results.status == "INCOMPLETE"
    assert "generic mutant" in (results.incomplete_reason or "")
    assert calibration.unchecked and calibration.misses == 0
    assert 0 < calibration.generic_mutants == calibration.generic_accepted


class _AcceptsOneOff(Validator):
    """Accepts the right answer and, of wrong ones, only those whose first list is one
    item short: some generic mutants (an item dropped), not the others."""

    kind = "accepts_one_off"

    def validate(self, actual: Any, expected: Any, *, case: TestCase | None = None) -> Any:
        key = next(k for k, v in expected.items() if isinstance(v, list))
        ok = actual == expected or len(actual[key]) == len(expected[key]) - 1
        return ValidationResult(ok, "fine" if ok else "wrong")


def test_generic_mutants_some_accepted_are_no_miss_and_check_the_validator() -> None:
    calibration, results, cases = _all_passed(_AcceptsOneOff())
    assert results.status == "CERTIFIED"
    assert calibration.misses == 0 and not calibration.unchecked
    assert 0 < calibration.generic_accepted < calibration.generic_mutants
    assert calibration.generic_mutants <= PER_CASE * cases


def _mutants_line(spec: ScaffoldSpec) -> Any:
    """``check``'s mutants line on ``spec`` (lcs, or a variant of it), five cases a tier."""
    return checked(spec, cases_per_tier=5)["mutants"]


def test_check_fails_a_validator_that_accepts_every_generic_mutant() -> None:
    # lcs: every case has a generic mutant, so the mutants line is judged on the validator
    base = default_catalog()["lcs"]
    lines = {}
    for spec in (_generic(base, validator=_AcceptsAll()), _generic(base)):
        lines[spec.validator.kind] = _mutants_line(spec)
    failed, passed = lines["accepts_all"], lines[base.validator.kind]
    assert not failed.ok and "accepts every one" in failed.detail
    assert passed.ok and "generic mutants" in passed.detail


class _Verdict(AnswerSchema):
    verdict: Literal["yes", "no"]


class _Word(AnswerSchema):
    word: str


@pytest.mark.parametrize(
    ("schema", "answer", "reason"),
    [
        (_Word, "1011", "it accepted every generic mutant"),
        (_Verdict, "yes", "no generic mutant fits the answers' schema"),
    ],
    ids=["strings alone", "no edit fits the schema"],
)
def test_a_plugin_whose_answers_are_strings_is_checked_too(
    schema: type[AnswerSchema], answer: str, reason: str
) -> None:
    # Generic mutants once edited numbers, lists and booleans only: an accept-all validator
    # of string answers certified an always-wrong model. Now strings are edited, and where
    # no edit fits the schema, nothing checked the validator and the scaffold is INCOMPLETE.
    field = next(iter(schema.model_fields))
    spec = _generic(
        default_catalog()["kmp"],
        answer_schema=schema,
        validator=_AcceptsAll(),
        code_rules={},
        code_dropped_fields={},
        graded_conventions={},
    )
    cases = [
        TestCase(
            id=f"kmp-simple-{i:03}",
            scaffold="kmp",
            tier="simple",
            input={},
            expected={field: answer},
        )
        for i in range(5)
    ]
    calibration = calibrate(spec, cases)
    assert calibration.unchecked and calibration.misses == 0
    records = [attempt_record(case.id, "passed") for case in cases]
    results = ScaffoldResults.from_records("kmp", records, planned=5, calibration=calibration)
    assert results.status == "INCOMPLETE" and reason in (results.incomplete_reason or "")


class _LengthOnly(Validator):
    """Judges an lcs answer by its length alone: never reads its subsequence."""

    kind = "length_only"

    def validate(self, actual: Any, expected: Any, *, case: TestCase | None = None) -> Any:
        ok = actual["length"] == expected["length"]
        return ValidationResult(ok, "fine" if ok else "wrong length")


def _longer(case: TestCase, rng: Any) -> list[dict[str, Any]]:
    return [{**case.expected, "length": case.expected["length"] + 1}]


@pytest.mark.parametrize("own_hook", [True, False], ids=["own mutants", "generic mutants"])
def test_check_fails_a_validator_no_rejected_mutant_shows_reads_a_field(own_hook: bool) -> None:
    # A helper adding a scaffold: a validator that compared the gcd and never the remainders,
    # with mutants that edited only the gcd, passed check and certified a dry run.
    base = default_catalog()["lcs"]
    spec = (
        dataclasses.replace(base, validator=_LengthOnly(), mutants=_longer)
        if own_hook
        else _generic(base, validator=_LengthOnly())
    )
    line = _mutants_line(spec)
    assert not line.ok and "no rejected mutant edits the answer field(s) subsequence" in line.detail
