"""Numerical-method scaffolds."""

from __future__ import annotations

from pydantic import FiniteFloat, NonNegativeInt

from verification.generators.numerical import generate_newton_raphson
from verification.reference.numerical import newton_raphson
from verification.spec import AnswerSchema, ScaffoldSpec
from verification.validators.base import CompositeValidator
from verification.validators.exact_match import ExactMatchValidator
from verification.validators.numeric_tolerance import NumericToleranceValidator

__all__ = ["ROOT_TOLERANCE", "SPECS", "NewtonRaphsonAnswer"]


class NewtonRaphsonAnswer(AnswerSchema):
    """``{"root": number | null, "iterations": int, "converged": bool}``."""

    root: FiniteFloat | None
    iterations: NonNegativeInt
    converged: bool


ROOT_TOLERANCE = 5e-8

SPECS = (
    ScaffoldSpec(
        name="newton_raphson",
        category="numerical",
        title="Newton-Raphson root finding",
        description="a root of a polynomial by Newton's method, with the iteration count",
        reference=newton_raphson,
        generator=generate_newton_raphson,
        answer_schema=NewtonRaphsonAnswer,
        # Iterations are compared exactly: the generator keeps every step a factor of 100
        # away from the tolerance, so hand arithmetic stops at the same iteration.
        validator=CompositeValidator(
            [
                ExactMatchValidator(field="converged"),
                ExactMatchValidator(field="iterations"),
                # Ten times the rounding the Output Format asks for (8 decimals): tight
                # enough that a root wrong in the 7th decimal fails.
                NumericToleranceValidator(tolerance=ROOT_TOLERANCE, field="root"),
            ]
        ),
        sizes={"simple": 6, "standard": 9, "edge": 4},
        max_output_tokens=6144,
    ),
)
