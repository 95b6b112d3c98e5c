"""The exact-match walk (``json_differences``) lists the same differences as the plain walk
it speeds up: that walk is kept here as the oracle (the shortcut compared each item by a
call of its own, and the walk compared every part after the last difference it keeps).
Checked over JSON values and their near twins, tables with many differences, and every
scaffold's calibration answers to drawn cases. A path (PathMatchValidator) equal item by
item is judged by the shortcut at once, with the verdict the item-by-item walk gives."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verification.certify.calibration import _answers
from verification.generators.base import TIERS, generate_case
from verification.registry import SPECS
from verification.validators.exact_match import (
    PathMatchValidator,
    _kind,
    _plainly_equal,
    _shown,
    _typed,
    json_differences,
)


def _oracle_equal(actual: Any, expected: Any) -> bool:
    kind = type(actual)
    if kind is not type(expected):
        return False
    if kind in (str, int, float, type(None)) or kind is bool:
        return bool(actual == expected)
    if kind is list:
        return len(actual) == len(expected) and all(
            _oracle_equal(a, e) for a, e in zip(actual, expected, strict=True)
        )
    if kind is dict:
        return (
            actual.keys() == expected.keys()
            and all(type(key) is str for key in expected)
            and all(_oracle_equal(actual[key], expected[key]) for key in expected)
        )
    return False


def _oracle_diff(actual: Any, expected: Any, path: str, found: list[str], limit: int) -> None:
    if len(found) >= limit:
        return
    kind_a, kind_e = _kind(actual), _kind(expected)
    if kind_a != kind_e:
        found.append(f"{path}: expected {_typed(expected)}, got {_typed(actual)}")
    elif kind_e == "object":
        actual_by_key = {str(k): v for k, v in actual.items()}
        expected_by_key = {str(k): v for k, v in expected.items()}
        for key in sorted(expected_by_key.keys() - actual_by_key.keys()):
            found.append(f"{path}.{key}: missing")
        for key in sorted(actual_by_key.keys() - expected_by_key.keys()):
            found.append(f"{path}.{key}: unexpected key")
        for key in sorted(expected_by_key.keys() & actual_by_key.keys()):
            a, e = actual_by_key[key], expected_by_key[key]
            if not _oracle_equal(a, e):
                _oracle_diff(a, e, f"{path}.{key}", found, limit)
    elif kind_e == "array":
        if len(actual) != len(expected):
            found.append(f"{path}: expected {len(expected)} items, got {len(actual)}")
        for index, (a, e) in enumerate(zip(actual, expected, strict=False)):
            if not _oracle_equal(a, e):
                _oracle_diff(a, e, f"{path}[{index}]", found, limit)
    elif actual != expected:
        found.append(f"{path}: expected {_shown(expected)}, got {_shown(actual)}")
    del found[limit:]


def _oracle(actual: Any, expected: Any, limit: int = 5) -> list[str]:
    if _oracle_equal(actual, expected):
        return []
    found: list[str] = []
    _oracle_diff(actual, expected, "$", found, limit)
    return found


_scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-3, 3) | st.text(max_size=2)
_json = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=2), inner, max_size=5)
    ),
    max_leaves=24,
)
_items = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=1), inner),
    max_leaves=4,
)


@st.composite
def _twins(draw: st.DrawFn, value: Any) -> Any:
    """``value`` with some items changed to a look-alike of another kind or type, or to
    another value, so that a walk meets many differences or none."""
    if isinstance(value, bool):
        return draw(st.sampled_from([value, int(value), not value]))
    if isinstance(value, int):
        return draw(st.sampled_from([value, float(value), value + 1]))
    if isinstance(value, float):
        return draw(st.sampled_from([value, -value, float("nan")]))
    if isinstance(value, list):
        items = [draw(_twins(item)) for item in value]
        return draw(st.sampled_from([items, items[:-1], [*items, None]]))
    if isinstance(value, dict):
        keys = {key: draw(st.sampled_from([key, len(key), key + "x"])) for key in value}
        return {keys[key]: draw(_twins(item)) for key, item in value.items()}
    return value


@given(st.data(), _json, st.integers(1, 6))
def test_the_walk_lists_what_the_plain_walk_lists(
    data: st.DataObject, expected: Any, limit: int
) -> None:
    actual = data.draw(st.one_of(st.just(copy.deepcopy(expected)), _twins(expected), _json))
    assert _plainly_equal(actual, expected) == _oracle_equal(actual, expected)
    assert json_differences(actual, expected, limit=limit) == _oracle(actual, expected, limit)


def test_a_table_wrong_everywhere_lists_its_first_differences() -> None:
    labels = [chr(ord("A") + i) for i in range(8)]
    expected = {u: {v: i * 8 + j for j, v in enumerate(labels)} for i, u in enumerate(labels)}
    transposed = {u: {v: expected[v][u] for v in labels} for u in labels}
    shifted = [[cell + 1 for cell in row.values()] for row in expected.values()]
    rows = [list(row.values()) for row in expected.values()]
    for actual, want in ((transposed, expected), (shifted, rows)):
        found = json_differences(actual, want)
        assert found == _oracle(actual, want) and len(found) == 5
    one_row = {**expected, "A": 1}
    assert json_differences(one_row, expected) == _oracle(one_row, expected)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_every_scaffolds_calibration_answers_differ_as_the_plain_walk_says(name: str) -> None:
    spec = SPECS[name]
    for tier in TIERS:
        for index in range(4):
            case = generate_case(spec, tier, index, seed=11)
            rng = random.Random(f"walk:{case.id}")
            for hook in ("mutants", "alternatives"):
                for answer in _answers(spec, case, hook, rng):
                    assert json_differences(answer, case.expected) == _oracle(answer, case.expected)
                    assert _plainly_equal(answer, case.expected) == _oracle_equal(
                        answer, case.expected
                    )


def _oracle_path(got: Any, want: Any, where: str = "$") -> tuple[bool, str, dict[str, Any]]:
    """PathMatchValidator's verdict before it took the shortcut for equal sequences."""
    if isinstance(got, str | bytes) or not isinstance(got, Sequence):
        return False, f"{where}: expected a sequence, got {_kind(got)}", {}
    if isinstance(want, str | bytes) or not isinstance(want, Sequence):
        return False, f"{where}: the expected value is {_kind(want)}", {}
    got, want = list(got), list(want)
    for index, (a, e) in enumerate(zip(got, want, strict=False)):
        if _oracle(a, e):
            return (
                False,
                f"{where}[{index}]: expected {_shown(e)}, got {_shown(a)}",
                {"first_difference": index},
            )
    if len(got) != len(want):
        return False, f"{where}: expected {len(want)} items, got {len(got)}", {}
    return True, f"{where} matches in order ({len(want)} items)", {}


@given(st.data(), st.lists(_items, max_size=6) | _items)
def test_a_path_is_judged_as_the_item_by_item_walk_judges_it(
    data: st.DataObject, want: Any
) -> None:
    got = data.draw(
        st.one_of(
            st.just(copy.deepcopy(want)),
            _twins(want),
            st.just(tuple(want) if isinstance(want, list) else want),
            st.lists(_items, max_size=6) | _items,
        )
    )
    verdict = PathMatchValidator().validate(got, want)
    assert (verdict.is_valid, verdict.message, verdict.details) == _oracle_path(got, want)


@pytest.mark.parametrize(
    ("actual", "expected", "said"),
    [
        ({"root": None}, {"root": -0.5}, "$.root: expected number -0.5, got null"),
        ({"root": -1.5}, {"root": None}, "$.root: expected null, got number -1.5"),
        ({"r": [True]}, {"r": [False]}, "$.r[0]: expected false, got true"),
        ({"r": False}, {"r": 0}, "$.r: expected number 0, got false"),
        ({"v": "B"}, {"v": "A"}, '$.v: expected "A", got "B"'),
        # Hunt rr: JSON keeps a bidi override, U+2028 and C1 controls as they are.
        ({"v": "B\u202e\u2028\x85X"}, {"v": "A"}, '$.v: expected "A", got "B\\u202e\\u2028\\x85X"'),
    ],
)
def test_a_difference_is_said_in_the_answer_s_json_words(
    actual: Any, expected: Any, said: str
) -> None:
    # Hunt oo: "expected null None", "expected True, got False": Python's words for JSON.
    assert json_differences(actual, expected) == [said]
