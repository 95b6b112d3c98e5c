"""Newton-Raphson root finding: the ``newton_raphson`` scaffold."""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import FiniteFloat, NonNegativeInt

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, drawing_nothing, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.reference.numerical import (
    DERIVATIVE_FLOOR,
    NewtonStep,
    newton_raphson,
    newton_trace,
)
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import ExactMatchValidator
from verification.validators.numeric_tolerance import NumericToleranceValidator

__all__ = [
    "EDGE_KINDS_NEWTON_RAPHSON",
    "MAX_ABS_ITERATE",
    "MAX_ITERATIONS",
    "MIN_DERIVATIVE",
    "ROOT_TOLERANCE",
    "SPEC",
    "STEP_MARGIN",
    "TOLERANCE",
    "NewtonRaphsonAnswer",
    "generate_newton_raphson",
    "is_unambiguous",
]


class NewtonRaphsonAnswer(AnswerSchema):
    """``{"root": number | null, "iterations": int, "converged": bool}``."""

    root: FiniteFloat | None
    iterations: NonNegativeInt
    converged: bool


ROOT_TOLERANCE = 5e-8
"""Ten times the rounding the Output Format asks for (8 decimals): tight enough that a
root wrong in the 7th decimal fails."""


EDGE_KINDS_NEWTON_RAPHSON = ("zero_derivative", "start_at_root", "no_real_root")
"""The degenerate Newton-Raphson instances the edge tier draws from."""

TOLERANCE = 1e-6
MAX_ITERATIONS = 20
MIN_DERIVATIVE = 0.5
"""Every iterate's ``|f'(x)|`` stays at least this, so no step divides by a near-zero."""
STEP_MARGIN = 100.0
"""No step lies within this factor of the tolerance, so the stopping iteration is clear."""
MAX_ABS_ITERATE = 100.0
"""Iterates stay small enough to work with by hand."""

_MAX_TRIES = 10_000


def is_unambiguous(steps: list[NewtonStep], tolerance: float) -> bool:
    """Whether a run's outcome survives hand arithmetic: every derivative at least
    :data:`MIN_DERIVATIVE`, every iterate within :data:`MAX_ABS_ITERATE`, and no step
    within a factor :data:`STEP_MARGIN` of ``tolerance`` on either side."""
    for step in steps:
        if step.x_new is None or abs(step.dfx) < MIN_DERIVATIVE:
            return False
        if max(abs(step.x), abs(step.x_new)) > MAX_ABS_ITERATE:
            return False
        if tolerance / STEP_MARGIN <= abs(step.x_new - step.x) <= tolerance * STEP_MARGIN:
            return False
    return True


@functools.cache
def _nonzero_values(bound: int) -> tuple[int, ...]:
    return tuple(v for v in range(-bound, bound + 1) if v != 0)


def _nonzero(rng: random.Random, bound: int) -> int:
    # rng.choice draws alike from the kept tuple: made once per bound, not per draw.
    return rng.choice(_nonzero_values(bound))


def _case(coefficients: list[int], x0: float, max_iterations: int) -> dict[str, Any]:
    return {
        "coefficients": coefficients,
        "x0": x0,
        "tolerance": TOLERANCE,
        "max_iterations": max_iterations,
    }


def _kept(coefficients: list[int], x0: float) -> bool:
    """Whether a candidate's run stops, converged, within 3 to 8 unambiguous steps (the
    decision nine steps of :func:`newton_trace` and :func:`is_unambiguous` give, held equal
    by tests/catalog/test_newton_kept.py): the run's arithmetic step for step (Horner's
    rule on the coefficients and the derivative's as floats, ``x - f(x) / f'(x)``) without
    the trace's input checks, functions and steps, stopping at the first step that rules
    the run out (a generator draws some twenty candidates a case). ``x0`` is a float."""
    values = [float(c) for c in coefficients]
    degree = len(values) - 1
    derivative = [c * (degree - i) for i, c in enumerate(values[:-1])]
    low, high = TOLERANCE / STEP_MARGIN, TOLERANCE * STEP_MARGIN
    x = x0
    for k in range(1, min(9, MAX_ITERATIONS) + 1):
        fx = dfx = 0.0
        for c in values:
            fx = fx * x + c
        for c in derivative:
            dfx = dfx * x + c
        # No step (the trace's x_new None) or a small derivative: is_unambiguous fails.
        if not abs(dfx) >= DERIVATIVE_FLOOR or abs(dfx) < MIN_DERIVATIVE:
            return False
        x_new = x - fx / dfx
        step = abs(x_new - x)
        if max(abs(x), abs(x_new)) > MAX_ABS_ITERATE or low <= step <= high:
            return False
        if not math.isfinite(x_new) or step < TOLERANCE:  # the trace's last step
            return 3 <= k <= 8 and step < TOLERANCE
        x = x_new
    return False  # nine steps: a run of more than eight


def _converging(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """Integer coefficients and a start that converge in 3 to 8 unambiguous iterations."""
    for _ in range(_MAX_TRIES):
        if tier == "simple":
            coefficients = [1, rng.randint(-size, size), rng.randint(-size, size)]
            x0 = float(rng.randint(-5, 5))
        else:
            degree = rng.choice((2, 3, 3))
            coefficients = [_nonzero(rng, 3)]
            coefficients += [rng.randint(-size, size) for _ in range(degree)]
            x0 = rng.randint(-50, 50) / 10
        if max(abs(c) for c in coefficients) != size:
            continue  # the size is the largest coefficient, met exactly
        if _kept(coefficients, x0):
            return _case(coefficients, x0, MAX_ITERATIONS)
    raise RuntimeError(f"could not draw a {tier} Newton-Raphson instance")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(EDGE_KINDS_NEWTON_RAPHSON)
    for _ in range(_MAX_TRIES):
        candidate = _edge_candidate(rng, kind, size)
        # The size bounds every coefficient (an edge case may be smaller, never larger).
        if candidate is not None and largest_coefficient(candidate) <= size:
            return candidate
    raise RuntimeError(f"could not draw a {kind} Newton-Raphson instance")


def _edge_candidate(rng: random.Random, kind: str, size: int) -> dict[str, Any] | None:
    a = _nonzero(rng, 3)
    h = rng.randint(-3, 3)
    if kind == "zero_derivative":
        # f'(h) = 0 exactly: a quadratic with its vertex at h, or a cubic whose linear
        # coefficient cancels the rest of f'(h).
        if rng.random() < 0.5:
            c = _nonzero(rng, size)
            coefficients = [a, -2 * a * h, a * h * h + c]
        else:
            b = rng.randint(-size, size)
            coefficients = [a, b, -(3 * a * h * h + 2 * b * h), rng.randint(-size, size)]
        if _value(coefficients, h) != 0:
            return _case(coefficients, float(h), MAX_ITERATIONS)
    elif kind == "start_at_root":
        # (x - h) times a factor that is non-zero at h, so f'(h) != 0.
        factor = [a] + [rng.randint(-size, size) for _ in range(rng.randint(1, 2))]
        if _value(factor, h) != 0:
            return _case(_times_linear(factor, h), float(h), MAX_ITERATIONS)
    else:
        b, c = rng.randint(-size, size), rng.randint(1, size)
        a = abs(a)
        candidate = _case([a, b, c], rng.randint(-30, 30) / 10, rng.randint(4, 6))
        if b * b - 4 * a * c < 0 and is_unambiguous(newton_trace(**candidate), TOLERANCE):
            return candidate
    return None


def _value(coefficients: list[int], x: int) -> int:
    total = 0
    for c in coefficients:
        total = total * x + c
    return total


def _times_linear(coefficients: list[int], root: int) -> list[int]:
    """The coefficients of ``(x - root) * p(x)``."""
    shifted = [*coefficients, 0]
    scaled = [0, *(-root * c for c in coefficients)]
    return [s + t for s, t in zip(shifted, scaled, strict=True)]


def generate_newton_raphson(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """A Newton-Raphson input: ``coefficients`` (integers, highest degree first), ``x0``,
    ``tolerance`` (1e-6) and ``max_iterations``.

    ``simple``: a monic quadratic and an integer start. ``standard``: a quadratic or (more
    often) a cubic with leading coefficient up to 3 in magnitude and a start with one
    decimal. Both converge in 3 to 8 iterations that :func:`is_unambiguous` accepts, and
    the largest coefficient is exactly ``size`` in magnitude. ``edge``: one of
    :data:`EDGE_KINDS_NEWTON_RAPHSON` (a zero derivative at ``x0``, ``x0`` already a root,
    or no real root with ``max_iterations`` 4 to 6), no coefficient larger than ``size``
    in magnitude.
    """
    if size < 2:
        raise ValueError(f"newton_raphson needs a coefficient bound of at least 2, got {size}")
    if tier in ("simple", "standard"):
        return _converging(rng, tier, size)
    if tier == "edge":
        return _edge(rng, size)
    raise ValueError(f"unknown tier {tier!r}")


def largest_coefficient(test_input: Mapping[str, Any]) -> int:
    """A polynomial input's size: its largest coefficient in magnitude."""
    return max(abs(int(c)) for c in test_input["coefficients"])


@LazyHook
def newton_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The iteration count one off, the root just outside tolerance, convergence denied or
    claimed wrongly."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    root, iterations, converged = (case.expected[k] for k in ("root", "iterations", "converged"))
    yield {**case.expected, "iterations": iterations + 1}
    yield {**case.expected, "converged": not converged}
    if iterations > 0:
        yield {**case.expected, "iterations": iterations - 1}
    if root is None:
        yield {**case.expected, "root": float(case.input["x0"])}
    else:
        off = 3 * ROOT_TOLERANCE * max(1.0, abs(root)) * rng.choice((-1, 1))
        yield {**case.expected, "root": root + off}


@drawing_nothing
def newton_alternatives(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The root rounded to the 8 decimals the Output Format asks for."""
    root = case.expected["root"]
    if root is None:
        return iter(())
    return each_distinct([{**case.expected, "root": round(root, 8)}], unlike=[case.expected])


SPEC = ScaffoldSpec(
    name="newton_raphson",
    category="numerical",
    title="Newton-Raphson root finding",
    description="a root of a polynomial by Newton's method, with the iteration count",
    graded_conventions={
        "zero derivative": "it stops, not converged, with iterations = k \u2212 1",
        "stopping rule": "if |step| < tolerance it stops, converged, with root x_new",
        "iteration counting": "the iteration whose step was below the tolerance counts",
        "start": "start at x = x0 (not an iteration)",
        "out of iterations": "not converged, root null, iterations = max_iterations",
    },
    reference=newton_raphson,
    generator=generate_newton_raphson,
    answer_schema=NewtonRaphsonAnswer,
    # Iterations are compared exactly: the generator keeps every step a factor of 100
    # away from the tolerance, so hand arithmetic stops at the same iteration.
    validator=CompositeValidator(
        [
            ExactMatchValidator(field="converged"),
            ExactMatchValidator(field="iterations"),
            # "within 0.00000005 of the exact x_new, rounded as asked": the reference
            # keeps every digit of x_new, the answer has 8 decimals.
            NumericToleranceValidator(tolerance=ROOT_TOLERANCE, field="root"),
        ]
    ),
    sizes={"simple": 6, "standard": 9, "edge": 4},
    size=SizeAxis(
        unit="largest coefficient",
        measure=largest_coefficient,
        ranges={"simple": (3, 12), "standard": (3, 12), "edge": (3, 12)},
        stress=(13, 48),
    ),
    mutants=newton_mutants,
    alternatives=newton_alternatives,
    max_output_tokens=6144,
    code_rules={
        "iterations": "`x = x0` (no iteration); for k = 1 .. `max_iterations`: when "
        "`abs(f'(x)) < 1e-12` stop with k - 1; `x_new = x - f(x) / f'(x)`; when `x_new` is "
        "not finite or `abs(x_new - x) < tolerance` stop with k; `x = x_new`. Out of "
        "iterations: `max_iterations`",
        "root": "`x_new` of the step that stopped the run below the tolerance (8 decimals "
        "are enough); `None` when it stops on a zero derivative, a non-finite step or out "
        "of iterations",
        "converged": "`True` only when the run stops on a step below the tolerance",
    },
    # The stress range makes the arithmetic harder, not longer: the iterations stay 3 to 8,
    # and the work (the derivative, Horner's rule at each iterate, a row per iteration) is
    # 445 tokens at 12 and 390 to 520 at 13 to 48 (benchmarks/stress_budgets.py). The rule
    # of every stress budget (the flat one, plus 1.5x the work past the standard maximum's)
    # is met with room: 10 tokens a coefficient unit past 12.
    output_budget=OutputBudget(per_unit=10, base=6024),
    code_sizes=(24, 100, 300),
    code_size_limit=(
        "the size is the largest coefficient, not work (every run is one short polynomial); "
        "at 1,000 the generator finds no clear-stopping start for some cases (4 of 30)"
    ),
)
