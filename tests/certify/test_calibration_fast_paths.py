"""Calibration's fast paths agree with the slow ones they stand for: the answer keys
(:func:`verification.certify.calibration._key`, now through one encoder made once) are the
text, or the ``repr``, the per-call encoder gave; gradient_descent's exact minimum, kept
per input, is the replay's for every drawn case and for inputs the replay tells apart;
ratios ranked and ordered by their doubles first are ranked and ordered as the fractions
compare; floyd_warshall's mutant tables are the plain triple loop's."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verification.catalog.calibration import descending_ranks
from verification.catalog.optimization import gradient_descent as gd
from verification.certify.calibration import _key
from verification.generators.base import TIERS, generate_case
from verification.reference.optimization import exact
from verification.registry import SPECS
from verification.validators import fractional_knapsack as fk


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
    exact._EXACT_MINIMA.clear()
    inputs = _drawn_inputs()
    for test_input in inputs:
        replayed = exact._exact_minimum(test_input)
        first, again = gd.exact_minimum(test_input), gd.exact_minimum(test_input)
        assert first == replayed and again == replayed
        assert type(first) is type(replayed) and type(again) is type(replayed)
        if isinstance(first, list):
            assert first is not again  # a caller may change its copy
            first.append(None)
            assert gd.exact_minimum(test_input) == replayed
    assert any(isinstance(gd.exact_minimum(each), list) for each in inputs)


def test_the_exact_minima_kept_are_bounded_and_still_right() -> None:
    exact._EXACT_MINIMA.clear()
    inputs = _drawn_inputs()
    base = next(each for each in inputs if not isinstance(each["x0"], list))
    for start in range(exact._KEPT_MINIMA + 20):
        varied = {**base, "x0": float(start % 7) - 3.0, "max_iterations": 1 + start}
        assert gd.exact_minimum(varied) == exact._exact_minimum(varied)
    assert len(exact._EXACT_MINIMA) <= exact._KEPT_MINIMA


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
        keys = {exact._frozen(each) for each in pair}
        assert len(keys) == 2, pair
    for pair in twins:
        exact._EXACT_MINIMA.clear()
        for each in (*pair, *reversed(pair)):
            try:
                replayed = exact._exact_minimum(each)
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
        exact._frozen(odd)
    exact._EXACT_MINIMA.clear()
    assert gd.exact_minimum(odd) == exact._exact_minimum(odd)
    assert not exact._EXACT_MINIMA


def test_a_circular_or_too_deep_input_fails_as_the_replay_says() -> None:
    """The key is not made of what the replay refuses: its own error, not a RecursionError."""
    circular: list[Any] = [1.0]
    circular.append(circular)
    deep: Any = 1.0
    for _ in range(5000):
        deep = [deep]
    for x0 in (circular, deep):
        case = {
            "coefficients": [1, 0, 1],
            "x0": x0,
            "learning_rate": 0.1,
            "tolerance": 1e-6,
            "max_iterations": 5,
        }
        with pytest.raises(ValueError) as replayed:
            exact._exact_minimum(case)
        with pytest.raises(ValueError, match=re.escape(str(replayed.value))):
            gd.exact_minimum(case)


def _old_ranks(keys: list[Any]) -> list[int]:
    place = {key: rank for rank, key in enumerate(sorted(set(keys), reverse=True))}
    return [place[key] for key in keys]


_BASES = st.lists(
    st.builds(Fraction, st.integers(-60, 60), st.integers(1, 12)), min_size=1, max_size=6
)
_NUDGES = st.integers(-3, 3)
"""The strategies :func:`_ratios` reads that depend on nothing it drew, made once (hypothesis
checks each strategy object afresh); the same strategies draw the same values."""


@st.composite
def _ratios(draw: st.DrawFn) -> list[Fraction]:
    """Fractions, some of them twins a double cannot tell apart, some past the doubles."""
    base = draw(_BASES)
    twins = [
        each + Fraction(draw(_NUDGES), 10**30)
        for each in draw(st.lists(st.sampled_from(base), max_size=3))
    ]
    huge = [Fraction(10**400, 3)] if draw(st.booleans()) else []
    return draw(st.permutations(base + twins + huge))


@given(_ratios())
def test_ratios_are_ranked_and_ordered_as_fractions_compare(keys: list[Fraction]) -> None:
    assert descending_ranks(keys) == _old_ranks(keys)
    groups = {key: [index] for index, key in enumerate(keys)}
    assert fk._best_first(groups) == sorted(groups.items(), reverse=True)


def test_twins_past_a_double_are_ranked_apart() -> None:
    keys = [Fraction(1, 3), Fraction(10**30 + 1, 3 * 10**30), Fraction(1, 3) - Fraction(1, 10**40)]
    assert len({float(key) for key in keys}) == 1
    assert descending_ranks(keys) == [1, 0, 2] == _old_ranks(keys)
    assert descending_ranks([3, 1, 3, 2]) == _old_ranks([3, 1, 3, 2])


def _plain_rounds(test_input: dict[str, Any], upto: int) -> dict[str, dict[str, Any]]:
    """floyd_warshall's table after ``upto`` intermediates, by the plain triple loop."""
    labels = test_input["vertices"]
    dist: dict[str, dict[str, Any]] = {
        u: {v: 0 if u == v else None for v in labels} for u in labels
    }
    for u, v, w in test_input["edges"]:
        for a, b in ((u, v), (v, u)) if not test_input["directed"] else ((u, v),):
            current = dist[a][b]
            if a != b or w < 0:
                dist[a][b] = w if current is None else min(current, w)
    for k in labels[:upto]:
        for u in labels:
            for v in labels:
                left, right, current = dist[u][k], dist[k][v], dist[u][v]
                if left is None or right is None:
                    continue
                if current is None or left + right < current:
                    dist[u][v] = left + right
    return dist


def test_the_mutants_tables_are_the_plain_loops_with_negative_cycles_and_self_loops() -> None:
    """The hook's table skips a row that cannot reach the intermediate and reads the row's
    distance to it again only when it changes (a negative cycle through it)."""
    from verification.catalog.graph.floyd_warshall import _rounds

    rng = random.Random(5)
    shortened = 0
    for _ in range(400):
        labels = [chr(ord("A") + i) for i in range(rng.randint(1, 6))]
        edges = [
            [rng.choice(labels), rng.choice(labels), rng.randint(-6, 9)]
            for _ in range(rng.randint(0, 12))
        ]
        test_input = {"vertices": labels, "edges": edges, "directed": rng.random() < 0.5}
        for upto in range(len(labels) + 1):
            plain = _plain_rounds(test_input, upto)
            assert repr(_rounds(test_input, upto)) == repr(plain), (test_input, upto)
            shortened += any(plain[k][k] < 0 for k in labels)
    assert shortened > 100  # negative cycles met, where a row's own distance changes
