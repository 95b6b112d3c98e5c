"""The 0/1 knapsack: the ``knapsack_01`` scaffold."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.calibration import LazyHook, drawing_nothing, each_distinct
from verification.catalog.spec import AnswerSchema, OutputBudget, ScaffoldSpec, SizeAxis
from verification.reference.dynamic_programming import knapsack_01
from verification.validators.form import ascending, with_form_rules
from verification.validators.knapsack import KnapsackValidator

__all__ = [
    "KNAPSACK_EDGE_KINDS",
    "SPEC",
    "Knapsack01Answer",
    "count_optimal_sets",
    "generate_knapsack_01",
    "optimal_item_sets",
]


class Knapsack01Answer(AnswerSchema):
    """The best total value and the 0-based indices of one optimal item set."""

    max_value: int
    selected_items: list[int]


KNAPSACK_EDGE_KINDS = (
    "zero_capacity",
    "all_too_heavy",
    "no_items",
    "tied_optima",
    "weight_equals_capacity",
)
"""The degenerate instances the edge tier draws from."""

_TIE_ATTEMPTS = 50
_UNIQUE_ATTEMPTS = 100


def generate_knapsack_01(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    """Items with positive integer weights and values, and a capacity.

    ``simple``: ``size`` items, weights 1..6, values 1..12, capacity 40-60% of the total
    weight. ``standard``: ``size`` items, weights 1..9, values 1..20, capacity 40-60% of the
    total weight (so some items are always left out and the table stays small). Both have
    exactly one optimal item set (redrawn until they do). ``edge``: at most ``size`` items,
    one of :data:`KNAPSACK_EDGE_KINDS` (``tied_optima`` has several optimal sets).
    """
    if size < 1:
        raise ValueError(f"knapsack_01 needs at least one item, got size {size}")
    if tier == "simple":
        return _fraction_of_total(rng, size, max_weight=6, max_value=12)
    if tier == "standard":
        return _fraction_of_total(rng, size, max_weight=9, max_value=20)
    return _edge(rng, size)


def optimal_item_sets(
    weights: list[int], values: list[int], capacity: int
) -> tuple[int, list[list[int]]]:
    """The optimum and every optimal index set, by brute force (for small instances)."""
    n = len(weights)
    sets: list[list[int]]
    best, sets = 0, [[]]  # the empty set is always feasible
    for mask in range(1, 1 << n):
        chosen = [i for i in range(n) if mask >> i & 1]
        if sum(weights[i] for i in chosen) > capacity:
            continue
        value = sum(values[i] for i in chosen)
        if value > best:
            best, sets = value, [chosen]
        elif value == best:
            sets.append(chosen)
    return best, sets


def _items(weights: list[int], values: list[int], capacity: int) -> dict[str, Any]:
    return {"weights": weights, "values": values, "capacity": capacity}


def count_optimal_sets(weights: list[int], values: list[int], capacity: int, cap: int = 2) -> int:
    """How many item sets reach the optimum, counted up to ``cap`` (a DP, any size).

    ``best[c]`` and ``count[c]`` are the best value within capacity ``c`` and how many sets
    of the items seen so far reach it; taking and leaving an item are disjoint families.

    >>> count_optimal_sets([2, 3, 4, 5], [3, 4, 5, 6], 7)
    2
    >>> count_optimal_sets([2, 3, 4, 5], [3, 4, 5, 7], 7)
    1
    """
    large = len(weights) * (capacity + 1) > _ARRAY_CELLS
    if large and min(weights) >= 0 and max(map(abs, values)) < 2**40:
        return _count_optimal_sets_in_arrays(weights, values, capacity, cap)
    best = [0] * (capacity + 1)
    count = [1] * (capacity + 1)  # the empty set
    for weight, value in zip(weights, values, strict=True):
        for c in range(capacity, weight - 1, -1):
            taken = best[c - weight] + value
            if taken > best[c]:
                best[c], count[c] = taken, count[c - weight]
            elif taken == best[c]:
                count[c] = min(cap, count[c] + count[c - weight])
    return count[capacity]


_ARRAY_CELLS = 20_000
"""Items times capacities past which the count runs on whole arrays: code mode's ladder
draws a thousand items, where the loop above took seconds a case."""


def _count_optimal_sets_in_arrays(
    weights: list[int], values: list[int], capacity: int, cap: int
) -> int:
    """:func:`count_optimal_sets`, each item's pass over the capacities done at once: the
    loop reads ``best[c - weight]`` before its own pass writes it (it runs downwards), so
    each pass reads the arrays as the previous item left them. Whole numbers, the same
    counts (``tests/generators/test_greedy_dp.py`` compares the two)."""
    import numpy as np

    best = np.zeros(capacity + 1, dtype=np.int64)
    count = np.ones(capacity + 1, dtype=np.int64)
    for weight, value in zip(weights, values, strict=True):
        if weight > capacity:
            continue
        taken = best[: capacity + 1 - weight] + value
        kept, kept_count = best[weight:], count[weight:]
        from_count = count[: capacity + 1 - weight]
        tied = np.minimum(cap, kept_count + from_count)
        counted = np.where(taken > kept, from_count, np.where(taken == kept, tied, kept_count))
        best[weight:] = np.maximum(kept, taken)
        count[weight:] = counted
    return int(count[capacity])


def _fraction_of_total(
    rng: random.Random, n: int, *, max_weight: int, max_value: int
) -> dict[str, Any]:
    for _ in range(_UNIQUE_ATTEMPTS):
        weights = [rng.randint(1, max_weight) for _ in range(n)]
        values = [rng.randint(1, max_value) for _ in range(n)]
        capacity = max(1, round(sum(weights) * rng.uniform(0.4, 0.6)))
        if count_optimal_sets(weights, values, capacity) == 1:
            return _items(weights, values, capacity)
    # Unit weights and distinct values: the unique optimum is the ``capacity`` best items.
    values = rng.sample(range(1, max(max_value, n) + 1), n)
    return _items([1] * n, values, max(1, round(n * rng.uniform(0.4, 0.6))))


def _edge(rng: random.Random, size: int) -> dict[str, Any]:
    kinds = [k for k in KNAPSACK_EDGE_KINDS if size >= 2 or k != "tied_optima"]
    kind = rng.choice(kinds)
    n = rng.randint(1, size)
    if kind == "no_items":
        return _items([], [], rng.randint(0, 10))
    if kind == "zero_capacity":
        weights = [rng.randint(1, 6) for _ in range(n)]
        return _items(weights, [rng.randint(1, 12) for _ in range(n)], 0)
    if kind == "all_too_heavy":
        capacity = rng.randint(1, 6)
        weights = [rng.randint(capacity + 1, capacity + 6) for _ in range(n)]
        return _items(weights, [rng.randint(1, 12) for _ in range(n)], capacity)
    if kind == "weight_equals_capacity":
        capacity = rng.randint(3, 8)
        weights = [rng.randint(1, capacity) for _ in range(n)]
        weights[rng.randrange(n)] = capacity
        return _items(weights, [rng.randint(1, 12) for _ in range(n)], capacity)
    return _tied(rng, max(2, n))


def _tied(rng: random.Random, n: int) -> dict[str, Any]:
    """At least two optimal item sets: drawn until brute force finds them."""
    for _ in range(_TIE_ATTEMPTS):
        # Few distinct values make equal sums likely.
        weights = [rng.randint(1, 5) for _ in range(n)]
        values = [rng.randint(1, 4) for _ in range(n)]
        capacity = rng.randint(1, sum(weights))
        if len(optimal_item_sets(weights, values, capacity)[1]) > 1:
            return _items(weights, values, capacity)
    weight, value = rng.randint(1, 5), rng.randint(1, 9)
    return _items([weight, weight], [value, value], weight)


def count_items(test_input: Mapping[str, Any]) -> int:
    """A knapsack input's size: its number of items."""
    return len(test_input["weights"])


@LazyHook
def knapsack_mutants(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """The value one off; a chosen item left out (feasible, not optimal); an unchosen item
    added (over capacity, or the optimum would be higher); an index repeated; the right
    set out of ascending order."""
    return each_distinct(_wrong(case, rng), unlike=[case.expected])


def _wrong(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    # Made one at a time: a run's calibration judges the first few and makes no more.
    weights, values = case.input["weights"], case.input["values"]
    best: int = case.expected["max_value"]
    chosen: list[int] = case.expected["selected_items"]
    yield {"max_value": best + 1, "selected_items": chosen}
    if best > 0:
        yield {"max_value": best - 1, "selected_items": chosen}
    for index in rng.sample(chosen, min(2, len(chosen))):
        fewer = [i for i in chosen if i != index]
        yield {"max_value": best - values[index], "selected_items": fewer}
    unchosen = [i for i in range(len(weights)) if i not in chosen]
    for index in rng.sample(unchosen, min(2, len(unchosen))):
        more = sorted([*chosen, index])
        yield {"max_value": best + values[index], "selected_items": more}
    if chosen:
        twice = sorted([*chosen, rng.choice(chosen)])
        yield {"max_value": best, "selected_items": twice}
    if len(chosen) > 1:
        yield {"max_value": best, "selected_items": chosen[::-1]}


@drawing_nothing
def knapsack_alternatives(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Every other optimal item set (the edge tier's ties), by brute force; none when the
    optimum is unique (the simple and standard tiers draw such instances, up to 48 items,
    where brute force could not finish)."""
    inp = case.input
    if count_optimal_sets(inp["weights"], inp["values"], inp["capacity"]) == 1:
        return iter(())
    best, sets = optimal_item_sets(inp["weights"], inp["values"], inp["capacity"])
    answers = [{"max_value": best, "selected_items": chosen} for chosen in sets]
    return each_distinct(answers, unlike=[case.expected])


SPEC = ScaffoldSpec(
    name="knapsack_01",
    category="dynamic_programming",
    title="0/1 knapsack",
    graded_conventions={
        "any optimal set": "any one of them is right",
        "ascending": "listed in ascending order",
    },
    description="most valuable item set within a weight capacity, DP table",
    reference=knapsack_01,
    generator=generate_knapsack_01,
    answer_schema=Knapsack01Answer,
    validator=with_form_rules(
        KnapsackValidator(), ascending("in ascending order", "selected_items")
    ),
    sizes={"simple": 4, "standard": 7, "edge": 5},
    size=SizeAxis(
        unit="items",
        measure=count_items,
        ranges={"simple": (1, 12), "standard": (1, 12), "edge": (2, 12)},
        stress=(13, 48),
    ),
    mutants=knapsack_mutants,
    alternatives=knapsack_alternatives,
    max_output_tokens=6144,
    # The work is each row in full (C + 1 numbers, C about 2.5 n), its comparisons left out past
    # 12 items: 3,041 tokens at 12, 11,250 at 48 (python benchmarks/stress_budgets.py
    # knapsack_01). The flat budget holds the standard maximum; each size past it
    # adds 1.5x its work.
    output_budget=OutputBudget(per_unit=342.1, base=2038),
    code_rules={
        "selected_items": (
            "the chosen indices (of any optimal set, as the scaffold accepts) in ascending "
            "order (`sorted(...)`), each once; not in the order a backtracking walk finds them"
        ),
    },
    code_sizes=(24, 100, 300),
    code_size_limit=(
        "a pseudo-polynomial table of items times capacity, the capacity growing with "
        "the items: one case of 1,000 items takes 35 s to draw and 4 s of reference "
        "time"
    ),
)
