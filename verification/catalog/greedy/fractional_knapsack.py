"""The fractional knapsack: the ``fractional_knapsack`` scaffold (any optimal fractions)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pydantic import FiniteFloat

from verification.cases import TestCase, Tier
from verification.catalog.calibration import (
    LazyHook,
    descending_ranks,
    drawing_first,
    each_distinct,
)
from verification.catalog.spec import (
    STRESS_FACTOR,
    AnswerSchema,
    OutputBudget,
    ScaffoldSpec,
    SizeAxis,
)
from verification.reference.greedy import FRACTIONAL_KNAPSACK_DECIMALS, fractional_knapsack
from verification.validators.fractional_knapsack import (
    FRACTION_TOLERANCE,
    VALUE_TOLERANCE,
    FractionalKnapsackValidator,
)

__all__ = [
    "FRACTIONAL_EDGE_KINDS",
    "FRACTION_TOLERANCE",
    "MAX_ITEMS",
    "SPEC",
    "VALUE_TOLERANCE",
    "WEIGHTS",
    "FractionalKnapsackAnswer",
    "FractionalKnapsackValidator",
    "count_items",
    "generate_fractional_knapsack",
]

WEIGHTS = (1, 2, 4, 5, 8, 10, 16, 20, 25, 40)
"""Item weights: divisors of 10**4, so with integer capacities every fraction, and the
value, is a decimal of at most 4 places: the rounding the Output Format asks for is exact."""

FRACTIONAL_EDGE_KINDS = (
    "no_items",
    "single_item",
    "zero_capacity",
    "above_total",
    "equal_total",
    "tied_ratios",
    "exact_fit",
    "best_too_heavy",
)
"""The degenerate instances the edge tier draws from."""

MAX_ITEMS = 14
"""The standard tier's largest size."""
MOST_ITEMS = STRESS_FACTOR * MAX_ITEMS
"""The most items the generator draws: the top of the stress range."""
_ATTEMPTS = 2000


class FractionalKnapsackAnswer(AnswerSchema):
    """``{"max_value": 22.5, "fractions": [0.25, 1.0, 0.0]}``."""

    max_value: FiniteFloat
    fractions: list[FiniteFloat]


def count_items(test_input: Mapping[str, Any]) -> int:
    """A knapsack input's size (``SizeAxis.measure``): its number of items."""
    return len(test_input["weights"])


def _items(weights: list[int], values: list[int], capacity: int) -> dict[str, Any]:
    return {"weights": weights, "values": values, "capacity": capacity}


def _ratios(weights: Sequence[int], values: Sequence[int]) -> list[Fraction]:
    return [Fraction(v, w) for w, v in zip(weights, values, strict=True)]


def _greedy_value(
    weights: Sequence[int], values: Sequence[int], capacity: int, key: Any
) -> Fraction | int:
    """The exact value of filling the knapsack in the order ``key`` gives (fractionally)."""
    shares = _fill({"weights": weights, "capacity": capacity}, sorted(range(len(weights)), key=key))
    return sum((share * value for share, value in zip(shares, values, strict=True)), Fraction(0))


def generate_fractional_knapsack(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """``{"weights": [...], "values": [...], "capacity": int}``: positive integer weights from
    :data:`WEIGHTS` and values, a non-negative integer capacity. Every fraction of the answer
    is then an exact decimal of at most 4 places.

    ``simple``: ``size`` items (2 or more), values 1..40 (1..4 size past 10 items),
    distinct value-to-weight ratios, and a capacity that takes some items whole and a share
    of 0.1 to 0.9 of the next one. ``standard``: ``size`` items (3 or more), values 1..60
    (1..4 size past 15 items), the same promises, items not listed by ratio, and filling by
    largest value or by lightest weight first (the usual
    mistakes) both fall short of the optimum by at least 0.1. Both have exactly one optimal
    fraction list. ``edge``: at most ``size`` items, one of :data:`FRACTIONAL_EDGE_KINDS`
    (``zero_capacity``, a capacity ``above_total`` or ``equal_total`` weight, ``tied_ratios``
    with several optimal fraction lists, ``exact_fit`` with no item cut).
    """
    if not 1 <= size <= MOST_ITEMS:
        raise ValueError(f"fractional_knapsack needs 1..{MOST_ITEMS} items, got {size}")
    if tier == "simple":
        return _split(rng, max(size, 2), top=40, trap=False)
    if tier == "standard":
        return _split(rng, max(size, 3), top=60, trap=True)
    return _edge(rng, size)


def _split(rng: random.Random, n: int, *, top: int, trap: bool) -> dict[str, Any]:
    for _ in range(_ATTEMPTS):
        weights = [rng.choice(WEIGHTS) for _ in range(n)]
        # Values of 1..top give too few distinct ratios past about 40 items (the stress
        # sizes): there they reach 4n.
        values = [rng.randint(1, max(top, 4 * n)) for _ in range(n)]
        ratios = _ratios(weights, values)
        if len(set(ratios)) != n:
            continue
        ranked = sorted(range(n), key=lambda i: -ratios[i])
        whole = rng.randint(1, max(1, n - 2)) if n > 2 else 1
        cut = ranked[whole]
        shares = [r for r in range(1, weights[cut]) if 0.1 <= r / weights[cut] <= 0.9]
        if not shares:
            continue
        capacity = sum(weights[i] for i in ranked[:whole]) + rng.choice(shares)
        if trap and not _trapped(weights, values, capacity, ranked):
            continue
        return _items(weights, values, capacity)
    raise RuntimeError(f"no fractional_knapsack instance of {n} items")


def _trapped(weights: list[int], values: list[int], capacity: int, ranked: list[int]) -> bool:
    """Items not listed by ratio, and the by-value and by-weight orders lose at least 0.1."""
    if ranked == list(range(len(weights))):
        return False
    best = _greedy_value(weights, values, capacity, ranked.index)
    by_value = _greedy_value(weights, values, capacity, lambda i: (-values[i], i))
    by_weight = _greedy_value(weights, values, capacity, lambda i: (weights[i], i))
    return best - max(by_value, by_weight) >= Fraction(1, 10)


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kinds = [k for k in FRACTIONAL_EDGE_KINDS if size >= 3 or k != "tied_ratios"]
    kind = rng.choice(kinds)
    n = rng.randint(1, size)
    weights = [rng.choice(WEIGHTS) for _ in range(n)]
    values = [rng.randint(1, 40) for _ in range(n)]
    total = sum(weights)
    if kind == "no_items":
        return _items([], [], rng.randint(0, 20))
    if kind == "single_item":
        return _items(weights[:1], values[:1], rng.randint(1, 2 * weights[0]))
    if kind == "zero_capacity":
        return _items(weights, values, 0)
    if kind == "above_total":
        return _items(weights, values, total + rng.randint(1, 20))
    if kind == "equal_total":
        return _items(weights, values, total)
    ranked = sorted(range(n), key=lambda i: -Fraction(values[i], weights[i]))
    if kind == "exact_fit":
        return _items(weights, values, sum(weights[i] for i in ranked[: rng.randint(0, n)]))
    if kind == "best_too_heavy":
        heavy = rng.randrange(n)
        weights[heavy] = 40
        values[heavy] = max(v * 40 // w for w, v in zip(weights, values, strict=True)) + 1
        return _items(weights, values, rng.randint(1, 39))
    return _tied(rng, max(3, n))


def _tied(rng: random.Random, n: int) -> dict[str, Any]:
    """Two or more items of one ratio, the capacity running out inside that group (so
    the room left for them can be shared in more than one way)."""
    group = rng.randint(2, min(4, n))
    ratio = rng.randint(1, 5)
    weights = [rng.choice(WEIGHTS[:7]) for _ in range(n)]
    values = [ratio * w for w in weights[:group]]
    # The others are clearly better or clearly worse than the group.
    values += [
        max(1, w * (ratio + rng.choice((-1, 1)) * rng.randint(1, 2)) + rng.randint(0, 1))
        for w in weights[group:]
    ]
    ratios = _ratios(weights, values)
    better = sum(w for w, r in zip(weights, ratios, strict=True) if r > ratio)
    shared = sum(weights[:group])
    order = list(range(n))
    rng.shuffle(order)
    return _items(
        [weights[i] for i in order],
        [values[i] for i in order],
        better + rng.randint(1, shared - 1),
    )


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _answer(test_input: Mapping[str, Any], shares: Sequence[Fraction | int]) -> dict[str, Any]:
    places = FRACTIONAL_KNAPSACK_DECIMALS
    worth = sum((share * v for share, v in zip(shares, test_input["values"], strict=True)), 0)
    return {
        "max_value": round(float(worth), places),
        "fractions": [round(float(share), places) for share in shares],
    }


def _fill(test_input: Mapping[str, Any], order: Sequence[int]) -> list[Fraction | int]:
    """The exact fractions of filling the knapsack in ``order`` (in integers while they are)."""
    weights, room = test_input["weights"], test_input["capacity"]
    shares: list[Fraction | int] = [0] * len(weights)
    if _count(room) and all(_count(w) and w > 0 for w in weights):
        for i in order:
            shares[i] = 1 if room >= weights[i] else Fraction(room, weights[i]) if room else 0
            room = room - weights[i] if room >= weights[i] else 0
        return shares
    room = Fraction(room)
    for i in order:
        shares[i] = min(Fraction(1), room / weights[i])
        room -= shares[i] * weights[i]
    return shares


def _clearly_wrong(test_input: Mapping[str, Any], answer: dict[str, Any], optimum: float) -> bool:
    """Wrong by ten times every tolerance, so no rounding can save it."""
    weights, values = test_input["weights"], test_input["values"]
    fractions, stated = answer["fractions"], answer["max_value"]
    if len(fractions) != len(weights):
        return True
    if any(not -0.01 <= x <= 1.01 for x in fractions):
        return True
    load = sum(w * x for w, x in zip(weights, fractions, strict=True))
    worth = sum(v * x for v, x in zip(values, fractions, strict=True))
    slack = 10 * (VALUE_TOLERANCE + FRACTION_TOLERANCE * sum(values))
    return bool(
        load > test_input["capacity"] + 10 * FRACTION_TOLERANCE * sum(weights)
        or abs(worth - stated) > slack
        or abs(stated - optimum) > 10 * VALUE_TOLERANCE
    )


@drawing_first
def fractional_knapsack_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """``max_value`` just outside its tolerance; the cut item taken whole (over capacity)
    or left out (0/1 thinking: feasible, not optimal); a whole item halved; filling by
    largest value or lightest weight first; a fraction dropped, added or above 1."""
    best = case.expected["max_value"]
    kept = (answer for answer in _wrong(case, rng) if _clearly_wrong(case.input, answer, best))
    return each_distinct(kept, unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Every draw first (the alternatives draw after these), then the answers one at a
    # time: a run's calibration judges the first few and makes no more.
    inp = case.input
    best: float = case.expected["max_value"]
    fractions: list[float] = case.expected["fractions"]
    weights, values, n = inp["weights"], inp["values"], len(inp["weights"])
    ranks = descending_ranks([Fraction(values[i], weights[i]) for i in range(n)])
    ranked = sorted(range(n), key=ranks.__getitem__)  # stable: tied ratios by index
    shares = _fill(inp, ranked)
    taken = [i for i in range(n) if shares[i] == 1]
    halved = rng.sample(taken, min(2, len(taken)))
    raised = rng.randrange(n) if n else 0
    yield {"max_value": round(best + 0.01, 4), "fractions": fractions}
    yield {"max_value": round(best - 0.01, 4), "fractions": fractions}
    for i in range(n):
        if 0 < shares[i] < 1:
            yield _answer(inp, [*shares[:i], Fraction(1), *shares[i + 1 :]])
            yield _answer(inp, [*shares[:i], Fraction(0), *shares[i + 1 :]])
    for i in halved:
        yield _answer(inp, [*shares[:i], Fraction(1, 2), *shares[i + 1 :]])
    for key in (lambda i: (-values[i], i), lambda i: (weights[i], i)):
        yield _answer(inp, _fill(inp, sorted(range(n), key=key)))
    if n:
        yield {"max_value": best, "fractions": fractions[:-1]}
        yield {"max_value": best, "fractions": [*fractions[:raised], 1.5, *fractions[raised + 1 :]]}
    yield {"max_value": best, "fractions": [*fractions, 0.0]}


@LazyHook
def fractional_knapsack_alternatives(
    case: TestCase, rng: random.Random
) -> Iterator[dict[str, Any]]:
    """The same answer written with integers where the numbers are whole, or with
    ``max_value`` off by half its tolerance; with tied ratios, the room shared out among the
    tied items in other orders."""
    return each_distinct(_right(case, rng), unlike=[case.expected])


def _right(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    inp = case.input
    best: float = case.expected["max_value"]
    fractions: list[float] = case.expected["fractions"]
    yield {
        "max_value": int(best) if best == int(best) else best,
        "fractions": [int(x) if x in (0, 1) else x for x in fractions],
    }
    yield {"max_value": round(best + VALUE_TOLERANCE / 2, 6), "fractions": fractions}
    weights, values = inp["weights"], inp["values"]
    ratio = descending_ranks([Fraction(v, w) for w, v in zip(weights, values, strict=True)])
    made: dict[tuple[int, ...], dict[str, Any]] = {}
    for _ in range(4):
        order = sorted(range(len(weights)), key=lambda i: (ratio[i], rng.random()))
        # Without tied ratios every order is the same: its answer is made once.
        if tuple(order) not in made:
            made[tuple(order)] = _answer(inp, _fill(inp, order))
        yield made[tuple(order)]


SPEC = ScaffoldSpec(
    name="fractional_knapsack",
    category="greedy",
    title="Fractional knapsack",
    graded_conventions={
        "input order": "fractions follow the input order of the items",
        "ties": "any split between the equally good items is right",
    },
    description="most valuable load when items may be cut, best value per weight first",
    reference=fractional_knapsack,
    generator=generate_fractional_knapsack,
    answer_schema=FractionalKnapsackAnswer,
    validator=FractionalKnapsackValidator(),
    sizes={"simple": 4, "standard": 7, "edge": 5},
    size=SizeAxis(
        unit="items",
        measure=count_items,
        ranges={"simple": (2, 8), "standard": (3, MAX_ITEMS), "edge": (1, MAX_ITEMS)},
        stress=(MAX_ITEMS + 1, MOST_ITEMS),
    ),
    mutants=fractional_knapsack_mutants,
    alternatives=fractional_knapsack_alternatives,
    max_output_tokens=4096,
    # The work is the ratio table, a line per item and the two sums of the check: 475 tokens at
    # 14, 1,882 at 56 (python benchmarks/stress_budgets.py fractional_knapsack). The flat budget
    # holds the standard maximum; each size past it adds 1.5x its work.
    output_budget=OutputBudget(per_unit=50.9, base=3383),
    code_sizes=(MAX_ITEMS, MOST_ITEMS),
    code_size_limit=(
        "the generator draws at most 56 items (MOST_ITEMS), each ratio distinct as the trace asks"
    ),
)
