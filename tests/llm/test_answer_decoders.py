"""The parser decodes answers with decoders made once: what json.loads with the same
options gives, value, error and message alike."""

from __future__ import annotations

import json
from typing import Any

from verification.cases import generate_case
from verification.catalog import default_catalog
from verification.catalog.spec import render_answer_as_json
from verification.llm import response_parser as module


def _loads(candidate: str, *, unicode: bool) -> Any:
    """The decoding as it was: ``json.loads`` with the options, a decoder per call."""
    return json.loads(
        candidate,
        parse_int=module._parse_int if module._LONG_DIGITS.search(candidate) else None,
        parse_float=module._parse_float,
        parse_constant=module._parse_constant,
        object_pairs_hook=module._unique_unicode_keys if unicode else module._unique_keys,
    )


def _outcome(decode: Any, candidate: str, unicode: bool) -> tuple[str, object]:
    try:
        value = decode(candidate, unicode=unicode)
    except module._Rejected as exc:
        return ("rejected", str(exc))
    except json.JSONDecodeError as exc:
        return ("invalid", (exc.msg, exc.lineno, exc.colno, exc.pos))
    except (RecursionError, ValueError) as exc:
        return ("error", type(exc).__name__)
    return ("value", json.dumps(value, sort_keys=False))


BODIES = [
    '{"a": 1, "b": [1, 2.5, -3e2], "c": {"d": null, "e": true}}',
    '{"a": 1, "a": 2}',
    '{"a": 1,}',
    '{"big": ' + "9" * 101 + "}",
    '{"big": ' + "9" * 100 + "}",
    '{"x": 1e999}',
    '{"x": NaN}',
    '{"x": -Infinity}',
    '{"s": "\\ud800"}',
    '{"\\ud800": 1}',
    '{"s": "caf\\u00e9 \u00e9"}',
    "\ufeff{}",
    '{"a": [1, 2}',
    "[1, 2, 3]",
    '{"a": 1} {"b": 2}',
    "[" * 5000 + "]" * 5000,
    "",
]


def test_the_kept_decoders_decode_as_json_loads_does() -> None:
    catalog = default_catalog()
    bodies = [*BODIES]
    for spec in catalog.values():
        case = generate_case(spec, "standard", 0, seed=2)
        body = render_answer_as_json(case.expected).split("\n", 1)[1].rsplit("```", 1)[0]
        bodies.append(body)
    for body in bodies:
        for unicode in (False, True):
            kept = _outcome(module._json_value, body, unicode)
            assert kept == _outcome(_loads, body, unicode), body[:80]
