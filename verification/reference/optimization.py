"""Reference optimizers: gradient descent, hill climbing, simulated annealing and a genetic
algorithm.

Each takes the plain JSON data a test case holds and returns the answer's exact JSON shape.
Functions come as data a prompt can show (polynomial coefficients, a quadratic form, a
table of values, weights), and every random draw comes from the input, so exactly one trace
is right. Each also keeps a callable signature (``f``, ``df``, ``neighbours``, ...) for
callers with Python code rather than data, as :func:`~verification.reference.numerical.
newton_raphson` does. Pure Python: importing this module loads no numpy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, NamedTuple

from verification.reference._inputs import finite, is_real

__all__ = [
    "MINIMUM_DECIMALS",
    "AnnealingStep",
    "DescentStep",
    "GenerationRecord",
    "PairRecord",
    "annealing_trace",
    "bit_fitness",
    "crossover_point",
    "descent_trace",
    "genetic_algorithm",
    "genetic_trace",
    "gradient_descent",
    "grid_neighbours",
    "hill_climbing",
    "simulated_annealing",
    "tournament_index",
]

Vector = tuple[float, ...]
GradientFunction = Callable[[Vector], Vector]


# --- shared input checks ----------------------------------------------------------------


def _list(value: Any, name: str) -> list[Any]:
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise ValueError(f"{name} must be a list, got {type(value).__name__}")
    return list(value)


def _count(value: Any, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    return value


def _uniform(value: Any, name: str) -> float:
    number = finite(value, name)
    if not 0.0 <= number < 1.0:
        raise ValueError(f"{name} must be a draw in [0, 1), got {value!r}")
    return number


def _bit_string(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value or set(value) - {"0", "1"}:
        raise ValueError(f"{name} must be a non-empty string of 0s and 1s, got {value!r}")
    return value


# --- gradient descent -------------------------------------------------------------------


MINIMUM_DECIMALS = 6
""":func:`gradient_descent` rounds the point it reports to this many decimals, as the
scaffold's Output Format asks."""


def _rounded(value: float) -> float:
    return round(value, MINIMUM_DECIMALS) + 0.0  # + 0.0 turns -0.0 into 0.0


class DescentStep(NamedTuple):
    """One gradient-descent iteration: ``step = learning_rate * gradient``,
    ``x_new = x - step``."""

    iteration: int
    x: Vector
    gradient: Vector
    x_new: Vector
    step_norm: float
    """The Euclidean length of ``step`` (its absolute value in one dimension)."""


def _polynomial_derivative(coefficients: Any) -> GradientFunction:
    values = [finite(c, f"coefficients[{i}]") for i, c in enumerate(_list(coefficients, "c"))]
    if not values:
        raise ValueError("coefficients must not be empty")
    degree = len(values) - 1
    derivative = [c * (degree - i) for i, c in enumerate(values[:-1])]

    def gradient(x: Vector) -> Vector:
        total = 0.0
        for c in derivative:  # Horner's rule, as the scaffold teaches it
            total = total * x[0] + c
        return (total,)

    return gradient


def _quadratic_gradient(matrix: Any, vector: Any) -> tuple[GradientFunction, int]:
    rows = _list(matrix, "matrix")
    size = len(rows)
    if size == 0:
        raise ValueError("matrix must not be empty")
    table = [
        [finite(a, f"matrix[{i}][{j}]") for j, a in enumerate(_list(row, f"matrix[{i}]"))]
        for i, row in enumerate(rows)
    ]
    if any(len(row) != size for row in table):
        raise ValueError(f"matrix must be square, {size} rows of {size} numbers")
    for i in range(size):
        for j in range(i):
            if table[i][j] != table[j][i]:
                raise ValueError(f"matrix must be symmetric: [{i}][{j}] != [{j}][{i}]")
    linear = [finite(b, f"vector[{i}]") for i, b in enumerate(_list(vector, "vector"))]
    if len(linear) != size:
        raise ValueError(f"vector must have {size} numbers, got {len(linear)}")

    def gradient(x: Vector) -> Vector:
        return tuple(
            sum(a * xj for a, xj in zip(row, x, strict=True)) + b
            for row, b in zip(table, linear, strict=True)
        )

    return gradient, size


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
) -> tuple[GradientFunction, Vector, bool]:
    sources = [coefficients is not None, matrix is not None or vector is not None]
    sources.append(f is not None or df is not None)
    if sum(sources) != 1:
        raise ValueError("give exactly one of coefficients, matrix and vector, or df (with f)")
    scalar = is_real(x0)
    if scalar:
        start: Vector = (finite(x0, "x0"),)
    else:
        start = tuple(finite(v, f"x0[{i}]") for i, v in enumerate(_list(x0, "x0")))
        if not start:
            raise ValueError("x0 must not be empty")
    if coefficients is not None:
        if not scalar:
            raise ValueError("a polynomial in coefficients takes a number x0")
        return _polynomial_derivative(coefficients), start, scalar
    if matrix is not None:
        if vector is None:
            raise ValueError("a quadratic form needs both matrix and vector")
        gradient, size = _quadratic_gradient(matrix, vector)
        if scalar or len(start) != size:
            raise ValueError(f"x0 must be a list of {size} numbers for this quadratic form")
        return gradient, start, scalar
    if vector is not None:
        raise ValueError("a quadratic form needs both matrix and vector")
    if df is None or not callable(df):
        raise ValueError("df (the gradient) must be a callable")
    if f is not None and not callable(f):
        raise ValueError("f must be a callable")
    return _callable_gradient(df, scalar), start, scalar


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
    gradient, x, _ = _descent_setup(f, df, x0, coefficients, matrix, vector)
    rate = finite(learning_rate, "learning_rate")
    if rate <= 0:
        raise ValueError(f"learning_rate must be positive, got {learning_rate!r}")
    tol = finite(tolerance, "tolerance")
    if tol <= 0:
        raise ValueError(f"tolerance must be positive, got {tolerance!r}")
    limit = _count(max_iterations, "max_iterations", 1)

    steps: list[DescentStep] = []
    for k in range(1, limit + 1):
        g = gradient(x)
        if len(g) != len(x):
            raise ValueError(f"df returned {len(g)} numbers for a point of {len(x)}")
        step = tuple(rate * gi for gi in g)
        x_new = tuple(xi - si for xi, si in zip(x, step, strict=True))
        norm = math.hypot(*step) if all(map(math.isfinite, step)) else math.inf
        steps.append(DescentStep(k, x, g, x_new, norm))
        if not all(map(math.isfinite, x_new)) or norm < tol:
            break
        x = x_new
    return steps


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
    if not all(map(math.isfinite, last.x_new)):
        # The scaffold's rule for any run that does not converge: the whole budget counts.
        return {"minimum": None, "iterations": int(max_iterations), "converged": False}
    rounded = [_rounded(v) for v in last.x_new]
    point: Any = rounded[0] if scalar else rounded
    return {
        "minimum": point,
        "iterations": last.iteration,
        "converged": last.step_norm < float(tolerance),
    }


# --- hill climbing ----------------------------------------------------------------------


def grid_neighbours(rows: int, columns: int, row: int, column: int) -> list[tuple[int, int]]:
    """The cells next to ``(row, column)`` in a ``rows x columns`` grid, in the scaffold's
    order: up, left, right, down (which is row-major order).

    Examples
    --------
    >>> grid_neighbours(3, 3, 1, 1)
    [(0, 1), (1, 0), (1, 2), (2, 1)]
    >>> grid_neighbours(3, 3, 0, 0)
    [(0, 1), (1, 0)]
    """
    around = [(row - 1, column), (row, column - 1), (row, column + 1), (row + 1, column)]
    return [(r, c) for r, c in around if 0 <= r < rows and 0 <= c < columns]


def _climb(
    value: Callable[[Any], float],
    neighbours: Callable[[Any], Sequence[Any]],
    start: Any,
    max_iterations: int,
) -> list[Any]:
    path = [start]
    current, current_value = start, value(start)
    for _ in range(max_iterations):
        chosen, chosen_value = None, current_value
        for candidate in neighbours(current):
            candidate_value = value(candidate)
            # Strictly greater: the first neighbour holding the highest value wins a tie,
            # and a neighbour only as good as the current state is no move.
            if candidate_value > chosen_value:
                chosen, chosen_value = candidate, candidate_value
        if chosen is None:
            break
        path.append(chosen)
        current, current_value = chosen, chosen_value
    return path


def _grid(grid: Any) -> list[list[float]]:
    rows = _list(grid, "grid")
    if not rows:
        raise ValueError("grid must have at least one row")
    table = [
        [finite(v, f"grid[{r}][{c}]") for c, v in enumerate(_list(row, f"grid[{r}]"))]
        for r, row in enumerate(rows)
    ]
    width = len(table[0])
    if width == 0 or any(len(row) != width for row in table):
        raise ValueError("grid must be rectangular with at least one column")
    return table


def _grid_start(start: Any, index: int, rows: int, columns: int) -> tuple[int, int]:
    cell = _list(start, f"starts[{index}]")
    if len(cell) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell):
        raise ValueError(f"starts[{index}] must be [row, column] integers, got {start!r}")
    row, column = cell
    if not (0 <= row < rows and 0 <= column < columns):
        raise ValueError(f"starts[{index}] = {start!r} is outside the {rows}x{columns} grid")
    return row, column


def hill_climbing(
    f: Callable[[Any], float] | None = None,
    neighbours: Callable[[Any], Sequence[Any]] | None = None,
    starts: Sequence[Any] | None = None,
    *,
    grid: Sequence[Sequence[float]] | None = None,
    max_iterations: int = 10_000,
) -> dict[str, Any]:
    """Steepest-ascent hill climbing (maximisation) from each start, keeping the best peak.

    The landscape comes as data, a ``grid`` of values whose cells are the states, or as
    callables ``f`` (the value of a state) and ``neighbours`` (a state's neighbours, in
    the order ties are broken).

    Parameters
    ----------
    f : callable, optional
        The value of a state (with ``neighbours``; not with ``grid``).
    neighbours : callable, optional
        The neighbours of a state, as an ordered sequence.
    starts : list
        The restarts, in order: at least one. With ``grid``, ``[row, column]`` cells
        (0-based, row 0 first).
    grid : list of list of number, optional
        A rectangular table; the neighbours of a cell are the cells up, left, right and
        down from it (row-major order), inside the grid.
    max_iterations : int, default 10000
        At most this many moves per start (a guard for endless callable landscapes; a
        finite grid always stops sooner).

    Returns
    -------
    dict
        ``{"paths": [[state, ...], ...], "best_state": state, "best_value": number}``: per
        start, the states visited from the start to the peak where it stopped; the peak
        with the highest value, the earliest start winning a tie. Grid states are
        ``[row, column]`` lists.

    Raises
    ------
    ValueError
        If not exactly one of ``grid`` and ``f``/``neighbours`` is given, ``starts`` is
        empty, the grid is not rectangular numbers, a start is not a cell of it, or
        ``max_iterations`` is not an integer of at least 1.

    Examples
    --------
    >>> hill_climbing(grid=[[1, 2, 3], [2, 5, 4], [9, 1, 0]], starts=[[0, 0], [2, 2]])
    {'paths': [[[0, 0], [0, 1], [1, 1]], [[2, 2], [1, 2], [1, 1]]], 'best_state': [1, 1], \
'best_value': 5}
    >>> hill_climbing(f=lambda x: -(x - 3) ** 2, neighbours=lambda x: [x - 1, x + 1],
    ...               starts=[0])
    {'paths': [[0, 1, 2, 3]], 'best_state': 3, 'best_value': 0}

    Notes
    -----
    Each iteration looks at every neighbour of the current state and moves to the one with
    the highest value if that value is strictly higher than the current one; among equal
    highest neighbours the first in neighbour order wins. The run stops at a state no
    neighbour beats (a local maximum or the edge of a plateau). Each move costs one pass
    over the neighbours: O(4) on a grid. The peak reached depends on the start, hence the
    restarts.

    References
    ----------
    .. [1] S. Russell, P. Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed.,
       section 4.1.1 "Hill-climbing search", 2020.
    """
    limit = _count(max_iterations, "max_iterations", 1)
    if starts is None:
        raise ValueError("starts must be given: a list of at least one start")
    start_list = _list(starts, "starts")
    if not start_list:
        raise ValueError("starts must hold at least one start")
    if grid is not None:
        if f is not None or neighbours is not None:
            raise ValueError("give either grid or f and neighbours, not both")
        table = _grid(grid)
        rows, columns = len(table), len(table[0])
        cells = [_grid_start(s, i, rows, columns) for i, s in enumerate(start_list)]
        # The values as given, so an integer grid answers with an integer best_value.
        numbers: list[list[float]] = [list(row) for row in _list(grid, "grid")]

        def value(cell: tuple[int, int]) -> float:
            return numbers[cell[0]][cell[1]]

        def around(cell: tuple[int, int]) -> list[tuple[int, int]]:
            return grid_neighbours(rows, columns, *cell)

        paths = [_climb(value, around, cell, limit) for cell in cells]
        peaks = [(path[-1], value(path[-1])) for path in paths]
        best, best_value = _best(peaks)
        return {
            "paths": [[list(cell) for cell in path] for path in paths],
            "best_state": list(best),
            "best_value": best_value,
        }
    if f is None or neighbours is None or not callable(f) or not callable(neighbours):
        raise ValueError("give grid, or both callables f and neighbours")
    callable_paths = [_climb(f, neighbours, start, limit) for start in start_list]
    best_state, best_score = _best([(path[-1], f(path[-1])) for path in callable_paths])
    return {"paths": callable_paths, "best_state": best_state, "best_value": best_score}


def _best(peaks: Sequence[tuple[Any, Any]]) -> tuple[Any, Any]:
    best, best_value = peaks[0]
    for state, score in peaks[1:]:
        if score > best_value:  # strictly: the earliest start keeps a tie
            best, best_value = state, score
    return best, best_value


# --- simulated annealing ----------------------------------------------------------------


class AnnealingStep(NamedTuple):
    """One simulated-annealing step at temperature ``temperature``."""

    step: int
    temperature: float
    state: Hashable
    candidate: Hashable
    delta: float
    """``energy(candidate) - energy(state)``."""
    probability: float | None
    """``exp(-delta / temperature)`` for an uphill move (``delta > 0``), else ``None``."""
    u: float
    accepted: bool


def _energy_table(energies: Any) -> tuple[dict[str, Any], int]:
    if not isinstance(energies, Mapping) or not energies:
        raise ValueError("energies must be a non-empty object {bit string: number}")
    table: dict[str, Any] = {}
    for key, energy in energies.items():
        _bit_string(key, f"energies key {key!r}")
        finite(energy, f"energies[{key!r}]")
        table[key] = energy
    width = len(next(iter(table)))
    if any(len(key) != width for key in table) or len(table) != 2**width:
        raise ValueError(f"energies must list all {2**width} bit strings of length {width}")
    return table, width


def _draw_pairs(draws: Any) -> list[tuple[float, float]]:
    pairs = []
    for k, pair in enumerate(_list(draws, "draws")):
        items = _list(pair, f"draws[{k}]")
        if len(items) != 2:
            raise ValueError(f"draws[{k}] must be [r, u], got {pair!r}")
        pairs.append((_uniform(items[0], f"draws[{k}][0]"), _uniform(items[1], f"draws[{k}][1]")))
    return pairs


def annealing_trace(
    f: Callable[[Any], float] | None = None,
    neighbour: Callable[[Any, float], Any] | None = None,
    *,
    initial_state: Any,
    initial_temperature: float,
    cooling_rate: float,
    draws: Sequence[Sequence[float]],
    energies: Mapping[str, float] | None = None,
) -> list[AnnealingStep]:
    """The steps :func:`simulated_annealing` takes, one :class:`AnnealingStep` per draw pair.

    Parameters
    ----------
    f, neighbour, initial_state, initial_temperature, cooling_rate, draws, energies
        As for :func:`simulated_annealing`.

    Returns
    -------
    list of AnnealingStep
        One per pair in ``draws`` (none for no draws).

    Raises
    ------
    ValueError
        As for :func:`simulated_annealing`.

    Examples
    --------
    >>> [(s.candidate, s.accepted) for s in annealing_trace(
    ...     energies={"0": 1, "1": 0}, initial_state="0", initial_temperature=1.0,
    ...     cooling_rate=0.5, draws=[[0.3, 0.9], [0.6, 0.5]])]
    [('1', True), ('0', False)]
    """
    energy, move, state = _annealing_setup(f, neighbour, initial_state, energies)
    temperature = finite(initial_temperature, "initial_temperature")
    if temperature <= 0:
        raise ValueError(f"initial_temperature must be positive, got {initial_temperature!r}")
    cooling = finite(cooling_rate, "cooling_rate")
    if not 0 < cooling <= 1:
        raise ValueError(f"cooling_rate must be in (0, 1], got {cooling_rate!r}")
    steps: list[AnnealingStep] = []
    current = energy(state)
    for k, (r, u) in enumerate(_draw_pairs(draws), start=1):
        candidate = move(state, r)
        candidate_energy = energy(candidate)
        delta = candidate_energy - current
        if delta <= 0:
            probability, accepted = None, True
        else:
            # Cooling may underflow the temperature to 0.0 (1e-300 times 1e-9), where
            # exp(-delta / T) has the limit 0.
            probability = math.exp(-delta / temperature) if temperature > 0 else 0.0
            # exp(-delta / T) is positive even where the float underflows to 0.0, so a
            # draw of exactly 0 is always below it.
            accepted = u < probability or u == 0.0
        steps.append(
            AnnealingStep(k, temperature, state, candidate, delta, probability, u, accepted)
        )
        if accepted:
            state, current = candidate, candidate_energy
        temperature *= cooling
    return steps


def _annealing_setup(
    f: Any, neighbour: Any, initial_state: Any, energies: Any
) -> tuple[Callable[[Any], Any], Callable[[Any, float], Any], Any]:
    if energies is not None:
        if f is not None or neighbour is not None:
            raise ValueError("give either energies or f and neighbour, not both")
        table, width = _energy_table(energies)
        state = _bit_string(initial_state, "initial_state")
        if len(state) != width:
            raise ValueError(f"initial_state must have {width} bits, got {initial_state!r}")

        def flip(bits: str, r: float) -> str:
            index = math.floor(r * width)
            return bits[:index] + ("1" if bits[index] == "0" else "0") + bits[index + 1 :]

        return table.__getitem__, flip, state
    if f is None or neighbour is None or not callable(f) or not callable(neighbour):
        raise ValueError("give energies, or both callables f and neighbour")
    return f, neighbour, initial_state


def simulated_annealing(
    f: Callable[[Any], float] | None = None,
    neighbour: Callable[[Any, float], Any] | None = None,
    *,
    initial_state: Any,
    initial_temperature: float,
    cooling_rate: float,
    draws: Sequence[Sequence[float]],
    energies: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """Minimise an energy by simulated annealing, with every random draw from ``draws``.

    The energy comes as data, a table over bit strings whose neighbour move flips one bit,
    or as callables ``f`` (the energy of a state) and ``neighbour(state, r)``.

    Parameters
    ----------
    f : callable, optional
        The energy of a state (with ``neighbour``; not with ``energies``).
    neighbour : callable, optional
        ``neighbour(state, r)``: the candidate move for the draw ``r``.
    initial_state : str or any
        The start; with ``energies``, a bit string of the table's length.
    initial_temperature : float
        The temperature of step 1 (positive).
    cooling_rate : float
        After every step the temperature is multiplied by this (in (0, 1]).
    draws : list of [r, u]
        One pair per step, in order: ``r`` picks the move, ``u`` decides an uphill move.
        Both in [0, 1).
    energies : dict of str to number, optional
        The energy of every bit string of one length n (all 2^n of them). The move for
        ``r`` flips bit ``floor(r * n)``, bit 0 being the leftmost character.

    Returns
    -------
    dict
        ``{"final_state", "final_energy", "best_state", "best_energy", "accepted"}``: the
        state after the last step and its energy; the lowest-energy state visited
        (``initial_state`` included; the first one reached wins a tie) and its energy;
        per step, whether the move was accepted.

    Raises
    ------
    ValueError
        If not exactly one of ``energies`` and ``f``/``neighbour`` is given, the table is
        not every bit string of one length with a finite number, ``initial_state`` is not
        one of its keys, a draw is not a pair of numbers in [0, 1), the temperature is not
        positive or ``cooling_rate`` is not in (0, 1].

    Examples
    --------
    >>> simulated_annealing(
    ...     energies={"00": 3, "01": 1, "10": 4, "11": 0}, initial_state="00",
    ...     initial_temperature=2.0, cooling_rate=0.5,
    ...     draws=[[0.2, 0.5], [0.7, 0.9], [0.3, 0.5]])
    {'final_state': '11', 'final_energy': 0, 'best_state': '11', 'best_energy': 0, \
'accepted': [True, True, False]}

    Notes
    -----
    Step k runs at ``T_k = initial_temperature * cooling_rate**(k - 1)``: the candidate is
    ``neighbour(state, r_k)``, ``delta = energy(candidate) - energy(state)``; a move with
    ``delta <= 0`` is always accepted (``u_k`` unused); an uphill move is accepted when
    ``u_k < exp(-delta / T_k)`` (the Metropolis rule). The best state only changes on a
    strictly lower energy. O(1) work per step with a table.

    References
    ----------
    .. [1] S. Kirkpatrick, C. D. Gelatt, M. P. Vecchi, "Optimization by simulated
       annealing", Science 220, 671-680 (1983).
    """
    steps = annealing_trace(
        f,
        neighbour,
        initial_state=initial_state,
        initial_temperature=initial_temperature,
        cooling_rate=cooling_rate,
        draws=draws,
        energies=energies,
    )
    energy, _, state = _annealing_setup(f, neighbour, initial_state, energies)
    current = energy(state)
    best, best_energy = state, current
    for step in steps:
        if step.accepted:
            state, current = step.candidate, energy(step.candidate)
            if current < best_energy:
                best, best_energy = state, current
    return {
        "final_state": state,
        "final_energy": current,
        "best_state": best,
        "best_energy": best_energy,
        "accepted": [step.accepted for step in steps],
    }


# --- genetic algorithm ------------------------------------------------------------------


class PairRecord(NamedTuple):
    """How one pair of children was made."""

    tournaments: tuple[tuple[int, int, int], tuple[int, int, int]]
    """Per parent ``(first index, second index, winner index)``."""
    point: int
    """The crossover point: children swap tails from this bit on."""
    crossed: tuple[str, str]
    """The children before mutation."""
    flipped: tuple[tuple[int, ...], tuple[int, ...]]
    """The bits mutation flipped, per child."""
    children: tuple[str, str]


class GenerationRecord(NamedTuple):
    """One generation: the population it started from and the pairs it made."""

    population: tuple[str, ...]
    fitness: tuple[float, ...]
    pairs: tuple[PairRecord, ...]


def bit_fitness(weights: Sequence[float], individual: str) -> float:
    """The sum of the weights of the bits set to 1.

    Examples
    --------
    >>> bit_fitness([3, -2, 5], "101")
    8
    """
    total: float = 0  # an int stays an int for integer weights
    for weight, bit in zip(weights, individual, strict=True):
        if bit == "1":
            total += weight
    return total


def tournament_index(draw: float, population_size: int) -> int:
    """The population index a tournament draw names: ``floor(draw * population_size)``.

    Examples
    --------
    >>> tournament_index(0.62, 4)
    2
    """
    return math.floor(draw * population_size)


def crossover_point(draw: float, length: int) -> int:
    """The single crossover point a draw names: ``1 + floor(draw * (length - 1))``, so
    each child keeps at least its first bit from its own parent.

    Examples
    --------
    >>> crossover_point(0.5, 5)
    3
    """
    return 1 + math.floor(draw * (length - 1))


def _pair_draws(pair: Any, where: str, length: int) -> tuple[list[float], float, list[list[float]]]:
    if not isinstance(pair, Mapping) or set(pair) != {"select", "cross", "mutate"}:
        raise ValueError(f"{where} must be an object with keys select, cross and mutate")
    select = [_uniform(v, f"{where}.select[{i}]") for i, v in enumerate(_list(pair["select"], ""))]
    if len(select) != 4:
        raise ValueError(f"{where}.select must hold 4 draws, got {len(select)}")
    cross = _uniform(pair["cross"], f"{where}.cross")
    mutate = _list(pair["mutate"], f"{where}.mutate")
    if len(mutate) != 2:
        raise ValueError(f"{where}.mutate must hold 2 lists (one per child)")
    masks = []
    for c, child in enumerate(mutate):
        mask = [_uniform(v, f"{where}.mutate[{c}][{i}]") for i, v in enumerate(_list(child, ""))]
        if len(mask) != length:
            raise ValueError(f"{where}.mutate[{c}] must hold {length} draws, one per bit")
        masks.append(mask)
    return select, cross, masks


def genetic_trace(
    f: Callable[[str], float] | None = None,
    *,
    population: Sequence[str],
    draws: Sequence[Sequence[Mapping[str, Any]]],
    mutation_rate: float,
    weights: Sequence[float] | None = None,
) -> tuple[list[GenerationRecord], list[str]]:
    """Every generation :func:`genetic_algorithm` runs, and the final population.

    Parameters
    ----------
    f, population, draws, mutation_rate, weights
        As for :func:`genetic_algorithm`.

    Returns
    -------
    tuple
        ``(generations, final_population)``: one :class:`GenerationRecord` per entry of
        ``draws``, and the population after the last one.

    Raises
    ------
    ValueError
        As for :func:`genetic_algorithm`.

    Examples
    --------
    >>> records, final = genetic_trace(population=["10", "01"], weights=[1, 2],
    ...     mutation_rate=0.0, draws=[[{"select": [0.1, 0.6, 0.7, 0.2], "cross": 0.5,
    ...                                 "mutate": [[0.5, 0.5], [0.5, 0.5]]}]])
    >>> records[0].pairs[0].tournaments, final
    (((0, 1, 1), (1, 0, 1)), ['01', '01'])
    """
    fitness = _fitness_function(f, weights)
    current = [_bit_string(s, f"population[{i}]") for i, s in enumerate(_list(population, "p"))]
    if not current or len(current) % 2:
        raise ValueError(f"population must hold an even number of individuals, got {len(current)}")
    length = len(current[0])
    if any(len(s) != length for s in current):
        raise ValueError("every individual must have the same number of bits")
    if weights is not None and len(weights) != length:
        raise ValueError(f"weights must hold {length} numbers, one per bit")
    rate = finite(mutation_rate, "mutation_rate")
    if not 0 <= rate <= 1:
        raise ValueError(f"mutation_rate must be in [0, 1], got {mutation_rate!r}")
    size = len(current)
    records = []
    for g, generation in enumerate(_list(draws, "draws")):
        pairs = _list(generation, f"draws[{g}]")
        if len(pairs) != size // 2:
            raise ValueError(f"draws[{g}] must hold {size // 2} pair objects")
        scores = [fitness(s) for s in current]
        made: list[PairRecord] = []
        children: list[str] = []
        for p, pair in enumerate(pairs):
            select, cross, masks = _pair_draws(pair, f"draws[{g}][{p}]", length)
            duels = []
            for first, second in ((select[0], select[1]), (select[2], select[3])):
                i, j = tournament_index(first, size), tournament_index(second, size)
                duels.append((i, j, j if scores[j] > scores[i] else i))
            mother, father = current[duels[0][2]], current[duels[1][2]]
            point = crossover_point(cross, length)
            crossed = (mother[:point] + father[point:], father[:point] + mother[point:])
            flipped = tuple(tuple(i for i, u in enumerate(mask) if u < rate) for mask in masks)
            pair_children = tuple(
                "".join(("1" if b == "0" else "0") if i in flips else b for i, b in enumerate(c))
                for c, flips in zip(crossed, flipped, strict=True)
            )
            made.append(
                PairRecord(
                    (duels[0], duels[1]),
                    point,
                    crossed,
                    (flipped[0], flipped[1]),
                    (pair_children[0], pair_children[1]),
                )
            )
            children.extend(pair_children)
        records.append(GenerationRecord(tuple(current), tuple(scores), tuple(made)))
        current = children
    return records, current


def _fitness_function(f: Any, weights: Any) -> Callable[[str], Any]:
    if weights is not None:
        if f is not None:
            raise ValueError("give either weights or f, not both")
        values = _list(weights, "weights")
        for i, w in enumerate(values):
            finite(w, f"weights[{i}]")
        return lambda individual: bit_fitness(values, individual)
    if f is None or not callable(f):
        raise ValueError("give weights, or a callable fitness f")
    result: Callable[[str], Any] = f
    return result


def genetic_algorithm(
    f: Callable[[str], float] | None = None,
    *,
    population: Sequence[str],
    draws: Sequence[Sequence[Mapping[str, Any]]],
    mutation_rate: float,
    weights: Sequence[float] | None = None,
) -> dict[str, Any]:
    """Maximise a fitness over bit strings with a generational genetic algorithm whose
    every random draw comes from ``draws``.

    Parameters
    ----------
    f : callable, optional
        The fitness of a bit string (instead of ``weights``).
    population : list of str
        The first generation: an even number of bit strings of one length L.
    draws : list of list of dict
        One entry per generation; each a list of P/2 objects (P the population size), one
        per pair of children, ``{"select": [a1, a2, b1, b2], "cross": c, "mutate": [[L
        draws], [L draws]]}``, every draw in [0, 1).
    mutation_rate : float
        A child's bit i flips when its mutation draw is below this (in [0, 1]).
    weights : list of number, optional
        The fitness of a bit string is the sum of the weights of its 1 bits.

    Returns
    -------
    dict
        ``{"population": [...], "best_individual": str, "best_fitness": number}``: the
        population after the last generation, and its fittest member (the lowest index
        wins a tie) with its fitness.

    Raises
    ------
    ValueError
        If not exactly one of ``weights`` and ``f`` is given, the population is empty, odd
        or not bit strings of one length, ``weights`` does not match that length, a
        generation does not hold one well-formed object per pair, a draw is outside
        [0, 1), or ``mutation_rate`` is outside [0, 1].

    Examples
    --------
    >>> genetic_algorithm(population=["1100", "0011", "1010", "0101"], weights=[4, -1, 2, 3],
    ...     mutation_rate=0.1, draws=[[
    ...         {"select": [0.1, 0.6, 0.9, 0.3], "cross": 0.5,
    ...          "mutate": [[0.5, 0.05, 0.7, 0.9], [0.4, 0.6, 0.8, 0.3]]},
    ...         {"select": [0.8, 0.4, 0.2, 0.55], "cross": 0.1,
    ...          "mutate": [[0.2, 0.3, 0.4, 0.5], [0.6, 0.7, 0.8, 0.02]]}]])
    {'population': ['1111', '0010', '0010', '1010'], 'best_individual': '1111', \
'best_fitness': 8}

    Notes
    -----
    Per generation, per pair in order: two tournaments of two (``a1, a2`` for the first
    parent, ``b1, b2`` for the second): a draw names index ``floor(draw * P)``, the fitter
    of the two named wins and the first named wins a tie; single-point crossover at
    ``1 + floor(c * (L - 1))``: child 1 is the first parent's head and the second's tail,
    child 2 the reverse; then every bit of child 1 (``mutate[0]``) and child 2
    (``mutate[1]``) flips where its draw is below ``mutation_rate``. The children, pair
    by pair, replace the whole population (no elitism). O(G * P * L) work.

    References
    ----------
    .. [1] D. E. Goldberg, *Genetic Algorithms in Search, Optimization and Machine
       Learning*, Addison-Wesley, 1989.
    .. [2] M. Mitchell, *An Introduction to Genetic Algorithms*, MIT Press, 1996.
    """
    _, final = genetic_trace(
        f, population=population, draws=draws, mutation_rate=mutation_rate, weights=weights
    )
    fitness = _fitness_function(f, weights)
    scores = [fitness(s) for s in final]
    best = max(range(len(final)), key=lambda i: (scores[i], -i))
    return {"population": final, "best_individual": final[best], "best_fitness": scores[best]}
