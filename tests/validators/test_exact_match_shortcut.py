"""The shortcut for equal answers (``_plainly_equal``) says "no difference" only where the
full walk finds none, over JSON values and their near twins (3 and 3.0, 1 and true, keys
as ints)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from verification.validators.exact_match import _diff, _plainly_equal, json_differences, json_equal

_scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-3, 3) | st.text(max_size=2)
_json = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3)
    ),
    max_leaves=12,
)


def _walk(actual: Any, expected: Any) -> list[str]:
    found: list[str] = []
    _diff(actual, expected, "$", found, 5)
    return found


@st.composite
def _twins(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with some numbers, booleans and keys changed to a look-alike of another
    JSON kind or type (which the walk, not ``==``, must judge)."""
    if isinstance(value, bool):
        return draw(st.sampled_from([value, int(value)]))
    if isinstance(value, int):
        return draw(st.sampled_from([value, float(value), value + 1]))
    if isinstance(value, float):
        return draw(st.sampled_from([value, -value, float("nan")]))
    if isinstance(value, list):
        return [draw(_twins(item)) for item in value]
    if isinstance(value, dict):
        keys = {key: draw(st.sampled_from([key, len(key)])) for key in value}
        return {keys[key]: draw(_twins(item)) for key, item in value.items()}
    return value


@given(st.data(), _json)
def test_the_shortcut_agrees_with_the_walk(data: st.DataObject, expected: Any) -> None:
    actual = data.draw(st.one_of(st.just(copy.deepcopy(expected)), _twins(expected), _json))
    walked = _walk(actual, expected)
    if _plainly_equal(actual, expected):
        assert walked == []
    assert json_differences(actual, expected) == walked


def test_an_equal_copy_takes_the_shortcut() -> None:
    expected = {"distances": {"A": 0, "B": 2.5}, "path": ["A", "B"], "found": True}
    assert _plainly_equal(copy.deepcopy(expected), expected)
    assert not _plainly_equal({**expected, "found": 1}, expected)


@given(st.data(), _json)
def test_json_equal_is_the_walk_finding_nothing(data: st.DataObject, expected: Any) -> None:
    actual = data.draw(st.one_of(st.just(copy.deepcopy(expected)), _twins(expected), _json))
    assert json_equal(actual, expected) == (_walk(actual, expected) == [])
    # Tuples are arrays and keys are compared as text: the walk judges those too.
    as_tuples = tuple(actual) if isinstance(actual, list) else actual
    assert json_equal(as_tuples, expected) == (_walk(as_tuples, expected) == [])


def test_json_equal_compares_keys_as_text_as_the_walk_does() -> None:
    # A key the model wrote as a number is the same JSON key as its text.
    for actual, expected in [
        ({1: 2}, {"1": 2}),
        ({"a": {2: [1]}}, {"a": {"2": [1]}}),
        ({1: 2}, {"1": 3}),
        ({1: 2, "1": 2}, {"1": 2}),
    ]:
        assert json_equal(actual, expected) == (_walk(actual, expected) == []), actual
    assert json_equal({1: 2}, {"1": 2})
