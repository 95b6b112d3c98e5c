"""What is peculiar to ``fractional_knapsack``: its oracle (the linear programme solved by
``scipy.optimize.linprog``), the reference's cross-checks against it, the validator's
agreement with it, and the tier promises."""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from tests.support.per_input import per_input
from tests.support.scaffolds import bullet, sections
from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import TestCase, Tier
from verification.catalog.greedy.fractional_knapsack import (
    FRACTION_TOLERANCE,
    SPEC,
    VALUE_TOLERANCE,
    WEIGHTS,
    FractionalKnapsackValidator,
    generate_fractional_knapsack,
)
from verification.reference.greedy import fractional_knapsack

Judge = Callable[[str, dict[str, Any], Any], bool]


@functools.lru_cache(maxsize=1024)
def _lp_optimum(key: str) -> float:
    """max values . x subject to weights . x <= capacity, 0 <= x <= 1."""
    weights, values, capacity = json.loads(key)
    if not weights:
        return 0.0
    result = linprog(
        c=[-v for v in values],
        A_ub=[weights],
        b_ub=[capacity],
        bounds=[(0, 1)] * len(weights),
        method="highs",
    )
    assert result.status == 0, result.message
    return float(-result.fun)


def _optimum(test_input: dict[str, Any]) -> float:
    key = json.dumps([test_input["weights"], test_input["values"], test_input["capacity"]])
    return _lp_optimum(key)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset()  # any split between equally good items


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right, within the spec's stated tolerances, when there is one fraction per item in
    ``[0, 1]``, they fit the capacity, they are worth ``max_value``, and ``max_value`` is
    the linear programme's optimum."""
    weights, values = test_input["weights"], test_input["values"]
    stated, shares = answer.get("max_value"), answer.get("fractions")
    if set(answer) != {"max_value", "fractions"} or not _number(stated):
        return False
    if not isinstance(shares, list) or len(shares) != len(weights):
        return False
    if not all(_number(x) and -FRACTION_TOLERANCE <= x <= 1 + FRACTION_TOLERANCE for x in shares):
        return False
    load = sum(w * x for w, x in zip(weights, shares, strict=True))
    if load > test_input["capacity"] + FRACTION_TOLERANCE * sum(weights):
        return False
    worth = sum(v * x for v, x in zip(values, shares, strict=True))
    if abs(worth - stated) > VALUE_TOLERANCE + FRACTION_TOLERANCE * sum(values):
        return False
    best = per_input("test_fractional_knapsack._optimum", test_input, lambda: _optimum(test_input))
    return math.isclose(stated, best, rel_tol=1e-6, abs_tol=VALUE_TOLERANCE)


def _case(test_input: dict[str, Any], tier: Any) -> TestCase:
    return TestCase(
        id=f"fractional_knapsack-{tier}-000",
        scaffold="fractional_knapsack",
        tier=tier,
        index=0,
        input=test_input,
        expected=fractional_knapsack(**test_input),
    )


def test_the_oracle_refuses_overloads_and_short_loads() -> None:
    test_input = {"weights": [4, 5, 8], "values": [10, 20, 12], "capacity": 6}
    assert oracle(test_input, {"max_value": 22.5, "fractions": [0.25, 1.0, 0.0]})
    assert oracle(test_input, {"max_value": 22.5, "fractions": [0.25, 1, 0]})
    assert not oracle(test_input, {"max_value": 30.0, "fractions": [1.0, 1.0, 0.0]})
    assert not oracle(test_input, {"max_value": 20.0, "fractions": [0.0, 1.0, 0.0]})
    assert not oracle(test_input, {"max_value": 22.51, "fractions": [0.25, 1.0, 0.0]})
    assert not oracle(test_input, {"max_value": 22.5, "fractions": [0.25, 1.0]})


@pytest.mark.parametrize("tier", ["simple", "standard", "edge"])
def test_the_reference_agrees_with_linprog_on_generated_inputs(tier: Any) -> None:
    low, high = SPEC.size.ranges[tier]
    for k in range(100):
        rng = random.Random(f"fk:{tier}:{k}")
        test_input = generate_fractional_knapsack(rng, tier, rng.randint(low, high))
        answer = fractional_knapsack(**test_input)
        assert oracle(test_input, answer), (test_input, answer)
        # Exact, not merely close: every generated fraction has at most 4 decimals.
        exact = _exact_fill(test_input)
        assert answer["fractions"] == [float(x) for x in exact]
        assert Fraction(str(answer["max_value"])) == sum(
            (x * v for x, v in zip(exact, test_input["values"], strict=True)), Fraction(0)
        )


def _exact_fill(test_input: dict[str, Any]) -> list[Fraction]:
    """The greedy fill in exact arithmetic, for the exactness claim only."""
    weights, values = test_input["weights"], test_input["values"]
    room = Fraction(test_input["capacity"])
    shares = [Fraction(0)] * len(weights)
    for i in sorted(range(len(weights)), key=lambda i: (-Fraction(values[i], weights[i]), i)):
        shares[i] = min(Fraction(1), room / weights[i])
        room -= shares[i] * weights[i]
    return shares


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 30), st.integers(0, 50)), max_size=8),
    st.integers(0, 120),
)
def test_any_input_agrees_with_linprog(items: list[tuple[int, int]], capacity: int) -> None:
    test_input = {
        "weights": [w for w, _ in items],
        "values": [v for _, v in items],
        "capacity": capacity,
    }
    answer = fractional_knapsack(**test_input)
    assert math.isclose(answer["max_value"], _optimum(test_input), abs_tol=1e-4)


@pytest.mark.slow
def test_the_validator_agrees_with_the_oracle_on_perturbed_answers() -> None:
    validator = FractionalKnapsackValidator()
    for seed in range(60):
        rng = random.Random(f"perturb:{seed}")
        tier = ("simple", "standard", "edge")[seed % 3]
        test_input = generate_fractional_knapsack(rng, tier, 6)
        case = _case(test_input, tier)
        expected = case.expected
        n = len(test_input["weights"])
        for _ in range(30):
            shares = list(expected["fractions"])
            if n:
                i = rng.randrange(n)
                shares[i] = round(
                    min(1.0, max(0.0, shares[i] + rng.choice((-0.5, -1e-5, 1e-5, 0.5)))), 5
                )
            worth = sum(v * x for v, x in zip(test_input["values"], shares, strict=True))
            for stated in (worth, expected["max_value"], expected["max_value"] + 0.002):
                answer = {"max_value": stated, "fractions": shares}
                verdict = validator.validate(answer, expected, case=case)
                assert verdict.is_valid is oracle(test_input, answer), (answer, verdict)


def test_tiers_keep_their_promises() -> None:
    kinds = {"zero": 0, "above": 0, "tied": 0, "empty": 0}
    for seed in range(150):
        for tier, size in (("simple", 5), ("standard", 9)):
            test_input = generate_fractional_knapsack(random.Random(seed), tier, size)
            weights, values = test_input["weights"], test_input["values"]
            assert len(weights) == size and set(weights) <= set(WEIGHTS)
            ratios = [Fraction(v, w) for w, v in zip(weights, values, strict=True)]
            assert len(set(ratios)) == size
            cut = [x for x in fractional_knapsack(**test_input)["fractions"] if 0 < x < 1]
            assert len(cut) == 1 and 0.1 <= cut[0] <= 0.9, test_input
        edge = generate_fractional_knapsack(random.Random(seed), "edge", 8)
        weights, values, capacity = edge["weights"], edge["values"], edge["capacity"]
        kinds["zero"] += bool(weights) and capacity == 0
        kinds["above"] += bool(weights) and capacity > sum(weights)
        kinds["empty"] += not weights
        ratios = [Fraction(v, w) for w, v in zip(weights, values, strict=True)]
        kinds["tied"] += len(set(ratios)) < len(ratios)
    assert all(kinds.values()), kinds


def test_standard_punishes_the_usual_mistakes() -> None:
    for seed in range(100):
        test_input = generate_fractional_knapsack(random.Random(seed), "standard", 8)
        weights, values = test_input["weights"], test_input["values"]
        best = fractional_knapsack(**test_input)["max_value"]
        by_value = sorted(range(len(weights)), key=lambda i: -values[i])
        by_weight = sorted(range(len(weights)), key=lambda i: weights[i])
        for order in (by_value, by_weight):
            shuffled = {
                "weights": [weights[i] for i in order],
                "values": [values[i] for i in order],
                "capacity": test_input["capacity"],
            }
            # Greedy in listing order = greedy by the mistaken key.
            room, worth = Fraction(shuffled["capacity"]), Fraction(0)
            for w, v in zip(shuffled["weights"], shuffled["values"], strict=True):
                share = min(Fraction(1), room / w)
                worth, room = worth + share * v, room - share * w
            assert best - worth >= 0.1 - 1e-9, test_input


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"weights": [], "values": [], "capacity": 5}, {"max_value": 0.0, "fractions": []}),
        (
            {"weights": [4, 5], "values": [10, 20], "capacity": 0},
            {"max_value": 0.0, "fractions": [0.0, 0.0]},
        ),
        (
            {"weights": [4, 5], "values": [10, 20], "capacity": 100},
            {"max_value": 30.0, "fractions": [1.0, 1.0]},
        ),
        (
            {"weights": [40], "values": [7], "capacity": 10},
            {"max_value": 1.75, "fractions": [0.25]},
        ),
        (
            {"weights": [2, 4, 1], "values": [6, 12, 1], "capacity": 3},
            {"max_value": 9.0, "fractions": [1.0, 0.25, 0.0]},
        ),
    ],
)
def test_edge_inputs(kwargs: dict[str, Any], expected: dict[str, Any]) -> None:
    """Empty, nothing fits, everything fits, a share of one item, tied ratios (the lower
    index first)."""
    assert oracle(kwargs, expected)
    assert fractional_knapsack(**kwargs) == expected


def test_tied_ratios_admit_other_splits() -> None:
    test_input = {"weights": [2, 4, 1], "values": [6, 12, 1], "capacity": 3}
    assert oracle(test_input, {"max_value": 9.0, "fractions": [0.5, 0.5, 0.0]})
    assert oracle(test_input, {"max_value": 9, "fractions": [0, 0.75, 0]})
    assert not oracle(test_input, {"max_value": 9.0, "fractions": [1.0, 0.5, 0.0]})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"weights": [1, 2], "values": [1], "capacity": 1}, "differ in length"),
        ({"weights": [0], "values": [1], "capacity": 1}, "positive"),
        ({"weights": [-2], "values": [1], "capacity": 1}, "positive"),
        ({"weights": [2], "values": [-1], "capacity": 1}, "negative"),
        ({"weights": [2], "values": [1], "capacity": -1}, "capacity must not be negative"),
        ({"weights": [2], "values": [1], "capacity": float("inf")}, "finite"),
        ({"weights": ["2"], "values": [1], "capacity": 1}, "must be a number"),
        ({"weights": [2], "values": [True], "capacity": 1}, "must be a number"),
        ({"weights": "12", "values": [1, 2], "capacity": 1}, "must be a list"),
        ({"weights": [2], "values": [1], "capacity": None}, "capacity must be a number"),
    ],
)
def test_bad_inputs_raise(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fractional_knapsack(**kwargs)


def _judged(judge: Judge, test_input: dict[str, Any], fractions: list[float]) -> bool:
    best = fractional_knapsack(**test_input)["max_value"]
    return judge("fractional_knapsack", test_input, {"max_value": best, "fractions": fractions})


def test_each_share_is_accepted_within_0_0001_of_its_exact_value(judge: Judge) -> None:
    """Issue 13 defect 6: "Rounding to 4 places is tolerated; more is not" read two ways,
    and a share of 0.999 passed for 1 (the load's worth and weight hid it)."""
    test_input = {"weights": [10, 20, 40], "values": [60, 100, 120], "capacity": 50}
    exact = fractional_knapsack(**test_input)["fractions"]
    assert exact == [1.0, 1.0, 0.5]
    assert _judged(judge, test_input, exact)
    assert _judged(judge, test_input, [0.99995, 1.0, 0.50005])
    assert not _judged(judge, test_input, [0.999, 1.0, 0.5])
    assert not _judged(judge, test_input, [1.0, 1.0, 0.4998])


def test_tied_ratios_may_share_the_room_any_way_but_not_more_or_less(judge: Judge) -> None:
    test_input = {"weights": [10, 20, 20], "values": [60, 60, 60], "capacity": 30}
    assert fractional_knapsack(**test_input)["fractions"] == [1.0, 1.0, 0.0]
    for split in ([1.0, 0.5, 0.5], [1.0, 0.0, 1.0], [1.0, 0.25, 0.75]):
        assert _judged(judge, test_input, split)
    assert not _judged(judge, test_input, [1.0, 0.5, 0.4])
    assert not _judged(judge, test_input, [0.5, 0.75, 0.5])


def test_a_whole_item_written_0_99995_is_accepted_as_the_output_format_says(
    judge: Judge,
) -> None:
    test_input = {"weights": [2, 3, 4], "values": [6, 6, 4], "capacity": 7}
    expected = fractional_knapsack(**test_input)
    whole = expected["fractions"].index(1.0)
    fractions = list(expected["fractions"])
    fractions[whole] = 0.99995  # within 0.0001 of 1, as every fraction may be
    answer = {**expected, "fractions": fractions}
    assert judge("fractional_knapsack", test_input, answer)
    assert oracle(test_input, answer)
    fractions_bullet = bullet(sections("fractional_knapsack")["output_format"], "`fractions`")
    assert "`0.99995` for a whole item is accepted" in fractions_bullet


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("fractional_knapsack"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("fractional_knapsack", oracle, tier, size, index)


def test_the_integer_fill_and_the_float_share_check_agree_with_exact_fractions() -> None:
    """The validator and the hooks fill integer inputs in integers and compare a share with
    0 or 1 in floats away from the tolerance's edge: the same as fractions throughout."""
    from verification.catalog.greedy.fractional_knapsack import _fill
    from verification.validators.fractional_knapsack import _off

    for k in range(200):
        rng = random.Random(f"fk-fill:{k}")
        tier: Tier = rng.choice(["simple", "standard", "edge"])
        low, high = SPEC.size.ranges[tier]
        test_input = generate_fractional_knapsack(rng, tier, rng.randint(low, high))
        order = list(range(len(test_input["weights"])))
        rng.shuffle(order)
        room, exact = Fraction(test_input["capacity"]), [Fraction(0)] * len(order)
        for i in order:
            exact[i] = min(Fraction(1), room / test_input["weights"][i])
            room -= exact[i] * test_input["weights"][i]
        assert _fill(test_input, order) == exact
    slack = Fraction(str(FRACTION_TOLERANCE))
    edges = [0.0001, 0.9999, 1.0001, -0.0001, 0.00010000000001, 0.99989999999, 0.5, 0, 1, 2]
    for share in edges + [x + d for x in edges for d in (1e-17, -1e-17, 1e-12, -1e-12)]:
        for want in (0, 1):
            assert _off(share, want) == (abs(Fraction(repr(share)) - want) > slack)
