"""Newton-Raphson root finding from a starting point, and the trace of its iterations."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from verification.reference._inputs import finite
from verification.reference.numerical._functions import (
    RealFunction,
    function_and_derivative,
    positive_int,
)

__all__ = ["DERIVATIVE_FLOOR", "NewtonStep", "newton_raphson", "newton_trace"]

DERIVATIVE_FLOOR = 1e-12
"""Newton-Raphson stops, not converged, when ``|f'(x)|`` falls below this."""


class NewtonStep(NamedTuple):
    """One Newton-Raphson iteration: ``x_new = x - fx / dfx``."""

    iteration: int
    x: float
    fx: float
    dfx: float
    x_new: float | None
    """``None`` when ``|dfx|`` is below :data:`DERIVATIVE_FLOOR` and no step is taken."""


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
    func, deriv = function_and_derivative(coefficients, f, df)
    x = finite(x0, "x0")
    tol = finite(tolerance, "tolerance")
    if tol <= 0:
        raise ValueError(f"tolerance must be positive, got {tolerance!r}")
    limit = positive_int(max_iterations, "max_iterations")

    steps: list[NewtonStep] = []
    for k in range(1, limit + 1):
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
