"""What is peculiar to ``edit_distance``: its oracle (a memoised search over the three
edits, independent of the reference's table) and the reference's cross-checks against it
and against exhaustive search over edit sequences."""

from __future__ import annotations

import random
from collections import deque
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import TIERS, Tier
from verification.catalog.dynamic_programming.edit_distance import generate_edit_distance
from verification.reference.dynamic_programming import edit_distance


@cache
def _distance(a: str, b: str) -> int:
    """The fewest edits, by recursion on the first characters (memoised on the strings)."""
    if not a or not b:
        return len(a) + len(b)
    if a[0] == b[0]:
        return _distance(a[1:], b[1:])
    return 1 + min(_distance(a[1:], b), _distance(a, b[1:]), _distance(a[1:], b[1:]))


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``distance`` is an integer equal to the memoised search's distance."""
    distance = answer.get("distance")
    if set(answer) != {"distance"} or isinstance(distance, bool):
        return False
    return isinstance(distance, int) and distance == _distance(test_input["a"], test_input["b"])


def _edits(text: str, alphabet: str) -> set[str]:
    out = {text[:i] + text[i + 1 :] for i in range(len(text))}
    for i in range(len(text) + 1):
        out |= {text[:i] + c + text[i:] for c in alphabet}
    for i in range(len(text)):
        out |= {text[:i] + c + text[i + 1 :] for c in alphabet if c != text[i]}
    return out


def _breadth_first(a: str, b: str) -> int:
    """Exhaustive search: the fewest single edits from ``a`` to ``b`` (letters of either
    string suffice, and no shortest edit sequence needs a string longer than both)."""
    alphabet = "".join(sorted(set(a + b)))
    limit = max(len(a), len(b))
    seen, frontier = {a}, deque([(a, 0)])
    while frontier:
        text, steps = frontier.popleft()
        if text == b:
            return steps
        for nxt in _edits(text, alphabet):
            if nxt not in seen and len(nxt) <= limit:
                seen.add(nxt)
                frontier.append((nxt, steps + 1))
    raise AssertionError("b is always reachable")


def test_the_oracle_on_kitten_and_sitting() -> None:
    test_input = {"a": "kitten", "b": "sitting"}
    assert oracle(test_input, {"distance": 3})
    assert not oracle(test_input, {"distance": 4})
    assert not oracle(test_input, {"distance": True})


@pytest.mark.parametrize("tier", TIERS)
def test_the_reference_matches_the_oracle_on_generated_inputs(tier: Tier) -> None:
    for seed in range(80):
        rng = random.Random(seed)
        test_input = generate_edit_distance(rng, tier, rng.randint(3, 12))
        assert oracle(test_input, edit_distance(**test_input))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.text("abc", max_size=5), st.text("abc", max_size=5))
def test_the_reference_matches_exhaustive_search(a: str, b: str) -> None:
    assert edit_distance(a=a, b=b)["distance"] == _breadth_first(a, b)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text("abcd", max_size=10), st.text("abcd", max_size=10))
def test_the_reference_is_symmetric_and_within_its_bounds(a: str, b: str) -> None:
    distance = edit_distance(a=a, b=b)["distance"]
    assert distance == edit_distance(a=b, b=a)["distance"] == _distance(a, b)
    assert abs(len(a) - len(b)) <= distance <= max(len(a), len(b))
    assert (distance == 0) == (a == b)


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("", "", 0),
        ("", "abc", 3),
        ("abc", "", 3),
        ("same", "same", 0),
        ("abc", "xyz", 3),
        ("abc", "ab", 1),
        ("a", "bab", 2),
        ("a", "xyz", 3),
    ],
)
def test_edge_inputs(a: str, b: str, want: int) -> None:
    # The wanted values follow from the definitions (empty, identical, prefix, disjoint);
    # exhaustive search confirms each.
    assert _breadth_first(a, b) == want
    assert edit_distance(a=a, b=b) == {"distance": want}


def test_generated_tiers_keep_their_promises() -> None:
    for seed in range(100):
        for tier in ("simple", "standard"):
            test_input = generate_edit_distance(random.Random(seed), tier, 8)
            a, b = test_input["a"], test_input["b"]
            distance = _distance(a, b)
            assert max(2, abs(len(a) - len(b)) + 1) <= distance < max(len(a), len(b))


@pytest.mark.parametrize(("a", "b"), [(None, "a"), ("a", 3), (["a"], "a")])
def test_bad_inputs_raise(a: Any, b: Any) -> None:
    with pytest.raises(ValueError, match="must be a string"):
        edit_distance(a=a, b=b)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("edit_distance"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("edit_distance", oracle, tier, size, index)
