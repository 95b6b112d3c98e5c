"""What is peculiar to ``subset_sum``: its oracle (every subset tried, by ``itertools``)
and the reference's cross-checks against it."""

from __future__ import annotations

import random
from itertools import chain, combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import stress_case, stress_cells
from verification.cases import TestCase, Tier
from verification.catalog.backtracking.subset_sum import (
    MAX_STEPS,
    SPEC,
    STANDARD_MAX,
    SUBSET_SUM_EDGE_KINDS,
    SubsetSumValidator,
    generate_subset_sum,
    search_effort,
)
from verification.reference.backtracking import subset_sum


def _every_subset(n: int) -> chain[tuple[int, ...]]:
    return chain.from_iterable(combinations(range(n), size) for size in range(n + 1))


def _reachable(numbers: list[int], target: int) -> bool:
    return any(sum(numbers[i] for i in chosen) == target for chosen in _every_subset(len(numbers)))


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when the claimed indices are distinct integers in range whose numbers sum to
    the target, or when "no subset" (with null indices) is claimed and no subset of any
    size sums to the target."""
    found, indices = answer.get("found"), answer.get("indices")
    numbers, target = test_input["numbers"], test_input["target"]
    if set(answer) != {"found", "indices"} or not isinstance(found, bool):
        return False
    if not found:
        return indices is None and not _reachable(numbers, target)
    if not isinstance(indices, list) or len(set(indices)) != len(indices):
        return False
    if any(isinstance(i, bool) or not isinstance(i, int) for i in indices):
        return False
    in_range = all(0 <= i < len(numbers) for i in indices)
    return in_range and sum(numbers[i] for i in indices) == target


def test_the_oracle_checks_the_sum_and_the_claim_of_no_subset() -> None:
    test_input = {"numbers": [7, 7, 40, 32], "target": 47}
    assert oracle(test_input, {"found": True, "indices": [1, 2]})
    assert oracle(test_input, {"found": True, "indices": [2, 0]})
    assert not oracle(test_input, {"found": True, "indices": [2, 2]})
    assert not oracle(test_input, {"found": True, "indices": [0, 3]})
    assert not oracle(test_input, {"found": False, "indices": None})
    assert oracle({"numbers": [2, 4], "target": 5}, {"found": False, "indices": None})


@pytest.mark.parametrize("tier", ["simple", "standard", "edge"])
def test_the_reference_agrees_with_brute_force_on_generated_inputs(tier: Any) -> None:
    for k in range(60):
        rng = random.Random(f"ss:{tier}:{k}")
        size = {"simple": rng.randint(3, 8), "standard": rng.randint(6, 14)}.get(tier, 10)
        test_input = generate_subset_sum(rng, tier, size)
        answer = subset_sum(**test_input)
        assert oracle(test_input, answer), test_input
        assert answer["found"] is _reachable(test_input["numbers"], test_input["target"])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 30), max_size=10), st.integers(0, 120))
def test_any_list_agrees_with_brute_force(numbers: list[int], target: int) -> None:
    answer = subset_sum(numbers, target)
    assert answer["found"] is _reachable(numbers, target)
    assert oracle({"numbers": numbers, "target": target}, answer)
    if answer["found"]:
        assert answer["indices"] == sorted(answer["indices"])


def test_tiers_keep_their_promises() -> None:
    for k in range(100):
        simple = generate_subset_sum(random.Random(k), "simple", 6)
        numbers, target = simple["numbers"], simple["target"]
        assert len(set(numbers)) == len(numbers) == 6 and 0 < target < sum(numbers)
        assert _reachable(numbers, target)
        standard = generate_subset_sum(random.Random(k), "standard", 10)
        numbers, target = standard["numbers"], standard["target"]
        assert len(set(numbers)) < len(numbers) == 10 and min(numbers) > 0
        assert _reachable(numbers, target) and target < sum(numbers)
        taken = 0  # taking whatever fits, in order, must miss: the search has to go back
        for value in numbers:
            taken += value if taken + value <= target else 0
        assert taken != target
    kinds = set()
    for k in range(400):
        edge = generate_subset_sum(random.Random(k), "edge", 6)
        numbers, target = edge["numbers"], edge["target"]
        assert len(numbers) <= 6
        if not numbers:
            kinds.add("empty_set")
        elif len(numbers) == 1:
            kinds.add("single_number")
        elif target == 0:
            kinds.add("zero_target")
        elif target > sum(numbers):
            kinds.add("above_total")
        elif target == sum(numbers):
            kinds.add("whole_set")
        elif 0 in numbers:
            kinds.add("zeros_and_repeats")
        elif not _reachable(numbers, target):
            kinds.add("no_subset")
    assert kinds == set(SUBSET_SUM_EDGE_KINDS)


def test_the_validator_agrees_with_the_oracle_on_random_index_sets() -> None:
    validator = SubsetSumValidator()
    rng = random.Random(6)
    for k in range(100):
        test_input = generate_subset_sum(random.Random(f"v{k}"), "standard", 8)
        expected = subset_sum(**test_input)
        case = TestCase(
            id="subset_sum-standard-000",
            scaffold="subset_sum",
            tier="standard",
            index=0,
            input=test_input,
            expected=expected,
        )
        indices = rng.sample(range(9), rng.randint(0, 5))  # 8 is out of range
        answer = {"found": True, "indices": indices}
        verdict = validator.validate(answer, expected, case=case)
        assert verdict.is_valid is oracle(test_input, answer), (test_input, indices)


@pytest.mark.parametrize(
    ("numbers", "target", "found"),
    [
        ([], 0, True),
        ([], 5, False),
        ([4, 9], 0, True),
        ([5], 5, True),
        ([5], 6, False),
        ([3, 4], 8, False),
        ([3, 4], 7, True),
        ([0, 0, 2], 2, True),
        ([2, 4, 6], 5, False),
    ],
)
def test_edge_inputs(numbers: list[int], target: int, found: bool) -> None:
    answer = subset_sum(numbers, target)
    assert answer["found"] is found
    assert oracle({"numbers": numbers, "target": target}, answer)
    if target == 0:
        assert answer["indices"] == []


def test_long_lists_do_not_hit_the_recursion_limit() -> None:
    numbers = [1] * 3000
    answer = subset_sum(numbers, 2999)
    assert answer == {"found": True, "indices": list(range(2999))}
    assert subset_sum(numbers, 3001) == {"found": False, "indices": None}
    # The last number overshoots: the search takes every 1 before it, then skips it.
    assert subset_sum([*numbers, 9], 3000)["indices"] == list(range(3000))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"numbers": [1, -2], "target": 3}, r"numbers\[1\]"),
        ({"numbers": [1, True], "target": 3}, r"numbers\[1\]"),
        ({"numbers": [1, 2.5], "target": 3}, r"numbers\[1\]"),
        ({"numbers": "12", "target": 3}, "list"),
        ({"numbers": [1, 2], "target": -1}, "target"),
        ({"numbers": [1, 2], "target": None}, "target"),
    ],
)
def test_bad_inputs_raise(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        subset_sum(**kwargs)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("subset_sum"))
def test_stress_sizes_keep_the_tiers_promises_and_the_reference_holds(
    tier: Tier, size: int, index: int
) -> None:
    case = stress_case("subset_sum", tier, size, index)
    numbers, target = case.input["numbers"], case.input["target"]
    assert len(numbers) == size and 0 < target < sum(numbers)
    if tier == "simple":
        assert len(set(numbers)) == size
    else:
        taken = 0  # taking whatever fits, in order, misses: the search has to go back
        for value in numbers:
            taken += value if taken + value <= target else 0
        assert taken != target
    # The shown search grows with the size, in proportion past the standard maximum.
    steps, _ = search_effort(numbers, target)
    assert steps <= MAX_STEPS[tier] * size / STANDARD_MAX
    assert oracle(case.input, case.expected), case.id
    # Calibration asks both hooks of a run's own cases: they must hold (and be quick) here.
    rng = random.Random(index)
    for other in SPEC.alternatives(case, rng):
        assert oracle(case.input, other)
        assert SPEC.validator.validate(other, case.expected, case=case).is_valid
    for wrong in SPEC.mutants(case, rng):  # (the oracle's "no subset" check is brute force)
        assert not SPEC.validator.validate(wrong, case.expected, case=case).is_valid


def test_subsets_summing_to_lists_the_subsets_in_mask_order() -> None:
    """The brute force sums each subset from a smaller one's sum (whole numbers); the
    subsets found, their order and the cut at ``limit`` are those of summing every subset
    as listed, the way it keeps for other numbers."""
    from verification.catalog.backtracking.subset_sum import subsets_summing_to

    rng = random.Random(27)
    for _ in range(400):
        numbers = [rng.randint(-3, 15) for _ in range(rng.randint(0, 9))]
        target, limit = rng.randint(-5, 45), rng.choice((1, 2, 10))
        listed = [
            [i for i in range(len(numbers)) if mask >> i & 1]
            for mask in range(1 << len(numbers))
            if sum(numbers[i] for i in range(len(numbers)) if mask >> i & 1) == target
        ]
        assert subsets_summing_to(numbers, target, limit) == listed[:limit]
    assert subsets_summing_to([0.5, 0.25, 0.25], 0.5) == [[0], [1, 2]]
