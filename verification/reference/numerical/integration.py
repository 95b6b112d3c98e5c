"""Monte Carlo integration from given uniform draws."""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from verification.reference._inputs import finite, round_half_away
from verification.reference.numerical._functions import (
    RealFunction,
    as_written,
    only_function,
)

__all__ = ["MONTE_CARLO_DECIMALS", "monte_carlo_integration"]

MONTE_CARLO_DECIMALS = 6
""":func:`monte_carlo_integration` rounds its estimate to this many decimal places."""


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
    func = only_function(coefficients, f)
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
    return {"estimate": round_half_away(estimate, MONTE_CARLO_DECIMALS)}


def _exact_estimate(coefficients: Sequence[float], a: float, b: float, draws: list[float]) -> float:
    """The estimate of a polynomial in exact rational arithmetic, rounded once at the end.

    In floats, ``b - a`` loses digits when ``a`` and ``b`` are close and the sum of
    large terms loses more; the 6th decimal of the rounded result then came out wrong
    (``42282 x^2`` on ``[48.73, 48.74]`` from one draw at 0)."""
    try:
        return round_half_away(_exact_mean(coefficients, a, b, draws), MONTE_CARLO_DECIMALS)
    except OverflowError:
        raise ValueError("the estimate overflows; the function is too large on [a, b]") from None


def _exact_mean(coefficients: Sequence[float], a: float, b: float, draws: list[float]) -> Fraction:
    """``(b - a)`` times the mean of ``p(a + (b - a) u)`` over the draws, exactly, each
    number as its decimals write it: the sum of :func:`exact_polynomial`'s values, made in
    whole numbers over one denominator (every point ``x`` is ``X / Q`` for the same ``Q``,
    so every value is a whole number over ``common * Q**degree``), one fraction at the end
    instead of a few per draw. A draw's decimal is read by ``Decimal`` (in C), the same
    number as ``Fraction(repr(u))``."""
    lo, hi = as_written(a), as_written(b)
    width = hi - lo
    exact = [as_written(c) for c in coefficients]
    common = math.lcm(*(c.denominator for c in exact)) if exact else 1
    scaled = [c.numerator * (common // c.denominator) for c in exact]
    ratios = [
        Decimal(repr(u)).as_integer_ratio() if isinstance(u, float) else (int(u), 1) for u in draws
    ]
    shared = math.lcm(*(d for _, d in ratios))
    # x = lo + width * n / d = (base + step * n * (shared // d)) / q
    q = lo.denominator * width.denominator * shared
    base = lo.numerator * width.denominator * shared
    step = width.numerator * lo.denominator
    total = 0
    if scaled:
        for n, d in ratios:
            x = base + step * n * (shared // d)
            value, power = scaled[0], 1
            for s in scaled[1:]:
                power *= q
                value = value * x + s * power
            total += value
    degree = max(len(scaled) - 1, 0)
    return Fraction(width.numerator * total, width.denominator * common * q**degree * len(draws))
