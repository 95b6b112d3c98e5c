"""What is peculiar to ``bisection``: its oracle, an exact rational replay of the halvings
checked against ``scipy.optimize.brentq``, and the reference against both."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from scipy import optimize

from tests.support.per_input import per_input
from tests.support.scaffolds import sections
from tests.support.stress import stress_case, stress_cells
from verification.cases import TIERS, Tier
from verification.catalog.numerical.bisection import (
    ROOT_TOLERANCE,
    SIGN_MARGIN,
    SPEC,
    generate_bisection,
    is_unambiguous,
)
from verification.catalog.wording import ROUNDING
from verification.certify.checks import calibration_cases
from verification.reference.numerical import bisection, bisection_trace


def _decimal(value: Any) -> Fraction:
    """A number as the input writes it: JSON's ``1.1`` is eleven tenths, exactly."""
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def _exact(test_input: dict[str, Any]) -> tuple[Fraction | None, int, bool]:
    """Bisection in exact rational arithmetic: (root, iterations, bracketed)."""
    coefficients = [_decimal(c) for c in test_input["coefficients"]]

    def f(x: Fraction) -> Fraction:
        total = Fraction(0)
        for c in coefficients:
            total = total * x + c
        return total

    a, b = _decimal(test_input["a"]), _decimal(test_input["b"])
    tolerance = _decimal(test_input["tolerance"])
    if f(a) == 0:
        return a, 0, True
    if f(b) == 0:
        return b, 0, True
    if (f(a) > 0) == (f(b) > 0):
        return None, 0, False
    k = 0
    while True:
        k += 1
        h = (b - a) / 2
        m = a + h
        if f(m) == 0 or h < tolerance:
            return m, k, True
        if (f(m) > 0) == (f(a) > 0):
            a = m
        else:
            b = m


def _brentq(test_input: dict[str, Any]) -> float:
    p = np.poly1d(test_input["coefficients"])
    return float(optimize.brentq(p, test_input["a"], test_input["b"], xtol=1e-12))


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"root", "iterations"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when the count and bracket match an exact rational replay, and the root is
    within tolerance of its root, which brentq confirms lies within the input's
    tolerance of a true root."""
    root, iterations, bracketed = per_input(
        "test_bisection._exact", test_input, lambda: _exact(test_input)
    )
    if (answer["iterations"], answer["bracketed"]) != (iterations, bracketed):
        return False
    if root is None:
        return answer["root"] is None
    if answer["root"] is None or abs(answer["root"] - float(root)) > ROOT_TOLERANCE:
        return False
    polynomial = np.poly1d(test_input["coefficients"])
    if polynomial(float(root)) == 0:
        return True
    # Several roots: brentq may find another; then the bracket holds one near the answer.
    nearby = [r.real for r in polynomial.roots if abs(r.imag) < 1e-9]
    return bool(min(abs(answer["root"] - r) for r in nearby) < test_input["tolerance"])


def _random_inputs(count: int) -> list[dict[str, Any]]:
    rng = random.Random(11)
    inputs: list[dict[str, Any]] = []
    while len(inputs) < count:
        coefficients = [rng.randint(-5, 5) for _ in range(rng.randint(2, 4))]
        a = rng.randint(-5, 4)
        inputs.append(
            {
                "coefficients": coefficients,
                "a": a,
                "b": a + rng.randint(1, 5),
                "tolerance": rng.choice((0.1, 0.01, 0.001, 1e-4)),
            }
        )
    return inputs


@pytest.mark.parametrize("test_input", _random_inputs(150))
def test_reference_agrees_with_an_exact_replay_on_random_inputs(test_input: dict[str, Any]) -> None:
    assert oracle(test_input, bisection(**test_input))


def test_reference_agrees_with_brentq_over_generated_cases() -> None:
    for tier in TIERS:
        low, high = SPEC.size.ranges[tier]
        for seed in range(25):
            size = low + seed % (high - low + 1)
            test_input = generate_bisection(random.Random(seed), tier, size)
            answer = bisection(**test_input)
            assert oracle(test_input, answer), (tier, seed, test_input)
            if tier != "edge":
                assert answer["iterations"] == size
                assert abs(answer["root"] - _brentq(test_input)) < test_input["tolerance"]


def test_a_root_at_either_end_and_no_sign_change() -> None:
    assert bisection(coefficients=[1, -2], a=2, b=5, tolerance=0.1) == {
        "root": 2.0,
        "iterations": 0,
        "bracketed": True,
    }
    assert bisection(coefficients=[1, -5], a=2, b=5, tolerance=0.1)["root"] == 5.0
    assert bisection(coefficients=[1, 0, 1], a=-1, b=1, tolerance=0.1)["bracketed"] is False
    # Two roots inside cancel the sign change: still no bracket.
    assert bisection(coefficients=[1, 0, -1], a=-2, b=2, tolerance=0.1)["root"] is None


def test_a_midpoint_that_is_a_root_stops_early() -> None:
    answer = bisection(coefficients=[2, -3], a=1, b=2, tolerance=1e-6)
    assert answer == {"root": 1.5, "iterations": 1, "bracketed": True}
    assert oracle({"coefficients": [2, -3], "a": 1, "b": 2, "tolerance": 1e-6}, answer)


def test_the_callable_form_matches_the_coefficients_form() -> None:
    for test_input in _random_inputs(30):
        p = np.poly1d(test_input["coefficients"])

        def f(x: float, p: Any = p) -> float:
            return float(p(x))

        by_callable = bisection(
            f=f,
            a=test_input["a"],
            b=test_input["b"],
            tolerance=test_input["tolerance"],
        )
        assert by_callable == bisection(**test_input)


@pytest.mark.parametrize(
    "bad",
    [
        {"coefficients": [1, -2], "a": 2, "b": 2, "tolerance": 0.1},
        {"coefficients": [1, -2], "a": 3, "b": 2, "tolerance": 0.1},
        {"coefficients": [1, -2], "a": 0, "b": 3, "tolerance": 0},
        {"coefficients": [], "a": 0, "b": 3, "tolerance": 0.1},
        {"coefficients": ["1"], "a": 0, "b": 3, "tolerance": 0.1},
        {"coefficients": [1, -2], "a": float("nan"), "b": 3, "tolerance": 0.1},
        {"coefficients": [1, 0, -2], "a": 0, "b": 3, "tolerance": 1e-300},
        {"a": 0, "b": 3, "tolerance": 0.1},
    ],
)
def test_bad_inputs_raise_value_error(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        bisection(**bad)


def test_the_oracle_refuses_the_wrong_last_branch() -> None:
    test_input = {"coefficients": [1, 0, -2, -5], "a": 2, "b": 3, "tolerance": 0.01}
    assert oracle(test_input, {"root": 2.1015625, "iterations": 7, "bracketed": True})
    assert not oracle(test_input, {"root": 2.0859375, "iterations": 7, "bracketed": True})
    assert not oracle(test_input, {"root": 2.1015625, "iterations": 6, "bracketed": True})


@pytest.mark.parametrize(
    ("test_input", "right"),
    [
        # After 2 halvings the width 0.4 / 4 = 0.1 is not below 0.1: a third iteration.
        (
            {"coefficients": [1, 0, -2], "a": 1.1, "b": 1.5, "tolerance": 0.1},
            {"root": 1.45, "iterations": 3, "bracketed": True},
        ),
        # f(a) = 0 exactly: 100 * 0.29 - 29.
        (
            {"coefficients": [100, -29], "a": 0.29, "b": 1, "tolerance": 0.01},
            {"root": 0.29, "iterations": 0, "bracketed": True},
        ),
        # The first midpoint, (-3.0 + -2.1) / 2 = -2.55, is the root of 100 x + 255.
        (
            {"coefficients": [100, 255], "a": -3.0, "b": -2.1, "tolerance": 0.001},
            {"root": float(Fraction(-255, 100)), "iterations": 1, "bracketed": True},
        ),
    ],
)
def test_issue_13_reproducers_in_exact_arithmetic(
    test_input: dict[str, Any], right: dict[str, Any], judge: Callable[..., bool]
) -> None:
    """The scaffold promises exact arithmetic: the reference runs it, and the right answer
    passes (the binary-float run stopped at 2, bisected 10 times, and missed the root)."""
    expected = bisection(**test_input)
    assert expected == right
    assert judge("bisection", test_input, right)
    assert oracle(test_input, right)


def test_the_precision_sentence_asks_only_for_the_sign_and_states_the_margin() -> None:
    precision = " ".join(sections("bisection")["scaffold_instructions"].split())
    sentence = precision[precision.index("**Precision.**") :].split("**Before")[0]
    assert "significant digits" not in sentence
    assert f"at least {SIGN_MARGIN:f}".rstrip("0") in sentence
    # The figure stated holds: every midpoint of the drawn cases is that far from a root.
    for case in calibration_cases(SPEC, 10):
        if case.tier != "edge":
            assert is_unambiguous(bisection_trace(**case.input)), case.id


def _half_away(value: Fraction, places: int) -> Fraction:
    """The school rule, by hand: a tie goes away from zero."""
    scaled = abs(value) * 10**places
    whole = int(scaled) + (1 if scaled - int(scaled) >= Fraction(1, 2) else 0)
    return Fraction(whole, 10**places) * (-1 if value < 0 else 1)


def test_the_root_is_the_exact_midpoint_rounded_a_tie_away_from_zero() -> None:
    # On [0, 1] with tolerance 0.002 the run stops at k = 9, at a midpoint j / 512 of 9
    # decimals ending in 5: a tie at 8 places, which a tie-to-even rule (Fraction's round)
    # breaks toward zero whenever the 8th decimal is even.
    differs = 0
    for root in ("0.3", "0.31", "0.62", "0.7", "0.85", "0.93"):
        test_input = {"coefficients": [1, -float(root)], "a": 0.0, "b": 1.0, "tolerance": 0.002}
        exact, iterations, _ = _exact(test_input)
        assert exact is not None and iterations == 9
        assert (exact * 10**9).denominator == 1 and exact * 10**9 % 10 == 5  # a tie
        assert bisection(**test_input)["root"] == float(_half_away(exact, 8)), root
        differs += round(exact, 8) != _half_away(exact, 8)
    assert differs > 0
    assert ROUNDING in " ".join(sections("bisection")["output_format"].split())


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("bisection"))
def test_the_reference_agrees_with_the_oracle_at_the_stress_size(
    tier: Tier, size: int, index: int
) -> None:
    case = stress_case("bisection", tier, size, index)
    assert case.expected["iterations"] == size and case.expected["bracketed"]
    assert is_unambiguous(bisection_trace(**case.input))  # every midpoint's sign clear
    assert oracle(case.input, case.expected), case.id


def test_roots_counted_without_numpy_are_numpys_count() -> None:
    """The generator counts the roots inside a bracket exactly where numpy's count cannot
    differ (a quadratic, a cubic with one real root) and asks numpy otherwise: over every
    simple-tier quadratic and a sample of the other tiers' polynomials, at every bracket
    the tiers draw, the exact count is numpy's."""
    from verification.catalog.numerical.bisection import _exact_roots_inside, _times_linear

    rng = random.Random(27)
    polynomials = [[1, b, c] for b in range(-6, 7) for c in range(-9, 10)]
    polynomials += [[rng.choice((-2, -1, 1, 2))] + [rng.randint(-9, 9) for _ in range(3)]]
    polynomials += [
        [rng.choice((-2, -1, 1, 2)), rng.randint(-6, 6), rng.randint(-9, 9), rng.randint(-9, 9)]
        for _ in range(300)
    ]
    polynomials += [
        _times_linear([1, rng.randint(-6, 6), rng.randint(1, 9)], 2 ** rng.randint(1, 3), k)
        for k in range(-40, 40)
    ]
    exact_counts = 0
    for coefficients in polynomials:
        roots = np.roots(np.asarray(coefficients, dtype=float))
        # numpy's real roots, once a polynomial (as Python floats: the same values).
        real = [float(r.real) for r in roots if abs(r.imag) < 1e-9]
        for a in range(-4, 4):
            for b in range(a + 1, a + 7):
                exact = _exact_roots_inside(coefficients, a, b)
                if exact is not None:
                    exact_counts += 1
                    assert exact == sum(1 for r in real if a < r < b), (coefficients, a, b)
    assert exact_counts > len(polynomials) * 48 // 2  # numpy is the exception


def test_a_kept_bisection_run_is_the_run_of_that_input() -> None:
    """bisection_trace keeps the last runs by value and type: 1, 1.0 and True are told
    apart, and a run handed out twice is the same run, not one list shared."""
    first = bisection_trace([1, 0, -2], 1, 2, 0.01)
    again = bisection_trace([1, 0, -2], 1, 2, 0.01)
    assert first == again and first is not again
    again.clear()
    assert bisection_trace([1, 0, -2], 1, 2, 0.01) == first
    assert bisection_trace([1.0, 0.0, -2.0], 1.0, 2.0, 0.01) == first
    with pytest.raises(ValueError):
        bisection_trace([True, 0, -2], 1, 2, 0.01)
