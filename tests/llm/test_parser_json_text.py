"""The parser writes a decoded answer back to JSON for its schema with an encoder made once
(:func:`verification.llm.response_parser._json_text`): the text is ``json.dumps``'s for any
JSON data, which a decoded answer is."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from verification.llm.response_parser import _json_text

JSON_DATA = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=100, deadline=None)
@given(JSON_DATA)
def test_the_answers_json_text_is_json_dumps(value: Any) -> None:
    assert _json_text(value) == json.dumps(value)


def test_the_answers_json_text_on_a_few_named_values() -> None:
    for value in (
        {"a": [1, 2.5, -0.0, 1e300, True, None, "x\u00e9\n\ud83d"], "b": {}},
        [],
        {"nested": [[[]], {"k": [{"z": 0.1}]}]},
        {"big": 10**100, "tiny": 5e-324},
    ):
        assert _json_text(value) == json.dumps(value)
