"""Reference implementations of numerical methods."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from verification.reference._inputs import finite

__all__ = [
    "BISECTION_DECIMALS",
    "DERIVATIVE_FLOOR",
    "MONTE_CARLO_DECIMALS",
    "BisectionStep",
    "NewtonStep",
    "bisection",
    "bisection_trace",
    "monte_carlo_integration",
    "newton_raphson",
    "newton_trace",
]

DERIVATIVE_FLOOR = 1e-12
"""Newton-Raphson stops, not converged, when ``|f'(x)|`` falls below this."""

RealFunction = Callable[[float], float]


class NewtonStep(NamedTuple):
    """One Newton-Raphson iteration: ``x_new = x - fx / dfx``."""

    iteration: int
    x: float
    fx: float
    dfx: float
    x_new: float | None
    """``None`` when ``|dfx|`` is below :data:`DERIVATIVE_FLOOR` and no step is taken."""


def _polynomial(coefficients: Any) -> tuple[RealFunction, RealFunction]:
    if isinstance(coefficients, str | bytes) or not isinstance(coefficients, Sequence):
        raise ValueError(
            f"coefficients must be a list of numbers, got {type(coefficients).__name__}"
        )
    if not coefficients:
        raise ValueError("coefficients must not be empty")
    values = [finite(c, f"coefficients[{i}]") for i, c in enumerate(coefficients)]

    import numpy as np

    poly = np.asarray(values, dtype=float)
    derivative = np.polyder(poly)

    def evaluate(p: Any) -> RealFunction:
        def value(x: float) -> float:
            # Divergent iterates may overflow; the caller stops on a non-finite step.
            with np.errstate(over="ignore", invalid="ignore"):
                return float(np.polyval(p, x))

        return value

    return evaluate(poly), evaluate(derivative)


def _functions(
    coefficients: Any, f: RealFunction | None, df: RealFunction | None
) -> tuple[RealFunction, RealFunction]:
    if coefficients is not None:
        if f is not None or df is not None:
            raise ValueError("give either coefficients or f and df, not both")
        return _polynomial(coefficients)
    if f is None or df is None:
        raise ValueError("give coefficients, or both f and its derivative df")
    if not callable(f) or not callable(df):
        raise ValueError("f and df must be callables")
    return f, df


def newton_trace(
    coefficients: Sequence[float] | None = None,
    x0: float = 0.0,
    tolerance: float = 1e-6,
    max_iterations: int = 50,
    *,
    f: RealFunction | None = None,
    df: RealFunction | None = None,
) -> list[NewtonStep]:
    """The iterations :func:`newton_raphson` performs, one :class:`NewtonStep` each.

    Takes the same arguments as :func:`newton_raphson`. The last step is the one that
    stopped the run: its derivative was below :data:`DERIVATIVE_FLOOR` (``x_new`` is
    ``None``), its step was non-finite, its step was below ``tolerance``, or it was
    iteration ``max_iterations``.

    Parameters
    ----------
    coefficients, x0, tolerance, max_iterations, f, df
        As for :func:`newton_raphson`.

    Returns
    -------
    list of NewtonStep
        At least one step; at most ``max_iterations``.

    Raises
    ------
    ValueError
        As for :func:`newton_raphson`.

    Examples
    --------
    >>> [(s.iteration, s.x, s.x_new) for s in newton_trace([1, 0, -4], x0=2.0)]
    [(1, 2.0, 2.0)]
    >>> newton_trace([1, 0, -4], x0=0.0)[0].x_new is None
    True

    Notes
    -----
    One evaluation of ``f`` and ``f'`` per iteration; O(d) each for a polynomial of
    degree d (Horner's rule).

    References
    ----------
    .. [1] W. H. Press et al., *Numerical Recipes*, 3rd ed., section 9.4, 2007.
    """
    func, deriv = _functions(coefficients, f, df)
    x = finite(x0, "x0")
    tol = finite(tolerance, "tolerance")
    if tol <= 0:
        raise ValueError(f"tolerance must be positive, got {tolerance!r}")
    if not isinstance(max_iterations, int) or isinstance(max_iterations, bool):
        raise ValueError(f"max_iterations must be an integer, got {max_iterations!r}")
    if max_iterations < 1:
        raise ValueError(f"max_iterations must be at least 1, got {max_iterations}")

    steps: list[NewtonStep] = []
    for k in range(1, max_iterations + 1):
        fx, dfx = float(func(x)), float(deriv(x))
        if not abs(dfx) >= DERIVATIVE_FLOOR:
            steps.append(NewtonStep(k, x, fx, dfx, None))
            break
        x_new = x - fx / dfx
        steps.append(NewtonStep(k, x, fx, dfx, x_new))
        if not math.isfinite(x_new) or abs(x_new - x) < tol:
            break
        x = x_new
    return steps


def newton_raphson(
    coefficients: Sequence[float] | None = None,
    x0: float = 0.0,
    tolerance: float = 1e-6,
    max_iterations: int = 50,
    *,
    f: RealFunction | None = None,
    df: RealFunction | None = None,
) -> dict[str, Any]:
    """A root of a polynomial (or of a function ``f`` with derivative ``df``) by Newton's
    method from ``x0``.

    Parameters
    ----------
    coefficients : list of number, optional
        The polynomial, highest degree first (``numpy.polyval`` order); its derivative is
        ``numpy.polyder`` of it. Exactly one of ``coefficients`` or ``f`` and ``df``.
    x0 : float
        The starting point.
    tolerance : float
        Converged when a step ``|x_new - x|`` is below this (positive).
    max_iterations : int
        At most this many iterations (at least 1).
    f, df : callable, optional
        The function and its derivative, for callers with Python code rather than data.

    Returns
    -------
    dict
        ``{"root": float | None, "iterations": int, "converged": bool}``. On convergence
        ``root`` is the last iterate ``x_new`` and ``iterations`` the number of steps
        taken. When ``|f'(x)| < 1e-12`` at iteration k the run stops with ``root`` None and
        ``iterations`` k - 1; after ``max_iterations`` without convergence ``root`` is None
        and ``iterations`` is ``max_iterations``.

    Raises
    ------
    ValueError
        If both or neither of ``coefficients`` and ``f``/``df`` are given, a coefficient or
        ``x0`` is not a finite number, ``tolerance`` is not positive, or ``max_iterations``
        is not an integer of at least 1.

    Examples
    --------
    >>> newton_raphson(coefficients=[1, 0, -2], x0=1.0)
    {'root': 1.4142135623730951, 'iterations': 5, 'converged': True}
    >>> newton_raphson(f=lambda x: x**2 - 2, df=lambda x: 2 * x, x0=1.0)["root"]
    1.4142135623730951
    >>> newton_raphson(coefficients=[1, 0, -4], x0=0)
    {'root': None, 'iterations': 0, 'converged': False}
    >>> newton_raphson(coefficients=[1, 0, 1], x0=0.5, max_iterations=5)
    {'root': None, 'iterations': 5, 'converged': False}

    Notes
    -----
    The algorithm, exactly: ``x = x0``; for k in 1..max_iterations: if ``|f'(x)| < 1e-12``
    return (None, k - 1, False); ``x_new = x - f(x) / f'(x)``; if ``|x_new - x| <
    tolerance`` return (x_new, k, True); ``x = x_new``. After the loop: (None,
    max_iterations, False). A start that is already a root takes a step of 0 and converges
    at iteration 1. One addition keeps answers JSON: a step that overflows to a non-finite
    value stops the run, not converged, with ``iterations`` k. Each iteration evaluates
    ``f`` and ``f'`` once; convergence near a simple root is quadratic.

    References
    ----------
    .. [1] W. H. Press et al., *Numerical Recipes*, 3rd ed., section 9.4, 2007.
    """
    steps = newton_trace(coefficients, x0, tolerance, max_iterations, f=f, df=df)
    last = steps[-1]
    if last.x_new is None:
        return {"root": None, "iterations": last.iteration - 1, "converged": False}
    if math.isfinite(last.x_new) and abs(last.x_new - last.x) < float(tolerance):
        return {"root": last.x_new, "iterations": last.iteration, "converged": True}
    return {"root": None, "iterations": last.iteration, "converged": False}


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

MONTE_CARLO_DECIMALS = 6
""":func:`monte_carlo_integration` rounds its estimate to this many decimal places."""


def _function(coefficients: Any, f: RealFunction | None) -> RealFunction:
    if coefficients is not None:
        if f is not None:
            raise ValueError("give either coefficients or f, not both")
        return _polynomial(coefficients)[0]
    if f is None:
        raise ValueError("give coefficients, or a function f")
    if not callable(f):
        raise ValueError("f must be a callable")
    return f


def _positive_int(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


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


def _bisect(
    coefficients: Sequence[float] | None,
    a: float,
    b: float,
    tolerance: float,
    max_iterations: int,
    f: RealFunction | None,
) -> tuple[list[tuple[int, Fraction, Fraction, Fraction, Fraction, Fraction]], Fraction | None]:
    """The iterations ``(k, a, b, midpoint, f(midpoint), half_width)`` and, when an end is
    an exact root, that end. The run is exact, as the scaffold asks: the inputs as their
    decimals write them (JSON's ``0.1`` is one tenth), midpoints, half-widths and the
    stopping test in rational arithmetic, and for ``coefficients`` the values too (a
    function ``f`` is called on the float nearest each midpoint). In floats ``(1.5 - 1.1)
    / 4 < 0.1`` holds and the run stopped an iteration early."""
    func: Callable[[Fraction], Fraction]
    if coefficients is not None:
        if f is not None:
            raise ValueError("give either coefficients or f, not both")
        _polynomial(coefficients)  # the input checks
        exact = [_as_written(c) for c in coefficients]

        def func(x: Fraction) -> Fraction:
            value = Fraction(0)
            for c in exact:
                value = value * x + c
            return value

    else:
        given = _function(None, f)

        def func(x: Fraction) -> Fraction:
            value = float(given(float(x)))
            if not math.isfinite(value):
                raise ValueError(f"f({float(x)!r}) is not a finite number: {value!r}")
            return Fraction(value)

    finite(a, "a"), finite(b, "b"), finite(tolerance, "tolerance")
    # The numbers themselves, not float(): a large integer keeps every digit.
    lo, hi, tol = _as_written(a), _as_written(b), _as_written(tolerance)
    if not lo < hi:
        raise ValueError(f"the interval needs a < b, got a={a!r}, b={b!r}")
    if tol <= 0:
        raise ValueError(f"tolerance must be positive, got {tolerance!r}")
    limit = _positive_int(max_iterations, "max_iterations")

    f_lo, f_hi = func(lo), func(hi)
    if f_lo == 0:
        return [], lo
    if f_hi == 0:
        return [], hi
    if _sign(f_lo) == _sign(f_hi):
        return [], None
    steps: list[tuple[int, Fraction, Fraction, Fraction, Fraction, Fraction]] = []
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
    return float(round(value, decimals)) + 0.0


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


def monte_carlo_integration(
    coefficients: Sequence[float] | None = None,
    a: float = 0.0,
    b: float = 1.0,
    samples: Sequence[float] | None = None,
    *,
    f: RealFunction | None = None,
) -> dict[str, Any]:
    """The Monte Carlo estimate of the integral of a polynomial (or of ``f``) over
    ``[a, b]`` from given uniform draws.

    Parameters
    ----------
    coefficients : list of number, optional
        The polynomial, highest degree first (``numpy.polyval`` order). Exactly one of
        ``coefficients`` or ``f``.
    a, b : float
        The interval's ends, ``a <= b``.
    samples : list of float
        The uniform draws ``u_1, ..., u_N`` in ``[0, 1)``, at least one; draw ``u_i`` is
        the point ``x_i = a + (b - a) * u_i``.
    f : callable, optional
        The function, for callers with Python code rather than data.

    Returns
    -------
    dict
        ``{"estimate": float}``: ``(b - a) * (f(x_1) + ... + f(x_N)) / N`` rounded to 6
        decimals, the estimate those draws give (not the true integral).

    Raises
    ------
    ValueError
        If both or neither of ``coefficients`` and ``f`` are given, a coefficient, ``a``,
        ``b`` or draw is not a finite number, ``a > b``, ``samples`` is empty, or a draw is
        outside ``[0, 1)``.

    Examples
    --------
    >>> monte_carlo_integration(coefficients=[1, 0, 0], a=0, b=2, samples=[0.25, 0.5, 0.75])
    {'estimate': 2.333333}
    >>> monte_carlo_integration(f=lambda x: 3.0, a=1, b=5, samples=[0.1])
    {'estimate': 12.0}

    Notes
    -----
    O(N d) for N draws and a polynomial of degree d (Horner's rule). The estimate is
    unbiased with standard error ``(b - a) * sigma / sqrt(N)``; here the draws are data,
    so the estimate is one exact number: for ``coefficients`` it is computed in exact
    rational arithmetic on the numbers as their decimals write them, and rounded once.
    Draws are summed in their given order.

    References
    ----------
    .. [1] C. P. Robert, G. Casella, *Monte Carlo Statistical Methods*, 2nd ed.,
       section 3.2, 2004.
    """
    func = _function(coefficients, f)
    lo, hi = finite(a, "a"), finite(b, "b")
    if lo > hi:
        raise ValueError(f"the interval needs a <= b, got a={a!r}, b={b!r}")
    if samples is None or isinstance(samples, str | bytes) or not isinstance(samples, Sequence):
        raise ValueError("samples must be a list of numbers in [0, 1)")
    if not samples:
        raise ValueError("samples must not be empty")
    draws = [finite(u, f"samples[{i}]") for i, u in enumerate(samples)]
    for i, u in enumerate(draws):
        if not 0 <= u < 1:
            raise ValueError(f"samples[{i}] must be in [0, 1), got {u!r}")
    if coefficients is not None:
        return {"estimate": _exact_estimate(coefficients, lo, hi, draws)}
    width = hi - lo
    total = math.fsum(float(func(lo + width * u)) for u in draws)
    estimate = width * total / len(draws)
    if not math.isfinite(estimate):
        raise ValueError("the estimate overflows; the function is too large on [a, b]")
    return {"estimate": round(estimate, MONTE_CARLO_DECIMALS) + 0.0}


def _as_written(value: float) -> Fraction:
    """A number as its shortest decimal writes it (JSON's ``0.1`` is one tenth, not the
    double nearest it)."""
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def _exact_estimate(coefficients: Sequence[float], a: float, b: float, draws: list[float]) -> float:
    """The estimate of a polynomial in exact rational arithmetic, rounded once at the end.

    In floats, ``b - a`` loses digits when ``a`` and ``b`` are close and the sum of
    large terms loses more; the 6th decimal of the rounded result then came out wrong
    (``42282 x^2`` on ``[48.73, 48.74]`` from one draw at 0)."""
    lo, hi = _as_written(a), _as_written(b)
    cs = [_as_written(c) for c in coefficients]
    total = Fraction(0)
    for u in draws:
        x = lo + (hi - lo) * _as_written(u)
        value = Fraction(0)
        for c in cs:
            value = value * x + c
        total += value
    estimate = round((hi - lo) * total / len(draws), MONTE_CARLO_DECIMALS)
    try:
        return float(estimate) + 0.0
    except OverflowError:
        raise ValueError("the estimate overflows; the function is too large on [a, b]") from None
