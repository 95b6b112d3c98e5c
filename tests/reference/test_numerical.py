"""``newton_raphson`` against ``numpy.roots`` and ``scipy.optimize.newton``; ``bisection``
and ``monte_carlo_integration`` against exact rational arithmetic on the input's decimals."""

from __future__ import annotations

import math
import random
import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from scipy import optimize

from verification.catalog.numerical.newton_raphson import SPEC, generate_newton_raphson
from verification.generators.base import TIERS, Tier
from verification.reference.numerical import (
    bisection,
    monte_carlo_integration,
    newton_raphson,
    newton_trace,
)

SIZES = SPEC.sizes


def scipy_newton(case: dict[str, Any]) -> Any:
    coefficients = np.asarray(case["coefficients"], dtype=float)
    derivative = np.polyder(coefficients)
    with warnings.catch_warnings():
        # scipy warns when the derivative is zero; that outcome is checked, not shown.
        warnings.simplefilter("ignore", RuntimeWarning)
        _, info = optimize.newton(
            lambda x: np.polyval(coefficients, x),
            case["x0"],
            fprime=lambda x: np.polyval(derivative, x),
            tol=case["tolerance"],
            maxiter=case["max_iterations"],
            full_output=True,
            disp=False,
        )
    return info


def _divided(a: list[Fraction], b: list[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
    """``a`` over ``b`` (coefficients highest first, ``b`` led by a non-zero): the quotient
    and the remainder, its leading zeros dropped."""
    quotient, rest = [], list(a)
    while len(rest) >= len(b):
        factor = rest[0] / b[0]
        quotient.append(factor)
        padded = b + [Fraction(0)] * (len(rest) - len(b))
        rest = [x - factor * y for x, y in zip(rest, padded, strict=True)][1:]
    while rest and rest[0] == 0:
        rest = rest[1:]
    return quotient, rest


def real_roots(coefficients: list[float]) -> list[float]:
    """The polynomial's real roots, each once: from its square-free part (the polynomial
    over its gcd with its derivative, in exact arithmetic), whose roots are simple, so
    np.roots finds them to near a double's precision; a double root's two copies come out
    of np.roots a pair 1e-8 off the real line, a triple one's farther."""
    p = [Fraction(repr(c)) if isinstance(c, float) else Fraction(c) for c in coefficients]
    while p and p[0] == 0:
        p = p[1:]
    d = len(p) - 1
    g, h = p, [c * (d - i) for i, c in enumerate(p[:-1])]
    while h:
        g, h = h, _divided(g, h)[1]
    simple = _divided(p, g)[0] if len(g) > 1 else p
    return [float(r.real) for r in np.roots([float(c) for c in simple]) if abs(r.imag) < 1e-9]


def check_against_oracles(case: dict[str, Any], *, exact_iterations: bool) -> None:
    result = newton_raphson(**case)
    info = scipy_newton(case)
    assert result["converged"] == bool(info.converged)
    if result["converged"]:
        root = result["root"]
        assert isinstance(root, float)
        assert abs(root - float(info.root)) <= 1e-6
        # Newton stops on a step under the tolerance; next to a root of multiplicity m the
        # error left is (m - 1) times that step (linear convergence, ratio (m - 1) / m), so
        # a polynomial of degree d is within max(1, d - 1) tolerances of a real root.
        degree = len(case["coefficients"]) - 1
        bound = max(1, degree - 1) * case["tolerance"]
        assert min(abs(root - r) for r in real_roots(case["coefficients"])) <= bound
        if exact_iterations:
            # Landing exactly on a root, scipy stops on f(x) == 0 before taking the zero
            # step that the definition counts.
            exact_hits = sum(s.fx == 0 for s in newton_trace(**case))
            assert result["iterations"] == info.iterations + exact_hits
    else:
        assert result["root"] is None


@pytest.mark.slow
@pytest.mark.parametrize("tier", ["simple", "standard"])
def test_generated_inputs_match_numpy_and_scipy(tier: Tier) -> None:
    for seed in range(150):
        case = generate_newton_raphson(random.Random(f"ref:{tier}:{seed}"), tier, SIZES[tier])
        check_against_oracles(case, exact_iterations=True)


def test_edge_inputs_match_scipy_outcome() -> None:
    for seed in range(150):
        case = generate_newton_raphson(random.Random(f"ref:edge:{seed}"), "edge", SIZES["edge"])
        # scipy counts a start at a root as 0 iterations and a zero derivative as 1;
        # the scaffold's definition (1 and 0) is checked in the tests below.
        check_against_oracles(case, exact_iterations=False)
        if not newton_raphson(**case)["converged"]:
            derivative = np.polyder(np.asarray(case["coefficients"], dtype=float))
            flat_start = np.polyval(derivative, case["x0"]) == 0
            assert flat_start or not real_roots(case["coefficients"])


@example(coefficients=[1, 0, 0, 0], tenths=1, max_iterations=27)  # a triple root: 1.76e-6 off
@example(coefficients=[1, 1, -5, 3], tenths=0, max_iterations=20)  # (x - 1)^2 (x + 3)
@given(
    coefficients=st.lists(st.integers(-6, 6), min_size=2, max_size=4).filter(lambda c: c[0]),
    tenths=st.integers(-50, 50),
    max_iterations=st.integers(1, 30),
)
def test_random_polynomials_agree_with_scipy(
    coefficients: list[int], tenths: int, max_iterations: int
) -> None:
    case: dict[str, Any] = {
        "coefficients": coefficients,
        "x0": tenths / 10,
        "tolerance": 1e-6,
        "max_iterations": max_iterations,
    }
    steps = newton_trace(**case)
    # scipy counts differently on an exact zero of f'; and compares steps with <= where
    # the definition uses <.
    assume(all(s.x_new is not None for s in steps))
    assume(all(abs(abs(s.x_new - s.x) - 1e-6) > 1e-12 for s in steps if s.x_new is not None))
    assume(all(math.isfinite(s.fx) and abs(s.x) < 1e6 for s in steps))
    check_against_oracles(case, exact_iterations=True)


def test_callables_match_the_polynomial_form() -> None:
    by_code = newton_raphson(f=lambda x: x**2 - 2, df=lambda x: 2 * x, x0=1.0)
    by_data = newton_raphson(coefficients=[1, 0, -2], x0=1.0)
    assert by_code == by_data
    assert by_code["converged"] is True
    assert by_code["root"] == pytest.approx(math.sqrt(2), abs=1e-12)


def test_zero_derivative_at_start_takes_no_iteration() -> None:
    assert newton_raphson(coefficients=[1, 0, -4], x0=0.0) == {
        "root": None,
        "iterations": 0,
        "converged": False,
    }


@pytest.mark.parametrize("root", [-2, 0, 3])
def test_start_at_a_root_converges_at_iteration_one(root: int) -> None:
    coefficients = np.polymul([1, -root], [2, 1]).tolist()
    result = newton_raphson(coefficients=coefficients, x0=float(root))
    assert result == {"root": float(root), "iterations": 1, "converged": True}


def test_no_real_root_runs_out_of_iterations() -> None:
    result = newton_raphson(coefficients=[1, 0, 1], x0=0.5, max_iterations=5)
    assert result == {"root": None, "iterations": 5, "converged": False}


def test_overflow_stops_with_json_values() -> None:
    result = newton_raphson(coefficients=[1, 0, 1], x0=1e200, max_iterations=50)
    assert result["root"] is None and result["converged"] is False


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "give coefficients"),
        ({"f": math.sin}, "give coefficients"),
        ({"coefficients": [1, 0], "f": math.sin, "df": math.cos}, "not both"),
        ({"f": 1, "df": 2}, "callables"),
        ({"coefficients": []}, "must not be empty"),
        ({"coefficients": "1 0 -2"}, "list of numbers"),
        ({"coefficients": [1, True]}, r"coefficients\[1\] must be a number"),
        ({"coefficients": [1, math.nan]}, "finite"),
        ({"coefficients": [10**400]}, "too large"),
        ({"coefficients": [1, -2], "x0": "1"}, "x0 must be a number"),
        ({"coefficients": [1, -2], "tolerance": 0}, "tolerance must be positive"),
        ({"coefficients": [1, -2], "max_iterations": 0}, "at least 1"),
        ({"coefficients": [1, -2], "max_iterations": 2.0}, "must be an integer"),
        ({"coefficients": [1, -2], "max_iterations": True}, "must be an integer"),
    ],
)
def test_bad_input_is_a_value_error(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        newton_raphson(**kwargs)


@pytest.mark.parametrize("tier", TIERS)
def test_answers_are_plain_json(tier: Tier) -> None:
    for seed in range(20):
        case = generate_newton_raphson(random.Random(f"json:{tier}:{seed}"), tier, SIZES[tier])
        result = newton_raphson(**case)
        assert set(result) == {"root", "iterations", "converged"}
        assert result["root"] is None or type(result["root"]) is float
        assert type(result["iterations"]) is int
        assert type(result["converged"]) is bool


# Beyond the generators: inputs written in decimals, exact roots, zero-width intervals. --


def _decimal(value: float) -> Fraction:
    """A number as the input writes it: ``0.1`` is one tenth, not the nearest double."""
    return Fraction(repr(value))


def _horner(coefficients: list[Fraction], x: Fraction) -> Fraction:
    value = Fraction(0)
    for c in coefficients:
        value = value * x + c
    return value


def exact_bisection(case: dict[str, Any]) -> tuple[Fraction | None, int, bool]:
    """The scaffold's bisection in exact rational arithmetic on the input's decimals."""
    coefficients = [_decimal(c) for c in case["coefficients"]]
    a, b, tolerance = (_decimal(case[key]) for key in ("a", "b", "tolerance"))
    fa, fb = _horner(coefficients, a), _horner(coefficients, b)
    if fa == 0 or fb == 0:
        return (a if fa == 0 else b), 0, True
    if (fa > 0) == (fb > 0):
        return None, 0, False
    k = 0
    while True:
        k += 1
        h = (b - a) / 2
        m = a + h
        fm = _horner(coefficients, m)
        if fm == 0 or h < tolerance:
            return m, k, True
        if (fm > 0) == (_horner(coefficients, a) > 0):
            a = m
        else:
            b = m


def check_bisection(case: dict[str, Any]) -> None:
    root, iterations, bracketed = exact_bisection(case)
    answer = bisection(**case)
    assert (answer["iterations"], answer["bracketed"]) == (iterations, bracketed), case
    if root is None:
        assert answer["root"] is None
    else:
        assert abs(_decimal(answer["root"]) - root) <= Fraction(5, 10**9), case


@st.composite
def brackets(draw: st.DrawFn, unit: int) -> dict[str, Any]:
    """Ends and roots on multiples of ``1 / unit``, so roots on a midpoint or an end are
    likely: with ``unit`` 8 (and power-of-two tolerances) binary floats hold every number
    exactly, with 100 (and decimal tolerances) they do not, and the decimals rule."""
    roots = draw(st.lists(st.integers(-5 * unit, 5 * unit), min_size=1, max_size=3))
    coefficients = [1]
    for r in roots:  # times (unit x - r): a root at r / unit
        coefficients = [*(unit * c for c in coefficients), 0]
        coefficients = [
            c - r * p for c, p in zip(coefficients, [0, *coefficients[:-1]], strict=True)
        ]
    a = draw(st.integers(-6 * unit, 5 * unit))
    width = draw(st.integers(1, 4 * unit))
    tolerance = (
        2.0 ** -draw(st.integers(-2, 12))
        if unit == 8
        else draw(st.sampled_from([0.5, 0.1, 0.05, 0.01, 0.003, 0.001, 0.0001]))
    )
    return {
        "coefficients": [
            *coefficients[:-1],
            coefficients[-1] + draw(st.sampled_from([0, 0, 1, -3])),
        ],
        "a": a / unit,  # a correctly rounded quotient: its repr is the decimal itself
        "b": (a + width) / unit,
        "tolerance": tolerance,
    }


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(brackets(unit=8) | brackets(unit=100))
def test_bisection_is_the_exact_replay_on_binary_and_decimal_brackets(
    case: dict[str, Any],
) -> None:
    check_bisection(case)


@pytest.mark.parametrize(
    "case",
    [
        {"coefficients": [1, 0, -2], "a": 1.1, "b": 1.5, "tolerance": 0.1},
        {"coefficients": [100, -29], "a": 0.29, "b": 1, "tolerance": 0.001},
        {"coefficients": [100, 255], "a": -3.0, "b": -2.1, "tolerance": 0.001},
    ],
)
def test_bisection_on_decimal_inputs_is_the_exact_replay(case: dict[str, Any]) -> None:
    check_bisection(case)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    coefficients=st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=5),
    a=st.integers(-(10**4), 10**4).map(lambda x: x / 100),
    width=st.sampled_from([0, 0, 1, 37]).map(lambda x: x / 100)
    | st.integers(0, 10**4).map(lambda x: x / 100),
    samples=st.lists(st.integers(0, 999_999).map(lambda x: x / 10**6), min_size=1, max_size=8),
)
@example(coefficients=[42282, 0, 0], a=48.73, width=0.01, samples=[0.0])  # floats: 6th place off
def test_monte_carlo_is_the_exact_mean_rounded(
    coefficients: list[int], a: float, width: float, samples: list[float]
) -> None:
    b = a + width
    points = [_decimal(a) + (_decimal(b) - _decimal(a)) * _decimal(u) for u in samples]
    terms = [_horner([Fraction(c) for c in coefficients], x) for x in points]
    exact = (_decimal(b) - _decimal(a)) * sum(terms, Fraction(0)) / len(samples)
    estimate = monte_carlo_integration(coefficients=coefficients, a=a, b=b, samples=samples)
    # Rounded to 6 places, up to the double nearest that (and its own float noise).
    allowed = Fraction(1, 2 * 10**6) + Fraction(abs(float(exact))) * Fraction(2, 10**15)
    assert abs(_decimal(estimate["estimate"]) - exact) <= allowed
