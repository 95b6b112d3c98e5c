"""What is peculiar to ``rabin_karp``: its oracle, a naive scan of every window with each
window's hash computed directly from the definition (Python's big integers, no rolling)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import TIERS, Tier, generate_case
from verification.catalog.string.rabin_karp import SPEC, generate_rabin_karp
from verification.reference.string_algo import rabin_karp, window_hashes


def _direct_hash(word: str, base: int, modulus: int) -> int:
    m = len(word)
    return int(sum(ord(c) * base ** (m - 1 - i) for i, c in enumerate(word)) % modulus)


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"positions", "spurious_hits"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``positions`` lists every window equal to the pattern and
    ``spurious_hits`` every other window whose direct hash equals the pattern's, both
    ascending."""
    text, pattern = test_input["text"], test_input["pattern"]
    base, modulus = test_input["base"], test_input["modulus"]
    m = len(pattern)
    target = _direct_hash(pattern, base, modulus)
    matches, spurious = [], []
    for s in range(len(text) - m + 1):
        window = text[s : s + m]
        if window == pattern:
            matches.append(s)
        elif _direct_hash(window, base, modulus) == target:
            spurious.append(s)
    return answer == {"positions": matches, "spurious_hits": spurious}


@given(
    text=st.text(alphabet="ABCD", max_size=30),
    pattern=st.text(alphabet="ABCD", min_size=1, max_size=5),
    base=st.integers(2, 300),
    modulus=st.integers(2, 200),
)
def test_reference_agrees_with_the_naive_scan(
    text: str, pattern: str, base: int, modulus: int
) -> None:
    test_input: dict[str, Any] = {
        "text": text,
        "pattern": pattern,
        "base": base,
        "modulus": modulus,
    }
    assert oracle(test_input, rabin_karp(**test_input))


@given(text=st.text(max_size=20), length=st.integers(1, 6), base=st.integers(2, 300))
def test_rolled_hashes_equal_direct_hashes(text: str, length: int, base: int) -> None:
    modulus = 101
    rolled = window_hashes(text, length, base, modulus)
    direct = [
        _direct_hash(text[s : s + length], base, modulus) for s in range(len(text) - length + 1)
    ]
    assert rolled == direct


@given(
    text=st.text(alphabet="ABC", max_size=60),
    pattern=st.text(alphabet="ABC", min_size=1, max_size=4),
    most=st.integers(1, 8),
)
def test_the_generators_count_of_occurrences_is_the_references(
    text: str, pattern: str, most: int
) -> None:
    """The standard tier turns down a text with more than 4 occurrences before hashing
    it: the count it reads (str.find, overlaps included) is the reference's positions',
    up to where it stops counting."""
    from verification.catalog.string.rabin_karp import _occurrences

    positions = rabin_karp(text=text, pattern=pattern, base=10, modulus=13)["positions"]
    assert _occurrences(text, pattern, most) == min(len(positions), most)


def test_reference_agrees_over_generated_cases() -> None:
    for tier in TIERS:
        low, high = SPEC.size.ranges[tier]
        for seed in range(40):
            size = low + seed % (high - low + 1)
            test_input = generate_rabin_karp(random.Random(seed), tier, size)
            answer = rabin_karp(**test_input)
            assert oracle(test_input, answer), (tier, seed)
            if tier == "standard":
                assert answer["positions"] and answer["spurious_hits"]


def test_edge_inputs() -> None:
    assert rabin_karp(text="AB", pattern="ABA", base=10, modulus=13) == {
        "positions": [],
        "spurious_hits": [],
    }
    assert rabin_karp(text="", pattern="A", base=10, modulus=13)["positions"] == []
    overlapping = rabin_karp(text="AAAA", pattern="AA", base=10, modulus=13)
    assert overlapping == {"positions": [0, 1, 2], "spurious_hits": []}
    # Modulus 2 with an odd base: a hash is the parity of the letter sum.
    colliding: dict[str, Any] = {"text": "ABBA", "pattern": "AA", "base": 3, "modulus": 2}
    assert oracle(colliding, rabin_karp(**colliding))
    assert rabin_karp(**colliding)["spurious_hits"] == [1]


@pytest.mark.parametrize(
    "bad",
    [
        {"text": "AB", "pattern": "", "base": 10, "modulus": 13},
        {"text": 5, "pattern": "A", "base": 10, "modulus": 13},
        {"text": "AB", "pattern": "A", "base": 1, "modulus": 13},
        {"text": "AB", "pattern": "A", "base": 10, "modulus": 1},
        {"text": "AB", "pattern": "A", "base": 10, "modulus": 13.0},
        {"text": "AB", "pattern": "A", "base": True, "modulus": 13},
    ],
)
def test_bad_inputs_raise_value_error(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        rabin_karp(**bad)


def test_the_oracle_refuses_a_spurious_hit_reported_as_a_match() -> None:
    test_input = {"text": "CCABCABBA", "pattern": "CAB", "base": 10, "modulus": 13}
    assert oracle(test_input, {"positions": [1, 4], "spurious_hits": [6]})
    assert not oracle(test_input, {"positions": [1, 4, 6], "spurious_hits": []})
    assert not oracle(test_input, {"positions": [1, 4], "spurious_hits": []})


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("rabin_karp"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("rabin_karp", oracle, tier, size, index)


@pytest.mark.slow  # forty draws of 300 letters: a second or more
def test_the_standard_tier_draws_the_top_of_code_mode_s_ladder_at_any_seed() -> None:
    # Over three letters a 300-letter text holds a 3-letter pattern a dozen times, which
    # the tier turns down: seeds 8, 10, 20 and 29 ended a code-mode run before.
    top = max(SPEC.code_ladder)
    for seed in range(40):
        case = generate_case(SPEC, "standard", 0, seed=seed, size=top)
        answer = rabin_karp(**case.input)
        assert len(case.input["text"]) == top
        assert 1 <= len(answer["positions"]) <= 4 and 1 <= len(answer["spurious_hits"]) <= 3
