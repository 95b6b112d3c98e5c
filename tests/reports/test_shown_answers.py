"""The page's parsed answers: written once as JSON to measure them, and still exactly what
:func:`~verification.reports.shown.safe_json` makes of them (the slow definition, checked
against on hostile answers)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.reports.shown import SHOWN_ANSWER_CHARS, safe_json, shown_answer

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),  # NaN and infinity included: JSON has neither
    st.text(),  # lone surrogates and control characters included
    st.builds(  # long enough that an answer of a few is cut
        lambda char, count: char * count,
        st.sampled_from(["x", "\u00e9", "\x00"]),
        st.integers(SHOWN_ANSWER_CHARS // 4, SHOWN_ANSWER_CHARS // 2),
    ),
    st.decimals(allow_nan=False, allow_infinity=False),  # no JSON type: written as its str
)
_KEYS = st.one_of(st.text(max_size=6), st.integers(-3, 3), st.booleans(), st.none())
_ANSWERS = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=5).map(tuple),
        st.dictionaries(_KEYS, inner, max_size=5),  # 1 and "1" may both be keys
    ),
    max_leaves=12,
)


def _slow(answer: Any) -> tuple[Any, bool]:
    """What the page showed before: safe_json's value, and whether its text is short."""
    value = safe_json(answer)
    return value, len(json.dumps(value, ensure_ascii=False)) <= SHOWN_ANSWER_CHARS


@pytest.mark.slow  # 300 examples: over a second
@settings(max_examples=300, deadline=None)
@given(_ANSWERS, st.dictionaries(st.text(max_size=4), st.none(), max_size=3))
def test_a_shown_answer_is_safe_jsons_value_cut_as_before(answer: Any, diff: Any) -> None:
    shown, marks = shown_answer(answer, diff)
    value, short = _slow(answer)
    assert json.dumps(shown) == json.dumps(shown_answer(value, diff)[0])
    if short:
        assert json.dumps(shown) == json.dumps(value) and marks == diff


def test_an_answer_with_a_key_written_twice_is_shown_as_safe_json_reads_it() -> None:
    answer = {1: "a" * (SHOWN_ANSWER_CHARS - 5), "1": "b"}  # long written, short read back
    shown, marks = shown_answer(answer, {})
    assert shown == safe_json(answer) == {"1": "b"} and marks == {}
