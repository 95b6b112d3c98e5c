"""Gradient descent with a fixed step on a polynomial or a quadratic form, and the trace of
its iterations."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from decimal import Decimal, localcontext
from typing import Any, NamedTuple

from verification.reference._inputs import finite, is_real, plain_number, round_half_away
from verification.reference.optimization._checks import as_list, count

__all__ = [
    "EXACT_DIGITS",
    "MINIMUM_DECIMALS",
    "DescentStep",
    "descent_lengths",
    "descent_points",
    "descent_points_and_lengths",
    "descent_trace",
    "exact_last_point",
    "gradient_descent",
]


Vector = tuple[float, ...]
GradientFunction = Callable[[Vector], Vector]


MINIMUM_DECIMALS = 6
""":func:`gradient_descent` rounds the point it reports to this many decimals, as the
scaffold's Output Format asks."""


EXACT_DIGITS = 400
"""Significant digits of the decimal replay behind :func:`exact_last_point`: every
quadratic the generator draws stays exact for 50 iterations (each step adds the learning
rate's few decimals); a cubic or quartic, whose digits triple each step, is then within
1e-390 of its exact point."""


def _rounded(value: Decimal) -> float:
    """``value`` to :data:`MINIMUM_DECIMALS` decimals, a tie away from zero (as the scaffold
    says, and as hand rounding does), computed on the decimal, never on a float near it."""
    return round_half_away(value, MINIMUM_DECIMALS)


class DescentStep(NamedTuple):
    """One gradient-descent iteration: ``step = learning_rate * gradient``,
    ``x_new = x - step``."""

    iteration: int
    x: Vector
    gradient: Vector
    x_new: Vector
    step_norm: float
    """The Euclidean length of ``step`` (its absolute value in one dimension)."""


def _finite_items(values: list[Any], name: str) -> list[float]:
    """:func:`finite` of each item, ``name[i]`` in its message: a number it passes for
    certain (:func:`plain_number`) is taken as the float it returns, without formatting
    a name (the generator checks the inputs of thousands of candidate runs)."""
    return [
        float(v) if plain_number(v) else finite(v, f"{name}[{i}]") for i, v in enumerate(values)
    ]


def _derivative_coefficients(coefficients: Any) -> list[float]:
    values = _finite_items(as_list(coefficients, "c"), "coefficients")
    if not values:
        raise ValueError("coefficients must not be empty")
    degree = len(values) - 1
    return [c * (degree - i) for i, c in enumerate(values[:-1])]


def _polynomial_derivative(coefficients: Any) -> GradientFunction:
    derivative = _derivative_coefficients(coefficients)

    def gradient(x: Vector) -> Vector:
        total = 0.0
        for c in derivative:  # Horner's rule, as the scaffold teaches it
            total = total * x[0] + c
        return (total,)

    return gradient


def _quadratic_gradient(
    matrix: Any, vector: Any
) -> tuple[GradientFunction, list[list[float]], list[float]]:
    rows = as_list(matrix, "matrix")
    size = len(rows)
    if size == 0:
        raise ValueError("matrix must not be empty")
    table = [
        _finite_items(as_list(row, f"matrix[{i}]"), f"matrix[{i}]") for i, row in enumerate(rows)
    ]
    if any(len(row) != size for row in table):
        raise ValueError(f"matrix must be square, {size} rows of {size} numbers")
    for i in range(size):
        for j in range(i):
            if table[i][j] != table[j][i]:
                raise ValueError(f"matrix must be symmetric: [{i}][{j}] != [{j}][{i}]")
    linear = _finite_items(as_list(vector, "vector"), "vector")
    if len(linear) != size:
        raise ValueError(f"vector must have {size} numbers, got {len(linear)}")

    def gradient(x: Vector) -> Vector:
        # Lists, not generators, inside: the same sums, in the same order, made faster.
        return tuple(
            [
                sum([a * xj for a, xj in zip(row, x, strict=True)]) + b
                for row, b in zip(table, linear, strict=True)
            ]
        )

    return gradient, table, linear


def _callable_gradient(df: Callable[..., Any], scalar: bool) -> GradientFunction:
    def gradient(x: Vector) -> Vector:
        value = df(x[0]) if scalar else df(list(x))
        if scalar:
            return (float(value),)
        return tuple(float(v) for v in value)

    return gradient


def _descent_setup(
    f: Any,
    df: Any,
    x0: Any,
    coefficients: Any,
    matrix: Any,
    vector: Any,
) -> tuple[GradientFunction, Vector, tuple[float, ...] | None]:
    """The gradient, the start, and a two-variable quadratic form's ``a, b, c, d, p, q``
    (``A = [[a, b], [c, d]]``, ``b = [p, q]``; ``None`` for any other function)."""
    sources = [coefficients is not None, matrix is not None or vector is not None]
    sources.append(f is not None or df is not None)
    if sum(sources) != 1:
        raise ValueError("give exactly one of coefficients, matrix and vector, or df (with f)")
    scalar = is_real(x0)
    if scalar:
        start: Vector = (finite(x0, "x0"),)
    else:
        start = tuple(_finite_items(as_list(x0, "x0"), "x0"))
        if not start:
            raise ValueError("x0 must not be empty")
    if coefficients is not None:
        if not scalar:
            raise ValueError("a polynomial in coefficients takes a number x0")
        return _polynomial_derivative(coefficients), start, None
    if matrix is not None:
        if vector is None:
            raise ValueError("a quadratic form needs both matrix and vector")
        gradient, table, linear = _quadratic_gradient(matrix, vector)
        size = len(table)
        if scalar or len(start) != size:
            raise ValueError(f"x0 must be a list of {size} numbers for this quadratic form")
        plane = (*table[0], *table[1], *linear) if size == 2 else None
        return gradient, start, plane
    if vector is not None:
        raise ValueError("a quadratic form needs both matrix and vector")
    if df is None or not callable(df):
        raise ValueError("df (the gradient) must be a callable")
    if f is not None and not callable(f):
        raise ValueError("f must be a callable")
    return _callable_gradient(df, scalar), start, None


def _plane_trace(
    plane: tuple[float, ...], x: Vector, rate: float, tol: float, limit: int
) -> list[DescentStep]:
    """:func:`descent_trace` of a two-variable quadratic form (the standard tier's
    generator traces thousands): the same operations as its loop and the form's gradient,
    the two coordinates unrolled."""
    a, b, c, d, p, q = plane
    u, v = x
    isfinite = math.isfinite
    steps: list[DescentStep] = []
    for k in range(1, limit + 1):
        g = (sum([a * u, b * v]) + p, sum([c * u, d * v]) + q)
        s, t = rate * g[0], rate * g[1]
        new_u, new_v = u - s, v - t
        norm = math.hypot(s, t) if isfinite(s) and isfinite(t) else math.inf
        steps.append(DescentStep(k, (u, v), g, (new_u, new_v), norm))
        if not (isfinite(new_u) and isfinite(new_v)) or norm < tol:
            break
        u, v = new_u, new_v
    return steps


def _run_settings(
    learning_rate: Any, tolerance: Any, max_iterations: Any
) -> tuple[float, float, int]:
    rate = finite(learning_rate, "learning_rate")
    if rate <= 0:
        raise ValueError(f"learning_rate must be positive, got {learning_rate!r}")
    tol = finite(tolerance, "tolerance")
    if tol <= 0:
        raise ValueError(f"tolerance must be positive, got {tolerance!r}")
    return rate, tol, count(max_iterations, "max_iterations", 1)


def descent_trace(
    f: Callable[..., Any] | None = None,
    df: Callable[..., Any] | None = None,
    *,
    x0: float | Sequence[float],
    learning_rate: float,
    tolerance: float = 1e-6,
    max_iterations: int = 50,
    coefficients: Sequence[float] | None = None,
    matrix: Sequence[Sequence[float]] | None = None,
    vector: Sequence[float] | None = None,
) -> list[DescentStep]:
    """The iterations :func:`gradient_descent` performs, one :class:`DescentStep` each.

    Takes the same arguments as :func:`gradient_descent`. The last step is the one that
    stopped the run: its step was shorter than ``tolerance``, it left the finite numbers,
    or it was iteration ``max_iterations``.

    Parameters
    ----------
    f, df, x0, learning_rate, tolerance, max_iterations, coefficients, matrix, vector
        As for :func:`gradient_descent`.

    Returns
    -------
    list of DescentStep
        At least one step; at most ``max_iterations``. Points are tuples, one number per
        coordinate (a 1-tuple in one dimension).

    Raises
    ------
    ValueError
        As for :func:`gradient_descent`.

    Examples
    --------
    >>> [(s.x, s.x_new) for s in descent_trace(coefficients=[1, 0, 0], x0=2.0,
    ...                                         learning_rate=0.5)]
    [((2.0,), (0.0,)), ((0.0,), (0.0,))]

    Notes
    -----
    One gradient evaluation per iteration.

    References
    ----------
    .. [1] J. Nocedal, S. J. Wright, *Numerical Optimization*, 2nd ed., chapter 3, 2006.
    """
    gradient, x, plane = _descent_setup(f, df, x0, coefficients, matrix, vector)
    rate, tol, limit = _run_settings(learning_rate, tolerance, max_iterations)
    if plane is not None:
        return _plane_trace(plane, x, rate, tol, limit)

    steps: list[DescentStep] = []
    if len(x) == 1:  # the same steps without the tuple work of n dimensions (most runs)
        for k in range(1, limit + 1):
            g = gradient(x)
            if len(g) != 1:
                raise ValueError(f"df returned {len(g)} numbers for a point of 1")
            step_1 = rate * g[0]
            new_1 = x[0] - step_1
            # math.hypot of one number is its absolute value
            norm = abs(step_1) if math.isfinite(step_1) else math.inf
            steps.append(DescentStep(k, x, g, (new_1,), norm))
            if not math.isfinite(new_1) or norm < tol:
                break
            x = (new_1,)
        return steps
    for k in range(1, limit + 1):
        g = gradient(x)
        if len(g) != len(x):
            raise ValueError(f"df returned {len(g)} numbers for a point of {len(x)}")
        step = tuple([rate * gi for gi in g])
        x_new = tuple([xi - si for xi, si in zip(x, step, strict=True)])
        norm = math.hypot(*step) if all(map(math.isfinite, step)) else math.inf
        steps.append(DescentStep(k, x, g, x_new, norm))
        if not all(map(math.isfinite, x_new)) or norm < tol:
            break
        x = x_new
    return steps


def descent_points(
    coefficients: Sequence[float],
    *,
    x0: float,
    learning_rate: float,
    tolerance: float = 1e-6,
    max_iterations: int = 50,
) -> list[float]:
    """The points a polynomial's descent passes: ``x`` of each step of
    :func:`descent_trace` and the last ``x_new``, the same floats without the steps.

    A generator deciding thousands of candidates from their runs needs only the points;
    building a :class:`DescentStep` and calling a gradient function per iteration cost
    most of that.

    Parameters
    ----------
    coefficients : list of float
        A polynomial, highest degree first, as for :func:`gradient_descent`.
    x0, learning_rate, tolerance, max_iterations
        As for :func:`gradient_descent` (``x0`` a number).

    Returns
    -------
    list of float
        ``x0`` then ``x_new`` of each iteration: one more point than
        :func:`descent_trace` has steps, the last the point the run stopped at (not finite
        when it overflowed).

    Raises
    ------
    ValueError
        As for :func:`gradient_descent`, and when ``x0`` is not a number.

    Examples
    --------
    >>> descent_points([1, 0, 0], x0=2.0, learning_rate=0.5)
    [2.0, 0.0, 0.0]

    Notes
    -----
    The points of :func:`descent_points_and_lengths`, which says how they are computed.
    """
    points, _ = descent_points_and_lengths(
        coefficients,
        x0=x0,
        learning_rate=learning_rate,
        tolerance=tolerance,
        max_iterations=max_iterations,
    )
    return points


def descent_points_and_lengths(
    coefficients: Sequence[float],
    *,
    x0: float,
    learning_rate: float,
    tolerance: float = 1e-6,
    max_iterations: int = 50,
) -> tuple[list[float], list[float]]:
    """The points a polynomial's descent passes and the length of each step: ``x`` of each
    step of :func:`descent_trace` and the last ``x_new``, and each step's ``step_norm``, the
    same floats without the steps.

    The ``gradient_descent`` generator decides thousands of candidates from the points
    (where the run ends) and the lengths (which tolerance stops it when): one run for both.

    Parameters
    ----------
    coefficients : list of float
        A polynomial, highest degree first, as for :func:`gradient_descent`.
    x0, learning_rate, tolerance, max_iterations
        As for :func:`gradient_descent` (``x0`` a number).

    Returns
    -------
    tuple of list of float
        The points: ``x0`` then ``x_new`` of each iteration, one more than
        :func:`descent_trace` has steps, the last the point the run stopped at (not finite
        when it overflowed). The lengths: ``|step|`` of each iteration (infinite when the
        step is not finite), one per step, as :func:`descent_lengths` gives them.

    Raises
    ------
    ValueError
        As for :func:`gradient_descent`, and when ``x0`` is not a number.

    Examples
    --------
    >>> descent_points_and_lengths([1, 0, 0], x0=2.0, learning_rate=0.5)
    ([2.0, 0.0, 0.0], [2.0, 0.0])

    Notes
    -----
    The arithmetic of :func:`descent_trace`, operation for operation: Horner's rule on the
    derivative's coefficients, ``step = learning_rate * g``, ``x_new = x - step``, stop
    when ``x_new`` is not finite or ``|step| < tolerance`` (a step that is not finite is
    never below it). One derivative evaluation per iteration. Horner's rule starts from
    ``0.0 * x + d0``, which is ``d0`` itself for a finite ``x`` when ``d0`` is not zero:
    a cubic's or a quartic's (the generator's) is then written out, from ``d0``.
    """
    derivative = _derivative_coefficients(coefficients)
    if not is_real(x0):
        raise ValueError(f"a polynomial in coefficients takes a number x0, got {x0!r}")
    x = finite(x0, "x0")
    rate, tol, limit = _run_settings(learning_rate, tolerance, max_iterations)
    isfinite, inf = math.isfinite, math.inf
    points = [x]
    lengths: list[float] = []
    if len(derivative) == 3 and derivative[0] != 0:  # a cubic
        d0, d1, d2 = derivative
        for _ in range(limit):
            step = rate * ((d0 * x + d1) * x + d2)
            x = x - step
            points.append(x)
            length = abs(step) if isfinite(step) else inf
            lengths.append(length)
            if not isfinite(x) or length < tol:
                break
        return points, lengths
    if len(derivative) == 4 and derivative[0] != 0:  # a quartic
        d0, d1, d2, d3 = derivative
        for _ in range(limit):
            step = rate * (((d0 * x + d1) * x + d2) * x + d3)
            x = x - step
            points.append(x)
            length = abs(step) if isfinite(step) else inf
            lengths.append(length)
            if not isfinite(x) or length < tol:
                break
        return points, lengths
    for _ in range(limit):
        total = 0.0
        for c in derivative:  # Horner's rule, as in _polynomial_derivative
            total = total * x + c
        step = rate * total
        x = x - step
        points.append(x)
        length = abs(step) if isfinite(step) else inf
        lengths.append(length)
        if not isfinite(x) or length < tol:
            break
    return points, lengths


def descent_lengths(
    *,
    x0: float | Sequence[float],
    learning_rate: float,
    tolerance: float = 1e-6,
    max_iterations: int = 50,
    coefficients: Sequence[float] | None = None,
    matrix: Sequence[Sequence[float]] | None = None,
    vector: Sequence[float] | None = None,
) -> tuple[list[float], list[float]]:
    """Each step's length and reach of a polynomial's or a two-variable quadratic form's
    descent: ``step_norm`` of each step of :func:`descent_trace`, and the largest absolute
    coordinate of its ``x`` and ``x_new``, the same floats without the steps.

    A generator deciding thousands of candidates from their runs needs only these; the
    input checks, a gradient call and a :class:`DescentStep` per iteration cost most of
    :func:`descent_trace`.

    Parameters
    ----------
    x0, learning_rate, tolerance, max_iterations
        As for :func:`gradient_descent`: ``x0`` a number with ``coefficients``, two numbers
        with a 2 x 2 ``matrix`` and ``vector``.
    coefficients, matrix, vector
        A polynomial, or a symmetric 2 x 2 quadratic form, as for :func:`gradient_descent`.

    Returns
    -------
    tuple of list of float
        The step lengths and the reaches, one of each per step, as many as
        :func:`descent_trace` has steps.

    Raises
    ------
    ValueError
        Unchecked input: give what :func:`gradient_descent` accepts (its numbers as
        ``float`` takes them); neither a polynomial nor a 2 x 2 form is an error.

    Examples
    --------
    >>> descent_lengths(coefficients=[1, 0, 0], x0=2.0, learning_rate=0.5)
    ([2.0, 0.0], [2.0, 0.0])

    Notes
    -----
    The arithmetic of :func:`descent_trace`, operation for operation: Horner's rule on
    the derivative's coefficients, or ``A x + b`` summed as its gradient sums it,
    ``step = learning_rate * g``, ``x_new = x - step``, the length ``|step|`` (its
    ``math.hypot`` in two variables; infinite when a part is not finite), stop when
    ``x_new`` is not finite or the length is below ``tolerance``. The reach is
    ``max`` of the absolute coordinates of ``x`` then ``x_new``, in that order.
    """
    rate, tol = float(learning_rate), float(tolerance)
    isfinite, inf = math.isfinite, math.inf
    lengths: list[float] = []
    reach: list[float] = []
    if coefficients is not None:
        derivative = _derivative_coefficients(coefficients)
        x = float(x0)  # type: ignore[arg-type]
        for _ in range(max_iterations):
            total = 0.0
            for c in derivative:
                total = total * x + c
            step = rate * total
            new = x - step
            length = abs(step) if isfinite(step) else inf
            lengths.append(length)
            reach.append(max(abs(x), abs(new)))
            if not isfinite(new) or length < tol:
                break
            x = new
        return lengths, reach
    if matrix is None or vector is None or len(matrix) != 2:
        raise ValueError("descent_lengths takes a polynomial or a 2 x 2 quadratic form")
    (a, b), (c, d) = ([float(v) for v in row] for row in matrix)
    p, q = (float(v) for v in vector)
    u, v = (float(w) for w in x0)  # type: ignore[union-attr]
    for _ in range(max_iterations):
        s, t = rate * (sum([a * u, b * v]) + p), rate * (sum([c * u, d * v]) + q)
        new_u, new_v = u - s, v - t
        length = math.hypot(s, t) if isfinite(s) and isfinite(t) else inf
        lengths.append(length)
        reach.append(max(abs(u), abs(v), abs(new_u), abs(new_v)))
        if not (isfinite(new_u) and isfinite(new_v)) or length < tol:
            break
        u, v = new_u, new_v
    return lengths, reach


def gradient_descent(
    f: Callable[..., Any] | None = None,
    df: Callable[..., Any] | None = None,
    *,
    x0: float | Sequence[float],
    learning_rate: float,
    tolerance: float = 1e-6,
    max_iterations: int = 50,
    coefficients: Sequence[float] | None = None,
    matrix: Sequence[Sequence[float]] | None = None,
    vector: Sequence[float] | None = None,
) -> dict[str, Any]:
    """Minimise a function by fixed-step gradient descent from ``x0``.

    The function comes as data, a polynomial in one variable (``coefficients``) or a
    quadratic form ``f(x) = 1/2 x^T A x + b^T x`` (``matrix`` A, ``vector`` b), or as
    callables ``f`` and ``df`` as in the API reference.

    Parameters
    ----------
    f : callable, optional
        The function; accepted for the API reference's signature, the descent itself only
        needs ``df``.
    df : callable, optional
        The derivative (``float -> float`` when ``x0`` is a number) or the gradient
        (``list -> list`` when ``x0`` is a list).
    x0 : float or list of float
        The starting point: a number for a polynomial, a list of n numbers for an n x n
        quadratic form.
    learning_rate : float
        The step factor (positive): ``x_new = x - learning_rate * gradient(x)``.
    tolerance : float, default 1e-6
        Converged when a step is shorter than this (Euclidean length; positive).
    max_iterations : int, default 50
        At most this many iterations (at least 1).
    coefficients : list of float, optional
        A polynomial, highest degree first (``numpy.polyval`` order).
    matrix : list of list of float, optional
        The symmetric matrix A of a quadratic form; its gradient is ``A x + b``.
    vector : list of float, optional
        The linear term b of the quadratic form.

    Returns
    -------
    dict
        ``{"minimum": point, "iterations": int, "converged": bool}``. ``minimum`` is the
        last point reached, rounded to :data:`MINIMUM_DECIMALS` (6) decimals and shaped
        like ``x0`` (a number or a list): ``x_new`` of the
        iteration whose step fell below ``tolerance`` (``converged`` true), or the point
        after ``max_iterations`` iterations (``converged`` false). It is ``None`` when an
        iterate overflows (a diverging run); ``iterations`` is then ``max_iterations``, as
        for every run that does not converge.

    Raises
    ------
    ValueError
        If not exactly one of ``coefficients``, ``matrix``/``vector`` and ``df`` is given,
        the matrix is not square and symmetric or does not match ``vector`` and ``x0``, a
        number is not finite, ``learning_rate`` or ``tolerance`` is not positive, or
        ``max_iterations`` is not an integer of at least 1.

    Examples
    --------
    >>> gradient_descent(coefficients=[1, -4, 1], x0=0.0, learning_rate=0.4)
    {'minimum': 2.0, 'iterations': 10, 'converged': True}
    >>> gradient_descent(f=lambda x: x**2, df=lambda x: 2 * x, x0=5.0, learning_rate=0.1)
    {'minimum': 7.1e-05, 'iterations': 50, 'converged': False}
    >>> gradient_descent(matrix=[[2, 0], [0, 4]], vector=[-2, 4], x0=[1, -1],
    ...                  learning_rate=0.25)
    {'minimum': [1.0, -1.0], 'iterations': 1, 'converged': True}

    Notes
    -----
    The algorithm, exactly: ``x = x0``; for k in 1..max_iterations: ``g = gradient(x)``,
    ``step = learning_rate * g``, ``x_new = x - step``; if ``|step| < tolerance`` return
    (x_new, k, True); ``x = x_new``. After the loop: (x, max_iterations, False). An
    iterate that overflows ends the run as (None, max_iterations, False): it cannot come
    back, and no finite point is left to report. A start
    at any stationary point (a minimum, a maximum, a saddle) takes a zero step and
    converges at iteration 1. Each iteration costs one gradient evaluation: O(d) for a
    polynomial of degree d, O(n^2) for an n x n quadratic form. On a quadratic form the
    iteration converges when ``0 < learning_rate < 2 / lambda_max`` and A is positive
    definite, linearly with ratio ``max |1 - learning_rate * lambda_i|``.

    References
    ----------
    .. [1] J. Nocedal, S. J. Wright, *Numerical Optimization*, 2nd ed., chapter 3, 2006.
    """
    steps = descent_trace(
        f,
        df,
        x0=x0,
        learning_rate=learning_rate,
        tolerance=tolerance,
        max_iterations=max_iterations,
        coefficients=coefficients,
        matrix=matrix,
        vector=vector,
    )
    last = steps[-1]
    scalar = is_real(x0)
    exact = _exact_point(steps, x0, learning_rate, coefficients, matrix, vector)
    if exact is None:
        # The scaffold's rule for any run that does not converge: the whole budget counts.
        return {"minimum": None, "iterations": int(max_iterations), "converged": False}
    rounded = [_rounded(v) for v in exact]
    point: Any = rounded[0] if scalar else rounded
    return {
        "minimum": point,
        "iterations": last.iteration,
        "converged": last.step_norm < float(tolerance),
    }


def _as_decimal(value: float) -> Decimal:
    """A number as JSON writes it: the float 0.225 is the decimal 0.225, not the double's
    0.225000000000000005551..."""
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)


def _exact_point(
    steps: Sequence[DescentStep],
    x0: Any,
    learning_rate: Any,
    coefficients: Any,
    matrix: Any,
    vector: Any,
) -> tuple[Decimal, ...] | None:
    """The last point of ``steps`` replayed in decimal arithmetic on the inputs as written,
    for as many iterations; ``None`` when the float run overflowed. A function given as a
    callable has no decimal form: its float point is taken as written."""
    last = steps[-1]
    if not all(map(math.isfinite, last.x_new)):
        return None
    if coefficients is None and matrix is None:
        return tuple(_as_decimal(v) for v in last.x_new)
    with localcontext(prec=EXACT_DIGITS):
        rate = _as_decimal(learning_rate)
        x = [_as_decimal(v) for v in ([x0] if is_real(x0) else x0)]
        if coefficients is not None:
            values = [_as_decimal(c) for c in coefficients]
            degree = len(values) - 1
            derivative = [c * (degree - i) for i, c in enumerate(values[:-1])]
            for _ in range(last.iteration):
                total = Decimal(0)
                for c in derivative:  # Horner's rule, as the scaffold teaches it
                    total = total * x[0] + c
                x = [x[0] - rate * total]
        else:
            table = [[_as_decimal(a) for a in row] for row in matrix]
            linear = [_as_decimal(b) for b in vector]
            for _ in range(last.iteration):
                gradient = [
                    sum((a * xj for a, xj in zip(row, x, strict=True)), Decimal(0)) + b
                    for row, b in zip(table, linear, strict=True)
                ]
                x = [xi - rate * gi for xi, gi in zip(x, gradient, strict=True)]
        return tuple(v.normalize() for v in x)


def exact_last_point(
    f: Callable[..., Any] | None = None,
    df: Callable[..., Any] | None = None,
    *,
    x0: float | Sequence[float],
    learning_rate: float,
    tolerance: float = 1e-6,
    max_iterations: int = 50,
    coefficients: Sequence[float] | None = None,
    matrix: Sequence[Sequence[float]] | None = None,
    vector: Sequence[float] | None = None,
) -> tuple[Decimal, ...] | None:
    """The point :func:`gradient_descent` reports, before rounding, in decimal arithmetic.

    Parameters
    ----------
    f, df, x0, learning_rate, tolerance, max_iterations, coefficients, matrix, vector
        As for :func:`gradient_descent`.

    Returns
    -------
    tuple of Decimal or None
        One decimal per coordinate: the last iterate computed on the inputs as their
        decimals write them (exact for a quadratic, within :data:`EXACT_DIGITS` significant
        digits otherwise), after the iterations the run takes; ``None`` when it overflows.

    Raises
    ------
    ValueError
        As for :func:`gradient_descent`.

    Examples
    --------
    >>> exact_last_point(coefficients=[2, 1, -1], x0=4.0, learning_rate=0.225,
    ...                  tolerance=0.001)
    (Decimal('-0.2499575'),)

    Notes
    -----
    The float iterate of that example is the double nearest -0.2499575, which lies below
    the tie and would round to -0.249957; the decimal rounds to -0.249958, a tie away from
    zero. The iteration count and the stop are the float run's: the generator keeps every
    step a factor 2 away from the tolerance, where the two cannot differ.
    """
    steps = descent_trace(
        f,
        df,
        x0=x0,
        learning_rate=learning_rate,
        tolerance=tolerance,
        max_iterations=max_iterations,
        coefficients=coefficients,
        matrix=matrix,
        vector=vector,
    )
    return _exact_point(steps, x0, learning_rate, coefficients, matrix, vector)
