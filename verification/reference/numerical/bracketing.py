"""Bisection root finding on a bracket, exact in rational arithmetic, and the trace of
its iterations."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from verification.reference._inputs import finite, round_half_away
from verification.reference.numerical._functions import (
    ExactFunction,
    RealFunction,
    as_written,
    exact_polynomial,
    only_function,
    polynomial,
    positive_int,
)

__all__ = ["BISECTION_DECIMALS", "BisectionStep", "bisection", "bisection_trace"]


class BisectionStep(NamedTuple):
    """One bisection iteration on the bracket ``[a, b]``: its midpoint and ``f`` there."""

    iteration: int
    a: float
    b: float
    midpoint: float
    f_midpoint: float
    half_width: float
    """``(b - a) / 2``: the bisection stops when this falls below the tolerance."""


BISECTION_DECIMALS = 8
""":func:`bisection` rounds its root to this many decimal places."""


def _sign(value: float | Fraction) -> int:
    return (value > 0) - (value < 0)


def bisection_trace(
    coefficients: Sequence[float] | None = None,
    a: float = 0.0,
    b: float = 1.0,
    tolerance: float = 1e-6,
    max_iterations: int = 200,
    *,
    f: RealFunction | None = None,
) -> list[BisectionStep]:
    """The iterations :func:`bisection` performs, one :class:`BisectionStep` each.

    Takes the same arguments as :func:`bisection`. Empty when no iteration runs: ``f(a)``
    or ``f(b)`` is zero, or ``f(a)`` and ``f(b)`` have the same sign. Otherwise the last
    step is the one that stopped the run: ``f(midpoint) == 0`` or ``half_width <
    tolerance``.

    Parameters
    ----------
    coefficients, a, b, tolerance, max_iterations, f
        As for :func:`bisection`.

    Returns
    -------
    list of BisectionStep
        At most ``max_iterations`` steps.

    Raises
    ------
    ValueError
        As for :func:`bisection`.

    Examples
    --------
    >>> [(s.iteration, s.a, s.b, s.midpoint) for s in bisection_trace([1, 0, -2], 1, 2, 0.2)]
    [(1, 1.0, 2.0, 1.5), (2, 1.0, 1.5, 1.25), (3, 1.25, 1.5, 1.375)]
    >>> bisection_trace([1, 0, -2], 2, 3, 0.1)
    []

    Notes
    -----
    One evaluation of ``f`` per iteration, plus two at the ends.

    References
    ----------
    .. [1] R. L. Burden, J. D. Faires, *Numerical Analysis*, 9th ed., Algorithm 2.1, 2011.
    """
    steps, _ = _bisect(coefficients, a, b, tolerance, max_iterations, f)
    return [BisectionStep(k, *(float(v) for v in step)) for k, *step in steps]


_Steps = list[tuple[int, Fraction, Fraction, Fraction, Fraction, Fraction]]


def _bisect(
    coefficients: Sequence[float] | None,
    a: float,
    b: float,
    tolerance: float,
    max_iterations: int,
    f: RealFunction | None,
) -> tuple[_Steps, Fraction | None]:
    """:func:`_run`, kept for the last polynomial inputs: a case's run is asked for by its
    generator, its reference and both calibration hooks (a dozen exact evaluations)."""
    if f is not None or not isinstance(coefficients, list | tuple):
        return _run(coefficients, a, b, tolerance, max_iterations, f)
    key = tuple((type(v), v) for v in (a, b, tolerance, max_iterations, *coefficients))
    try:
        steps, end = _kept_run(key)  # by value and type: 1, 1.0 and True stay apart
    except TypeError:  # not hashable, so not numbers: _run says why
        return _run(coefficients, a, b, tolerance, max_iterations, f)
    return list(steps), end


@functools.lru_cache(maxsize=64)
def _kept_run(key: tuple[tuple[type, Any], ...]) -> tuple[tuple[Any, ...], Fraction | None]:
    a, b, tolerance, max_iterations, *coefficients = (value for _, value in key)
    steps, end = _run(coefficients, a, b, tolerance, max_iterations, None)
    return tuple(steps), end


def _run(
    coefficients: Sequence[float] | None,
    a: float,
    b: float,
    tolerance: float,
    max_iterations: int,
    f: RealFunction | None,
) -> tuple[_Steps, Fraction | None]:
    """The iterations ``(k, a, b, midpoint, f(midpoint), half_width)`` and, when an end is
    an exact root, that end. The run is exact, as the scaffold asks: the inputs as their
    decimals write them (JSON's ``0.1`` is one tenth), midpoints, half-widths and the
    stopping test in rational arithmetic, and for ``coefficients`` the values too (a
    function ``f`` is called on the float nearest each midpoint). In floats ``(1.5 - 1.1)
    / 4 < 0.1`` holds and the run stopped an iteration early."""
    func: ExactFunction
    if coefficients is not None:
        if f is not None:
            raise ValueError("give either coefficients or f, not both")
        polynomial(coefficients)  # the input checks
        func = exact_polynomial(coefficients)
    else:
        given = only_function(None, f)

        def func(x: Fraction) -> Fraction:
            value = float(given(float(x)))
            if not math.isfinite(value):
                raise ValueError(f"f({float(x)!r}) is not a finite number: {value!r}")
            return Fraction(value)

    finite(a, "a"), finite(b, "b"), finite(tolerance, "tolerance")
    # The numbers themselves, not float(): a large integer keeps every digit.
    lo, hi, tol = as_written(a), as_written(b), as_written(tolerance)
    if not lo < hi:
        raise ValueError(f"the interval needs a < b, got a={a!r}, b={b!r}")
    if tol <= 0:
        raise ValueError(f"tolerance must be positive, got {tolerance!r}")
    limit = positive_int(max_iterations, "max_iterations")

    f_lo, f_hi = func(lo), func(hi)
    if f_lo == 0:
        return [], lo
    if f_hi == 0:
        return [], hi
    if _sign(f_lo) == _sign(f_hi):
        return [], None
    steps: _Steps = []
    for k in range(1, limit + 1):
        half = (hi - lo) / 2
        mid = lo + half
        f_mid = func(mid)
        steps.append((k, lo, hi, mid, f_mid, half))
        if f_mid == 0 or half < tol:
            return steps, None
        if _sign(f_mid) == _sign(f_lo):
            lo, f_lo = mid, f_mid
        else:
            hi = mid
    raise ValueError(
        f"tolerance {tolerance!r} is not reached within max_iterations={max_iterations}"
    )


def _rounded(value: Fraction, decimals: int) -> float:
    return round_half_away(value, decimals)


def bisection(
    coefficients: Sequence[float] | None = None,
    a: float = 0.0,
    b: float = 1.0,
    tolerance: float = 1e-6,
    max_iterations: int = 200,
    *,
    f: RealFunction | None = None,
) -> dict[str, Any]:
    """A root of a polynomial (or of a function ``f``) in ``[a, b]`` by bisection.

    Parameters
    ----------
    coefficients : list of number, optional
        The polynomial, highest degree first (``numpy.polyval`` order). Exactly one of
        ``coefficients`` or ``f``.
    a, b : float
        The interval's ends, ``a < b``.
    tolerance : float
        Stop when the half-width ``(b - a) / 2`` of the current bracket is below this
        (positive).
    max_iterations : int
        A safety bound (at least 1); a tolerance the halvings cannot reach within it is an
        error, never a silent answer.
    f : callable, optional
        The function, for callers with Python code rather than data.

    Returns
    -------
    dict
        ``{"root": float | None, "iterations": int, "bracketed": bool}``. ``bracketed`` is
        false when ``f(a)`` and ``f(b)`` are both positive or both negative: no sign
        change, ``root`` None, ``iterations`` 0. A root at an end (``f(a) == 0``, checked
        first, or ``f(b) == 0``) is returned with ``iterations`` 0. Otherwise ``root`` is
        the midpoint of the iteration that stopped, rounded to 8 decimals, and
        ``iterations`` its number.

    Raises
    ------
    ValueError
        If both or neither of ``coefficients`` and ``f`` are given, a coefficient, ``a``
        or ``b`` is not a finite number, ``a >= b``, ``tolerance`` is not positive, or
        ``max_iterations`` is not a positive integer or too small for the tolerance.

    Examples
    --------
    >>> bisection(coefficients=[1, 0, -2], a=1, b=2, tolerance=0.01)
    {'root': 1.4140625, 'iterations': 7, 'bracketed': True}
    >>> bisection(f=lambda x: x * x - 2, a=1, b=2, tolerance=0.01)["root"]
    1.4140625
    >>> bisection(coefficients=[1, 0, -2], a=2, b=3, tolerance=0.01)
    {'root': None, 'iterations': 0, 'bracketed': False}
    >>> bisection(coefficients=[1, -3], a=0, b=3, tolerance=0.01)
    {'root': 3.0, 'iterations': 0, 'bracketed': True}

    Notes
    -----
    The algorithm, exactly: if ``f(a) == 0`` return ``a``; if ``f(b) == 0`` return ``b``;
    if ``f(a)`` and ``f(b)`` have the same sign, there is no bracket. Otherwise, for k =
    1, 2, ...: ``h = (b - a) / 2``, ``m = a + h``; if ``f(m) == 0`` or ``h < tolerance``
    return ``(m, k)``; if ``f(m)`` has the sign of ``f(a)`` then ``a = m`` else ``b = m``.
    Without an exact zero the run takes the smallest k with ``(b - a) / 2**k <
    tolerance``, whatever ``f`` is; the root is within ``tolerance`` of a sign change of
    ``f``. The run is exact, as the scaffold asks: the numbers as their decimals write
    them (``0.1`` is one tenth), in rational arithmetic, so ``f(a) == 0`` and a midpoint
    that is a root are seen exactly, and ``(1.5 - 1.1) / 4`` is not below ``0.1``; only
    the root is rounded. One evaluation of ``f`` per iteration; the error halves each
    time.

    References
    ----------
    .. [1] R. L. Burden, J. D. Faires, *Numerical Analysis*, 9th ed., Algorithm 2.1, 2011.
    """
    steps, end = _bisect(coefficients, a, b, tolerance, max_iterations, f)
    if steps:
        k, *_, midpoint, _, _ = steps[-1]
        return {"root": _rounded(midpoint, BISECTION_DECIMALS), "iterations": k, "bracketed": True}
    if end is not None:
        return {"root": _rounded(end, BISECTION_DECIMALS), "iterations": 0, "bracketed": True}
    return {"root": None, "iterations": 0, "bracketed": False}
