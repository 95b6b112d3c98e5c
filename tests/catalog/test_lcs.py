"""What is peculiar to ``lcs``: its oracle (brute force over every subsequence of the
shorter string; past 12 letters, the stress sizes, Hunt and Szymanski's reduction to a
longest increasing subsequence) and the reference's cross-checks against it."""

from __future__ import annotations

import bisect
import random
from functools import cache
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import TIERS, TestCase, Tier
from verification.catalog.dynamic_programming.lcs import LcsValidator, every_lcs, generate_lcs
from verification.reference.dynamic_programming import longest_common_subsequence


def _subsequences(text: str, size: int) -> set[str]:
    return {"".join(chosen) for chosen in combinations(text, size)}


@cache
def _all_longest(a: str, b: str) -> tuple[int, frozenset[str]]:
    """The LCS length and every LCS, by brute force: the longest size at which the two
    strings share a subsequence."""
    for size in range(min(len(a), len(b)), -1, -1):
        shared = _subsequences(a, size) & _subsequences(b, size)
        if shared:
            return size, frozenset(shared)
    raise AssertionError("the empty string is always shared")


BRUTE_FORCE = 12
"""The longest shorter string brute force searches; past it (stress sizes), the LCS length
comes from :func:`_hunt_szymanski`."""


def _hunt_szymanski(a: str, b: str) -> int:
    """The LCS length as the longest strictly increasing run of matching positions of ``b``
    (Hunt and Szymanski): each letter of ``a`` lists where it occurs in ``b``, last first, so
    one letter of ``a`` takes at most one of them; patience sorting finds the longest."""
    piles: list[int] = []
    for letter in a:
        for position in sorted((j for j, c in enumerate(b) if c == letter), reverse=True):
            at = bisect.bisect_left(piles, position)
            piles[at : at + 1] = [position]
    return len(piles)


def _occurs_in(part: str, whole: str) -> bool:
    position = 0
    for letter in part:
        position = whole.find(letter, position) + 1
        if position == 0:
            return False
    return True


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()  # any longest


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``subsequence`` is a common subsequence of ``a`` and ``b`` whose length is
    ``length`` and the brute-force optimum."""
    length, witness = answer.get("length"), answer.get("subsequence")
    if set(answer) != {"length", "subsequence"} or not isinstance(witness, str):
        return False
    if isinstance(length, bool) or not isinstance(length, int):
        return False
    a, b = test_input["a"], test_input["b"]
    best = _all_longest(a, b)[0] if min(len(a), len(b)) <= BRUTE_FORCE else _hunt_szymanski(a, b)
    return len(witness) == length == best and _occurs_in(witness, a) and _occurs_in(witness, b)


def test_the_oracle_on_the_textbook_pair() -> None:
    test_input = {"a": "ABCBDAB", "b": "BDCABA"}
    for witness in ("BCBA", "BDAB", "BCAB"):
        assert oracle(test_input, {"length": 4, "subsequence": witness})
    assert not oracle(test_input, {"length": 3, "subsequence": "BCB"})  # not the longest
    assert not oracle(test_input, {"length": 4, "subsequence": "ABBA"})  # not in b
    assert not oracle(test_input, {"length": 5, "subsequence": "BCBA"})


def _check(a: str, b: str) -> None:
    result = longest_common_subsequence(a=a, b=b)
    best, witnesses = _all_longest(a, b)
    assert result["length"] == best
    assert result["subsequence"] in witnesses
    assert oracle({"a": a, "b": b}, result)


@pytest.mark.parametrize("tier", TIERS)
def test_the_reference_matches_brute_force_on_generated_inputs(tier: Tier) -> None:
    for seed in range(60):
        rng = random.Random(seed)
        _check(**generate_lcs(rng, tier, rng.randint(3, 10)))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text("ABC", max_size=8), st.text("ABCD", max_size=8))
def test_the_reference_matches_brute_force_on_random_strings(a: str, b: str) -> None:
    _check(a, b)


@settings(max_examples=150, deadline=None)
@given(st.text("AB", max_size=8), st.text("AB", max_size=8))
def test_every_lcs_lists_exactly_the_brute_force_set(a: str, b: str) -> None:
    assert set(every_lcs(a, b, limit=10_000)) == _all_longest(a, b)[1]


@pytest.mark.parametrize(
    ("a", "b"), [("", ""), ("", "ABC"), ("ABC", ""), ("ABCA", "ABCA"), ("ABC", "XYZ"), ("A", "BA")]
)
def test_edge_inputs(a: str, b: str) -> None:
    result = longest_common_subsequence(a=a, b=b)
    if a == b:
        assert result == {"length": len(a), "subsequence": a}
    _check(a, b)


def test_generated_tiers_keep_their_promises() -> None:
    for seed in range(100):
        for tier in ("simple", "standard"):
            test_input = generate_lcs(random.Random(seed), tier, 7)
            a, b = test_input["a"], test_input["b"]
            best = _all_longest(a, b)[0]
            assert a != b and 2 <= best < min(len(a), len(b))


def test_the_validator_reads_the_witness_against_the_input() -> None:
    test_input = {"a": "ABCBDAB", "b": "BDCABA"}
    expected = longest_common_subsequence(**test_input)
    case = TestCase(id="lcs-x", scaffold="lcs", tier="simple", input=test_input, expected=expected)
    validator = LcsValidator()
    assert validator.validate({"length": 4, "subsequence": "BDAB"}, expected, case=case).is_valid
    verdict = validator.validate({"length": 4, "subsequence": "ABBA"}, expected, case=case)
    assert not verdict.is_valid and "not a subsequence of b" in verdict.message
    assert not validator.validate({"length": "4", "subsequence": "BCBA"}, expected).is_valid


@pytest.mark.parametrize(("a", "b"), [(None, "A"), ("A", 3), (["A"], "A")])
def test_bad_inputs_raise(a: Any, b: Any) -> None:
    with pytest.raises(ValueError, match="must be a string"):
        longest_common_subsequence(a=a, b=b)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("lcs"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("lcs", oracle, tier, size, index)


@given(st.text("abc", max_size=10), st.text("abc", max_size=10))
def test_hunt_and_szymanski_find_the_brute_force_length(a: str, b: str) -> None:
    assert _hunt_szymanski(a, b) == _all_longest(a, b)[0]
