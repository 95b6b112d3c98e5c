"""Generic mutants: wrong answers made from any answer's JSON shape, for a plugin scaffold
whose author wrote no ``mutants`` hook.

Each mutation changes one place of the expected answer: a number nudged, a list with an item
dropped, two unequal items swapped or one item written twice, a boolean flipped, a string
with a character dropped, changed or added. Answers that
do not fit the scaffold's answer schema, or equal the expected answer, are dropped.

A generic "mutant" may still be a right answer (a nudge within a tolerance, a swap in a list
whose order does not matter), so a validator accepting one is not a defect by itself:
``check`` lists them for the author to review, and a run's calibration does not count them
as misses; a validator that accepts every one is unchecked (see
:mod:`verification.certify.calibration`). Built-in scaffolds declare their own hooks.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from verification.cases import TestCase
from verification.catalog.calibration import (
    distinct_answers,
    dropped_items,
    duplicated_items,
    swapped_items,
)

__all__ = ["MAX_GENERIC_MUTANTS", "GenericMutants"]

MAX_GENERIC_MUTANTS = 12
"""The most generic mutants made per case: each costs a validation."""
_MAX_DEPTH = 4
"""How deep into nested lists and objects mutations reach."""
_NESTED_ITEMS = 2
"""How many items of a list are themselves mutated (chosen at random)."""
_MAX_TRIED = 64
"""The most candidate answers made per case (each is copied and validated): an answer with
many keys gets mutations of a random few, not of every one."""


def _nudged_number(value: int | float, rng: random.Random) -> int | float:
    if isinstance(value, int):
        return value + rng.choice((-1, 1))
    # Far outside any sensible tolerance, but of the same sign and magnitude.
    return value + rng.choice((-1, 1)) * (abs(value) * 0.25 + 1.0)


def _edited_strings(value: str, rng: random.Random) -> Iterator[str]:
    """``value`` with one character dropped, one changed, and one added."""
    if value:
        at = rng.randrange(len(value))
        yield value[:at] + value[at + 1 :]
        # A character of its own alphabet where it has two (a digit string stays digits).
        other = sorted(set(value) - {value[at]}) or ["x" if value[at] != "x" else "y"]
        yield value[:at] + rng.choice(other) + value[at + 1 :]
    at = rng.randrange(len(value) + 1)
    yield value[:at] + (rng.choice(value) if value else "x") + value[at:]


def _mutations(value: Any, rng: random.Random, depth: int) -> Iterator[Any]:
    """Copies of ``value`` (JSON data) with one place changed."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int | float):
        yield _nudged_number(value, rng)
    elif isinstance(value, str):
        yield from _edited_strings(value, rng)
    elif isinstance(value, dict) and depth < _MAX_DEPTH:
        keys = list(value)
        rng.shuffle(keys)
        for key in keys:
            for changed in _mutations(value[key], rng, depth + 1):
                yield {**value, key: changed}
    elif isinstance(value, list):
        yield from dropped_items(value, rng, count=1)
        yield from swapped_items(value, rng, count=1)
        yield from duplicated_items(value, rng, count=1)
        if depth < _MAX_DEPTH and value:
            for index in rng.sample(range(len(value)), min(_NESTED_ITEMS, len(value))):
                for changed in _mutations(value[index], rng, depth + 1):
                    yield [*value[:index], changed, *value[index + 1 :]]


def _fits(schema: type[BaseModel], answer: Any) -> bool:
    try:
        schema.model_validate_json(json.dumps(answer, allow_nan=False), strict=True)
    except (ValidationError, ValueError, TypeError):
        return False
    return True


@dataclass(frozen=True)
class GenericMutants:
    """The ``mutants`` hook of a spec that declares none: ``hook(case, rng) -> answers``.

    ``schema`` is the spec's answer schema; ``None`` only in the unbound default a spec
    binds to its own schema when it is made.
    """

    schema: type[BaseModel] | None = None

    def __call__(self, case: TestCase, rng: random.Random) -> list[dict[str, Any]]:
        schema = self.schema
        if schema is None:
            raise TypeError("generic mutants not bound to an answer schema")
        tried = itertools.islice(_mutations(case.expected, rng, 0), _MAX_TRIED)
        made = (answer for answer in tried if isinstance(answer, dict) and _fits(schema, answer))
        return distinct_answers(made, unlike=[case.expected])[:MAX_GENERIC_MUTANTS]
