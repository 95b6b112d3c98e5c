"""What is peculiar to ``trie``: its oracle, a Python set of words and a set of their
prefixes replayed operation by operation."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import TIERS, Tier
from verification.catalog.string.trie import SPEC, generate_trie
from verification.reference.string_algo import trie_operations


def _replay(operations: list[list[str]]) -> dict[str, Any]:
    words: set[str] = set()
    prefixes: set[str] = set()
    results: list[bool | int] = []
    for op, word in operations:
        if op == "insert":
            results.append(word not in words)
            words.add(word)
            prefixes.update(word[:i] for i in range(1, len(word) + 1))
        elif op == "search":
            results.append(word in words)
        elif op == "starts_with":
            results.append(word in prefixes)
        else:
            results.append(sum(1 for w in words if w.startswith(word)))
    return {"results": results, "node_count": len(prefixes)}


def _same(a: Any, b: Any) -> bool:
    # JSON equality with booleans kept apart from integers (true is not 1).
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when the answer equals a replay on a set of words and a set of prefixes."""
    return _same(answer, _replay(test_input["operations"]))


operations = st.lists(
    st.tuples(
        st.sampled_from(["insert", "insert", "search", "starts_with", "count_prefix"]),
        st.text(alphabet="abc", min_size=1, max_size=4),
    ).map(list),
    max_size=30,
)


@given(ops=operations)
def test_reference_agrees_with_a_set_replay(ops: list[list[str]]) -> None:
    assert oracle({"operations": ops}, trie_operations(operations=ops))


def test_reference_agrees_over_generated_cases() -> None:
    for tier in TIERS:
        low, high = SPEC.size.ranges[tier]
        for seed in range(40):
            size = low + seed % (high - low + 1)
            test_input = generate_trie(random.Random(seed), tier, size)
            assert oracle(test_input, trie_operations(**test_input)), (tier, seed)


def test_prefix_words_duplicates_and_an_empty_trie() -> None:
    ops = [["search", "ab"], ["insert", "abc"], ["search", "ab"], ["starts_with", "ab"]]
    ops += [["insert", "ab"], ["search", "ab"], ["insert", "ab"], ["count_prefix", "a"]]
    answer = trie_operations(operations=ops)
    assert answer == _replay(ops)
    assert answer["results"] == [False, True, False, True, True, True, False, 2]
    assert answer["node_count"] == 3
    assert trie_operations(operations=[]) == {"results": [], "node_count": 0}


@pytest.mark.parametrize(
    "bad",
    [
        "insert a",
        [["delete", "a"]],
        [["insert", ""]],
        [["insert"]],
        [["insert", "a", "b"]],
        [["search", 3]],
        ["insert"],
    ],
)
def test_bad_inputs_raise_value_error(bad: Any) -> None:
    with pytest.raises(ValueError):
        trie_operations(operations=bad)


def test_the_oracle_refuses_search_answered_as_a_prefix_test() -> None:
    test_input = {"operations": [["insert", "car"], ["search", "ca"]]}
    assert oracle(test_input, {"results": [True, False], "node_count": 3})
    assert not oracle(test_input, {"results": [True, True], "node_count": 3})
    assert not oracle(test_input, {"results": [1, False], "node_count": 3})


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("trie"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("trie", oracle, tier, size, index)
