"""gradient_descent's generator picks a candidate's tolerance from descent_lengths (each
step's length and reach) instead of descent_trace's steps: the lengths and reaches are the
trace's, bit for bit, and the tolerance picked (or none), with the generator left in the
same state, is the one the trace-based pick (kept here) made."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from verification.catalog.optimization import gradient_descent as module
from verification.catalog.optimization.gradient_descent import is_unambiguous
from verification.reference.optimization import descent_lengths, descent_trace

_EXAMPLES = 40
"""Examples per property: each also runs on drawn cases or fixed ones (a new test of this
session, in both lanes)."""


def _by_trace(rng: random.Random, candidate: dict[str, Any], size: int) -> dict[str, Any] | None:
    """_with_tolerance as it was, from the trace's steps."""
    steps = descent_trace(**{**candidate, "tolerance": 1e-12, "max_iterations": size})
    if len(steps) < size:
        return None
    earlier = [step.step_norm for step in steps[:-1]]
    for tol in rng.sample(module._TOLERANCES, len(module._TOLERANCES)):
        stops_last = steps[-1].step_norm < tol and all(length >= tol for length in earlier)
        if stops_last and is_unambiguous(steps, tol):
            return {**candidate, "tolerance": tol}
    return None


def _trace_lengths(**run: Any) -> tuple[list[float], list[float]]:
    steps = descent_trace(**run)
    reach = [max(abs(v) for v in (*step.x, *step.x_new)) for step in steps]
    return [step.step_norm for step in steps], reach


def _same(a: list[float], b: list[float]) -> bool:
    return [repr(v) for v in a] == [repr(v) for v in b]  # NaN and -0.0 told apart


_rates = st.sampled_from([0.01, 0.05, 0.1, 0.125, 0.25, 0.4, 0.5, 0.75, 1.0, 3.0])


@settings(max_examples=_EXAMPLES)
@given(
    st.lists(st.integers(-9, 9), min_size=1, max_size=5),
    st.integers(-60, 60).map(lambda v: v / 10),
    _rates,
    st.sampled_from([1e-12, 1e-4]),
    st.integers(1, 60),
)
def test_polynomial_lengths_are_the_traces(
    coefficients: list[int], x0: float, rate: float, tol: float, limit: int
) -> None:
    run: dict[str, Any] = {"coefficients": coefficients, "x0": x0, "learning_rate": rate}
    run |= {"tolerance": tol, "max_iterations": limit}
    lengths, reach = descent_lengths(**run)
    expected_lengths, expected_reach = _trace_lengths(**run)
    assert _same(lengths, expected_lengths) and _same(reach, expected_reach)


@settings(max_examples=_EXAMPLES)
@given(
    st.integers(-9, 9),
    st.integers(-9, 9),
    st.integers(-9, 9),
    st.lists(st.integers(-9, 9), min_size=2, max_size=2),
    st.lists(st.integers(-9, 9), min_size=2, max_size=2),
    _rates,
    st.integers(1, 60),
)
def test_plane_lengths_are_the_traces(
    p: int, q: int, s: int, vector: list[int], x0: list[int], rate: float, limit: int
) -> None:
    run: dict[str, Any] = {"matrix": [[p, q], [q, s]], "vector": vector, "x0": x0}
    run["learning_rate"] = rate
    run |= {"tolerance": 1e-12, "max_iterations": limit}
    lengths, reach = descent_lengths(**run)
    expected_lengths, expected_reach = _trace_lengths(**run)
    assert _same(lengths, expected_lengths) and _same(reach, expected_reach)


def test_the_tolerance_picked_is_the_trace_based_pick() -> None:
    draws = random.Random(5)
    picked = 0
    for index in range(1500):
        kind = index % 3
        if kind == 0:
            candidate = module._standard_quadratic(draws)
        elif kind == 1:
            candidate = module._standard_polynomial(draws)
        else:
            a, rate = draws.randint(1, 3), draws.choice(module._RATES)
            function = {"coefficients": [a, draws.randint(-12, 12), draws.randint(-5, 5)]}
            candidate = module._case(function, float(draws.randint(-6, 6)), rate, 0.0, 50)
        if candidate is None:
            continue
        size = draws.randint(3, 11)
        mine, theirs = random.Random(index), random.Random(index)
        chosen = module._with_tolerance(mine, candidate, size)
        assert chosen == _by_trace(theirs, candidate, size)
        assert mine.getstate() == theirs.getstate()
        picked += chosen is not None
    assert picked > 20  # both outcomes met
