""":class:`JsonText` writes what :meth:`json.JSONEncoder.encode` writes, with the same
options, and raises what it raises; where json has no C encoder, it is ``encode``."""

from __future__ import annotations

import enum
import json
import json.encoder
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verification.store.json_text import JsonText

_OPTIONS: list[dict[str, Any]] = [
    {"allow_nan": allow_nan, "ensure_ascii": ascii, "sort_keys": ordered, "check_circular": check}
    for allow_nan in (True, False)
    for ascii in (True, False)
    for ordered in (False, True)
    for check in (True, False)
]


class _Small(enum.IntEnum):
    ONE = 1


def _circular() -> list[Any]:
    value: list[Any] = [1]
    value.append(value)
    return value


_WRITTEN_OTHERWISE: list[dict[str, Any]] = [
    {"separators": (",", ":"), "ensure_ascii": True, "allow_nan": False},
    {"separators": (",", ":"), "default": str, "allow_nan": False},
    {"default": str, "allow_nan": False, "ensure_ascii": False},
    {"separators": ("; ", " = "), "default": repr, "sort_keys": True, "check_circular": False},
]
"""Separators and ``default`` (the report page's encoders), beside :data:`_OPTIONS`."""


def _same(value: Any, every: list[dict[str, Any]] = _OPTIONS) -> None:
    for options in every:
        text = JsonText(**options)
        try:
            expected = json.JSONEncoder(**options).encode(value)
        except Exception as exc:  # whatever encode raises, the same
            with pytest.raises(type(exc), match=None):
                text(value)
            continue
        assert text(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        "plain",
        "caf\u00e9 \ud800 \U0001f600",
        [],
        {},
        [[0, 1], [1, 2]],
        {"b": [1.5, -0.0, 1e300, 5e-324], "a": None, "c": True},
        (1, (2, 3)),
        {1: "int key", 2.5: "float key", None: "none key", False: "bool key"},
        math.nan,
        [math.inf],
        {"x": -math.inf},
        {1, 2},
        {(1, 2): "tuple key"},
        _Small.ONE,
        [10**5000],
        _circular(),
        b"bytes",
    ],
)
def test_odd_values_are_written_as_encode_writes_them(value: Any) -> None:
    _same(value)


@pytest.mark.parametrize(
    "value",
    [
        {"b": [1.5, -0.0, {"c": None}], "a": "caf\u00e9 \ud800"},
        [(1, 2), {3: "int key"}],
        {"a set": {1, 2}, "bytes": b"x", "an object": object()},
        [math.nan],
        {(1, 2): "tuple key"},
        _circular(),
        "plain",
    ],
)
def test_separators_and_default_are_written_as_encode_writes_them(value: Any) -> None:
    _same(value, _WRITTEN_OTHERWISE)


def test_a_failed_value_leaves_nothing_behind_for_the_next() -> None:
    text = JsonText(allow_nan=False)
    shared = [1, 2]
    with pytest.raises(ValueError):
        text([shared, math.nan])
    assert text([shared, shared]) == "[[1, 2], [1, 2]]"


def test_without_the_c_encoder_it_is_encode(monkeypatch: pytest.MonkeyPatch) -> None:
    made_before = [JsonText(**options) for options in _OPTIONS]
    monkeypatch.setattr(json.encoder, "c_make_encoder", None)
    _same({"a": [1, 2.5, "x", None], "b": {"c": math.nan}})
    # One made while json had it, used once it is gone: encode's text, not an error.
    for options, text in zip(_OPTIONS, made_before, strict=True):
        assert text({"a": [1, 2.5]}) == json.JSONEncoder(**options).encode({"a": [1, 2.5]})


@pytest.mark.parametrize("foreign", ["other arguments", "other text"])
def test_a_c_encoder_unlike_the_one_it_was_written_for_leaves_encode(
    monkeypatch: pytest.MonkeyPatch, foreign: str
) -> None:
    # json's C encoder is called by its position arguments, which json does not promise.
    made = json.encoder.c_make_encoder  # type: ignore[attr-defined]

    def other(*arguments: Any) -> Any:
        if foreign == "other arguments":
            raise TypeError("c_make_encoder() takes other arguments")
        write = made(*arguments)
        return lambda value, level: ["!", *write(value, level)]

    monkeypatch.setattr(json.encoder, "c_make_encoder", other)
    _same({"a": [1, 2.5, "x", None], "b": {"c": math.nan}})
    _same([1, "two"])


_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=6)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(
            st.one_of(st.text(max_size=3), st.integers(), st.booleans(), st.none()),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=16,
)


@given(_VALUES)
def test_any_value_is_written_as_encode_writes_it(value: Any) -> None:
    _same(value)
