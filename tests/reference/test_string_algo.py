"""``kmp_search`` and ``failure_function`` against brute force and ``re``; ``rabin_karp``
and ``trie_operations`` on inputs beyond their generators."""

from __future__ import annotations

import random
import re
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verification.catalog.string.kmp import SPEC, generate_kmp
from verification.generators.base import TIERS, Tier
from verification.reference.string_algo import (
    failure_function,
    kmp_search,
    rabin_karp,
    trie_operations,
)

SIZES = SPEC.sizes
words = st.text(alphabet="ABC", max_size=30)
patterns = st.text(alphabet="ABC", min_size=1, max_size=6)


def brute_force(text: str, pattern: str) -> list[int]:
    return [i for i in range(len(text) - len(pattern) + 1) if text[i : i + len(pattern)] == pattern]


def by_regex(text: str, pattern: str) -> list[int]:
    # A lookahead matches without consuming, so overlapping occurrences are all found.
    return [m.start() for m in re.finditer(f"(?={re.escape(pattern)})", text)]


def brute_failure(pattern: str) -> list[int]:
    return [
        max(k for k in range(q + 1) if pattern[:k] == pattern[q + 1 - k : q + 1])
        for q in range(len(pattern))
    ]


@pytest.mark.parametrize("tier", TIERS)
def test_generated_inputs_match_both_oracles(tier: Tier) -> None:
    for seed in range(200):
        case = generate_kmp(random.Random(f"ref:{tier}:{seed}"), tier, SIZES[tier])
        positions = kmp_search(**case)["positions"]
        assert positions == brute_force(case["text"], case["pattern"])
        assert positions == by_regex(case["text"], case["pattern"])


@given(text=words, pattern=patterns)
def test_random_strings_match_brute_force(text: str, pattern: str) -> None:
    assert kmp_search(text=text, pattern=pattern) == {"positions": brute_force(text, pattern)}


@given(pattern=st.text(alphabet="AB", min_size=1, max_size=5), repeats=st.integers(1, 6))
def test_periodic_texts_find_every_overlap(pattern: str, repeats: int) -> None:
    text = pattern * repeats
    assert kmp_search(text=text, pattern=pattern)["positions"] == by_regex(text, pattern)


@given(pattern=patterns)
def test_failure_function_is_the_longest_proper_border(pattern: str) -> None:
    assert failure_function(pattern) == brute_failure(pattern)


def test_answer_shape_is_plain_json() -> None:
    result = kmp_search(text="ABAB", pattern="AB")
    assert result == {"positions": [0, 2]}
    assert type(result["positions"]) is list


@pytest.mark.parametrize(
    ("text", "pattern", "message"),
    [
        ("ABC", "", "must not be empty"),
        ("ABC", 3, "pattern must be a string"),
        (None, "A", "text must be a string"),
        (["A"], "A", "text must be a string"),
    ],
)
def test_bad_input_is_a_value_error(text: object, pattern: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        kmp_search(text=text, pattern=pattern)  # type: ignore[arg-type]


def test_failure_function_rejects_an_empty_pattern() -> None:
    with pytest.raises(ValueError, match="must not be empty"):
        failure_function("")


# Beyond the generators, against the scaffold tests' oracles (tests/catalog, loaded by
# conftest.py): any characters (beyond Latin-1, beyond the BMP), any base and modulus
# (spurious hits everywhere with a small one), words that are prefixes of each other.


@settings(max_examples=200, deadline=None)
@given(
    text=st.text("abé€\U0001f600", max_size=14),
    pattern=st.text("abé€\U0001f600", min_size=1, max_size=3),
    base=st.integers(2, 2**20),
    modulus=st.integers(2, 60) | st.integers(2, 2**61),
)
def test_rabin_karp_on_any_characters_base_and_modulus(
    text: str, pattern: str, base: int, modulus: int, scaffold_tests: dict[str, ModuleType]
) -> None:
    inp = {"text": text, "pattern": pattern, "base": base, "modulus": modulus}
    assert scaffold_tests["rabin_karp"].oracle(inp, rabin_karp(**inp))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    operations=st.lists(
        st.tuples(
            st.sampled_from(["insert", "search", "starts_with", "count_prefix"]),
            st.text("aé\U0001f600", min_size=1, max_size=3),
        ).map(list),
        max_size=14,
    )
)
def test_trie_on_nested_words_of_any_characters(
    operations: list[list[str]], scaffold_tests: dict[str, ModuleType]
) -> None:
    inp = {"operations": operations}
    assert scaffold_tests["trie"].oracle(inp, trie_operations(operations))
