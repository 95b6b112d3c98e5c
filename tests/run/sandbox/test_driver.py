"""The driver's check of an answer (in process: the sandboxed runs are in test_session.py):
JSON values only, string keys, finite numbers, bounded depth and size."""

from __future__ import annotations

import json
from collections import OrderedDict, defaultdict

import pytest

from verification.run.sandbox.driver import check_answer


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "value",
    [
        {"distances": {"a": 0, "b": 3}, "path": ["a", "b"], "ok": True, "none": None},
        {"x": 1.5, "t": (1, 2)},
        defaultdict(int, a=1),
        OrderedDict(a=[1, "é"]),
        _nested(10),
    ],
)
def test_a_json_answer_passes(value: object) -> None:
    assert check_answer(value, 64, 1 << 20) is None
    json.dumps(value, allow_nan=False)  # what passes, JSON carries


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ({"a": float("nan")}, "nan"),
        ({"a": float("inf")}, "inf"),
        ({"a": {1, 2}}, "set"),
        ({1: 2}, "key of type int"),
        ({"a": b"x"}, "bytes"),
        ({"a": "\ud800"}, "not valid Unicode"),
        (_nested(65), "deeper than 64"),
    ],
)
def test_an_answer_json_cannot_carry_is_named(value: object, words: str) -> None:
    problem = check_answer(value, 64, 1000)
    assert problem is not None and problem[0] == "bad_value" and words in problem[1]


@pytest.mark.parametrize(
    "value", [list(range(1000)), ["y" * 100] * 100, {"k" * 995: 1}, "x" * 999, [["ab"] * 10] * 50]
)
def test_an_answer_over_its_size_is_refused_before_it_is_encoded(value: object) -> None:
    limit = 1000
    assert len(json.dumps(value, separators=(",", ":"))) > limit  # what the limit is about
    problem = check_answer(value, 64, limit)
    assert problem is not None and problem[0] == "output_limit"


def test_an_answer_just_under_its_size_passes() -> None:
    value = ["y" * 10] * 10
    assert check_answer(value, 64, len(json.dumps(value, separators=(",", ":")))) is None


def test_a_self_referential_answer_ends_at_the_depth_limit() -> None:
    loop: list[object] = []
    loop.append(loop)
    problem = check_answer(loop, 64, 1 << 20)
    assert problem is not None and "deeper" in problem[1]
