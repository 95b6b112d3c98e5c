"""to_json_data copies plain data by a walk instead of a JSON round trip (twice per case
drawn): the same data, of the same types, and for anything else the round trip's own result
or error (tests/catalog/test_draw_digests.py pins the cases drawn through it)."""

from __future__ import annotations

import enum
import json
import math
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.cases import to_json_data

_EXAMPLES = 40
"""Examples per property: each also runs on drawn cases or fixed ones (a new test of this
session, in both lanes)."""


class _Number(enum.IntEnum):
    ONE = 1


class _Text(str):
    pass


class _Real(float):
    pass


def _round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value, allow_nan=False))


def _same_as_round_trip(value: Any) -> None:
    try:
        expected = _round_trip(value)
    except (TypeError, ValueError, RecursionError) as error:
        with pytest.raises(type(error), match=re.escape(str(error))):
            to_json_data(value)
    else:
        # repr tells 1, 1.0 and True, a list from a tuple, and shows every float exactly
        assert repr(to_json_data(value)) == repr(expected)


_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from([_Number.ONE, _Text("a"), _Real(1.5), _Real("nan"), -0.0, 1e308])
)
_keys = st.text(max_size=4) | st.integers(-3, 3) | st.booleans() | st.none() | st.floats(0, 2)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=5).map(tuple)
        | st.dictionaries(_keys, inner, max_size=5)
        | st.dictionaries(st.text(max_size=4), inner, max_size=5)
        | st.frozensets(st.integers(), max_size=2)
    ),
    max_leaves=30,
)


@settings(max_examples=_EXAMPLES)
@given(_values)
def test_to_json_data_is_the_json_round_trip(value: Any) -> None:
    _same_as_round_trip(value)


def test_circular_deep_and_odd_values_get_the_round_trips_result_or_error() -> None:
    circular: list[Any] = [1]
    circular.append(circular)
    looped: dict[str, Any] = {}
    looped["self"] = [looped]
    deep: Any = 0
    for _ in range(200):  # deeper than the walk copies, well within the encoder's reach
        deep = [deep, {"k": (deep,)}] if isinstance(deep, int) else [deep]
    shared = [1.5, 2]
    for value in (
        circular,
        looped,
        deep,
        {"a": [shared, shared]},
        {"nan": [1, math.nan]},
        {"inf": (math.inf,)},
        {1: "a", "1": "b"},
        {"x": {2, 3}},
        {"o": object()},
        b"bytes",
        [_Number.ONE, True, 1, 1.0],
    ):
        _same_as_round_trip(value)


@pytest.mark.parametrize("digits", [572, 573, 640, 4300, 4301, 10_000])
def test_an_integer_of_any_length_gets_the_round_trips_result_or_error(digits: int) -> None:
    """An integer past the interpreter's limit on digits written (4,300 by default) is
    refused as the round trip refuses it, alone or inside a list or a dict."""
    number = 10 ** (digits - 1)
    for value in (number, -number, [1, number], {"n": number}, {"n": [number]}):
        _same_as_round_trip(value)


def test_the_copy_shares_no_list_or_dict_with_the_value() -> None:
    inner = [1, 2]
    value = {"a": inner, "b": (inner, {"c": inner})}
    copied = to_json_data(value)
    assert copied == {"a": [1, 2], "b": [[1, 2], {"c": [1, 2]}]}
    assert copied is not value and copied["a"] is not inner
    assert copied["b"][0] is not inner and copied["b"][1]["c"] is not inner
