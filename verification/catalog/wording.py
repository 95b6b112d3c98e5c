"""The sentences every Output Format states about numbers, decided once for all scaffolds.

A scaffold says what its fields mean; how a number is written is the same everywhere, so it
is said in the same words everywhere: which of :data:`INTEGERS`, :data:`NUMBERS`,
:data:`BOUNDS` and :data:`ROUNDING` a scaffold's Output Format must hold follows from its
answer schema, its validator's tolerances and whether it asks for rounding
(:func:`number_rules`), and a test holds every registered scaffold's
Markdown to them. The developer guide gives the reasons ("One rule for an answer's form").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from verification.catalog.spec import ScaffoldSpec

__all__ = [
    "ASKS_ROUNDING",
    "BOUNDS",
    "INTEGERS",
    "NUMBERS",
    "ROUNDING",
    "number_kinds",
    "number_rules",
]

INTEGERS = (
    'An integer is written with digits only (`3`, `-2`): `3.0`, `3e0` and `"3"` are not '
    "integers and fail the answer's form; `-0` is read as `0`."
)
"""Where the answer holds an integer: the schema is strict, so ``3.0`` fails at level 2;
JSON's ``-0`` decodes to the integer 0, the same answer."""

NUMBERS = (
    "A number that need not be an integer may be written in any JSON form: `0.5`, `0.50` "
    "and `5e-1` are the same number."
)
"""Where the answer holds a number that need not be an integer."""

BOUNDS = (
    "A tolerance includes its bound: a number exactly that far from the exact value, on the "
    "decimals as written, is accepted."
)
"""Where the validator accepts numbers within a tolerance (:class:`Tolerance` allows the
bound itself)."""


ROUNDING = (
    "A number asked rounded is rounded to the nearest; a tie (a 5 just past the last place "
    "asked, and nothing after it) rounds away from zero: to 2 places, `0.125` is `0.13` and "
    "`-0.125` is `-0.13`."
)
"""Where the Output Format asks for a number "rounded to" some places: the references round
the exact value so (``round_half_away``), never a double near a tie."""

ASKS_ROUNDING = "rounded to"
"""The words by which an Output Format asks for a rounded number."""


def _types(schema: Any, definitions: dict[str, Any]) -> Iterator[str]:
    if isinstance(schema, dict):
        if "$ref" in schema:
            yield from _types(definitions[schema["$ref"].rsplit("/", 1)[-1]], definitions)
        if schema.get("type") in ("integer", "number"):
            yield schema["type"]
        for key, value in schema.items():
            if key != "$defs":
                yield from _types(value, definitions)
    elif isinstance(schema, list):
        for item in schema:
            yield from _types(item, definitions)


def number_kinds(spec: ScaffoldSpec) -> frozenset[str]:
    """``"integer"`` and ``"number"``: the JSON number types ``spec``'s answer can hold."""
    schema = spec.answer_schema.model_json_schema()
    return frozenset(_types(schema, schema.get("$defs", {})))


def number_rules(spec: ScaffoldSpec, output_format: str = "") -> tuple[str, ...]:
    """The shared sentences ``spec``'s Output Format (``output_format``) states, in this
    order."""
    kinds = number_kinds(spec)
    rules = [INTEGERS] if "integer" in kinds else []
    if "number" in kinds:
        rules.append(NUMBERS)
    if spec.validator.tolerances:
        rules.append(BOUNDS)
    if ASKS_ROUNDING in " ".join(output_format.split()):
        rules.append(ROUNDING)
    return tuple(rules)
