"""Where the scaffolds would be silent, one rule for all (issue 24): every registered
scaffold's Output Format states the shared sentences of
:mod:`verification.catalog.wording` that its answer's numbers call for, and the judge does
what they say: an integer written ``3.0`` or ``3e0`` fails the form (level 2), ``-0`` is
``0``, a number in exponent notation is that number."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from itertools import count
from typing import Any

import pytest

from tests.support.scaffolds import sections
from verification.cases import TestCase
from verification.catalog import default_catalog
from verification.catalog.spec import ScaffoldSpec
from verification.catalog.wording import (
    BOUNDS,
    INTEGERS,
    NUMBERS,
    ROUNDING,
    number_kinds,
    number_rules,
)
from verification.certify.checks import calibration_cases
from verification.llm.response_parser import ResponseParser

CATALOG = default_catalog()
NAMES = list(CATALOG)
Path = tuple[str | int, ...]


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("name", NAMES)
def test_every_output_format_states_the_shared_rules_its_numbers_call_for(name: str) -> None:
    output_format = _words(sections(name)["output_format"])
    for rule in number_rules(CATALOG[name], output_format):
        assert _words(rule) in output_format, rule


def test_the_rules_apply_where_the_answers_hold_such_numbers() -> None:
    applied = {
        rule
        for name, spec in CATALOG.items()
        for rule in number_rules(spec, sections(name)["output_format"])
    }
    assert applied == {INTEGERS, NUMBERS, BOUNDS, ROUNDING}


def _numbers(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _numbers(item, (*path, index))


def _written(answer: Any, path: Path, literal: str) -> str:
    """``answer`` as a reply's final block, the number at ``path`` written as ``literal``."""
    marker = "\u0000marker\u0000"
    copy = json.loads(json.dumps(answer))
    holder = copy
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = marker
    text = json.dumps(copy).replace(json.dumps(marker), literal)
    return f"Done.\n\n```json\n{text}\n```"


_DRAWN: dict[str, tuple[list[TestCase], Iterator[TestCase]]] = {}


def _cases(name: str) -> Iterator[TestCase]:
    """The calibration cases of ``name`` (five of each tier, in order), each drawn once per
    process and only once read: collection (in every worker) reads only as far as the
    first case with a zero for :func:`_zero_paths`, not every case of every scaffold."""
    drawn, source = _DRAWN.setdefault(name, ([], calibration_cases(CATALOG[name], 5)))
    for index in count():
        if index == len(drawn):
            case = next(source, None)
            if case is None:
                return
            drawn.append(case)
        yield drawn[index]


def _first(spec: ScaffoldSpec, wanted: Any) -> Iterator[tuple[Any, Any, Path, Any]]:
    for case in _cases(spec.name):
        for path, value in _numbers(case.expected):
            if wanted(value):
                yield case, case.expected, path, value


KINDS = {name: number_kinds(spec) for name, spec in CATALOG.items()}
"""Each scaffold's number kinds, read from its answer schema once (collection reads them
three times over)."""


def _integer_specs() -> list[str]:
    return [name for name in NAMES if "integer" in KINDS[name]]


def _number_specs() -> list[str]:
    return [name for name in NAMES if "number" in KINDS[name]]


@pytest.mark.parametrize("name", _integer_specs())
def test_an_integer_with_a_point_or_an_exponent_fails_the_form(name: str) -> None:
    spec = CATALOG[name]
    case, answer, path, value = next(_first(spec, lambda v: isinstance(v, int)))
    assert ResponseParser().extract(spec, _written(answer, path, str(value))).ok
    for literal in (f"{value}.0", f"{value}e0"):
        parsed = ResponseParser().extract(spec, _written(answer, path, literal))
        assert parsed.failed_level == 2, (case.id, path, literal, parsed.reason)


def _zero_paths() -> list[str]:
    return [
        name
        for name in _integer_specs()
        if next(_first(CATALOG[name], lambda v: isinstance(v, int) and v == 0), None)
    ]


@pytest.mark.parametrize("name", _zero_paths())
def test_minus_zero_is_zero(name: str) -> None:
    spec = CATALOG[name]
    case, answer, path, _ = next(_first(spec, lambda v: isinstance(v, int) and v == 0))
    parsed = ResponseParser().extract(spec, _written(answer, path, "-0"))
    assert parsed.ok and parsed.answer == answer, (case.id, path, parsed.reason)
    assert spec.validator.validate(parsed.answer, case.expected, case=case).is_valid


@pytest.mark.parametrize("name", _number_specs())
def test_a_number_in_exponent_notation_is_that_number(name: str) -> None:
    spec = CATALOG[name]
    case, answer, path, value = next(_first(spec, lambda v: isinstance(v, float) and v != 0))
    for literal in (f"{Decimal(repr(value)):E}", f"{Decimal(repr(value)):e}"):
        parsed = ResponseParser().extract(spec, _written(answer, path, literal))
        assert parsed.ok, (case.id, literal, parsed.reason)
        assert spec.validator.validate(parsed.answer, case.expected, case=case).is_valid
