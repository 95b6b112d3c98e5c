"""The function a numerical method works on, as data (polynomial coefficients) or as
callables, and the input checks the methods share. Each raises ``ValueError`` naming what
is wrong."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from verification.reference._inputs import finite, plain_number

__all__ = [
    "ExactFunction",
    "RealFunction",
    "as_written",
    "exact_polynomial",
    "function_and_derivative",
    "only_function",
    "polynomial",
    "positive_int",
]

RealFunction = Callable[[float], float]
ExactFunction = Callable[[Fraction], Fraction]


def polynomial(coefficients: Any) -> tuple[RealFunction, RealFunction]:
    """The polynomial (highest degree first) and its derivative, evaluated in floats."""
    plain = type(coefficients) is list or type(coefficients) is tuple  # no ABC check
    if not plain and (
        isinstance(coefficients, str | bytes) or not isinstance(coefficients, Sequence)
    ):
        raise ValueError(
            f"coefficients must be a list of numbers, got {type(coefficients).__name__}"
        )
    if not coefficients:
        raise ValueError("coefficients must not be empty")
    values = [
        float(c) if plain_number(c) else finite(c, f"coefficients[{i}]")
        for i, c in enumerate(coefficients)
    ]

    # Horner's rule in floats, as numpy's polyval computes it, with the standard library
    # only: a code-mode dry run runs this module inside the sandbox, where numpy is not.
    degree = len(values) - 1
    derivative = [c * (degree - i) for i, c in enumerate(values[:-1])]

    def evaluate(p: Sequence[float]) -> RealFunction:
        def value(x: float) -> float:
            total = 0.0
            for c in p:
                # Divergent iterates may overflow to inf or nan, as numpy's would; the
                # caller stops on a non-finite step.
                total = total * x + c
            return total

        return value

    return evaluate(values), evaluate(derivative)


def function_and_derivative(
    coefficients: Any, f: RealFunction | None, df: RealFunction | None
) -> tuple[RealFunction, RealFunction]:
    """The function and its derivative: from ``coefficients``, or ``f`` and ``df``."""
    if coefficients is not None:
        if f is not None or df is not None:
            raise ValueError("give either coefficients or f and df, not both")
        return polynomial(coefficients)
    if f is None or df is None:
        raise ValueError("give coefficients, or both f and its derivative df")
    if not callable(f) or not callable(df):
        raise ValueError("f and df must be callables")
    return f, df


def only_function(coefficients: Any, f: RealFunction | None) -> RealFunction:
    """The function: the polynomial of ``coefficients``, or ``f``; exactly one of them."""
    if coefficients is not None:
        if f is not None:
            raise ValueError("give either coefficients or f, not both")
        return polynomial(coefficients)[0]
    if f is None:
        raise ValueError("give coefficients, or a function f")
    if not callable(f):
        raise ValueError("f must be a callable")
    return f


def positive_int(value: Any, name: str) -> int:
    """``value`` when it is an int (not a bool) of at least 1."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


def as_written(value: float) -> Fraction:
    """A number as its shortest decimal writes it (JSON's ``0.1`` is one tenth, not the
    double nearest it)."""
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def exact_polynomial(coefficients: Sequence[float]) -> ExactFunction:
    """The polynomial of ``coefficients`` (already checked), each as its decimals write it,
    evaluated in rational arithmetic by Horner's rule."""
    exact = [as_written(c) for c in coefficients]
    # Horner's rule on whole numbers: with x = p / q and the coefficients over a common
    # denominator d, p(x) = (s_0 p^n + s_1 p^(n-1) q + ... + s_n q^n) / (d q^n), one
    # fraction made (and reduced) per value instead of two per coefficient.
    common = math.lcm(*(c.denominator for c in exact)) if exact else 1
    scaled = [c.numerator * (common // c.denominator) for c in exact]

    def value(x: Fraction) -> Fraction:
        if not scaled:
            return Fraction(0)
        p, q = x.numerator, x.denominator
        total, power = scaled[0], 1
        for s in scaled[1:]:
            power *= q
            total = total * p + s * power
        return Fraction(total, common * power)

    return value
