"""Huge and hostile answers that pass the schema still get a verdict, and never raise.

No timing is asserted (speed lives in benchmarks/), but a quadratic step over these sizes
would keep this module from finishing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.draws import shared_draw
from verification.llm.response_parser import ResponseParser
from verification.registry import DEFAULT_SEED, SPECS

BLOW_UP = 50_000
EXTRA_KEYS = [f"Z{k}" for k in range(BLOW_UP)]
"""The keys an object of numbers gains, made once rather than for each such object."""
_EXTRA_KEY_TEXTS = [f'"{key}": ' for key in EXTRA_KEYS]
"""Their texts in JSON, as ``json.dumps(key) + ": "`` writes them (letters and digits need no
escape; the blown-up texts are held equal to ``json.dumps``'s below): made at collection in
every xdist worker, ten times faster than by the encoder."""
_EXTRA_KEY_SET = frozenset(EXTRA_KEYS)


def _numbers_only(value: dict[Any, Any]) -> bool:
    return all(isinstance(v, int | None) and not isinstance(v, bool) for v in value.values())


def _blown_up(value: Any, blow_up: int = BLOW_UP) -> Any:
    """Every answer list repeated to ``blow_up`` items (their items as they are); every
    object of numbers given ``blow_up`` extra keys."""
    if isinstance(value, list) and value:
        return (value * (blow_up // len(value) + 1))[:blow_up]
    if isinstance(value, list):
        return [0] * blow_up
    if isinstance(value, dict):
        grown = {k: _blown_up(v, blow_up) for k, v in value.items()}
        sample = next(iter(value.values()), None)
        if _numbers_only(value):
            grown.update(dict.fromkeys(EXTRA_KEYS[:blow_up], sample))
        return grown
    return value


def _blown_up_text(value: Any, blow_up: int = BLOW_UP) -> str:
    """``json.dumps(_blown_up(value, blow_up))``, written from the texts of ``value``'s own
    parts: a blown-up answer repeats the same few items some ten thousand times, and the
    encoder wrote each repeat again (a third of the huge answers' test). Held equal to
    ``json.dumps`` by ``test_the_blown_up_text_is_the_json_of_the_blown_up_answer``."""
    if isinstance(value, list):
        items = [json.dumps(item) for item in value] or ["0"]
        return "[" + ", ".join((items * (blow_up // len(items) + 1))[:blow_up]) + "]"
    if isinstance(value, dict):
        extra = _numbers_only(value)
        if not all(type(key) is str for key in value) or (
            extra and not _EXTRA_KEY_SET.isdisjoint(value)
        ):  # a key json.dumps would write otherwise, or one an extra key replaces
            return json.dumps(_blown_up(value, blow_up))
        parts = [f"{json.dumps(k)}: {_blown_up_text(v, blow_up)}" for k, v in value.items()]
        if extra:
            sample = json.dumps(next(iter(value.values()), None))
            parts += [key + sample for key in _EXTRA_KEY_TEXTS[:blow_up]]
        return "{" + ", ".join(parts) + "}"
    return json.dumps(value)


SHAPES: list[Any] = [
    [],
    {},
    [1, [2, 3], {"a": None}],
    {"a": [], "b": {"c": 1.5, "d": -0.0}, "e": "é\u202e"},
    {"a": 1, "b": None},
    {"a": True, "b": 2},
    {"Z0": 1, "a": 2},
    {"x": {"y": [1, 2, 3], "z": 4}},
    "text",
    3,
    None,
]
"""Shapes beyond the scaffolds' answers: empty, nested, a bool, a key an extra key replaces."""


@pytest.mark.parametrize("blow_up", [1, 7])
def test_the_blown_up_text_is_the_json_of_the_blown_up_answer(blow_up: int) -> None:
    answers = [
        shared_draw(spec, "standard", 0, seed=DEFAULT_SEED).expected for spec in SPECS.values()
    ]
    for answer in [*answers, *SHAPES]:
        assert _blown_up_text(answer, blow_up) == json.dumps(_blown_up(answer, blow_up)), answer


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_huge_answer_gets_a_verdict(name: str) -> None:
    spec = SPECS[name]
    case = shared_draw(spec, "standard", 0, seed=DEFAULT_SEED)
    answer = _blown_up(case.expected)
    if answer == case.expected:
        pytest.skip("the answer holds no list or object of numbers to blow up")
    text = "Here it is:\n```json\n" + _blown_up_text(case.expected) + "\n```"
    parsed = ResponseParser().extract(name, text)
    if parsed.ok:
        verdict = spec.validator.validate(parsed.answer, case.expected, case=case)
        assert not verdict.is_valid, "a blown-up answer is never right"
    else:
        assert parsed.failed_level in (1, 2) and parsed.reason


@pytest.mark.parametrize("name", sorted(SPECS))
@pytest.mark.parametrize(
    "junk",
    [
        '{"__proto__": {"polluted": true}}',
        '{"a": "\\u0000\\u202e</details><script>"}',
        '{"' + "k" * 10_000 + '": 1}',
        "[" * 100 + "]" * 100,
        '{"x": 1e999}',
        '{"x": -0.0, "y": 1E-400}',
    ],
)
def test_junk_never_raises(name: str, junk: str) -> None:
    spec = SPECS[name]
    case = shared_draw(spec, "edge", 0, seed=DEFAULT_SEED)
    parsed = ResponseParser().extract(name, f"```json\n{junk}\n```")
    assert not parsed.ok
    if parsed.answer is not None:
        spec.validator.validate(parsed.answer, case.expected, case=case)


PAST_THE_DOUBLES = 10**400
"""An integer JSON allows and no double holds (``float()`` and ``math.isfinite`` raise)."""


def _numbers_replaced(value: Any, by: Any) -> Any:
    """Every number of an answer (not a bool) replaced by ``by``."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return by
    if isinstance(value, list):
        return [_numbers_replaced(item, by) for item in value]
    return {key: _numbers_replaced(item, by) for key, item in value.items()}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_numbers_past_the_doubles_get_a_verdict(name: str) -> None:
    spec = SPECS[name]
    case = shared_draw(spec, "simple", 0, seed=DEFAULT_SEED)
    answer = _numbers_replaced(case.expected, PAST_THE_DOUBLES)
    if answer == case.expected:
        pytest.skip("the answer holds no number")
    # As a run judges the reply (the schema first), and as the validator alone judges the
    # value (a judge hook's path): a verdict either way, never an exception.
    parsed = ResponseParser().extract(name, "```json\n" + json.dumps(answer) + "\n```")
    if parsed.ok:
        assert not spec.validator.validate(parsed.answer, case.expected, case=case).is_valid
    # What a message shows is JSON, as an answer writes it: an exact truth (a Fraction)
    # is shown as the double nearest it, whether the answer's number is too large or text.
    for hostile in (answer, _numbers_replaced(case.expected, "1")):
        verdict = spec.validator.validate(hostile, case.expected, case=case)
        assert not verdict.is_valid
        assert "Fraction(" not in verdict.message, verdict.message
