"""The graph references' label and edge checks pass the common input (a list of distinct
str labels, an edge list of known str ends) in one test: what they return, and what they
refuse with which message, is what the checks one item at a time give."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.reference._inputs import (
    _checked_labels,
    plain_number,
    plain_numbers,
    vertex_labels,
)
from verification.reference.graph._checks import _checked_edge, check_edge

_EXAMPLES = 40
"""Examples per property: each also runs on drawn cases or fixed ones (a new test of this
session, in both lanes)."""


class _Label(str):
    pass


def _outcome(check: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    try:
        result = check(*args)
    except ValueError as error:
        return "refused", str(error)
    return "passed", (type(result), result)


_items = (
    st.sampled_from(["A", "B", "C", "AA", ""])
    | st.text(max_size=3)
    | st.sampled_from([_Label("A"), _Label("Z"), 1, None, 1.5, b"A", ("A",)])
)


@settings(max_examples=_EXAMPLES)
@given(
    st.lists(_items, max_size=6)
    | st.lists(_items, max_size=6).map(tuple)
    | st.sampled_from(["AB", {"A": 1}, None, range(3), 7])
)
def test_vertex_labels_is_the_label_by_label_check(vertices: Any) -> None:
    assert _outcome(vertex_labels, vertices) == _outcome(_checked_labels, vertices)


@settings(max_examples=_EXAMPLES)
@pytest.mark.parametrize("arity", [2, 3])
@given(
    edge=st.lists(_items | st.integers(-3, 3), max_size=4)
    | st.lists(_items, max_size=4).map(tuple)
    | st.sampled_from(["AB", {"A": "B"}, None, 3])
)
def test_check_edge_is_the_step_by_step_check(arity: int, edge: Any) -> None:
    known = {"A", "B", "C", ""}
    assert _outcome(check_edge, edge, known, arity) == _outcome(_checked_edge, edge, known, arity)


def test_the_common_inputs_take_the_fast_paths_and_pass() -> None:
    labels = ["A", "B", "C"]
    assert vertex_labels(labels) == labels and vertex_labels(labels) is not labels
    assert vertex_labels(("A", "B")) == ["A", "B"]
    edge = ["A", "B", 4]
    assert check_edge(edge, {"A", "B"}, 3) is edge
    with pytest.raises(ValueError, match="repeated: \\['A'\\]"):
        vertex_labels(["A", "B", "A"])
    with pytest.raises(ValueError, match="unknown vertex 'D'"):
        check_edge(["A", "D"], {"A", "B"}, 2)


_numbers = (
    st.integers()
    | st.integers(min_value=2**1022, max_value=2**1025).map(lambda v: v * (-1) ** (v % 2))
    | st.floats()
    | st.sampled_from([True, False, None, "1", 2**1023, -(2**1023), 2**1023 - 1, 1 - 2**1023])
)


@settings(max_examples=_EXAMPLES)
@given(st.lists(st.integers() | st.sampled_from([2**1023, -(2**1023), 2**1023 - 1])))
def test_plain_numbers_of_ints_is_each_plain_number(values: list[Any]) -> None:
    assert plain_numbers(values) == all(plain_number(v) for v in values)


@settings(max_examples=_EXAMPLES)
@given(st.lists(st.floats()) | st.lists(_numbers))
def test_plain_numbers_is_each_plain_number(values: list[Any]) -> None:
    assert plain_numbers(values) == all(plain_number(v) for v in values)
