"""newton_raphson's generator decides a candidate by _kept, the run's arithmetic step for
step without the trace: the decision of _kept_by_trace (nine steps of newton_trace and
is_unambiguous, as it decided before) on every candidate the tiers draw and on hypothesis
polynomials and starts (flat, diverging, overflowing, landing on a root)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from verification.catalog.numerical.newton_raphson import (
    MAX_ITERATIONS,
    TOLERANCE,
    _case,
    _kept,
    is_unambiguous,
)
from verification.reference.numerical import newton_trace


def _kept_by_trace(coefficients: list[int], x0: float) -> bool:
    """How the generator decided a candidate before _kept: nine steps of newton_trace tell
    a run of more than eight (kept from none) from the rest, whose steps are the whole run,
    so this is the decision of the run to MAX_ITERATIONS."""
    steps = newton_trace(**_case(coefficients, x0, min(9, MAX_ITERATIONS)))
    last = steps[-1]
    return (
        3 <= len(steps) <= 8
        and last.x_new is not None
        and abs(last.x_new - last.x) < TOLERANCE
        and is_unambiguous(steps, TOLERANCE)
    )


def test_kept_decides_the_drawn_candidates_as_the_trace_does() -> None:
    rng = random.Random(7)
    kept = 0
    for _ in range(4000):
        size = rng.randint(2, 12)
        if rng.random() < 0.5:
            coefficients = [1, rng.randint(-size, size), rng.randint(-size, size)]
            x0 = float(rng.randint(-5, 5))
        else:
            coefficients = [rng.choice((-3, -2, -1, 1, 2, 3))]
            coefficients += [rng.randint(-size, size) for _ in range(rng.choice((2, 3)))]
            x0 = rng.randint(-50, 50) / 10
        decision = _kept_by_trace(coefficients, x0)
        assert _kept(coefficients, x0) == decision, (coefficients, x0)
        kept += decision
    assert kept > 100  # both decisions met often


@given(
    st.lists(st.integers(-(10**6), 10**6), min_size=1, max_size=6),
    st.floats(-1e6, 1e6) | st.sampled_from([0.0, -0.0, 1e300, -1e300, 99.99, 100.0]),
)
def test_kept_is_the_trace_decision(coefficients: list[int], x0: float) -> None:
    assert _kept(coefficients, x0) == _kept_by_trace(coefficients, x0)
