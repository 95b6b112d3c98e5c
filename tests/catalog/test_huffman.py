"""What is peculiar to ``huffman``: its oracle (the optimal cost by a heapq Huffman, and a
pairwise prefix check), the reference's cross-checks against it and against brute force,
the validator's agreement with it, and the tier promises."""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.scaffolds import bullet, sections
from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import TestCase, Tier
from verification.catalog.greedy.huffman import (
    SPEC,
    HuffmanValidator,
    generate_huffman,
)
from verification.reference.greedy import huffman_coding


def _optimal_bits(counts: list[int]) -> int:
    """The optimal total: the sum of every merged weight (a lone symbol still costs one bit
    per occurrence)."""
    if len(counts) == 1:
        return counts[0]
    heap = list(counts)
    heapq.heapify(heap)
    cost = 0
    while len(heap) > 1:
        merged = heapq.heappop(heap) + heapq.heappop(heap)
        cost += merged
        heapq.heappush(heap, merged)
    return cost


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"codes"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``codes`` gives each input symbol a non-empty bit string (``"0"`` for a
    lone symbol), no codeword starts another, and ``total_bits`` is both their weighted
    length and the optimum."""
    frequencies: dict[str, int] = test_input["frequencies"]
    codes, total = answer.get("codes"), answer.get("total_bits")
    if set(answer) != {"codes", "total_bits"} or not isinstance(codes, dict):
        return False
    if isinstance(total, bool) or not isinstance(total, int) or set(codes) != set(frequencies):
        return False
    words = list(codes.values())
    if len(words) == 1 and words != ["0"]:  # "Give the symbol the code "0""
        return False
    if not all(isinstance(w, str) and w and set(w) <= {"0", "1"} for w in words):
        return False
    if any(a.startswith(b) or b.startswith(a) for a, b in itertools.combinations(words, 2)):
        return False
    bits = sum(frequencies[s] * len(w) for s, w in codes.items())
    return bits == total == _optimal_bits(list(frequencies.values()))


def _brute_force_bits(counts: list[int]) -> int:
    """The least weighted length over every length profile satisfying Kraft's inequality
    (a prefix-free code with those lengths exists exactly then), lengths 1..n-1. Longer
    codewords go to rarer symbols (any other pairing of the same lengths costs no less)."""
    n = len(counts)
    if n == 1:
        return counts[0]
    rarest_last = sorted(counts, reverse=True)
    best = None
    for lengths in itertools.combinations_with_replacement(range(1, n), n):
        if sum(2.0**-length for length in lengths) <= 1:
            cost = sum(c * length for c, length in zip(rarest_last, lengths, strict=True))
            best = cost if best is None else min(best, cost)
    assert best is not None
    return best


def test_the_oracle_refuses_clashes_and_waste() -> None:
    test_input = {"frequencies": {"A": 5, "B": 2, "C": 1}}
    assert oracle(test_input, {"codes": {"A": "0", "B": "10", "C": "11"}, "total_bits": 11})
    assert oracle(test_input, {"codes": {"A": "1", "B": "01", "C": "00"}, "total_bits": 11})
    assert not oracle(test_input, {"codes": {"A": "0", "B": "01", "C": "11"}, "total_bits": 11})
    assert not oracle(test_input, {"codes": {"A": "10", "B": "0", "C": "11"}, "total_bits": 14})
    assert not oracle(test_input, {"codes": {"A": "0", "B": "10", "C": "110"}, "total_bits": 12})
    assert not oracle(test_input, {"codes": {"A": "0", "B": "10", "C": "11"}, "total_bits": 12})
    assert oracle({"frequencies": {"Q": 7}}, {"codes": {"Q": "0"}, "total_bits": 7})
    assert not oracle({"frequencies": {"Q": 7}}, {"codes": {"Q": ""}, "total_bits": 0})


@pytest.mark.parametrize("tier", ["simple", "standard", "edge"])
def test_the_reference_agrees_with_the_oracle_on_generated_inputs(tier: Any) -> None:
    low, high = SPEC.size.ranges[tier]
    for k in range(150):
        rng = random.Random(f"hf:{tier}:{k}")
        test_input = generate_huffman(rng, tier, rng.randint(low, high))
        assert oracle(test_input, huffman_coding(**test_input)), test_input


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 30), min_size=1, max_size=8))
def test_the_optimum_agrees_with_brute_force_over_length_profiles(counts: list[int]) -> None:
    table = {f"s{i}": c for i, c in enumerate(counts)}
    answer = huffman_coding(frequencies=table)
    assert answer["total_bits"] == _brute_force_bits(counts)
    assert oracle({"frequencies": table}, answer)


def test_both_input_forms_give_the_same_code() -> None:
    symbols, counts = ["x", "y", "z", "w"], [7, 1, 3, 3]
    table = dict(zip(symbols, counts, strict=True))
    assert huffman_coding(symbols, counts) == huffman_coding(frequencies=table)
    assert huffman_coding(table) == huffman_coding(symbols=symbols, frequencies=counts)


def test_the_validator_agrees_with_the_oracle_on_perturbed_codes() -> None:
    validator = HuffmanValidator()
    for seed in range(60):
        rng = random.Random(f"perturb:{seed}")
        tier = ("simple", "standard", "edge")[seed % 3]
        test_input = generate_huffman(rng, tier, 6)
        expected = huffman_coding(**test_input)
        case = TestCase(
            id=f"huffman-{tier}-000",
            scaffold="huffman",
            tier=tier,
            index=0,
            input=test_input,
            expected=expected,
        )
        codes = expected["codes"]
        for _ in range(40):
            trial = dict(codes)
            for symbol in rng.sample(sorted(trial), min(2, len(trial))):
                word = trial[symbol]
                trial[symbol] = rng.choice(
                    [word + "0", word[:-1], word[::-1], "1" + word[1:], word.replace("0", "1")]
                )
            bits = sum(test_input["frequencies"][s] * len(w) for s, w in trial.items())
            for total in (bits, expected["total_bits"]):
                answer = {"codes": trial, "total_bits": total}
                verdict = validator.validate(answer, expected, case=case)
                assert verdict.is_valid is oracle(test_input, answer), (answer, verdict)


def test_tiers_keep_their_promises() -> None:
    seen = {"equal": 0, "single": 0, "empty": 0, "two": 0}
    for seed in range(150):
        for tier, size in (("simple", 6), ("standard", 10)):
            counts = list(generate_huffman(random.Random(seed), tier, size)["frequencies"].values())
            assert len(counts) == size and len(set(counts)) == size
            pool = sorted(counts)
            while len(pool) > 1:  # every merge forced: the weights in the pool all differ
                assert len(set(pool)) == len(pool), counts
                pool = sorted([*pool[2:], pool[0] + pool[1]])
        edge = list(generate_huffman(random.Random(seed), "edge", 8)["frequencies"].values())
        seen["equal"] += len(edge) > 2 and len(set(edge)) == 1
        seen["single"] += len(edge) == 1
        seen["empty"] += not edge
        seen["two"] += len(edge) == 2
    assert all(seen.values()), seen


def test_standard_codes_are_lopsided() -> None:
    for seed in range(100):
        test_input = generate_huffman(random.Random(seed), "standard", 9)
        lengths = [len(w) for w in huffman_coding(**test_input)["codes"].values()]
        assert max(lengths) - min(lengths) >= 2, test_input


@pytest.mark.parametrize("n", range(1, 17))
def test_equal_frequencies_give_lengths_within_one(n: int) -> None:
    codes = huffman_coding(frequencies={f"s{i}": 5 for i in range(n)})["codes"]
    lengths = {len(w) for w in codes.values()}
    assert max(lengths) - min(lengths) <= 1


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"frequencies": {}}, {"codes": {}, "total_bits": 0}),
        ({"symbols": [], "frequencies": []}, {"codes": {}, "total_bits": 0}),
        ({"frequencies": {"Q": 7}}, {"codes": {"Q": "0"}, "total_bits": 7}),
        ({"frequencies": {"a": 2, "b": 9}}, {"codes": {"a": "0", "b": "1"}, "total_bits": 11}),
    ],
)
def test_tiny_inputs(kwargs: dict[str, Any], expected: dict[str, Any]) -> None:
    """The conventions the scaffold states: no code, a lone "0", first taken is "0"."""
    assert huffman_coding(**kwargs) == expected


@pytest.mark.parametrize("n", range(2, 10))
def test_powers_of_two_make_the_deepest_tree(n: int) -> None:
    counts = [1] + [2**k for k in range(n - 1)]
    test_input = {"frequencies": {f"s{i}": c for i, c in enumerate(counts)}}
    answer = huffman_coding(**test_input)
    assert oracle(test_input, answer)
    lengths = sorted(len(w) for w in answer["codes"].values())
    assert lengths == sorted([n - 1, *range(1, n)])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "needs symbols and frequencies"),
        ({"frequencies": {"a": 0}}, "positive integer"),
        ({"frequencies": {"a": 2.5}}, "positive integer"),
        ({"frequencies": {"a": True}}, "positive integer"),
        ({"frequencies": {"": 3}}, "non-empty string"),
        ({"frequencies": {1: 3}}, "non-empty string"),
        ({"symbols": ["a", "b"], "frequencies": [1]}, "differ in length"),
        ({"symbols": ["a", "a"], "frequencies": [1, 2]}, "repeats"),
        ({"symbols": "ab", "frequencies": [1, 2]}, "must be a list"),
        ({"symbols": ["a"], "frequencies": None}, "must be a list"),
    ],
)
def test_bad_inputs_raise(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        huffman_coding(**kwargs)


def test_issue_13_reproducer_a_lone_symbol_gets_code_0(
    judge: Callable[[str, dict[str, Any], Any], bool],
) -> None:
    test_input = {"frequencies": {"Q": 7}}
    expected = huffman_coding(**test_input)
    assert expected["codes"] == {"Q": "0"}
    assert judge("huffman", test_input, expected)
    lone_one = {"codes": {"Q": "1"}, "total_bits": expected["total_bits"]}
    assert not judge("huffman", test_input, lone_one)
    assert not oracle(test_input, lone_one)


def test_a_lone_symbol_coded_1_is_a_form_breach_the_output_format_states() -> None:
    case = TestCase(
        id="huffman-edge-000",
        scaffold="huffman",
        tier="edge",
        input={"frequencies": {"Q": 7}},
        expected=huffman_coding(frequencies={"Q": 7}),
    )
    assert case.expected["codes"] == {"Q": "0"}
    verdict = SPEC.validator.validate(
        {**case.expected, "codes": {"Q": "1"}}, case.expected, case=case
    )
    assert not verdict.is_valid and verdict.form_rule == 'a lone symbol\'s code is "0"'
    codes = " ".join(bullet(sections("huffman")["output_format"], "`codes`").split())
    # The text no longer says both "any optimal code is right" and "a lone symbol's is 0".
    assert 'with one exception: a lone symbol\'s code is `"0"` (`"1"` fails' in codes


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("huffman"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("huffman", oracle, tier, size, index)
