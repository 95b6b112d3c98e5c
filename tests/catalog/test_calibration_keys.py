"""The calibration hooks' answer keys (:func:`verification.catalog.calibration.distinct_answers`)
are made by one encoder built once: they are the text ``json.dumps(sort_keys=True,
allow_nan=False)`` writes, and fail as it fails."""

from __future__ import annotations

import json
from typing import Any

import pytest

from verification.catalog.calibration import answer_key as _key
from verification.catalog.calibration import distinct_answers

ANSWERS: list[Any] = [
    {"b": 1, "a": [1.0, True, None, "x\u00e9\n"]},
    {"nested": {"z": [0.1, -0.0, 1e300], "a": {"k": (1, 2)}}},
    {1: "int key"},
    [],
    "text",
    7,
]


@pytest.mark.parametrize("answer", ANSWERS, ids=range(len(ANSWERS)))
def test_a_key_is_the_sorted_json_text(answer: Any) -> None:
    assert _key(answer) == json.dumps(answer, sort_keys=True, allow_nan=False)


@pytest.mark.parametrize(
    "answer",
    [float("nan"), {"a": float("inf")}, {1: 2, "a": 3}, {"a": object()}, {"a": {1, 2}}],
    ids=["nan", "inf", "unsortable keys", "object", "set"],
)
def test_a_key_fails_as_json_dumps_fails(answer: Any) -> None:
    with pytest.raises((TypeError, ValueError)) as expected:
        json.dumps(answer, sort_keys=True, allow_nan=False)
    with pytest.raises(expected.type, match=str(expected.value).replace("(", r"\(")):
        _key(answer)


def test_distinct_answers_drops_repeats_and_the_unlike() -> None:
    answers = [{"a": 1, "b": 2}, {"b": 2, "a": 1}, {"a": 1.0, "b": 2}, {"a": True, "b": 2}]
    kept = distinct_answers(answers, unlike=[{"a": True, "b": 2}])
    assert kept == [answers[0], answers[2]]
    assert kept[1]["a"] == 1.0 and isinstance(kept[1]["a"], float)


@pytest.mark.parametrize("value", [*ANSWERS[:2], [1, (2, 3.5)], float("nan"), {"a": object()}])
def test_a_case_is_made_json_data_as_json_dumps_makes_it(value: Any) -> None:
    """to_json_data writes with one encoder built once: the data and the errors are those
    of json.dumps(allow_nan=False) and json.loads."""
    from verification.cases import to_json_data

    try:
        expected = json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as error:
        with pytest.raises(type(error), match=str(error)):
            to_json_data(value)
    else:
        assert to_json_data(value) == expected
