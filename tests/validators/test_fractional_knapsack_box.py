"""fractional_knapsack's validator decides the cut group's box in doubles where they
cannot disagree with the fractions (``_box_clearly_loads``); each answer gets the verdict
and message the fractions alone give. Checked on shares near every bound of drawn cases
(ties of ratios included, where the cut group has several items) and on hypothesis's
shares."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import verification.validators.fractional_knapsack as fk
from verification.cases import TIERS, generate_case
from verification.reference.greedy import fractional_knapsack
from verification.registry import SPECS

_NEAR = (0.0, 1e-4, -1e-4, 1.0001e-4, -1.0001e-4, 9.999e-5, 1e-12, -1e-12, 5e-5, 0.3)


def _fractions_alone(test_input: dict[str, Any], shares: list[float]) -> str | None:
    """The verdict of the exact test alone, the doubles' shortcut left out."""
    shortcut = fk._box_clearly_loads
    fk._box_clearly_loads = lambda cut, shares: False  # type: ignore[assignment]
    try:
        return fk._off_every_optimal_load(test_input, shares)
    finally:
        fk._box_clearly_loads = shortcut


def _cut_cases() -> list[dict[str, Any]]:
    spec = SPECS["fractional_knapsack"]
    inputs = []
    for seed in range(3):
        for tier in TIERS:
            for index in range(10):
                test_input = generate_case(spec, tier, index, seed=seed).input
                weights, values = test_input["weights"], test_input["values"]
                key = (tuple(weights), tuple(values), test_input["capacity"])
                if fk._optimal_loads(*key)[1] is not None:
                    inputs.append(test_input)
    return inputs


CUT_CASES = _cut_cases()


def test_drawn_cases_have_cut_groups_of_several_items() -> None:
    groups = [
        fk._optimal_loads(tuple(i["weights"]), tuple(i["values"]), i["capacity"])[1][1]
        for i in CUT_CASES
    ]
    assert len(CUT_CASES) >= 20 and any(len(group) > 1 for group in groups)


@pytest.mark.parametrize("index", range(len(CUT_CASES)))
def test_shares_near_every_bound_get_the_fractions_verdict(index: int) -> None:
    test_input = CUT_CASES[index]
    answer = fractional_knapsack(**test_input)["fractions"]
    rng = random.Random(index)
    tried = [answer]
    for _ in range(60):
        tried.append([share + rng.choice(_NEAR) for share in answer])
    for position in range(len(answer)):
        for offset in _NEAR:
            tried.append([*answer[:position], answer[position] + offset, *answer[position + 1 :]])
    for shares in tried:
        assert fk._off_every_optimal_load(test_input, shares) == _fractions_alone(
            test_input, shares
        ), shares


@given(st.data())
def test_hypothesis_shares_get_the_fractions_verdict(data: st.DataObject) -> None:
    test_input = data.draw(st.sampled_from(CUT_CASES))
    shares = data.draw(
        st.lists(
            st.floats(-0.001, 1.001) | st.sampled_from([0.0, 1.0, 1e-4, 1 - 1e-4, 0.5]),
            min_size=len(test_input["weights"]),
            max_size=len(test_input["weights"]),
        )
    )
    assert fk._off_every_optimal_load(test_input, shares) == _fractions_alone(test_input, shares)
