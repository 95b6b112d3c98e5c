"""What is peculiar to ``matrix_chain``: its oracle (exhaustive search over every
parenthesization, top down over the cheapest part orders past 8 matrices, and a stack
parser of its own) and the reference's cross-checks."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.stress import assert_holds_at_stress, stress_cells
from verification.cases import TIERS, TestCase, Tier
from verification.catalog import default_catalog
from verification.catalog.dynamic_programming.matrix_chain import (
    MatrixChainValidator,
    generate_matrix_chain,
    optimal_parenthesizations,
    parenthesization_cost,
)
from verification.reference.dynamic_programming import matrix_chain_multiplication
from verification.validators.judging import failed_level


@cache
def _every_order(dims: tuple[int, ...], i: int, j: int) -> tuple[tuple[str, int], ...]:
    """Every parenthesization of ``Ai..Aj`` with its cost: every split, recursively."""
    if i == j:
        return ((f"A{i}", 0),)
    return tuple(
        (f"({left}{right})", lc + rc + dims[i - 1] * dims[k] * dims[j])
        for k in range(i, j)
        for left, lc in _every_order(dims, i, k)
        for right, rc in _every_order(dims, k + 1, j)
    )


EXHAUSTIVE = 8
"""The longest chain whose every parenthesization is listed (a Catalan number of them: 429 at
8); past it (the stress sizes) the least cost comes from :func:`_least`."""


@cache
def _least(dims: tuple[int, ...], i: int, j: int) -> int:
    """The least cost of ``Ai..Aj``, top down: the same search over every split as
    :func:`_every_order`, keeping only each part's cheapest order (any order of a part
    can be swapped for its cheapest without raising the whole's cost)."""
    if i == j:
        return 0
    return min(
        _least(dims, i, k) + _least(dims, k + 1, j) + dims[i - 1] * dims[k] * dims[j]
        for k in range(i, j)
    )


def _orders(dims: list[int]) -> dict[str, int]:
    return dict(_every_order(tuple(dims), 1, len(dims) - 1))


def _stack_cost(text: str, dims: list[int]) -> int | None:
    """The cost of the order ``text`` writes, read with a stack (``None`` if malformed):
    each ``)`` multiplies the two factors on top of the stack."""
    tokens = re.findall(r"A[1-9][0-9]*|[()]|\S", text)
    if "".join(tokens) != "".join(text.split()):
        return None
    stack: list[Any] = []  # "(" markers and (rows, cols, first, last, cost) factors
    for token in tokens:
        if token == "(":
            stack.append("(")
        elif token.startswith("A") and len(token) > 1:
            i = int(token[1:])
            if not 1 <= i < len(dims):
                return None
            stack.append((dims[i - 1], dims[i], i, i, 0))
        elif token == ")":
            if len(stack) < 3 or stack[-3] != "(" or "(" in stack[-2:]:
                return None
            right, left = stack.pop(), stack.pop()
            stack.pop()
            if left[3] + 1 != right[2]:
                return None
            cost = left[4] + right[4] + left[0] * left[1] * right[1]
            stack.append((left[0], right[1], left[2], right[3], cost))
        else:
            return None
    if len(stack) != 1 or stack[0] == "(" or stack[0][2:4] != (1, len(dims) - 1):
        return None
    return int(stack[0][4])


# Code mode's audit of the answer's fields (tests/catalog/test_code_format.py says what).
ONE_WAY_FIELDS = frozenset({"parenthesization"})


def oracle(test_input: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Right when ``parenthesization`` is a well-formed order of ``A1..An`` whose cost is
    ``min_cost`` and the least over every parenthesization."""
    cost, text = answer.get("min_cost"), answer.get("parenthesization")
    if set(answer) != {"min_cost", "parenthesization"} or not isinstance(text, str):
        return False
    if re.search(r"\s", text):  # "no spaces, `*` or other characters"
        return False
    if isinstance(cost, bool) or not isinstance(cost, int):
        return False
    dims = test_input["dimensions"]
    least = (
        min(_orders(dims).values())
        if len(dims) <= EXHAUSTIVE + 1
        else _least(tuple(dims), 1, len(dims) - 1)
    )
    return _stack_cost(text, dims) == cost == least


def test_the_oracle_on_the_textbook_chain() -> None:
    test_input = {"dimensions": [40, 20, 30, 10, 30]}
    assert oracle(test_input, {"min_cost": 26000, "parenthesization": "((A1(A2A3))A4)"})
    assert not oracle(test_input, {"min_cost": 26000, "parenthesization": "(((A1A2)A3)A4)"})
    assert not oracle(test_input, {"min_cost": 26000, "parenthesization": "(A1(A2A3))A4"})
    assert not oracle(test_input, {"min_cost": 26000, "parenthesization": "((A1(A3A2))A4)"})
    assert oracle({"dimensions": [3, 4]}, {"min_cost": 0, "parenthesization": "A1"})


def _check(dims: list[int]) -> None:
    result = matrix_chain_multiplication(dimensions=dims)
    orders = _orders(dims)
    least = min(orders.values())
    assert result["min_cost"] == least
    assert orders[result["parenthesization"]] == least
    # The documented tie-break: the smallest split at every level, which is also the
    # first optimal order in the enumeration (splits tried in increasing order).
    assert result["parenthesization"] == next(t for t, c in orders.items() if c == least)
    assert oracle({"dimensions": dims}, result)


@pytest.mark.parametrize("tier", TIERS)
def test_the_reference_matches_exhaustive_search_on_generated_inputs(tier: Tier) -> None:
    for seed in range(60):
        rng = random.Random(seed)
        _check(generate_matrix_chain(rng, tier, rng.randint(4, 7))["dimensions"])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=2, max_size=8))
def test_the_reference_matches_exhaustive_search_on_random_chains(dims: list[int]) -> None:
    _check(dims)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=7))
def test_optimal_orders_and_costs_agree_with_exhaustive_search(dims: list[int]) -> None:
    orders = _orders(dims)
    least = min(orders.values())
    assert set(optimal_parenthesizations(dims, limit=10_000)) == {
        t for t, c in orders.items() if c == least
    }
    for text, cost in orders.items():
        assert parenthesization_cost(text, dims) == cost == _stack_cost(text, dims)


def test_the_generators_one_optimal_order_is_exhaustive_searchs() -> None:
    """The generator keeps a chain with one optimal order, counting them down the optimal
    splits of its least costs: one exactly when listing every order finds one, and the
    least cost listing finds (ties made common by small dimensions)."""
    from verification.catalog.dynamic_programming.matrix_chain import _costs, _one_optimal_order

    draws = random.Random(11)
    for _ in range(300):
        dims = [draws.randint(1, draws.choice((3, 12))) for _ in range(draws.randint(2, 7))]
        orders = _orders(dims)
        least = min(orders.values())
        cost = _costs(dims)
        assert cost[1][len(dims) - 1] == least, dims
        one = sum(c == least for c in orders.values()) == 1
        assert _one_optimal_order(dims, cost) == one, dims


@pytest.mark.parametrize(
    "dims", [[5, 7], [2, 3, 4], [4, 4, 4, 4, 4], [1, 5, 3, 8, 1], [30, 20, 10, 5, 2]]
)
def test_edge_inputs(dims: list[int]) -> None:
    _check(dims)
    if len(dims) == 2:
        assert matrix_chain_multiplication(dimensions=dims) == {
            "min_cost": 0,
            "parenthesization": "A1",
        }


def test_generated_tiers_keep_their_promises() -> None:
    for seed in range(60):
        for tier in ("simple", "standard"):
            dims = generate_matrix_chain(random.Random(seed), tier, 5)["dimensions"]
            orders = _orders(dims)
            least = min(orders.values())
            assert sum(c == least for c in orders.values()) == 1
            n = len(dims) - 1
            left = "A1"
            for i in range(2, n + 1):
                left = f"({left}A{i})"
            right = f"A{n}"
            for i in range(n - 1, 0, -1):
                right = f"(A{i}{right})"
            assert orders[left] > least and orders[right] > least


@pytest.mark.parametrize(
    "text",
    [
        "(A1A2A3)",
        "((A1A2))A3",
        "A1A2A3",
        "((A1A3)A2)",
        "((A1A2)A4)",
        "((A1A2)A3)x",
        "((A01A2)A3)",
        "__import__('os').system('true')",
        "(" * 500,
    ],
)
def test_the_validator_parses_and_never_evaluates(text: str) -> None:
    test_input = {"dimensions": [10, 30, 5, 60]}
    expected = matrix_chain_multiplication(**test_input)
    case = TestCase(
        id="mc-x", scaffold="matrix_chain", tier="simple", input=test_input, expected=expected
    )
    answer = {"min_cost": expected["min_cost"], "parenthesization": text}
    assert not MatrixChainValidator().validate(answer, expected, case=case).is_valid
    assert not oracle(test_input, answer)


def test_the_validator_accepts_another_optimal_order_and_no_blanks() -> None:
    """Issue 13's reproducer: the scaffold says "no spaces", so blanks anywhere fail, as
    ``*`` does; another optimal order passes."""
    test_input = {"dimensions": [8, 8, 2, 6]}
    expected = matrix_chain_multiplication(**test_input)
    case = TestCase(
        id="mc-y", scaffold="matrix_chain", tier="edge", input=test_input, expected=expected
    )
    best = expected["parenthesization"]
    for text, right in [
        (best, True),
        (" ".join(re.findall(r"A[0-9]+|[()]", best)), False),
        (best + "\n", False),
        (" " + best, False),
        (best.replace("A2", "A2\t"), False),
        (best.replace(")(", ")*(").replace("A1A2", "A1*A2"), False),
    ]:
        answer = {"min_cost": expected["min_cost"], "parenthesization": text}
        assert MatrixChainValidator().validate(answer, expected, case=case).is_valid is right
        assert oracle(test_input, answer) is right
    tied = {"dimensions": [4, 4, 4, 4]}
    tied_expected = matrix_chain_multiplication(**tied)
    tied_case = TestCase(
        id="mc-z", scaffold="matrix_chain", tier="edge", input=tied, expected=tied_expected
    )
    for text in optimal_parenthesizations(tied["dimensions"]):
        answer = {"min_cost": tied_expected["min_cost"], "parenthesization": text}
        assert MatrixChainValidator().validate(answer, tied_expected, case=tied_case).is_valid


@pytest.mark.parametrize("dims", [[], [5], [3, 0, 2], [2, -1], "23", [2, 3.0], [True, 2], None])
def test_bad_inputs_raise(dims: Any) -> None:
    with pytest.raises(ValueError, match="dimensions"):
        matrix_chain_multiplication(dimensions=dims)


@pytest.mark.parametrize(("tier", "size", "index"), stress_cells("matrix_chain"))
def test_the_reference_holds_at_stress_sizes(tier: Tier, size: int, index: int) -> None:
    assert_holds_at_stress("matrix_chain", oracle, tier, size, index)


@given(st.lists(st.integers(1, 40), min_size=2, max_size=EXHAUSTIVE + 1))
def test_the_top_down_least_cost_is_the_exhaustive_one(dims: list[int]) -> None:
    assert _least(tuple(dims), 1, len(dims) - 1) == min(_orders(dims).values())


def test_a_hand_edited_float_dimension_is_costed_as_its_integer() -> None:
    # A journal's case may be edited by hand: 3.0 where the draw wrote 3.
    for dims in ([2, 3, 4, 5], [2, 3, 4, 3, 2], [5, 1, 7, 2, 6, 3]):
        edited = [dims[0], float(dims[1]), *dims[2:]]
        assert optimal_parenthesizations(edited) == optimal_parenthesizations(dims)


@pytest.mark.parametrize("sign", ["*", "\u00d7", "\u00b7", " "])
def test_a_right_order_written_with_signs_of_a_product_is_a_form_breach(sign: str) -> None:
    # Hunt oo: "no spaces, `*` or other characters" is one rule, but `A1*A2` failed at level
    # 3 (a reasoning error, no repair) where `A1 A2` failed at level 2.
    spec = default_catalog()["matrix_chain"]
    test_input = {"dimensions": [8, 8, 2, 6, 5]}
    expected = matrix_chain_multiplication(**test_input)
    case = TestCase(
        id="mc-s", scaffold="matrix_chain", tier="edge", input=test_input, expected=expected
    )
    written = re.sub(r"(?<=[0-9)])(?=[A(])", sign, expected["parenthesization"])
    assert written != expected["parenthesization"]
    verdict = spec.validator.validate(
        {**expected, "parenthesization": written}, expected, case=case
    )
    assert (verdict.is_valid, failed_level(verdict)) == (False, 2)
    assert verdict.form_rule == "no spaces, `*` or other characters"
