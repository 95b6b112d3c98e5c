"""What is peculiar to ``knapsack_01``: its oracle, brute force over every item set (past 12
items, the stress sizes, scipy's mixed-integer solver).

(The reference's own cross-checks live in ``tests/reference/test_dynamic_programming.py``;
the validator's in ``tests/validators/test_knapsack.py``.)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest

from tests.support.per_input import per_input
from tests.support.scaffolds import bullet, sections
from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import TIERS, Tier
from verification.catalog.drawing import draw_case
from verification.catalog.dynamic_programming.knapsack_01 import SPEC
from verification.reference.dynamic_programming import knapsack_01

Judge = Callable[[str, dict[str, Any], Any], bool]


BRUTE_FORCE = 12
"""The most items whose every subset is tried; past it (stress sizes), :func:`_milp`."""


def _brute_force(weights: list[int], values: list[int], capacity: int) -> int:
    return max(
        sum(values[i] for i in chosen)
        for size in range(len(weights) + 1)
        for chosen in combinations(range(len(weights)), size)
        if sum(weights[i] for i in chosen) <= capacity
    )


def _milp(test_input: dict[str, Any]) -> int:
    """The optimum by scipy's mixed-integer solver (HiGHS branch and bound, no table)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    weights, values = test_input["weights"], test_input["values"]
    solved = milp(
        c=[-v for v in values],
        constraints=LinearConstraint([weights], ub=test_input["capacity"]),
        integrality=[1] * len(values),
        bounds=Bounds(0, 1),
    )
    assert solved.success, solved.message
    return round(-solved.fun)


def _optimum(test_input: dict[str, Any]) -> int:
    """The brute-force optimum (by :func:`_milp` past :data:`BRUTE_FORCE` items): once per
    input, for every answer to it."""
    weights, values = test_input["weights"], test_input["values"]
    if len(weights) <= BRUTE_FORCE:
        return _brute_force(weights, values, test_input["capacity"])
    return _milp(test_input)


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"selected_items"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``selected_items`` are distinct indices in ascending order, within
    capacity, whose value is the brute-force optimum, and ``max_value`` is that optimum."""
    weights, values = test_input["weights"], test_input["values"]
    n, capacity = len(weights), test_input["capacity"]
    best = per_input("knapsack_01", test_input, lambda: _optimum(test_input))
    chosen = answer["selected_items"]
    if chosen != sorted(chosen):  # "in ascending order"
        return False
    if len(set(chosen)) != len(chosen) or not all(0 <= i < n for i in chosen):
        return False
    fits = sum(weights[i] for i in chosen) <= capacity
    return fits and sum(values[i] for i in chosen) == best == answer["max_value"]


def test_the_oracle_refuses_an_overweight_set() -> None:
    test_input = {"weights": [2, 3], "values": [3, 4], "capacity": 4}
    assert oracle(test_input, {"max_value": 4, "selected_items": [1]})
    assert not oracle(test_input, {"max_value": 7, "selected_items": [0, 1]})


def test_issue_13_reproducer_indices_in_ascending_order(judge: Judge) -> None:
    test_input = {"weights": [1, 5, 1], "values": [1, 1, 1], "capacity": 2}
    expected = knapsack_01(**test_input)
    assert expected["selected_items"] == [0, 2]
    assert judge("knapsack_01", test_input, expected)
    descending = {**expected, "selected_items": [2, 0]}
    assert not judge("knapsack_01", test_input, descending)
    assert not oracle(test_input, descending)


def test_the_scaffold_states_the_domain_its_reference_accepts() -> None:
    # The reference refuses a negative value or capacity: the scaffold must not offer one.
    for bad in ({"values": [-1], "capacity": 1}, {"values": [1], "capacity": -1}):
        with pytest.raises(ValueError, match="non-negative"):
            knapsack_01(**{"weights": [1], **bad})
    inputs = sections("knapsack_01")["when_to_use"]
    for key in ("`values`", "`capacity`"):
        assert "non-negative integer" in bullet(inputs, key), key
    # The scaffold's weights start at 1 (its capacity-0 case answers nothing): a weight-0
    # item, which would fit there, is refused by the reference too.
    with pytest.raises(ValueError, match="positive"):
        knapsack_01(weights=[0], values=[5], capacity=0)
    assert "positive integers (each at least 1)" in bullet(inputs, "`weights`")


CHARS_PER_TOKEN = 2.5
"""Characters of written numbers per output token, a low (safe) figure: issue 24 measured
12-14 tokens for a 30-character comparison."""


def test_the_largest_tables_work_fits_the_budget_in_the_short_form_the_scaffold_allows() -> None:
    instructions = sections("knapsack_01")["scaffold_instructions"]
    short = re.search(r"`c=(\d+): (\d+)\|(\d+)`", instructions)
    assert short is not None, "the scaffold names no short form for a comparison"
    largest = max(high for _, high in SPEC.size.ranges.values())
    lengths = []
    for tier in TIERS:
        for index in range(20):
            test_input = draw_case(SPEC, tier, index, seed=24, size=largest).input
            weights, values = test_input["weights"], test_input["values"]
            row = [0] * (test_input["capacity"] + 1)
            written = 0
            for number, (w, v) in enumerate(zip(weights, values, strict=True), start=1):
                new = [row[c] if c < w else max(row[c], row[c - w] + v) for c in range(len(row))]
                written += sum(
                    len(f"c={c}: {row[c]}|{row[c - w] + v}; ") for c in range(w, len(row))
                )
                written += len(f"R{number} = {new}\n")
                row = new
            lengths.append(written / CHARS_PER_TOKEN)
    # The comparisons and rows take at most 60% of the budget, the rest is for the items,
    # the recovery walk and the answer.
    assert max(lengths) < 0.6 * SPEC.max_output_tokens, max(lengths)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("knapsack_01"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("knapsack_01", oracle, tier, size, index)


@pytest.mark.parametrize("seed", range(20))
def test_the_solver_finds_the_brute_force_optimum(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, BRUTE_FORCE)
    weights = [rng.randint(1, 9) for _ in range(n)]
    values = [rng.randint(1, 20) for _ in range(n)]
    capacity = rng.randint(0, sum(weights))
    test_input = {"weights": weights, "values": values, "capacity": capacity}
    assert _milp(test_input) == _brute_force(weights, values, capacity)
