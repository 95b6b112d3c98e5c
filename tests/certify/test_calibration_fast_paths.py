"""Calibration's fast paths agree with the slow ones they stand for: the answer keys
(:func:`verification.certify.calibration._key`, now through one encoder made once) are the
text, or the ``repr``, the per-call encoder gave; gradient_descent's exact minimum, kept
per input, is the replay's for every drawn case and for inputs the replay tells apart."""

from __future__ import annotations

import json
from typing import Any

import pytest

from verification.catalog.optimization import gradient_descent as gd
from verification.certify.calibration import _key
from verification.generators.base import TIERS, generate_case
from verification.registry import SPECS


def _old_key(answer: Any) -> str:
    try:
        return json.dumps(answer, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return repr(answer)


def _cycle() -> list[Any]:
    cycle: list[Any] = [1]
    cycle.append({"back": cycle})
    return cycle


KEYED: list[Any] = [
    {"b": 1, "a": [1.0, True, None, "x\u00e9\n"]},
    {"nested": {"z": [0.1, -0.0, 1e300], "a": {"k": (1, 2)}}},
    {1: "int key"},
    {1: 2, "a": 3},
    {"a": object()},
    {"a": {1, 2}},
    float("nan"),
    {"a": float("-inf")},
    "text",
    7,
    None,
    [],
    _cycle(),
]


@pytest.mark.parametrize("answer", KEYED, ids=range(len(KEYED)))
def test_a_calibration_key_is_the_sorted_json_text_or_the_repr(answer: Any) -> None:
    assert _key(answer) == _old_key(answer)


def test_a_nesting_too_deep_for_json_fails_as_it_did() -> None:
    deep: list[Any] = []
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(RecursionError):
        json.dumps(deep, sort_keys=True, allow_nan=False)
    with pytest.raises(RecursionError):
        _key(deep)


def _drawn_inputs() -> list[dict[str, Any]]:
    spec = SPECS["gradient_descent"]
    return [
        generate_case(spec, tier, index, seed=seed).input
        for seed in (0, 42)
        for tier in TIERS
        for index in range(12)
    ]


def test_the_kept_exact_minimum_is_the_replay_of_every_drawn_case() -> None:
    gd._EXACT_MINIMA.clear()
    inputs = _drawn_inputs()
    for test_input in inputs:
        replayed = gd._exact_minimum(test_input)
        first, again = gd.exact_minimum(test_input), gd.exact_minimum(test_input)
        assert first == replayed and again == replayed
        assert type(first) is type(replayed) and type(again) is type(replayed)
        if isinstance(first, list):
            assert first is not again  # a caller may change its copy
            first.append(None)
            assert gd.exact_minimum(test_input) == replayed
    assert any(isinstance(gd.exact_minimum(each), list) for each in inputs)


def test_the_exact_minima_kept_are_bounded_and_still_right() -> None:
    gd._EXACT_MINIMA.clear()
    inputs = _drawn_inputs()
    base = next(each for each in inputs if not isinstance(each["x0"], list))
    for start in range(gd._KEPT_MINIMA + 20):
        varied = {**base, "x0": float(start % 7) - 3.0, "max_iterations": 1 + start}
        assert gd.exact_minimum(varied) == gd._exact_minimum(varied)
    assert len(gd._EXACT_MINIMA) <= gd._KEPT_MINIMA


def test_inputs_equal_in_python_but_not_as_json_are_kept_apart() -> None:
    """1, 1.0 and True; 0.0 and -0.0; a list and a tuple compare equal, and a key built on
    equality would give one the other's point."""
    base = {"coefficients": [1, 0, 1], "learning_rate": 0.1, "tolerance": 1e-6}
    twins = [
        [{**base, "x0": 1, "max_iterations": 5}, {**base, "x0": True, "max_iterations": 5}],
        [{**base, "x0": 2.0, "max_iterations": 5}, {**base, "x0": 2, "max_iterations": 5}],
        [{**base, "x0": 0.0, "max_iterations": 0}, {**base, "x0": -0.0, "max_iterations": 0}],
        [{**base, "x0": [1.5], "max_iterations": 3}, {**base, "x0": (1.5,), "max_iterations": 3}],
    ]
    for pair in twins:
        keys = {gd._frozen(each) for each in pair}
        assert len(keys) == 2, pair
    for pair in twins:
        gd._EXACT_MINIMA.clear()
        for each in (*pair, *reversed(pair)):
            try:
                replayed = gd._exact_minimum(each)
            except Exception as error:  # the replay refuses it: so does the kept one
                with pytest.raises(type(error)):
                    gd.exact_minimum(each)
            else:
                assert repr(gd.exact_minimum(each)) == repr(replayed)


def test_input_that_is_not_json_data_is_replayed_each_time() -> None:
    class Number(int):
        pass

    odd = {
        "coefficients": [1, 0, 1],
        "x0": Number(2),
        "learning_rate": 0.1,
        "tolerance": 1e-6,
        "max_iterations": 5,
    }
    with pytest.raises(TypeError):
        gd._frozen(odd)
    gd._EXACT_MINIMA.clear()
    assert gd.exact_minimum(odd) == gd._exact_minimum(odd)
    assert not gd._EXACT_MINIMA
