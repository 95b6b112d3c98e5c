"""``KnapsackValidator``: accepts every optimal item set, rejects every mutant."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

from verification.cases import case_id
from verification.catalog.dynamic_programming.knapsack_01 import optimal_item_sets
from verification.generators.base import TIERS, TestCase, generate_case
from verification.registry import VALIDATOR_REGISTRY, get_spec
from verification.validators.knapsack import KnapsackValidator

SPEC = get_spec("knapsack_01")
VALIDATOR = KnapsackValidator()
COUNTS = {"simple": 60, "standard": 60, "edge": 100}
"""Alternative optimal sets come from the edge tier's ties alone, hence its larger share."""
KEYS = [(tier, k) for tier in TIERS for k in range(COUNTS[tier])]
EACH_CASE = pytest.mark.parametrize(
    "index", range(len(KEYS)), ids=[case_id(SPEC.name, tier, k) for tier, k in KEYS]
)


@cache
def cases() -> list[TestCase]:
    """The cases of ``KEYS``, drawn when a test first asks, not at import: every xdist
    worker imports every module, and only the one that runs these tests needs them."""
    return [generate_case(SPEC, tier, k, seed=11) for tier, k in KEYS]


_OPTIMA: dict[str, tuple[int, list[list[int]]]] = {}
"""The brute force's (optimum, optimal sets) by ``repr`` of a case's input (JSON data:
equal reprs are equal inputs), found once per case: the mutant tests ask for them for each
of some thirty answers to one case."""


def oracle(case: TestCase, answer: dict[str, Any]) -> bool:
    """Brute force: is ``answer`` an optimal set with its true value?"""
    key = repr(case.input)
    if key not in _OPTIMA:
        _OPTIMA[key] = optimal_item_sets(**case.input)
    optimum, optimal_sets = _OPTIMA[key]
    items = answer["selected_items"]
    return (
        len(set(items)) == len(items)
        and sorted(items) in optimal_sets
        and answer["max_value"] == optimum
    )


def answer(case: TestCase, items: list[int], stated: int | None = None) -> dict[str, Any]:
    values = case.input["values"]
    worth = sum(values[i] for i in items if 0 <= i < len(values))
    return {"max_value": worth if stated is None else stated, "selected_items": items}


def mutants(case: TestCase, rng: random.Random) -> Iterator[tuple[str, dict[str, Any]]]:
    chosen: list[int] = case.expected["selected_items"]
    best: int = case.expected["max_value"]
    n = len(case.input["weights"])
    left_out = [i for i in range(n) if i not in chosen]
    yield "max_value+1", answer(case, chosen, best + 1)
    yield "max_value-1", answer(case, chosen, best - 1)
    yield "out of range (n)", answer(case, [*chosen, n], best)
    yield "out of range (-1)", answer(case, [-1, *chosen], best)
    for i in chosen:
        rest = [j for j in chosen if j != i]
        yield "dropped item", answer(case, rest)
        yield "dropped item, old value", answer(case, rest, best)
        yield "duplicated index", answer(case, [*chosen, i], best)
        for j in left_out:
            swapped = sorted([*rest, j])
            if not oracle(case, answer(case, swapped)):
                yield "swapped item", answer(case, swapped)
    for j in left_out:
        grown = sorted([*chosen, j])
        yield "added item", answer(case, grown)
        yield "added item, old value", answer(case, grown, best)
    if chosen:
        shuffled = list(chosen)
        rng.shuffle(shuffled)
        yield "max_value+1, shuffled", answer(case, shuffled, best + 1)


MUTANT_KINDS = {
    "max_value+1",
    "max_value-1",
    "out of range (n)",
    "out of range (-1)",
    "dropped item",
    "dropped item, old value",
    "duplicated index",
    "swapped item",
    "added item",
    "added item, old value",
    "max_value+1, shuffled",
}


def test_registered_kind() -> None:
    assert VALIDATOR.kind == "knapsack"
    assert VALIDATOR_REGISTRY["knapsack_01"] == "knapsack"


@EACH_CASE
def test_accepts_the_reference_answer(index: int) -> None:
    case = cases()[index]
    assert VALIDATOR.validate(case.expected, case.expected, case=case).is_valid


@EACH_CASE
def test_rejects_the_right_set_out_of_ascending_order(index: int) -> None:
    """The Output Format asks for ascending indices, and the validator grades what it asks."""
    case = cases()[index]
    if len(case.expected["selected_items"]) < 2:
        return
    reordered = answer(case, case.expected["selected_items"][::-1])
    assert not VALIDATOR.validate(reordered, case.expected, case=case).is_valid
    assert not VALIDATOR.validate(reordered, case.expected).is_valid


def test_accepts_every_optimal_set() -> None:
    alternatives = {tier: 0 for tier in TIERS}
    for case in cases():
        for items in optimal_item_sets(**case.input)[1]:
            verdict = VALIDATOR.validate(answer(case, items), case.expected, case=case)
            assert verdict.is_valid, (case.id, items, verdict.message)
            alternatives[case.tier] += sorted(items) != case.expected["selected_items"]
    # Simple and standard instances have one optimal set; the edge tier's tied optima don't.
    assert alternatives["simple"] == alternatives["standard"] == 0
    assert alternatives["edge"] >= 20


@pytest.mark.slow
def test_rejects_every_mutant(rejects_every_mutant: Callable[..., object]) -> None:
    rejects_every_mutant(VALIDATOR, cases(), mutants, oracle, kinds=MUTANT_KINDS)


def test_without_case_compares_value_and_set_and_says_feasibility_is_unchecked() -> None:
    rng = random.Random(2)
    for case in cases():
        for kind, mutant in mutants(case, rng):
            verdict = VALIDATOR.validate(mutant, case.expected)
            assert not verdict.is_valid, (kind, case.id, mutant)
    verdict = VALIDATOR.validate(cases()[0].expected, cases()[0].expected)
    assert verdict.is_valid
    assert "feasibility could not be checked" in verdict.message


def test_messages_name_the_fault() -> None:
    case = next(c for c in cases() if c.tier == "standard")
    best = case.expected["max_value"]
    chosen = case.expected["selected_items"]
    over = answer(case, list(range(len(case.input["weights"]))))
    assert "over the capacity" in VALIDATOR.validate(over, case.expected, case=case).message
    wrong_sum = answer(case, chosen, best + 1)
    assert "worth" in VALIDATOR.validate(wrong_sum, case.expected, case=case).message
    short = answer(case, chosen[1:])
    assert "optimum" in VALIDATOR.validate(short, case.expected, case=case).message


JUNK: list[Any] = [
    None,
    [],
    "max_value",
    {},
    {"max_value": None, "selected_items": []},
    {"max_value": "3", "selected_items": []},
    {"max_value": True, "selected_items": []},
    {"max_value": 3.0, "selected_items": []},
    {"max_value": 0, "selected_items": None},
    {"max_value": 0, "selected_items": "01"},
    {"max_value": 0, "selected_items": {"0": 1}},
    {"max_value": 0, "selected_items": [True]},
    {"max_value": 0, "selected_items": [0.0]},
    {"max_value": 0, "selected_items": [None, [1], "0"]},
    {"max_value": 10**100, "selected_items": [10**100]},
    {"max_value": -(10**100), "selected_items": [-(10**100)]},
]


@pytest.mark.parametrize("junk", JUNK)
def test_never_raises_on_junk(junk: Any) -> None:
    for case in cases()[::10]:
        verdict = VALIDATOR.validate(junk, case.expected, case=case)
        assert not verdict.is_valid or oracle(case, junk)
        VALIDATOR.validate(junk, case.expected)
