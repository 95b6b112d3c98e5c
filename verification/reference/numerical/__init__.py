"""Reference implementations of numerical methods: root finding (Newton-Raphson,
bisection) and Monte Carlo integration.

A module per method: :mod:`.newton`, :mod:`.bracketing` (bisection),
:mod:`.integration` (Monte Carlo); how each takes its function (polynomial coefficients
or callables) and the checks they share are in :mod:`._functions`. The API reference
names them from here.
"""

from __future__ import annotations

from verification.reference.numerical.bracketing import (
    BISECTION_DECIMALS,
    BisectionStep,
    bisection,
    bisection_trace,
)
from verification.reference.numerical.integration import (
    MONTE_CARLO_DECIMALS,
    monte_carlo_integration,
)
from verification.reference.numerical.newton import (
    DERIVATIVE_FLOOR,
    NewtonStep,
    newton_raphson,
    newton_trace,
)

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
