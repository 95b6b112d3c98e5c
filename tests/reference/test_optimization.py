"""The optimization references against the independent replays of their scaffold tests
(``tests/catalog/test_<name>.py``, see ``conftest.py``: numpy arrays, integer states and
XOR masks), on inputs beyond what the generators draw but within the references' input
checks: plateaus and one-row grids, equal energies, no cooling, a temperature near zero,
draws of exactly 0, mutation rates 0 and 1, negative weights, and descents that oscillate
or stall."""

from __future__ import annotations

import itertools
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from verification.reference.optimization import (
    descent_lengths,
    descent_points,
    descent_points_and_lengths,
    descent_trace,
    genetic_algorithm,
    gradient_descent,
    hill_climbing,
    simulated_annealing,
)

draw = st.sampled_from([0.0, 0.0, 0.25, 0.5, 0.75, 0.999999])


@st.composite
def grids(draw_: st.DrawFn) -> dict[str, Any]:
    rows, columns = draw_(st.integers(1, 4)), draw_(st.integers(1, 4))
    value = st.integers(-2, 2)  # few values: plateaus and tied neighbours everywhere
    grid = [[draw_(value) for _ in range(columns)] for _ in range(rows)]
    cell = st.tuples(st.integers(0, rows - 1), st.integers(0, columns - 1)).map(list)
    return {"grid": grid, "starts": draw_(st.lists(cell, min_size=1, max_size=3))}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(inp=grids())
def test_hill_climbing_on_plateaus_and_thin_grids(
    inp: dict[str, Any], scaffold_tests: dict[str, ModuleType]
) -> None:
    replay = scaffold_tests["hill_climbing"]._replay
    assert hill_climbing(**inp) == replay(inp["grid"], inp["starts"])


@st.composite
def landscapes(draw_: st.DrawFn) -> dict[str, Any]:
    n = draw_(st.integers(1, 3))
    states = ["".join(bits) for bits in itertools.product("01", repeat=n)]
    return {
        "energies": {state: draw_(st.integers(-2, 2)) for state in states},
        "initial_state": draw_(st.sampled_from(states)),
        "initial_temperature": draw_(st.sampled_from([1e-300, 1e-9, 0.5, 1.0, 1e6])),
        "cooling_rate": draw_(st.sampled_from([1e-9, 0.5, 0.9, 1.0])),
        "draws": draw_(st.lists(st.tuples(draw, draw).map(list), max_size=8)),
    }


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(inp=landscapes())
@example(  # the temperature underflowed to 0.0 and the reference divided by it
    inp={
        "energies": {"0": 1, "1": 0},
        "initial_state": "1",
        "initial_temperature": 1e-300,
        "cooling_rate": 1e-9,
        "draws": [[0.0, 0.5], [0.0, 0.0], [0.0, 0.5]],
    },
)
def test_simulated_annealing_on_ties_and_extreme_temperatures(
    inp: dict[str, Any], scaffold_tests: dict[str, ModuleType]
) -> None:
    assert simulated_annealing(**inp) == scaffold_tests["simulated_annealing"]._replay(inp)


@st.composite
def generations(draw_: st.DrawFn) -> dict[str, Any]:
    length, size = draw_(st.integers(1, 4)), 2 * draw_(st.integers(1, 2))
    bits = st.text("01", min_size=length, max_size=length)
    mask = st.lists(draw, min_size=length, max_size=length)
    pair = st.fixed_dictionaries(
        {
            "select": st.lists(draw, min_size=4, max_size=4),
            "cross": draw,
            "mutate": st.lists(mask, min_size=2, max_size=2),
        }
    )
    return {
        "population": draw_(st.lists(bits, min_size=size, max_size=size)),
        "weights": draw_(st.lists(st.integers(-3, 3), min_size=length, max_size=length)),
        "mutation_rate": draw_(st.sampled_from([0.0, 0.25, 1.0])),
        "draws": draw_(
            st.lists(st.lists(pair, min_size=size // 2, max_size=size // 2), max_size=3)
        ),
    }


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(inp=generations())
def test_genetic_algorithm_on_ties_and_extreme_rates(
    inp: dict[str, Any], scaffold_tests: dict[str, ModuleType]
) -> None:
    assert genetic_algorithm(**inp) == scaffold_tests["genetic_algorithm"]._replay(inp)


@st.composite
def descents(draw_: st.DrawFn) -> dict[str, Any]:
    common = {
        "learning_rate": draw_(st.sampled_from([0.01, 0.1, 0.25, 0.5, 1.0])),
        "tolerance": draw_(st.sampled_from([1e-6, 1e-3, 0.1, 10.0])),
        "max_iterations": draw_(st.integers(1, 60)),
    }
    if draw_(st.booleans()):
        coefficients = draw_(st.lists(st.integers(-3, 3), min_size=1, max_size=5))
        return {**common, "coefficients": coefficients, "x0": float(draw_(st.integers(-3, 3)))}
    n = draw_(st.integers(1, 3))
    lower = [[draw_(st.integers(-2, 3)) for _ in range(n)] for _ in range(n)]
    matrix = [[lower[max(i, j)][min(i, j)] for j in range(n)] for i in range(n)]  # symmetric
    vector = [draw_(st.integers(-3, 3)) for _ in range(n)]
    x0 = [float(draw_(st.integers(-3, 3))) for _ in range(n)]
    return {**common, "matrix": matrix, "vector": vector, "x0": x0}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(inp=descents())
@example(  # diverging to 1e18: one coordinate is 0 here and 256 in numpy, both float noise
    inp={
        "matrix": [[-1, 3], [3, 3]],
        "vector": [-1, -1],
        "x0": [0.0, 0.0],
        "learning_rate": 1.0,
        "tolerance": 1e-6,
        "max_iterations": 34,
    }
)
def test_gradient_descent_matches_a_numpy_replay(
    inp: dict[str, Any], scaffold_tests: dict[str, ModuleType]
) -> None:
    point, iterations, converged = scaffold_tests["gradient_descent"]._replay(inp)
    answer = gradient_descent(**inp)
    assert (answer["iterations"], answer["converged"]) == (iterations, converged)
    if point is None:  # diverged past the largest double
        assert answer["minimum"] is None
        return
    minimum = np.atleast_1d(np.asarray(answer["minimum"], dtype=float))
    # Relative to the point's largest coordinate: on a diverging run the summation order
    # (the reference's against numpy's) moves a small coordinate by ulps of the largest.
    scale = float(np.max(np.abs(point)))
    assert np.allclose(minimum, point, rtol=1e-9, atol=1e-6 + 1e-12 * scale)


def test_a_diverging_descent_counts_every_iteration() -> None:
    inp = {
        "coefficients": [1, 0, 0],
        "x0": 1,
        "learning_rate": 10,
        "tolerance": 1e-5,
        "max_iterations": 300,
    }
    # gradient_descent.md: not converged means iterations = max_iterations.
    assert gradient_descent(**inp)["iterations"] == inp["max_iterations"]


@settings(max_examples=100, deadline=None)
@given(
    coefficients=st.lists(st.integers(-6, 6) | st.floats(-6, 6), min_size=1, max_size=5),
    x0=st.integers(-40, 40).map(lambda x: x / 10),
    rate=st.sampled_from([0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 3.0]),
    tolerance=st.sampled_from([1e-12, 1e-6, 1e-2]),
    limit=st.integers(1, 60),
)
def test_descent_points_are_the_traces_points(
    coefficients: list[float], x0: float, rate: float, tolerance: float, limit: int
) -> None:
    """The gradient_descent generator decides candidates from descent_points: the same
    floats, bit for bit, as descent_trace's steps (converging, stalling, diverging past
    the doubles)."""
    inp = {"x0": x0, "learning_rate": rate, "tolerance": tolerance, "max_iterations": limit}
    steps = descent_trace(coefficients=coefficients, **inp)
    points = descent_points(coefficients, **inp)
    assert [repr(x) for x in points] == [repr(s.x[0]) for s in steps] + [repr(steps[-1].x_new[0])]
    # The same run with its step lengths, which the generator reads instead of running
    # descent_lengths again: the trace's step_norm and descent_lengths', bit for bit.
    also, lengths = descent_points_and_lengths(coefficients, **inp)
    assert [repr(x) for x in also] == [repr(x) for x in points]
    assert [repr(v) for v in lengths] == [repr(s.step_norm) for s in steps]
    assert [repr(v) for v in lengths] == [
        repr(v) for v in descent_lengths(coefficients=coefficients, **inp)[0]
    ]


def _run_error_as_it_was(
    curve: list[float],
    rate: float,
    points: list[float],
    error: float,
    wide: tuple[float, float],
    rounding: float,
) -> float | None:
    """ends_convex_from_points' error loop as it was, Horner's rule from 0.0."""
    for x, x_new in itertools.pairwise(points):
        second = 0.0
        for c in curve:
            second = second * x + c
        gain = abs(1 - rate * second) + 1e-15 + error * wide[0] + wide[1]
        error = error * gain + 2e-15 * abs(x_new) + rounding
        if not error < 1e-9:
            return None
    return error


@settings(max_examples=100, deadline=None)
@given(
    coefficients=st.lists(st.integers(-6, 6) | st.floats(-6, 6), min_size=1, max_size=5),
    x0=st.integers(-40, 40).map(lambda x: x / 10),
    rate=st.sampled_from([0.01, 0.05, 0.1, 0.25, 0.5]),
    start=st.sampled_from([0.0, 1e-16, 1e-12]),
    wide=st.tuples(st.sampled_from([0.0, 1e-3, 0.5]), st.sampled_from([0.0, 1e-14])),
)
def test_the_error_bound_of_a_run_is_the_loops(
    coefficients: list[float], x0: float, rate: float, start: float, wide: tuple[float, float]
) -> None:
    """ends_convex_from_points bounds a run's error with a cubic's and a quartic's second
    derivative written out: the same bound, bit for bit, as Horner's rule from 0.0 (the
    second derivative's zeros, of either sign, included)."""
    from verification.reference.optimization.exact import _derivative, _run_error

    points = descent_points(coefficients, x0=x0, learning_rate=rate, tolerance=1e-12)
    if not all(map(np.isfinite, points)):
        points = points[:-1]
    curve = _derivative(_derivative(coefficients))
    for run in (points, [0.0, -0.0, 0.0, 1.0], [-0.0, 2.0]):
        fast = _run_error(curve, rate, run, start, wide, 1e-300)
        assert repr(fast) == repr(_run_error_as_it_was(curve, rate, run, start, wide, 1e-300))


@settings(max_examples=100, deadline=None)
@given(
    matrix=st.tuples(st.integers(-9, 9) | st.floats(-9, 9), st.integers(-3, 3), st.integers(-9, 9)),
    vector=st.tuples(st.integers(-9, 9), st.integers(-9, 9) | st.floats(-9, 9)),
    x0=st.tuples(st.integers(-5, 5), st.integers(-50, 50).map(lambda x: x / 10)),
    rate=st.sampled_from([0.01, 0.1, 0.125, 0.3, 0.4, 1.0, 5.0]),
    tolerance=st.sampled_from([1e-12, 1e-4]),
    limit=st.integers(1, 60),
)
def test_a_two_variable_quadratic_is_traced_as_its_gradient_function_is(
    matrix: tuple[float, float, float],
    vector: tuple[float, float],
    x0: tuple[float, float],
    rate: float,
    tolerance: float,
    limit: int,
) -> None:
    """descent_trace unrolls a 2 x 2 quadratic form (the gradient_descent generator traces
    thousands): the same steps, bit for bit, as the general loop given the form's gradient
    as df, written as the form's own gradient computes it (converging, oscillating and
    diverging past the doubles)."""
    p, q, s = (float(v) for v in matrix)
    table, linear = [[p, q], [q, s]], [float(v) for v in vector]

    def df(x: list[float]) -> list[float]:
        return [
            sum([a * xj for a, xj in zip(row, x, strict=True)]) + b
            for row, b in zip(table, linear, strict=True)
        ]

    inp = {"x0": list(x0), "learning_rate": rate, "tolerance": tolerance, "max_iterations": limit}
    unrolled = descent_trace(
        matrix=[[matrix[0], matrix[1]], [matrix[1], matrix[2]]], vector=list(vector), **inp
    )
    general = descent_trace(df=df, **inp)
    assert repr(unrolled) == repr(general)


@pytest.mark.parametrize(
    "inp",
    [
        {"coefficients": [], "x0": 1.0},
        {"coefficients": [1, True], "x0": 1.0},
        {"coefficients": [1, 0], "x0": [1.0]},
        {"coefficients": [1, 0], "x0": float("nan")},
        {"coefficients": [1, 0], "x0": 1.0, "learning_rate": 0},
        {"coefficients": [1, 0], "x0": 1.0, "tolerance": -1.0},
        {"coefficients": [1, 0], "x0": 1.0, "max_iterations": 0},
    ],
)
def test_descent_points_refuses_what_descent_trace_refuses(inp: dict[str, Any]) -> None:
    inp = {"learning_rate": 0.1, **inp}
    with pytest.raises(ValueError):
        descent_trace(**inp)
    coefficients = inp.pop("coefficients")
    with pytest.raises(ValueError):
        descent_points(coefficients, **inp)


def test_the_checks_fast_paths_pass_only_what_the_checks_pass() -> None:
    """plain_number and plain_draws let the optimizers skip finite and uniform_draw (and
    their messages' names) for the numbers generators write: each value they pass, the
    check passes and returns as it is (a float) or as its float (an int)."""
    from verification.reference._inputs import finite
    from verification.reference.optimization._checks import (
        plain_draws,
        plain_number,
        uniform_draw,
    )

    class Number(float):
        pass

    values = [0, 1, -7, 2**1022, 2**1023, 2**1024, 10**400, 0.0, -0.0, 0.5, 0.999, 1.0, -0.1]
    values += [1e308, float("inf"), float("nan"), True, False, Number(0.5), "0.5", None]
    for value in values:
        if plain_number(value):
            assert finite(value, "x") == float(value)
        if plain_draws([value]):
            assert uniform_draw(value, "x") is value
        if not isinstance(value, bool) and type(value) in (int, float):
            try:
                finite(value, "x")
            except ValueError:
                assert not plain_number(value)
            else:
                assert plain_number(value) or abs(value) >= 2**1023
    assert plain_draws([]) and not plain_draws([0.5, 1.0]) and not plain_draws([0.5, 0])
