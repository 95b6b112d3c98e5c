"""Monte Carlo integration from given draws: the ``monte_carlo`` scaffold."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pydantic import FiniteFloat

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, drawing_nothing, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.generators.optimization import uniform_draw
from verification.reference.numerical import monte_carlo_integration
from verification.validators.numeric_tolerance import NumericToleranceValidator

__all__ = [
    "EDGE_KINDS_MONTE_CARLO",
    "ESTIMATE_TOLERANCE",
    "MAX_DRAWS",
    "SPEC",
    "MonteCarloAnswer",
    "generate_monte_carlo",
    "sample_count",
]


class MonteCarloAnswer(AnswerSchema):
    """``{"estimate": number}``."""

    estimate: FiniteFloat


ESTIMATE_TOLERANCE = 1e-4
"""Two hundred times the rounding the Output Format asks for (6 decimals). The draws are
data, so the estimate is one exact number: this tolerance is for rounding, not for the
sampling error of the method."""


EDGE_KINDS_MONTE_CARLO = ("one_sample", "constant", "zero_width", "draws_at_zero", "negative")
"""The degenerate Monte Carlo instances the edge tier draws from."""

MAX_DRAWS = 80
"""The most draws an input holds: four times the standard maximum (the stress range)."""

_MISTAKE_GAP = 10 * ESTIMATE_TOLERANCE
"""A mutant is at least this far from the right estimate."""


def _polynomial(rng: random.Random, degree: int) -> list[int]:
    lead = rng.choice([c for c in range(-3, 4) if c != 0])
    return [lead, *(rng.randint(-5, 5) for _ in range(degree))]


def _draws(rng: random.Random, count: int) -> list[float]:
    return [uniform_draw(rng) for _ in range(count)]


def _case(coefficients: list[int], a: int, b: int, samples: list[float]) -> dict[str, Any]:
    return {"coefficients": coefficients, "a": a, "b": b, "samples": samples}


def _value(coefficients: Sequence[float], x: float) -> float:
    total = 0.0
    for c in coefficients:
        total = total * x + c
    return total


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(EDGE_KINDS_MONTE_CARLO)
    a = rng.randint(-2, 2)
    b = a + rng.randint(1, 3)
    if kind == "one_sample":
        return _case(_polynomial(rng, rng.randint(1, 2)), a, b, _draws(rng, 1))
    if kind == "constant":
        # Every draw gives the same value: the estimate is c * (b - a) whatever the draws.
        return _case([rng.choice((-4, -2, -1, 1, 3, 5))], a, b, _draws(rng, size))
    if kind == "zero_width":
        return _case(_polynomial(rng, 2), a, a, _draws(rng, size))
    if kind == "draws_at_zero":
        # u = 0 is the point a itself; a repeated draw counts every time.
        samples = _draws(rng, size)
        for index in rng.sample(range(size), max(1, size // 3)):
            samples[index] = 0.0
        samples[rng.randrange(size)] = samples[0]
        return _case(_polynomial(rng, 2), a, b, samples)
    # Negative on the whole interval: -(x - a + 1)**2 - k < 0 for every x.
    k = rng.randint(1, 4)
    return _case([-1, 2 * (a - 1), -((a - 1) ** 2) - k], a, b, _draws(rng, size))


def generate_monte_carlo(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """A Monte Carlo input: ``coefficients`` (integers, highest degree first), integer ends
    ``a <= b`` and ``samples``, ``size`` uniform draws in [0, 1) with two decimals.

    ``simple``: a quadratic on an interval of width 1 or 2. ``standard``: a cubic on an
    interval of width 1 to 4. Both have a positive width and at least two different draws.
    ``edge``: one of :data:`EDGE_KINDS_MONTE_CARLO`: a single draw, a constant function, a
    zero-width interval (``a == b``, estimate 0), draws of 0 (the point ``a``) and a
    repeated draw, or a function negative on the whole interval.
    """
    if not 1 <= size <= MAX_DRAWS:
        raise ValueError(f"monte_carlo takes 1 to {MAX_DRAWS} draws, got {size}")
    if tier == "edge":
        return _edge(rng, size)
    if tier not in ("simple", "standard"):
        raise ValueError(f"unknown tier {tier!r}")
    if size < 2:
        raise ValueError(f"{tier} monte_carlo takes at least 2 draws, got {size}")
    simple = tier == "simple"
    a = rng.randint(-2, 2)
    b = a + (rng.randint(1, 2) if simple else rng.randint(1, 4))
    samples = _draws(rng, size)
    while len(set(samples)) < 2:
        samples = _draws(rng, size)
    return _case(_polynomial(rng, 2 if simple else 3), a, b, samples)


def sample_count(test_input: Mapping[str, Any]) -> int:
    """A Monte Carlo input's size: its number of draws."""
    return len(test_input["samples"])


def _mistakes(test_input: Mapping[str, Any]) -> list[float]:
    """Estimates the usual slips give: no width factor, the sum instead of the mean, a
    draw dropped, the draws used as points, the sign lost."""
    coefficients, samples = test_input["coefficients"], test_input["samples"]
    a, b = test_input["a"], test_input["b"]
    width = b - a
    values = [_value(coefficients, a + width * u) for u in samples]
    n = len(values)
    mean = sum(values) / n
    found = [mean, width * sum(values), -width * mean]
    found.append(width * sum(_value(coefficients, u) for u in samples) / n)
    if n > 1:
        found.append(width * sum(values[1:]) / (n - 1))
        found.append(width * sum(values) / (n - 1))
    return found


@LazyHook
def monte_carlo_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Each slip of :func:`_mistakes` that moves the estimate, and the estimate just
    outside tolerance."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    estimate = case.expected["estimate"]
    yield {"estimate": round(estimate + 3 * ESTIMATE_TOLERANCE * rng.choice((-1, 1)), 6)}
    for value in _mistakes(case.input):
        if abs(value - estimate) > _MISTAKE_GAP:
            yield {"estimate": round(value, 6)}


@drawing_nothing
def monte_carlo_alternatives(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The estimate rounded to 4 decimals, and nudged by a rounding step."""
    estimate = case.expected["estimate"]
    return each_distinct(
        [{"estimate": round(estimate, 4)}, {"estimate": estimate + 1e-6}],
        unlike=[case.expected],
    )


SPEC = ScaffoldSpec(
    name="monte_carlo",
    category="numerical",
    title="Monte Carlo integration",
    graded_conventions={
        "draw to point": "draw u_i gives the point x_i = a + (b \u2212 a) · u_i",
        "every draw": "each exactly once, in the order given",
        "rounding": "only the final estimate is rounded",
    },
    description="the Monte Carlo estimate of a polynomial's integral from given uniform draws",
    reference=monte_carlo_integration,
    generator=generate_monte_carlo,
    answer_schema=MonteCarloAnswer,
    validator=NumericToleranceValidator(tolerance=ESTIMATE_TOLERANCE, field="estimate"),
    sizes={"simple": 4, "standard": 10, "edge": 5},
    size=SizeAxis(
        unit="draws",
        measure=sample_count,
        ranges={"simple": (2, 8), "standard": (4, 20), "edge": (1, 20)},
        stress=(21, MAX_DRAWS),
    ),
    mutants=monte_carlo_mutants,
    alternatives=monte_carlo_alternatives,
    max_output_tokens=4096,
    code_rules={
        "estimate": "`(b - a) * (f(x_1) + ... + f(x_N)) / N` with `x_i = a + (b - a) * u_i` "
        "for each draw `u_i` of `samples`, every one once, in the order given, rounded once "
        "at the end to 6 decimals (`round(..., 6)`)",
    },
    # The work is a row per draw (u, x, f(x) by Horner's rule) and the sum of every value:
    # 625 tokens at 20 draws, 2,425 at 80 (python benchmarks/stress_budgets.py monte_carlo).
    # The flat budget holds the standard maximum; each draw past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=45.0, base=3196),
    code_sizes=(20, 80),
    code_size_limit="the generator draws at most 80 draws (MAX_DRAWS)",
)
