"""What is peculiar to ``lis``: its oracle (patience sorting with ``bisect``) and the
reference's cross-checks against it and against brute force over every subsequence."""

from __future__ import annotations

import bisect
import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import DEFAULT_SEED, TIERS, TestCase, Tier, generate_case
from verification.catalog.dynamic_programming.lis import SPEC, LisValidator, every_lis, generate_lis
from verification.reference.dynamic_programming import longest_increasing_subsequence


def _patience_length(values: list[int]) -> int:
    """The LIS length: ``tails[k]`` is the least last value of a strictly increasing
    subsequence of length ``k + 1`` (``bisect_left`` keeps equal values from extending)."""
    tails: list[int] = []
    for value in values:
        at = bisect.bisect_left(tails, value)
        tails[at : at + 1] = [value]
    return len(tails)


def _in_order(part: list[int], whole: list[int]) -> bool:
    position = 0
    for value in part:
        try:
            position = whole.index(value, position) + 1
        except ValueError:
            return False
    return True


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()  # any longest


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``subsequence`` is strictly increasing, occurs in ``sequence`` in order,
    and its length is ``length`` and the patience-sorting optimum."""
    length, witness = answer.get("length"), answer.get("subsequence")
    if set(answer) != {"length", "subsequence"} or not isinstance(witness, list):
        return False
    if any(isinstance(v, bool) or not isinstance(v, int) for v in [length, *witness]):
        return False
    values = test_input["sequence"]
    increasing = all(x < y for x, y in itertools.pairwise(witness))
    best = _patience_length(values)
    return increasing and len(witness) == length == best and _in_order(witness, values)


def _brute_force(values: list[int]) -> set[tuple[int, ...]]:
    """Every longest strictly increasing value tuple, over every index subset."""
    for size in range(len(values), 0, -1):
        found = {
            chosen
            for chosen in itertools.combinations(values, size)
            if all(x < y for x, y in itertools.pairwise(chosen))
        }
        if found:
            return found
    return {()}


def test_the_oracle_insists_on_strictly_increasing() -> None:
    test_input = {"sequence": [3, 1, 4, 1, 5, 9, 2, 6]}
    for witness in ([3, 4, 5, 9], [1, 4, 5, 6], [3, 4, 5, 6]):
        assert oracle(test_input, {"length": 4, "subsequence": witness})
    assert not oracle(test_input, {"length": 3, "subsequence": [3, 4, 5]})
    assert not oracle(test_input, {"length": 4, "subsequence": [1, 4, 5, 7]})
    assert not oracle({"sequence": [1, 2, 2, 3]}, {"length": 4, "subsequence": [1, 2, 2, 3]})


def _check(values: list[int]) -> None:
    result = longest_increasing_subsequence(sequence=values)
    everything = _brute_force(values)
    assert result["length"] == _patience_length(values) == len(next(iter(everything)))
    assert tuple(result["subsequence"]) in everything
    assert oracle({"sequence": values}, result)


@pytest.mark.parametrize("tier", TIERS)
def test_the_reference_matches_brute_force_on_generated_inputs(tier: Tier) -> None:
    for seed in range(60):
        rng = random.Random(seed)
        _check(generate_lis(rng, tier, rng.randint(4, 11))["sequence"])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-3, 8), max_size=10))
def test_the_reference_matches_brute_force_on_random_lists(values: list[int]) -> None:
    _check(values)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=10))
def test_every_lis_lists_exactly_the_brute_force_set(values: list[int]) -> None:
    assert {tuple(w) for w in every_lis(values, limit=10_000)} == _brute_force(values)


@pytest.mark.parametrize(
    "values", [[], [7], [9, 7, 4, 2, -1], [5, 5, 5], [1, 2, 3, 4], [1, 2, 2, 3, 3], [4, 4]]
)
def test_edge_inputs(values: list[int]) -> None:
    _check(values)
    result = longest_increasing_subsequence(sequence=values)
    if values == sorted(set(values), reverse=True):
        # Strictly decreasing: the earliest position wins the tie between single values.
        assert result["subsequence"] == values[:1]


def test_generated_tiers_keep_their_promises() -> None:
    for seed in range(100):
        for tier in ("simple", "standard"):
            values = generate_lis(random.Random(seed), tier, 10)["sequence"]
            best = _patience_length(values)
            assert (3 if tier == "standard" else 2) <= best < len(values)
            if tier == "standard":
                # Strictness matters: allowing equal values would give a longer answer.
                steady = max(
                    size
                    for size in range(1, len(values) + 1)
                    for chosen in itertools.combinations(values, size)
                    if all(x <= y for x, y in itertools.pairwise(chosen))
                )
                assert steady > best


def test_the_validator_checks_order_and_strictness() -> None:
    test_input = {"sequence": [3, 1, 4, 1, 5, 9, 2, 6]}
    expected = longest_increasing_subsequence(**test_input)
    case = TestCase(id="lis-x", scaffold="lis", tier="simple", input=test_input, expected=expected)
    validator = LisValidator()
    verdict = validator.validate({"length": 4, "subsequence": [1, 4, 5, 6]}, expected, case=case)
    assert verdict.is_valid
    verdict = validator.validate({"length": 4, "subsequence": [4, 5, 6, 9]}, expected, case=case)
    assert not verdict.is_valid and "does not occur" in verdict.message
    verdict = validator.validate({"length": 2, "subsequence": [4, 4]}, expected, case=case)
    assert not verdict.is_valid and "not strictly increasing" in verdict.message


@pytest.mark.parametrize("values", ["3142", [1, "2"], [1, True], None])
def test_bad_inputs_raise(values: Any) -> None:
    with pytest.raises(ValueError, match="integer"):
        longest_increasing_subsequence(sequence=values)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("lis"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("lis", oracle, tier, size, index)


def test_the_mutants_change_a_value_even_where_every_near_one_is_taken() -> None:
    # 64 distinct values of 1..96 (a stress size): every number within 3 of a witness's value
    # may be in the sequence, and the mutant looks further out for one that is not.
    case = generate_case(SPEC, "simple", 1, seed=DEFAULT_SEED, size=64)
    for seed in range(5):
        for wrong in SPEC.mutants(case, random.Random(seed)):
            assert not oracle(case.input, wrong), wrong
