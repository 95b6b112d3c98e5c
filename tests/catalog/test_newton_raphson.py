"""What is peculiar to ``newton_raphson``: its oracle, numpy's polynomial roots and an
independent count of Newton steps.

(The reference's own cross-checks live in ``tests/reference/test_numerical.py``.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.support.per_input import per_input
from tests.support.stress import stress_case, stress_cells
from verification.cases import Tier
from verification.catalog.numerical.newton_raphson import ROOT_TOLERANCE, largest_coefficient


def _steps(test_input: dict[str, Any]) -> tuple[float | None, int, bool]:
    """Newton's iteration by numpy's polyval/polyder: (last iterate, steps, converged)."""
    p = np.poly1d(test_input["coefficients"])
    dp = p.deriv()
    x = float(test_input["x0"])
    for k in range(1, test_input["max_iterations"] + 1):
        slope = float(dp(x))
        if abs(slope) < 1e-12:
            return None, k - 1, False
        x_new = x - float(p(x)) / slope
        if abs(x_new - x) < test_input["tolerance"]:
            return x_new, k, True
        x = x_new
    return None, test_input["max_iterations"], False


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"root", "iterations", "converged"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when the iteration count and convergence match an independent run, and a
    converged root is within tolerance of it and of a real root numpy finds."""
    root, iterations, converged = per_input(
        "test_newton_raphson._steps", test_input, lambda: _steps(test_input)
    )
    if (answer["iterations"], answer["converged"]) != (iterations, converged):
        return False
    if root is None:
        return answer["root"] is None
    if answer["root"] is None or abs(answer["root"] - root) > ROOT_TOLERANCE:
        return False
    real = [r.real for r in np.roots(test_input["coefficients"]) if abs(r.imag) < 1e-9]
    return any(abs(answer["root"] - r) < 1e-5 for r in real)


def test_the_oracle_refuses_a_root_off_by_more_than_the_tolerance() -> None:
    test_input = {"coefficients": [1, 0, -2], "x0": 1.0, "tolerance": 1e-6, "max_iterations": 20}
    root = 2**0.5
    assert oracle(test_input, {"root": root, "iterations": 5, "converged": True})
    assert not oracle(test_input, {"root": root + 1e-6, "iterations": 5, "converged": True})


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("newton_raphson"))
def test_the_reference_agrees_with_numpy_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    case = stress_case("newton_raphson", tier, size, index)
    assert largest_coefficient(case.input) == size
    assert oracle(case.input, case.expected), case.id
