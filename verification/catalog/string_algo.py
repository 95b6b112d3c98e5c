"""String-search scaffolds."""

from __future__ import annotations

from pydantic import NonNegativeInt

from verification.generators.string_algo import generate_kmp
from verification.reference.string_algo import kmp_search
from verification.spec import AnswerSchema, ScaffoldSpec
from verification.validators.exact_match import ExactMatchValidator

__all__ = ["SPECS", "KmpAnswer"]


class KmpAnswer(AnswerSchema):
    """``{"positions": [...]}``: 0-based starts of every occurrence, ascending."""

    positions: list[NonNegativeInt]


SPECS = (
    ScaffoldSpec(
        name="kmp",
        category="string",
        title="Knuth-Morris-Pratt search",
        description="every occurrence of a pattern in a text, overlaps included",
        reference=kmp_search,
        generator=generate_kmp,
        answer_schema=KmpAnswer,
        validator=ExactMatchValidator(),
        sizes={"simple": 10, "standard": 24, "edge": 8},
        max_output_tokens=4096,
    ),
)
