"""Fixed-step gradient descent on a polynomial or a quadratic form: the
``gradient_descent`` scaffold."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from pydantic import FiniteFloat, NonNegativeInt

from verification.cases import TestCase, Tier
from verification.catalog.calibration import distinct_answers, drawing_first, each_distinct
from verification.catalog.spec import AnswerSchema, ScaffoldSpec, SizeAxis
from verification.reference.optimization import (
    DescentStep,
    descent_lengths,
    descent_points_and_lengths,
    descent_trace,
    gradient_descent,
)
from verification.reference.optimization.exact import (
    ends_convex,
    ends_convex_from_points,
    exact_minimum,
)
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import ExactMatchValidator
from verification.validators.numeric_tolerance import NumericToleranceValidator

__all__ = [
    "EDGE_KINDS_GRADIENT_DESCENT",
    "MAX_ABS_ITERATE",
    "MINIMUM_TOLERANCE",
    "SPEC",
    "STEP_MARGIN",
    "GradientDescentAnswer",
    "count_iterations",
    "ends_at_minimum",
    "ends_at_minimum_in_floats",
    "exact_minimum",
    "generate_gradient_descent",
    "is_unambiguous",
]


class GradientDescentAnswer(AnswerSchema):
    """``{"minimum": number | [number, ...] | null, "iterations": int, "converged": bool}``."""

    minimum: FiniteFloat | list[FiniteFloat] | None
    """A number for a polynomial, one number per variable for a quadratic form."""
    iterations: NonNegativeInt
    converged: bool


MINIMUM_TOLERANCE = 1e-5
"""Absolute, per coordinate, around the exact last iterate (:func:`exact_minimum`): ten
times the rounding the Output Format asks for (6 decimals). Iterates stay within
:data:`MAX_ABS_ITERATE`, so it is at least 1e-7 relative."""


STEP_MARGIN = 2.0
"""No step lies within this factor of the tolerance, so the stopping iteration is clear.
Descent converges linearly (each step a fixed fraction of the last), so the margin of
Newton's quadratic convergence (100) is out of reach; 2 is far beyond hand rounding."""

MAX_ABS_ITERATE = 100.0
"""Every coordinate of every iterate stays within this, for hand work."""

EDGE_KINDS_GRADIENT_DESCENT = (
    "stationary_start",
    "constant",
    "linear",
    "diverging",
    "budget_exhausted",
)
"""The degenerate instances the edge tier draws from."""

_RATES = (0.05, 0.1, 0.125, 0.15, 0.2, 0.225, 0.25, 0.3, 0.35, 0.375, 0.4, 0.45)
_SMALL_RATES = (0.01, 0.02, 0.025, 0.05, 0.1)
_TOLERANCES = (1e-2, 1e-3, 1e-4, 1e-5, 1e-6)
_MAX_ITERATIONS = 50
_MAX_TRIES = 20_000


def is_unambiguous(steps: Sequence[DescentStep], tolerance: float) -> bool:
    """Whether a run survives hand arithmetic: no step length within a factor
    :data:`STEP_MARGIN` of ``tolerance`` and no iterate beyond :data:`MAX_ABS_ITERATE`."""
    for step in steps:
        if max(abs(v) for v in (*step.x, *step.x_new)) > MAX_ABS_ITERATE:
            return False
        if tolerance / STEP_MARGIN <= step.step_norm < tolerance * STEP_MARGIN:
            return False
    return True


def _case(
    function: Mapping[str, Any], x0: Any, rate: float, tol: float, limit: int
) -> dict[str, Any]:
    return {
        **function,
        "x0": x0,
        "learning_rate": rate,
        "tolerance": tol,
        "max_iterations": limit,
    }


def _with_tolerance(
    rng: random.Random, candidate: dict[str, Any], size: int
) -> dict[str, Any] | None:
    """``candidate`` with a tolerance from :data:`_TOLERANCES` that makes it converge in
    exactly ``size`` clear iterations, if one does: one long run serves every tolerance.
    Decided from the run's step lengths and reach (:func:`descent_lengths`), as
    :func:`is_unambiguous` reads each step, without the steps themselves."""
    lengths, reach = descent_lengths(**{**candidate, "tolerance": 1e-12, "max_iterations": size})
    return _picked_tolerance(rng, candidate, lengths, reach, size)


def _picked_tolerance(
    rng: random.Random,
    candidate: dict[str, Any],
    lengths: Sequence[float],
    reach: Iterable[float],
    size: int,
) -> dict[str, Any] | None:
    """:func:`_with_tolerance` from the run's first ``size`` step lengths and reaches."""
    if len(lengths) < size:
        return None
    order = rng.sample(_TOLERANCES, len(_TOLERANCES))
    if any(far > MAX_ABS_ITERATE for far in reach):  # unclear at every tolerance
        return None
    last, earlier = lengths[-1], lengths[:-1]
    for tol in order:
        if last < tol and all(length >= tol for length in earlier):
            low, high = tol / STEP_MARGIN, tol * STEP_MARGIN
            if not any(low <= length < high for length in lengths):
                return {**candidate, "tolerance": tol}
    return None


def _simple(rng: random.Random, size: int) -> dict[str, Any]:
    """A quadratic ``a x^2 + b x + c`` with a contraction ratio between 0.05 and 0.5."""
    for _ in range(_MAX_TRIES):
        a, b, c = rng.randint(1, 3), rng.randint(-12, 12), rng.randint(-5, 5)
        rate = rng.choice(_RATES)
        if not 0.05 <= abs(1 - 2 * a * rate) <= 0.4:
            continue
        candidate = _case(
            {"coefficients": [a, b, c]}, float(rng.randint(-6, 6)), rate, 0.0, _MAX_ITERATIONS
        )
        chosen = _with_tolerance(rng, candidate, size)
        if chosen is not None:
            return chosen
    raise RuntimeError(f"could not draw a simple gradient_descent instance of {size} iterations")


def _eigenvalues(p: int, q: int, s: int) -> tuple[float, float]:
    middle, half_gap = (p + s) / 2, math.hypot((p - s) / 2, q)
    return middle - half_gap, middle + half_gap


def _standard_polynomial(rng: random.Random) -> dict[str, Any] | None:
    """A cubic or quartic candidate that ends at a genuine local minimum."""
    run = _polynomial_run(rng)
    return None if run is None else run[0]


def _polynomial_run(
    rng: random.Random,
) -> tuple[dict[str, Any], list[float], list[float]] | None:
    """:func:`_standard_polynomial`'s candidate with its run's points and step lengths
    (``tolerance`` 1e-12, at most :data:`_MAX_ITERATIONS` iterations), or ``None``."""
    if rng.random() < 0.5:
        coefficients = [rng.randint(1, 2), rng.randint(-4, 4)]
        coefficients += [rng.randint(-6, 6), rng.randint(-6, 6), rng.randint(-5, 5)]
    else:
        coefficients = [rng.choice((-1, 1)), rng.randint(-4, 4), rng.randint(-6, 6)]
        coefficients.append(rng.randint(-5, 5))
    x0, rate = rng.randint(-30, 30) / 10, rng.choice(_SMALL_RATES)
    candidate = _case({"coefficients": coefficients}, x0, rate, 1e-12, _MAX_ITERATIONS)
    # A genuine local minimum: the second derivative is positive where the run ends. The
    # float run decides when it provably agrees with the exact replay (most candidates);
    # the rng is not used past this point, so the same candidates are kept either way.
    # Its points decide (steps for the few kept are drawn again by _with_tolerance).
    points, lengths = descent_points_and_lengths(
        coefficients, x0=x0, learning_rate=rate, tolerance=1e-12
    )
    decided = ends_convex_from_points(candidate, points, bound=MAX_ABS_ITERATE)
    if decided is None:
        decided = ends_at_minimum(coefficients, gradient_descent(**candidate)["minimum"])
    return (candidate, points, lengths) if decided else None


def ends_at_minimum(coefficients: Sequence[int], x: float | None) -> bool:
    """Whether a standard polynomial's run, ending at ``x`` (the reported minimum), ends
    within :data:`MAX_ABS_ITERATE` where the second derivative is above 0.5."""
    return ends_convex(coefficients, x, bound=MAX_ABS_ITERATE)


def ends_at_minimum_in_floats(
    candidate: Mapping[str, Any], steps: Sequence[DescentStep]
) -> bool | None:
    """:func:`ends_at_minimum` of the exact (decimal) replay's minimum, decided from the
    float run (``steps``), or ``None`` when too close to call (:func:`ends_convex_from_points`
    says how)."""
    points = [s.x[0] for s in steps] + [steps[-1].x_new[0]]
    return ends_convex_from_points(candidate, points, bound=MAX_ABS_ITERATE)


def _standard_quadratic(rng: random.Random) -> dict[str, Any] | None:
    # Nearly equal diagonal entries and a small coupling keep the eigenvalues close, so a
    # nice rate contracts by at most 0.3 per step: a slower descent could not step over
    # the window of a factor STEP_MARGIN either side of the tolerance.
    p = rng.randint(2, 8)
    s, q = p + rng.randint(-1, 1), rng.randint(-1, 1)
    low, high = _eigenvalues(p, q, s)
    rate = rng.choice((0.1, 0.125, 0.15, 0.2, 0.25, 0.3, 0.4))
    if low <= 0 or max(abs(1 - rate * low), abs(1 - rate * high)) > 0.3:
        return None
    return _case(
        {"matrix": [[p, q], [q, s]], "vector": [rng.randint(-8, 8), rng.randint(-8, 8)]},
        [rng.randint(-4, 4), rng.randint(-4, 4)],
        rate,
        1e-12,
        _MAX_ITERATIONS,
    )


def _standard(rng: random.Random, size: int) -> dict[str, Any]:
    two_d = rng.random() < 0.5
    for _ in range(_MAX_TRIES):
        if two_d:
            candidate = _standard_quadratic(rng)
            chosen = None if candidate is None else _with_tolerance(rng, candidate, size)
        else:
            # The polynomial's run (50 iterations at most, size 11 at most) holds the
            # first size steps descent_lengths would run again: their lengths, and each
            # reach from the points either side.
            run = _polynomial_run(rng)
            if run is None:
                continue
            candidate, points, lengths = run
            reach = map(max, map(abs, points[:size]), map(abs, points[1 : size + 1]))
            chosen = _picked_tolerance(rng, candidate, lengths[:size], reach, size)
        if chosen is not None:
            return chosen
    raise RuntimeError(f"could not draw a standard gradient_descent instance of {size} iterations")


def _stationary(rng: random.Random) -> dict[str, Any]:
    """``x0`` is a critical point: a minimum, a maximum, a flat inflection or a saddle."""
    a, h, c = rng.randint(1, 3), rng.randint(-4, 4), rng.randint(-5, 5)
    shape = rng.choice(("minimum", "maximum", "inflection", "saddle", "bowl"))
    rate, tol = rng.choice(_RATES), 1e-4
    if shape == "minimum":
        return _case({"coefficients": [a, -2 * a * h, a * h * h + c]}, float(h), rate, tol, 50)
    if shape == "maximum":
        return _case({"coefficients": [-a, 2 * a * h, -a * h * h + c]}, float(h), rate, tol, 50)
    if shape == "inflection":  # (x - h)^3 + c
        coefficients = [1, -3 * h, 3 * h * h, -(h**3) + c]
        return _case({"coefficients": coefficients}, float(h), rate, tol, 50)
    p, s, q = rng.randint(1, 5), rng.randint(1, 5), rng.randint(-2, 2)
    matrix = [[p, q], [q, -s if shape == "saddle" else s + 2]]
    point = [rng.randint(-3, 3), rng.randint(-3, 3)]
    vector = [-(row[0] * point[0] + row[1] * point[1]) for row in matrix]
    return _case({"matrix": matrix, "vector": vector}, point, rate, tol, 50)


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kind = rng.choice(EDGE_KINDS_GRADIENT_DESCENT)
    limit = max(1, size)
    if kind == "stationary_start":
        return _stationary(rng)
    if kind == "constant":
        return _case(
            {"coefficients": [rng.randint(-9, 9)]}, float(rng.randint(-5, 5)), 0.1, 1e-4, 20
        )
    for _ in range(_MAX_TRIES):
        x0 = float(rng.randint(-5, 5))
        if kind == "linear":
            slope = rng.choice([m for m in range(-5, 6) if m != 0])
            function: dict[str, Any] = {"coefficients": [slope, rng.randint(-5, 5)]}
            rate = rng.choice(_RATES)
        else:
            a, b = rng.randint(1, 3), rng.randint(-8, 8)
            function = {"coefficients": [a, b, rng.randint(-5, 5)]}
            rate = rng.choice((0.5, 0.6, 0.75, 0.8, 1.0)) if kind == "diverging" else 0.1
            ratio = 1 - 2 * a * rate
            wanted = (-2.0 <= ratio <= -1.2) if kind == "diverging" else (0.3 <= ratio <= 0.8)
            if not wanted or x0 * 2 * a == -b:
                continue
        tol = rng.choice((1e-4, 1e-5))
        candidate = _case(function, x0, rate, tol, limit)
        steps = descent_trace(**candidate)
        # Every step of these runs stays above the tolerance: none of them converges.
        if steps[-1].step_norm >= tol * STEP_MARGIN and is_unambiguous(steps, tol):
            return candidate
    raise RuntimeError(f"could not draw a {kind} gradient_descent instance")


def generate_gradient_descent(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """A gradient-descent input: a function as data (``coefficients``, or ``matrix`` and
    ``vector`` of ``f(x) = 1/2 x^T A x + b^T x``), ``x0``, ``learning_rate``,
    ``tolerance`` and ``max_iterations`` (50).

    ``simple``: a quadratic ``a x^2 + b x + c`` (``a`` 1 to 3) from an integer start, a
    learning rate whose contraction ratio ``|1 - 2 a rate|`` is 0.05 to 0.5. ``standard``:
    half the time a cubic or quartic polynomial ending at a genuine local minimum, half the
    time a 2-D positive definite quadratic form (integer entries) with contraction ratio at
    most 0.5. Both converge in exactly ``size`` iterations that :func:`is_unambiguous`
    accepts (no step within a factor 2 of the tolerance). ``edge``: one of
    :data:`EDGE_KINDS_GRADIENT_DESCENT`: a start at a stationary point (a minimum, a
    maximum, a flat inflection, a 2-D saddle or bowl; converges at iteration 1), a constant
    polynomial, a linear one (never converges), a learning rate so large the iterates grow,
    or a budget too small to converge; the last three run ``size`` iterations.
    """
    if size < 1:
        raise ValueError(f"gradient_descent needs at least 1 iteration, got size {size}")
    if tier == "simple":
        return _simple(rng, size)
    if tier == "standard":
        return _standard(rng, size)
    if tier == "edge":
        return _edge(rng, size)
    raise ValueError(f"unknown tier {tier!r}")


def count_iterations(test_input: Mapping[str, Any]) -> int:
    """An input's size: the number of iterations the descent takes."""
    iterations: int = gradient_descent(**test_input)["iterations"]
    return iterations


def _shifted(point: Any, by: float) -> Any:
    if isinstance(point, list):
        return [round(v + by, 6) for v in point]
    return round(point + by, 6)


@drawing_first
def gradient_descent_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The iteration count one off, convergence flipped, the point just outside tolerance,
    the point one iteration early, swapped coordinates, the start reported, and the wrong
    shape (a number for a list or a list for a number)."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # The one draw first (the alternatives draw after it), then the answers one at a time:
    # a run's calibration judges the first few and makes no more (not the replayed run).
    expected = case.expected
    minimum, iterations = expected["minimum"], expected["iterations"]
    side = rng.choice((-1, 1)) if minimum is not None else 0
    yield {**expected, "iterations": iterations + 1}
    yield {**expected, "converged": not expected["converged"]}
    if iterations > 0:
        yield {**expected, "iterations": iterations - 1}
    if minimum is None:
        return
    yield {**expected, "minimum": _shifted(minimum, 3 * MINIMUM_TOLERANCE * side)}
    last = descent_trace(**case.input)[-1]
    before = [round(v, 6) for v in last.x]
    if last.step_norm > 3 * MINIMUM_TOLERANCE * math.sqrt(len(before)):
        far = max(abs(b - m) for b, m in zip(before, _as_list(minimum), strict=True))
        if far > 2 * MINIMUM_TOLERANCE:
            yield {**expected, "minimum": before if isinstance(minimum, list) else before[0]}
    if isinstance(minimum, list):
        yield {**expected, "minimum": minimum[0]}
        if abs(minimum[0] - minimum[1]) > 2 * MINIMUM_TOLERANCE:
            yield {**expected, "minimum": minimum[::-1]}
    else:
        yield {**expected, "minimum": [minimum]}
    start = case.input["x0"]
    start_point = [float(v) for v in start] if isinstance(start, list) else float(start)
    if max(abs(a - b) for a, b in zip(_as_list(start_point), _as_list(minimum), strict=True)) > (
        2 * MINIMUM_TOLERANCE
    ):
        yield {**expected, "minimum": start_point}


def _as_list(point: Any) -> list[float]:
    return list(point) if isinstance(point, list) else [point]


def gradient_descent_alternatives(case: TestCase, rng: random.Random) -> Sequence[dict[str, Any]]:
    """The last iterate unrounded, and nudged by less than the tolerance."""
    minimum = case.expected["minimum"]
    if minimum is None:
        return ()
    exact = list(descent_trace(**case.input)[-1].x_new)
    full = exact if isinstance(minimum, list) else exact[0]
    nudge = 0.4 * MINIMUM_TOLERANCE * rng.choice((-1, 1))
    nudged = [v + nudge for v in exact]
    return distinct_answers(
        [
            {**case.expected, "minimum": full},
            {**case.expected, "minimum": nudged if isinstance(minimum, list) else nudged[0]},
        ],
        unlike=[case.expected],
    )


SPEC = ScaffoldSpec(
    name="gradient_descent",
    category="optimization",
    title="Gradient descent",
    description="fixed-step descent on a polynomial or 2-D quadratic form, with iteration count",
    graded_conventions={
        "the step": "the step s = learning_rate · g and x_new = x \u2212 s",
        "stopping rule": "it stops, converged, with minimum = x_new and iterations = k",
        "iteration counting": "the iteration whose step was below the tolerance counts",
        "out of iterations": "minimum is the last x_new",
    },
    reference=gradient_descent,
    generator=generate_gradient_descent,
    answer_schema=GradientDescentAnswer,
    # Iterations are compared exactly: the generator keeps every step a factor of 2 away
    # from the tolerance, so hand arithmetic stops at the same iteration.
    validator=CompositeValidator(
        [
            ExactMatchValidator(field="converged"),
            ExactMatchValidator(field="iterations"),
            NumericToleranceValidator(
                tolerance=MINIMUM_TOLERANCE, field="minimum", truth=exact_minimum
            ),
        ]
    ),
    sizes={"simple": 5, "standard": 7, "edge": 4},
    size=SizeAxis(
        unit="iterations",
        measure=count_iterations,
        ranges={"simple": (3, 8), "standard": (4, 10), "edge": (1, 8)},
        # Its one stress size keeps to the flat budget: a row per iteration is 405 tokens at
        # 11, 454 at 10 (benchmarks/stress_budgets.py gradient_descent).
        stress=(11, 11),
        stress_limit="a run's stopping iteration is clear only when no step lies within a factor "
        "2 of the tolerance, so each step must shrink about 4x: from iterates of hand size to "
        "the smallest tolerance (1e-6) that is 11 iterations at most (none drawn at 12)",
    ),
    mutants=gradient_descent_mutants,
    alternatives=gradient_descent_alternatives,
    max_output_tokens=6144,
    code_rules={
        "iterations": "`x = x0`; for k = 1 .. `max_iterations`: `g = gradient(x)`, "
        "`step = learning_rate * g`, `x_new = x - step`; when the length of `step` (its "
        "absolute value, or the Euclidean norm of a point) is below `tolerance` stop with k; "
        "`x = x_new`. Without stopping so, or when an iterate overflows: `max_iterations`",
        "minimum": "`x_new` of the iteration that stopped, else the last point after "
        "`max_iterations`, rounded to 6 decimals and shaped like `x0` (a number or a list); "
        "`None` when an iterate overflows",
        "converged": "`True` only when the run stops on a step below the tolerance",
    },
    code_size_limit=(
        "the size is the iteration count: the generator finds no start, step and "
        "tolerance that stop after 20 clear iterations (no step within "
        "a factor 2 of the tolerance)"
    ),
)
