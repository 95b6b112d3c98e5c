"""What is peculiar to ``monte_carlo``: its oracle, a direct numpy mean over the same draws,
and the reference against it and (with many draws) against ``scipy.integrate.quad``."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from scipy import integrate

from tests.support.per_input import per_input
from tests.support.scaffolds import sections
from tests.support.stress import stress_case, stress_cells
from verification.cases import TIERS, Tier
from verification.catalog.numerical.monte_carlo import (
    ESTIMATE_TOLERANCE,
    SPEC,
    generate_monte_carlo,
)
from verification.catalog.wording import ROUNDING
from verification.reference.numerical import monte_carlo_integration


def _numpy_estimate(test_input: dict[str, Any]) -> float:
    a, b = test_input["a"], test_input["b"]
    points = a + (b - a) * np.asarray(test_input["samples"], dtype=float)
    return float((b - a) * np.mean(np.polyval(test_input["coefficients"], points)))


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"estimate"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when the estimate is within tolerance of numpy's mean over the same draws."""
    return bool(
        abs(
            answer["estimate"]
            - per_input(
                "test_monte_carlo._numpy_estimate", test_input, lambda: _numpy_estimate(test_input)
            )
        )
        <= ESTIMATE_TOLERANCE
    )


def _random_inputs(count: int) -> list[dict[str, Any]]:
    rng = random.Random(13)
    inputs = []
    for _ in range(count):
        a = rng.randint(-5, 5)
        inputs.append(
            {
                "coefficients": [rng.randint(-9, 9) for _ in range(rng.randint(1, 5))],
                "a": a,
                "b": a + rng.randint(0, 6),
                "samples": [rng.random() for _ in range(rng.randint(1, 30))],
            }
        )
    return inputs


@pytest.mark.parametrize("test_input", _random_inputs(150))
def test_reference_agrees_with_numpy_on_random_inputs(test_input: dict[str, Any]) -> None:
    answer = monte_carlo_integration(**test_input)
    assert abs(answer["estimate"] - _numpy_estimate(test_input)) <= 1e-6


def test_reference_agrees_with_numpy_over_generated_cases() -> None:
    for tier in TIERS:
        low, high = SPEC.size.ranges[tier]
        for seed in range(40):
            size = low + seed % (high - low + 1)
            test_input = generate_monte_carlo(random.Random(seed), tier, size)
            assert oracle(test_input, monte_carlo_integration(**test_input)), (tier, seed)


@pytest.mark.slow
def test_many_draws_approach_the_true_integral() -> None:
    rng = random.Random(3)
    for _ in range(5):
        coefficients = [rng.randint(-4, 4) for _ in range(4)]
        a, b = rng.randint(-2, 1), rng.randint(2, 4)
        samples = [rng.random() for _ in range(3_000)]
        estimate = monte_carlo_integration(coefficients=coefficients, a=a, b=b, samples=samples)
        exact, _ = integrate.quad(lambda x, c=coefficients: float(np.polyval(c, x)), a, b)
        values = np.polyval(coefficients, a + (b - a) * np.asarray(samples))
        standard_error = (b - a) * float(np.std(values)) / len(samples) ** 0.5
        assert abs(estimate["estimate"] - exact) <= 5 * standard_error + 1e-6


def test_edge_inputs() -> None:
    constant = monte_carlo_integration(coefficients=[3], a=1, b=5, samples=[0.1, 0.9])
    assert constant == {"estimate": 12.0}
    assert monte_carlo_integration(coefficients=[1, 2], a=2, b=2, samples=[0.5]) == {
        "estimate": 0.0
    }
    at_a = monte_carlo_integration(coefficients=[1, 0, 0], a=-3, b=1, samples=[0.0, 0.0])
    assert at_a["estimate"] == 4 * 9


def test_the_callable_form_matches_the_coefficients_form() -> None:
    for test_input in _random_inputs(20):
        p = np.poly1d(test_input["coefficients"])

        def f(x: float, p: Any = p) -> float:
            return float(p(x))

        by_callable = monte_carlo_integration(
            f=f,
            a=test_input["a"],
            b=test_input["b"],
            samples=test_input["samples"],
        )
        expected = monte_carlo_integration(**test_input)["estimate"]
        assert abs(by_callable["estimate"] - expected) <= 2e-6


@pytest.mark.parametrize(
    "bad",
    [
        {"coefficients": [1], "a": 2, "b": 1, "samples": [0.5]},
        {"coefficients": [1], "a": 0, "b": 1, "samples": []},
        {"coefficients": [1], "a": 0, "b": 1, "samples": [1.0]},
        {"coefficients": [1], "a": 0, "b": 1, "samples": [-0.1]},
        {"coefficients": [1], "a": 0, "b": 1, "samples": ["0.5"]},
        {"coefficients": [1], "a": 0, "b": 1, "samples": "0.5"},
        {"coefficients": [1], "a": 0, "b": 1},
        {"coefficients": [], "a": 0, "b": 1, "samples": [0.5]},
        {"a": 0, "b": 1, "samples": [0.5]},
    ],
)
def test_bad_inputs_raise_value_error(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        monte_carlo_integration(**bad)


def test_the_oracle_refuses_the_true_integral_and_a_dropped_draw() -> None:
    test_input: dict[str, Any] = {
        "coefficients": [1, -2, 3],
        "a": 1,
        "b": 3,
        "samples": [0.15, 0.62, 0.4],
    }
    right = _numpy_estimate(test_input)
    assert oracle(test_input, {"estimate": round(right, 6)})
    exact, _ = integrate.quad(lambda x: x * x - 2 * x + 3, 1, 3)
    assert not oracle(test_input, {"estimate": exact})
    dropped = {**test_input, "samples": test_input["samples"][:-1]}
    assert not oracle(test_input, {"estimate": _numpy_estimate(dropped)})


def test_a_tie_rounds_away_from_zero_as_the_output_format_says() -> None:
    # The mean of 0.000005 and 0 is 0.0000025: a tie at 6 places, which rounding to even
    # (or the double just below it) sends to 0.000002.
    for sign in (1, -1):
        samples = [0.000005, 0.0]
        exact = sign * sum(Fraction(repr(u)) for u in samples) / len(samples)
        assert (exact * 10**7) % 10 == 5 * sign % 10 and (exact * 10**7).denominator == 1
        away = Fraction(math.floor(abs(exact) * 10**6 + Fraction(1, 2)), 10**6) * sign
        result = monte_carlo_integration(coefficients=[sign, 0], a=0.0, b=1.0, samples=samples)
        assert result == {"estimate": float(away)}
    assert ROUNDING in " ".join(sections("monte_carlo")["output_format"].split())


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("monte_carlo"))
def test_the_reference_agrees_with_numpy_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    case = stress_case("monte_carlo", tier, size, index)
    assert len(case.input["samples"]) == size
    assert oracle(case.input, case.expected), case.id
