"""``Tolerance.allows`` (and a tolerance from a value rounded as asked) against exact decimal
arithmetic: "within" includes the bound, on
the numbers as their decimals write them, whatever the doubles' rounding does."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from verification.validators.base import Tolerance
from verification.validators.numeric_tolerance import NumericToleranceValidator


def decimals(places: int) -> st.SearchStrategy[str]:
    return st.builds(
        lambda whole, part: f"{whole}.{part:0{places}d}",
        st.integers(-(10**6), 10**6),
        st.integers(0, 10**places - 1),
    )


@given(
    expected=decimals(6),
    offset=st.sampled_from(["0", "0.000001", "0.00001", "0.0001", "0.001", "0.0011"]),
    sign=st.sampled_from([1, -1]),
    absolute=st.sampled_from(["0.00000005", "0.000001", "0.00001", "0.0001", "0.001"]),
)
@example(expected="6.0", offset="0.001", sign=1, absolute="0.001")  # doubles: 0.0010000000000003
@example(expected="29.0", offset="0.001", sign=-1, absolute="0.001")
@example(expected="-37.0869", offset="0.0001", sign=1, absolute="0.0001")
def test_an_absolute_bound_is_exact_on_decimals(
    expected: str, offset: str, sign: int, absolute: str
) -> None:
    actual = Fraction(expected) + sign * Fraction(offset)
    written = float(actual)  # the shortest decimal of this double is ``actual`` itself
    assert Fraction(repr(written)) == actual
    within = abs(actual - Fraction(expected)) <= Fraction(absolute)
    assert Tolerance(float(absolute)).allows(written, float(expected)) is within


@given(
    expected=st.floats(-1e12, 1e12),
    actual=st.floats(-1e12, 1e12),
    absolute=st.floats(0, 10),
    relative=st.floats(0, 0.1),
)
def test_far_from_the_bound_floats_decide_as_isclose_does(
    expected: float, actual: float, absolute: float, relative: float
) -> None:
    exact = abs(Fraction(actual) - Fraction(expected))
    bound = max(
        Fraction(absolute), Fraction(relative) * max(abs(Fraction(actual)), abs(Fraction(expected)))
    )
    if abs(exact - bound) > Fraction(1, 10**6) * max(
        1, abs(Fraction(actual)), abs(Fraction(expected))
    ):
        assert Tolerance(absolute, relative).allows(actual, expected) is (exact <= bound)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_numbers_are_never_close(bad: float) -> None:
    assert not Tolerance(1.0).allows(bad, 0.0)
    assert not Tolerance(1.0).allows(0.0, bad)


@given(
    truth=st.floats(-1e3, 1e3),
    offset=st.integers(-120, 120).map(lambda k: Fraction(k, 10**9)),
)
@example(truth=0.8284271247461901, offset=Fraction(50, 10**9))  # 5.47e-8 from 0.82842712
def test_a_tolerance_from_the_value_rounded_as_asked(truth: float, offset: Fraction) -> None:
    rounded = round(Fraction(truth), 8)  # what "rounded as asked" (8 places) makes of it
    actual = float(Fraction(repr(truth)) + offset)
    within = abs(Fraction(repr(actual)) - rounded) <= Fraction(5, 10**8)
    validator = NumericToleranceValidator(tolerance=5e-8, field="root", places=8)
    verdict = validator.validate({"root": actual}, {"root": truth})
    assert verdict.is_valid is within


@pytest.mark.parametrize("answer", ["0.3", None, True, [0.3], {"x": 0.3}, 10**400])
def test_an_exact_truth_is_shown_as_the_number_an_answer_writes(answer: object) -> None:
    from verification.cases import TestCase

    third = Fraction(1, 3)
    validator = NumericToleranceValidator(1e-5, field="x", truth=lambda _: third)
    case = TestCase(id="t", scaffold="t", tier="simple", input={}, expected={"x": 0.333333})
    verdict = validator.validate({"x": answer}, case.expected, case=case)
    assert not verdict.is_valid
    assert repr(float(third)) in verdict.message and "Fraction" not in verdict.message


@pytest.mark.parametrize("truth", [Fraction(10**400), Fraction(-(10**400), 3)])
@pytest.mark.parametrize("answer", [0.5, "0.5", 10**400])
def test_an_exact_truth_past_the_doubles_refuses_without_raising(
    truth: Fraction, answer: object
) -> None:
    from verification.cases import TestCase

    validator = NumericToleranceValidator(1e-5, field="x", truth=lambda _: truth)
    case = TestCase(id="t", scaffold="t", tier="simple", input={}, expected={"x": 1.0})
    verdict = validator.validate({"x": answer}, case.expected, case=case)
    assert not verdict.is_valid and "inf" in verdict.message
    assert not Tolerance(1e-5).allows(0.5, truth)
