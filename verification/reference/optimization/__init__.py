"""Reference optimizers: gradient descent, hill climbing, simulated annealing and a genetic
algorithm.

Each takes the plain JSON data a test case holds and returns the answer's exact JSON shape.
Functions come as data a prompt can show (polynomial coefficients, a quadratic form, a
table of values, weights), and every random draw comes from the input, so exactly one trace
is right. Each also keeps a callable signature (``f``, ``df``, ``neighbours``, ...) for
callers with Python code rather than data, as :func:`~verification.reference.numerical.
newton_raphson` does. Pure Python: importing this package loads no numpy.

A module per optimizer: :mod:`.gradient`, :mod:`.climbing`, :mod:`.annealing`,
:mod:`.genetic`; the input checks they share are in :mod:`._checks`. The API reference
names them from here.
"""

from __future__ import annotations

from verification.reference.optimization.annealing import (
    AnnealingStep,
    annealing_trace,
    simulated_annealing,
)
from verification.reference.optimization.climbing import grid_neighbours, hill_climbing
from verification.reference.optimization.genetic import (
    GenerationRecord,
    PairRecord,
    bit_fitness,
    crossover_point,
    genetic_algorithm,
    genetic_trace,
    tournament_index,
)
from verification.reference.optimization.gradient import (
    EXACT_DIGITS,
    MINIMUM_DECIMALS,
    DescentStep,
    descent_lengths,
    descent_points,
    descent_points_and_lengths,
    descent_trace,
    exact_last_point,
    gradient_descent,
)

__all__ = [
    "EXACT_DIGITS",
    "MINIMUM_DECIMALS",
    "AnnealingStep",
    "DescentStep",
    "GenerationRecord",
    "PairRecord",
    "annealing_trace",
    "bit_fitness",
    "crossover_point",
    "descent_lengths",
    "descent_points",
    "descent_points_and_lengths",
    "descent_trace",
    "exact_last_point",
    "genetic_algorithm",
    "genetic_trace",
    "gradient_descent",
    "grid_neighbours",
    "hill_climbing",
    "simulated_annealing",
    "tournament_index",
]
