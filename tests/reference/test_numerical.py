"""``newton_raphson`` against ``numpy.roots`` and ``scipy.optimize.newton``."""

from __future__ import annotations

import math
import random
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy import optimize

from verification.catalog.numerical.newton_raphson import SPEC, generate_newton_raphson
from verification.generators.base import TIERS, Tier
from verification.reference.numerical import newton_raphson, newton_trace

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


def real_roots(coefficients: list[float]) -> list[float]:
    return [float(r.real) for r in np.roots(coefficients) if abs(r.imag) < 1e-9]


def check_against_oracles(case: dict[str, Any], *, exact_iterations: bool) -> None:
    result = newton_raphson(**case)
    info = scipy_newton(case)
    assert result["converged"] == bool(info.converged)
    if result["converged"]:
        root = result["root"]
        assert isinstance(root, float)
        assert abs(root - float(info.root)) <= 1e-6
        assert min(abs(root - r) for r in real_roots(case["coefficients"])) <= 1e-6
        if exact_iterations:
            # Landing exactly on a root, scipy stops on f(x) == 0 before taking the zero
            # step that the definition counts.
            exact_hits = sum(s.fx == 0 for s in newton_trace(**case))
            assert result["iterations"] == info.iterations + exact_hits
    else:
        assert result["root"] is None


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
