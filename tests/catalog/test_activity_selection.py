"""What is peculiar to ``activity_selection``: its oracle (brute force over every subset),
the reference's cross-checks against it, the validator's agreement with it, and the tier
promises."""

from __future__ import annotations

import bisect
import functools
import json
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import TestCase, Tier
from verification.catalog.greedy.activity_selection import (
    SPEC,
    ActivitySelectionValidator,
    generate_activity_selection,
)
from verification.reference.greedy import activity_selection

BRUTE_FORCE_LIMIT = 14
"""Above this many activities the cross-checks use a dynamic programme instead."""


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


@functools.lru_cache(maxsize=512)
def _largest(key: str) -> tuple[int, int]:
    """The largest compatible subset's size, and how many subsets reach it: every subset
    tried (bitmasks), each judged from the subset without its lowest activity (compatible,
    and that activity clashes with none of the rest), so a subset costs one step, not n."""
    clash = _clashes(key)
    n = len(clash)
    compatible = bytearray(1 << n)
    compatible[0] = 1
    best, ways = 0, 1
    for mask in range(1, 1 << n):
        rest = mask & (mask - 1)
        if compatible[rest] and not clash[(mask ^ rest).bit_length() - 1] & rest:
            compatible[mask] = 1
            size = mask.bit_count()
            if size > best:
                best, ways = size, 1
            elif size == best:
                ways += 1
    return best, ways


def _clashes(key: str) -> list[int]:
    """Each activity's overlapping others, as a bitmask over the activities' positions."""
    spans = [tuple(span) for span in json.loads(key)]
    clash = [0] * len(spans)
    for i, j in combinations(range(len(spans)), 2):
        if _overlap(spans[i], spans[j]):
            clash[i] |= 1 << j
            clash[j] |= 1 << i
    return clash


def _largest_by_definition(key: str) -> tuple[int, int]:
    """:func:`_largest` as the definition reads: every subset checked activity by activity
    (the slow form the faster one is held to)."""
    clash = _clashes(key)
    n = len(clash)
    best, ways = 0, 1
    for mask in range(1, 1 << n):
        if all(not (mask >> i & 1) or not clash[i] & mask for i in range(n)):
            size = mask.bit_count()
            if size > best:
                best, ways = size, 1
            elif size == best:
                ways += 1
    return best, ways


def _spans(test_input: dict[str, Any]) -> list[list[int]]:
    return [[start, finish] for _, start, finish in test_input["activities"]]


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()  # any largest set


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``selected`` lists distinct input labels, no two overlapping (touching is
    fine), ``count`` is their number, and no subset of the activities is larger."""
    selected, count = answer.get("selected"), answer.get("count")
    if set(answer) != {"selected", "count"} or not isinstance(selected, list):
        return False
    if isinstance(count, bool) or not isinstance(count, int):
        return False
    spans = {label: (start, finish) for label, start, finish in test_input["activities"]}
    if len(set(selected)) != len(selected) or not all(x in spans for x in selected):
        return False
    if any(_overlap(spans[x], spans[y]) for x, y in combinations(selected, 2)):
        return False
    spans_listed = _spans(test_input)
    if len(spans_listed) <= BRUTE_FORCE_LIMIT:
        best, _ = _largest(json.dumps(spans_listed))
    else:  # the stress sizes, up to 80 activities: 2**80 subsets
        best = _largest_by_dp(spans_listed)
    return count == len(selected) == best


def _largest_by_dp(spans: list[list[int]]) -> int:
    """The textbook dynamic programme (weighted interval scheduling, unit weights), for
    inputs too big to brute-force."""
    ordered = sorted(spans, key=lambda span: span[1])
    finishes = [finish for _, finish in ordered]
    best = [0] * (len(ordered) + 1)
    for k, (start, _) in enumerate(ordered, 1):
        before = bisect.bisect_right(finishes, start, 0, k - 1)
        best[k] = max(best[k - 1], best[before] + 1)
    return best[-1]


def _case(test_input: dict[str, Any], tier: Any = "standard") -> TestCase:
    return TestCase(
        id=f"activity_selection-{tier}-000",
        scaffold="activity_selection",
        tier=tier,
        index=0,
        input=test_input,
        expected=activity_selection(**test_input),
    )


def test_the_oracle_accepts_touching_and_refuses_overlaps_and_short_sets() -> None:
    test_input = {"activities": [["A", 1, 4], ["B", 4, 6], ["C", 3, 5], ["D", 6, 9]]}
    assert oracle(test_input, {"selected": ["A", "B", "D"], "count": 3})
    assert oracle(test_input, {"selected": ["D", "A", "B"], "count": 3})
    assert not oracle(test_input, {"selected": ["A", "C", "D"], "count": 3})
    assert not oracle(test_input, {"selected": ["A", "D"], "count": 2})
    assert not oracle(test_input, {"selected": ["A", "B", "D"], "count": 2})
    assert not oracle(test_input, {"selected": ["A", "A", "B", "D"], "count": 4})


def test_the_subset_count_is_the_one_checked_activity_by_activity() -> None:
    for seed in range(40):
        rng = random.Random(f"largest:{seed}")
        tier = ("simple", "standard", "edge")[seed % 3]
        low, high = SPEC.size.ranges[tier]
        spans = _spans(generate_activity_selection(rng, tier, rng.randint(low, min(high, 9))))
        key = json.dumps(spans)
        assert _largest(key) == _largest_by_definition(key), spans


@pytest.mark.parametrize("tier", ["simple", "standard", "edge"])
def test_the_reference_agrees_with_brute_force_on_generated_inputs(tier: Any) -> None:
    low, high = SPEC.size.ranges[tier]
    for k in range(120):
        rng = random.Random(f"as:{tier}:{k}")
        test_input = generate_activity_selection(rng, tier, rng.randint(low, high))
        answer = activity_selection(**test_input)
        if len(test_input["activities"]) <= BRUTE_FORCE_LIMIT:
            assert oracle(test_input, answer), test_input
        else:
            assert answer["count"] == _largest_by_dp(_spans(test_input)), test_input


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(1, 5)), max_size=9))
def test_any_small_input_agrees_with_brute_force(draws: list[tuple[int, int]]) -> None:
    test_input = {
        "activities": [[f"a{i}", start, start + length] for i, (start, length) in enumerate(draws)]
    }
    answer = activity_selection(**test_input)
    assert oracle(test_input, answer)
    assert answer["count"] == _largest_by_dp(_spans(test_input))


def test_the_validator_agrees_with_the_oracle_on_every_subset() -> None:
    validator = ActivitySelectionValidator()
    for seed in range(25):
        rng = random.Random(f"subsets:{seed}")
        tier = ("simple", "standard", "edge")[seed % 3]
        test_input = generate_activity_selection(rng, tier, 7)
        case = _case(test_input, tier)
        labels = [label for label, _, _ in test_input["activities"]]
        for size in range(len(labels) + 1):
            for chosen in combinations(labels, size):
                for count in {size, size + 1}:
                    answer = {"selected": list(chosen), "count": count}
                    verdict = validator.validate(answer, case.expected, case=case)
                    assert verdict.is_valid is oracle(test_input, answer), (answer, verdict)


def test_the_api_reference_example_has_two_not_three() -> None:
    """Its documented answer picks (5, 7) and (6, 10), which overlap; the optimum is 2."""
    activities = [(1, 4), (3, 5), (0, 6), (5, 7), (3, 9), (5, 9), (6, 10)]
    answer = activity_selection(activities=activities)
    assert answer == {"selected": [[1, 4], [5, 7]], "count": 2}
    labelled = {"activities": [[str(i), s, f] for i, (s, f) in enumerate(activities)]}
    assert oracle(labelled, {"selected": ["0", "3"], "count": 2})
    assert not oracle(labelled, {"selected": ["0", "3", "6"], "count": 3})


@pytest.mark.slow
def test_tiers_keep_their_promises() -> None:
    kinds = {"touching": 0, "identical": 0, "empty": 0, "single": 0, "tied": 0}
    for seed in range(150):
        for tier, size in (("simple", 8), ("standard", 12)):
            test_input = generate_activity_selection(random.Random(seed), tier, size)
            spans = _spans(test_input)
            points = [p for span in spans for p in span]
            assert len(spans) == size and len(set(points)) == len(points), test_input
            best, ways = _largest(json.dumps(spans))
            assert best < size, test_input  # not all compatible
            if tier == "simple":
                assert ways == 1, test_input
            else:
                by_start, free = 0, None
                for start, finish in sorted(spans):
                    if free is None or start >= free:
                        by_start, free = by_start + 1, finish
                assert by_start < best, test_input
        edge = _spans(generate_activity_selection(random.Random(seed), "edge", 8))
        starts, finishes = {s for s, _ in edge}, [f for _, f in edge]
        kinds["touching"] += bool(starts & set(finishes))
        kinds["identical"] += len({tuple(span) for span in edge}) < len(edge)
        kinds["empty"] += not edge
        kinds["single"] += len(edge) == 1
        kinds["tied"] += len(set(finishes)) < len(finishes)
    assert all(kinds.values()), kinds


@pytest.mark.parametrize(
    ("activities", "expected"),
    [
        ([], {"selected": [], "count": 0}),
        ([["X", 2, 3]], {"selected": ["X"], "count": 1}),
        ([["A", 1, 3], ["B", 3, 5], ["C", 5, 7]], {"selected": ["A", "B", "C"], "count": 3}),
        ([["A", 0, 9], ["B", 1, 2], ["C", 3, 4]], {"selected": ["B", "C"], "count": 2}),
        ([["A", 1, 5], ["B", 1, 5], ["C", 2, 6]], {"selected": ["A"], "count": 1}),
        ([["A", -3, -1], ["B", 0.5, 2.5]], {"selected": ["A", "B"], "count": 2}),
    ],
)
def test_edge_inputs(activities: list[list[Any]], expected: dict[str, Any]) -> None:
    assert activity_selection(activities) == expected
    if all(isinstance(t, int) for _, s, f in activities for t in (s, f)):
        assert oracle({"activities": activities}, expected)


@pytest.mark.parametrize(
    ("activities", "message"),
    [
        ("abc", "list"),
        ([["A", 1]], "start must be a number"),
        ([["A", 1, 2, 3]], r"\[label, start, finish\]"),
        ([["A", 1, 2], [3, 4]], "every activity has a label or none"),
        ([["A", 1, 2], ["A", 3, 4]], "repeats"),
        ([["A", 2, 2]], "finish after it starts"),
        ([["A", 5, 2]], "finish after it starts"),
        ([["A", "1", 2]], "start must be a number"),
        ([["A", 1, True]], "finish must be a number"),
        ([["A", 1, float("nan")]], "finite"),
        ([[1, "x", 2]], "label"),
        ([7], r"activities\[0\]"),
    ],
)
def test_bad_inputs_raise(activities: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        activity_selection(activities)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("activity_selection"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("activity_selection", oracle, tier, size, index)
