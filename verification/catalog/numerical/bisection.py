"""Bisection root finding: the ``bisection`` scaffold."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pydantic import FiniteFloat, NonNegativeInt

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, drawing_nothing, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.reference.numerical import BisectionStep, bisection, bisection_trace
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import ExactMatchValidator
from verification.validators.numeric_tolerance import NumericToleranceValidator

__all__ = [
    "EDGE_KINDS_BISECTION",
    "ROOT_TOLERANCE",
    "SIGN_MARGIN",
    "SPEC",
    "STANDARD_MAX",
    "STOP_MARGIN",
    "BisectionAnswer",
    "generate_bisection",
    "implied_iterations",
    "is_unambiguous",
    "measure_iterations",
]


class BisectionAnswer(AnswerSchema):
    """``{"root": number | null, "iterations": int, "bracketed": bool}``."""

    root: FiniteFloat | None
    iterations: NonNegativeInt
    bracketed: bool


ROOT_TOLERANCE = 1e-6
"""Twenty times the rounding the Output Format asks for (8 decimals), and far below the
gap between the midpoints two different traces end on (at least the tolerance, 1e-4 or
more): a root from a wrong branch fails."""


SIGN_MARGIN = 5e-5
"""Every midpoint's ``|f(m)|`` is at least this, so hand arithmetic correct to 5 decimal
places reads its sign right (the scaffold says so)."""

STOP_MARGIN = 1.2
"""The final half-width is at least this factor below the tolerance and the one before at
least this factor above it, so the stopping iteration is clear."""

EDGE_KINDS_BISECTION = (
    "root_at_a",
    "root_at_b",
    "no_sign_change",
    "midpoint_root",
    "several_roots",
)
"""The degenerate bisection instances the edge tier draws from."""

_TOLERANCES = (0.3, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001)
_STRESS_TOLERANCES = (5e-5, 2e-5, 1e-5)
"""Smaller tolerances, for the stress size only (the declared sizes draw as before)."""
STANDARD_MAX = 16
"""The most iterations of a standard case."""
_WIDTHS = (1, 2, 3, 4, 5, 6)
_MAX_TRIES = 20_000


def implied_iterations(a: float, b: float, tolerance: float) -> int:
    """The iterations the stopping rule takes without an exact zero: the smallest k >= 1
    with ``(b - a) / 2**k < tolerance``. The size axis of ``bisection``."""
    k = 1
    while (b - a) / 2**k >= tolerance:
        k += 1
    return k


def _brackets(size: int) -> list[tuple[int, float]]:
    """The (width, tolerance) pairs that take ``size`` iterations with a clear stop."""
    tolerances = _TOLERANCES if size <= STANDARD_MAX else _TOLERANCES + _STRESS_TOLERANCES
    return [
        (w, t)
        for w in _WIDTHS
        for t in tolerances
        if STOP_MARGIN <= t * 2**size / w <= 2 / STOP_MARGIN
    ]


def is_unambiguous(steps: Sequence[BisectionStep], *, exact_zero_last: bool = False) -> bool:
    """Whether every midpoint's sign is clear (``|f(m)|`` at least :data:`SIGN_MARGIN`);
    with ``exact_zero_last`` the last midpoint must instead be an exact root."""
    checked = steps[:-1] if exact_zero_last else steps
    if exact_zero_last and (not steps or steps[-1].f_midpoint != 0):
        return False
    return all(abs(step.f_midpoint) >= SIGN_MARGIN for step in checked)


def _value(coefficients: Sequence[int], x: int) -> int:
    total = 0
    for c in coefficients:
        total = total * x + c
    return total


def _times_linear(coefficients: Sequence[int], scale: int, root_numerator: int) -> list[int]:
    """The coefficients of ``(scale * x - root_numerator) * p(x)``."""
    shifted = [*(scale * c for c in coefficients), 0]
    lowered = [0, *(-root_numerator * c for c in coefficients)]
    return [s + t for s, t in zip(shifted, lowered, strict=True)]


def _roots_inside(coefficients: Sequence[int], a: int, b: int) -> int:
    """How many of numpy's roots of the polynomial are real and inside ``(a, b)``; counted
    exactly, without numpy, where numpy cannot differ: integer coefficients whose roots
    are simple and a whole number's reciprocal or more away from the integer ends (not
    zero there) and from each other, so numpy's come out real (to ``1e-9``) as they are."""
    exact = _exact_roots_inside(coefficients, a, b)
    if exact is not None:
        return exact
    import numpy as np

    roots = np.roots(np.asarray(coefficients, dtype=float))
    return sum(1 for r in roots if abs(r.imag) < 1e-9 and a < r.real < b)


def _exact_roots_inside(coefficients: Sequence[int], a: int, b: int) -> int | None:
    """A quadratic, or a cubic with one real root; ``None`` for any other polynomial, a
    repeated root or a root at an end."""
    at_a, at_b = _value(coefficients, a), _value(coefficients, b)
    if at_a == 0 or at_b == 0 or not all(type(c) is int for c in coefficients):
        return None
    if len(coefficients) == 3 and coefficients[0] != 0:
        lead, middle, last = coefficients
        discriminant = middle * middle - 4 * lead * last
        if discriminant <= 0:
            return 0 if discriminant < 0 else None
        if at_a * at_b < 0:
            return 1
        # Both roots inside: the vertex inside, and the ends on the sign of the leading term.
        vertex = Fraction(-middle, 2 * lead)
        return 2 if a < vertex < b and (at_a > 0) == (lead > 0) else 0
    if len(coefficients) == 4 and coefficients[0] != 0:
        p, q, r, t = coefficients
        discriminant = 18 * p * q * r * t - 4 * q**3 * t + q * q * r * r
        discriminant -= 4 * p * r**3 + 27 * p * p * t * t
        if discriminant < 0:  # one real root and a complex pair
            return 1 if at_a * at_b < 0 else 0
    return None


def _case(coefficients: list[int], a: int, width: int, tolerance: float) -> dict[str, Any]:
    return {"coefficients": coefficients, "a": a, "b": a + width, "tolerance": tolerance}


def _random_polynomial(rng: random.Random, tier: Tier) -> list[int]:
    if tier == "simple":
        return [1, rng.randint(-6, 6), rng.randint(-9, 9)]
    lead = rng.choice((-2, -1, 1, 1, 2))
    return [lead, rng.randint(-6, 6), rng.randint(-9, 9), rng.randint(-9, 9)]


def _one_root(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """One simple root inside ``[a, b]``, a sign change at the ends, clear signs."""
    brackets = _brackets(size)
    for _ in range(_MAX_TRIES):
        width, tolerance = rng.choice(brackets)
        coefficients = _random_polynomial(rng, tier)
        a = rng.randint(-4, 3)
        if _value(coefficients, a) * _value(coefficients, a + width) >= 0:
            continue
        if _roots_inside(coefficients, a, a + width) != 1:
            continue
        candidate = _case(coefficients, a, width, tolerance)
        if is_unambiguous(bisection_trace(**candidate)):
            return candidate
    raise RuntimeError(f"could not draw a {tier} bisection instance of size {size}")


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    brackets = _brackets(size)
    wide = [(w, t) for w, t in brackets if w >= 4]
    # Three roots rarely fit an interval narrower than 4.
    kind = rng.choice(EDGE_KINDS_BISECTION if wide else EDGE_KINDS_BISECTION[:-1])
    if kind == "several_roots":
        brackets = wide
    for _ in range(_MAX_TRIES):
        width, tolerance = rng.choice(brackets)
        a = rng.randint(-4, 3)
        b = a + width
        if kind in ("root_at_a", "root_at_b"):
            # (x - end) times a factor that vanishes at neither end.
            factor = [rng.choice((-2, -1, 1, 2)), rng.randint(-6, 6)]
            if rng.random() < 0.5:
                factor.append(rng.randint(-6, 6))
            end = a if kind == "root_at_a" else b
            coefficients = _times_linear(factor, 1, end)
            if _value(factor, a) != 0 and _value(factor, b) != 0:
                return _case(coefficients, a, width, tolerance)
        elif kind == "no_sign_change":
            # No root inside, or two that cancel each other's sign change.
            coefficients = _random_polynomial(rng, "simple")
            inside = _roots_inside(coefficients, a, b)
            if _value(coefficients, a) * _value(coefficients, b) > 0 and inside == rng.choice(
                (0, 2)
            ):
                return _case(coefficients, a, width, tolerance)
        elif kind == "midpoint_root":
            # A root m = a + width * j / 2**t that bisection lands on exactly.
            t = rng.randint(1, 3)
            numerator = a * 2**t + width * rng.randrange(1, 2**t, 2)
            factor = [1, rng.randint(-6, 6), rng.randint(1, 9)]
            if rng.random() < 0.5:
                factor = [1, rng.randint(1, 9)]
            coefficients = _times_linear(factor, 2**t, numerator)
            if _value(coefficients, a) * _value(coefficients, b) >= 0:
                continue
            if _roots_inside(coefficients, a, b) != 1:
                continue
            candidate = _case(coefficients, a, width, tolerance)
            steps = bisection_trace(**candidate)
            if len(steps) < size and is_unambiguous(steps, exact_zero_last=True):
                return candidate
        else:
            coefficients = _random_polynomial(rng, "standard")
            if _value(coefficients, a) * _value(coefficients, b) >= 0:
                continue
            if _roots_inside(coefficients, a, b) != 3:
                continue
            candidate = _case(coefficients, a, width, tolerance)
            if is_unambiguous(bisection_trace(**candidate)):
                return candidate
    raise RuntimeError(f"could not draw a {kind} bisection instance of size {size}")


def generate_bisection(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """A bisection input: ``coefficients`` (integers, highest degree first), integer ends
    ``a < b`` and a ``tolerance``, such that the stopping rule takes ``size`` iterations
    (:func:`implied_iterations`), with the last half-width clearly below the tolerance
    and the one before clearly above it (:data:`STOP_MARGIN`).

    ``simple``: a monic quadratic with exactly one root in ``(a, b)``. ``standard``: a
    cubic (leading coefficient up to 2 in magnitude) with exactly one root in ``(a, b)``.
    Both have a sign change at the ends and every midpoint's sign clear
    (:data:`SIGN_MARGIN`), so no midpoint is a root. ``edge``: one of
    :data:`EDGE_KINDS_BISECTION`: a root at ``a`` or at ``b`` (0 iterations), no sign
    change (no root inside, or two), a root some midpoint hits exactly (the run stops
    early), or a cubic with three roots inside (for sizes an interval of width 4 or more
    can take). The stress size, 17 iterations, is drawn as the simple and standard tiers
    are, with tolerances down to 1e-5.
    """
    if tier in ("simple", "standard") and 3 <= size <= STANDARD_MAX + 1:
        return _one_root(rng, tier, size)  # the stress size, 17, included
    if not 3 <= size <= STANDARD_MAX:
        raise ValueError(f"bisection takes 3 to {STANDARD_MAX} iterations, got {size}")
    if tier == "edge":
        return _edge(rng, size)
    raise ValueError(f"unknown tier {tier!r}")


def measure_iterations(test_input: Mapping[str, Any]) -> int:
    """A bisection input's size: the iterations its interval and tolerance imply."""
    return implied_iterations(test_input["a"], test_input["b"], test_input["tolerance"])


def _far(value: float | None, expected: float | None) -> bool:
    if value is None or expected is None:
        return (value is None) != (expected is None)
    return abs(value - expected) > 10 * ROOT_TOLERANCE


@LazyHook
def bisection_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The iteration count one off, a stop one iteration early, the last branch taken the
    wrong way, an end of the interval, a root just outside tolerance, a wrong "no sign
    change", and a root claimed where there is no bracket."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    expected = case.expected
    root, iterations = expected["root"], expected["iterations"]
    a, b = float(case.input["a"]), float(case.input["b"])
    yield {**expected, "iterations": iterations + 1}
    yield {**expected, "bracketed": not expected["bracketed"]}
    if iterations > 0:
        yield {**expected, "iterations": iterations - 1}
    if root is None:
        yield {"root": (a + b) / 2, "iterations": 1, "bracketed": True}
        return
    yield {"root": None, "iterations": 0, "bracketed": False}
    off = 3 * ROOT_TOLERANCE * rng.choice((-1, 1))
    yield {**expected, "root": root + off}
    steps = bisection_trace(**case.input)
    roots: list[float] = [a, b]
    if len(steps) >= 2:
        roots.append(steps[-2].midpoint)
    if steps:
        last = steps[-1]
        roots.append(last.midpoint + rng.choice((-2, 2)) * last.half_width)
    for value in roots:
        if _far(value, root):
            yield {**expected, "root": round(value, 8)}


@drawing_nothing
def bisection_alternatives(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The last midpoint with all its digits, and rounded to 7 decimals."""
    root = case.expected["root"]
    if root is None:
        return iter(())
    steps = bisection_trace(**case.input)
    exact = steps[-1].midpoint if steps else root
    return each_distinct(
        [{**case.expected, "root": exact}, {**case.expected, "root": round(exact, 7)}],
        unlike=[case.expected],
    )


SPEC = ScaffoldSpec(
    name="bisection",
    category="numerical",
    title="Bisection root finding",
    description="a root of a polynomial in a bracket by halving, with the iteration count",
    graded_conventions={
        "ends checked first": "if f(a) = 0 exactly, the root is a after 0 iterations",
        "stopping rule": "it stops if f(m) = 0 exactly or h < tolerance",
        "iteration counting": "the iteration that stops counts",
        "half kept": "a = m when f(m) has the sign of f(a), else b = m",
    },
    reference=bisection,
    generator=generate_bisection,
    answer_schema=BisectionAnswer,
    # Iterations are exact: the generator keeps the stopping test and every midpoint's
    # sign far from their thresholds, so hand arithmetic takes the same branches.
    validator=CompositeValidator(
        [
            ExactMatchValidator(field="bracketed"),
            ExactMatchValidator(field="iterations"),
            NumericToleranceValidator(tolerance=ROOT_TOLERANCE, field="root"),
        ]
    ),
    sizes={"simple": 5, "standard": 10, "edge": 6},
    size=SizeAxis(
        unit="iterations",
        measure=measure_iterations,
        ranges={"simple": (3, 8), "standard": (6, STANDARD_MAX), "edge": (3, STANDARD_MAX)},
        stress=(STANDARD_MAX + 1, STANDARD_MAX + 1),
        stress_limit="every midpoint's sign must be clear at 5 decimals (|f(m)| at least 5e-5), "
        "and a midpoint within (b - a) / 2^18 of a simple root is closer to zero than that: no "
        "draw in 20,000 takes 18 iterations; past about 50, the midpoints also run out of "
        "float precision",
    ),
    mutants=bisection_mutants,
    alternatives=bisection_alternatives,
    max_output_tokens=6144,
    # A row per iteration (benchmarks/stress_budgets.py bisection): 488 tokens at 16, 493
    # at 17; the flat budget holds the standard maximum, each iteration past it about 20
    # tokens of rows, times 1.5.
    output_budget=OutputBudget(per_unit=30, base=5664),
    code_rules={
        "iterations": "the number of midpoints computed, the one that stops counted: for "
        "k = 1, 2, ...: `h = (b - a) / 2`, `m = a + h`; stop at k when `f(m) == 0` or "
        "`h < tolerance`; else `a = m` when `f(m)` has the sign of `f(a)`, else `b = m`. "
        "0 when `f(a) == 0` (checked first) or `f(b) == 0`, and when `f(a)` and `f(b)` "
        "have the same sign",
        "root": "the midpoint `m` of the iteration that stops, rounded to 8 decimals "
        "(`round(m, 8)`); `a` or `b` when `f` is 0 there (`a` checked first); `None` when "
        "`f(a)` and `f(b)` have the same sign",
    },
    code_size_limit=(
        "the size is the iteration count of a halving: a double runs out of precision "
        "after about 50 halvings, and the generator keeps every stop clear of the "
        "tolerance"
    ),
)
