"""The general validators of the API reference: exact, dict, path, numeric, set, composite."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verification.validators.base import CompositeValidator
from verification.validators.exact_match import (
    DictMatchValidator,
    ExactMatchValidator,
    PathMatchValidator,
)
from verification.validators.numeric_tolerance import NumericToleranceValidator
from verification.validators.set_equivalence import SetEquivalenceValidator

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=20,
)


def test_api_reference_examples() -> None:
    assert ExactMatchValidator().validate(actual=5, expected=5).is_valid
    assert (
        DictMatchValidator().validate(actual={"A": 0, "B": 1}, expected={"A": 0, "B": 1}).is_valid
    )
    assert PathMatchValidator().validate(actual=["A", "B", "C"], expected=["A", "B", "C"]).is_valid
    assert (
        NumericToleranceValidator(tolerance=1e-6)
        .validate(actual=1.4142135, expected=1.4142136)
        .is_valid
    )
    assert SetEquivalenceValidator().validate(actual={1, 2, 3}, expected={3, 1, 2}).is_valid


@given(json_values)
def test_every_validator_accepts_a_value_equal_to_itself(value: object) -> None:
    for validator in (ExactMatchValidator(), DictMatchValidator(), NumericToleranceValidator()):
        assert validator.validate(value, value).is_valid


@pytest.mark.slow
@given(json_values, json_values)
def test_validators_never_raise_and_exact_agrees_with_json_equality(a: object, b: object) -> None:
    verdict = ExactMatchValidator().validate(a, b)
    for validator in (PathMatchValidator(), SetEquivalenceValidator(), NumericToleranceValidator()):
        validator.validate(a, b)
    if verdict.is_valid:
        assert a == b


@pytest.mark.parametrize(
    ("actual", "expected"),
    [
        (True, 1),
        (1, True),
        (None, 0),
        ([1, 2], {"0": 1, "1": 2}),
        ("1", 1),
        ({"A": 0}, {"A": 0, "B": 1}),
    ],
)
def test_exact_match_is_json_equality_not_python_equality(actual: object, expected: object) -> None:
    verdict = ExactMatchValidator().validate(actual, expected)
    assert not verdict.is_valid and verdict.message


def test_dict_match_names_the_first_difference() -> None:
    verdict = DictMatchValidator().validate({"d": {"A": 0, "B": 2}}, {"d": {"A": 0, "B": 1}})
    assert not verdict.is_valid and "$.d.B" in verdict.message


def test_path_match_is_order_sensitive() -> None:
    verdict = PathMatchValidator(field="order").validate(
        {"order": ["A", "C", "B"]}, {"order": ["A", "B", "C"]}
    )
    assert not verdict.is_valid and verdict.details["first_difference"] == 1
    assert not PathMatchValidator().validate(["A"], ["A", "B"]).is_valid
    assert not PathMatchValidator().validate("AB", ["A", "B"]).is_valid


def test_numeric_tolerance_is_inclusive_and_strict_outside() -> None:
    validator = NumericToleranceValidator(tolerance=0.5)
    assert validator.validate(1.5, 1.0).is_valid
    assert not validator.validate(1.5000001, 1.0).is_valid
    assert not validator.validate(None, 1.0).is_valid
    assert validator.validate(None, None).is_valid
    assert not validator.validate(float("inf"), 1.0).is_valid
    assert not validator.validate(True, 1.0).is_valid
    with pytest.raises(ValueError):
        NumericToleranceValidator(tolerance=-1)


def test_set_equivalence_counts_repeats() -> None:
    assert not SetEquivalenceValidator().validate([1, 1, 2], [1, 2]).is_valid
    assert SetEquivalenceValidator().validate([[1, 2], [3]], [[3], [1, 2]]).is_valid


def test_composite_reports_the_first_failure() -> None:
    validator = CompositeValidator(
        [PathMatchValidator(field="order"), DictMatchValidator(field="distances")]
    )
    good = {"order": ["A"], "distances": {"A": 0}}
    assert validator.validate(good, good).is_valid
    bad = {"order": ["A"], "distances": {"A": 1}}
    assert "$.distances.A" in validator.validate(bad, good).message
    with pytest.raises(ValueError):
        CompositeValidator([])
