"""The stress ranges' output budgets of the dynamic-programming, divide-and-conquer, string
and greedy scaffolds (issue 25 item 1): each follows the rule of
``benchmarks/stress_budgets.py``, measured from a careful answer in the scaffold's own format
at each stress size (each renderer also checks its work against the reference's answer)."""

from __future__ import annotations

import pytest

from tests.catalog.test_graph_stress_budgets import BENCH
from tests.catalog.test_graph_stress_budgets import (
    test_the_budget_holds_the_scaffolds_work_at_every_stress_size as budget_holds,
)
from verification.catalog import default_catalog

SCAFFOLDS = sorted(BENCH.FAMILIES["sequence"])
"""The scaffolds whose stress budgets are fitted to their measured work: those the family
renders (``benchmarks/stress_work/sequence.py``; every scaffold has a family, a fast test holds)."""


@pytest.mark.parametrize("name", SCAFFOLDS)
def test_the_budget_holds_the_scaffolds_work_at_every_stress_size(name: str) -> None:
    budget_holds(name)


@pytest.mark.parametrize("name", SCAFFOLDS)
def test_the_budget_within_the_tiers_ranges_stays_the_flat_one(name: str) -> None:
    # The growth serves the stress range: a standard run's requests and estimate are as before.
    spec = default_catalog()[name]
    for size in range(1, spec.size.ranges["standard"][1] + 1):
        assert spec.max_output_tokens_at(size) == spec.max_output_tokens, (name, size)


def test_a_careful_edit_distance_answer_writes_every_row_in_full() -> None:
    spec = default_catalog()["edit_distance"]
    drawn = BENCH.generate_case(spec, "standard", 0, seed=7, size=48)
    text = BENCH.RENDERERS["edit_distance"](drawn.input, drawn.expected)
    rows = [line for line in text.splitlines() if line.startswith("i=")]
    assert len(rows) == len(drawn.input["a"]) + 1
    assert all(row.count(",") == len(drawn.input["b"]) for row in rows)


def test_a_careful_knapsack_answer_past_twelve_items_writes_the_rows_alone() -> None:
    spec = default_catalog()["knapsack_01"]
    drawn = BENCH.generate_case(spec, "standard", 0, seed=7, size=13)
    text = BENCH.RENDERERS["knapsack_01"](drawn.input, drawn.expected)
    assert text.count("\nR") == 14  # R0 .. R13
    assert "|" not in text  # no comparison written


def test_a_careful_huffman_answer_writes_the_pool_on_every_round() -> None:
    spec = default_catalog()["huffman"]
    drawn = BENCH.generate_case(spec, "standard", 0, seed=7, size=64)
    text = BENCH.RENDERERS["huffman"](drawn.input, drawn.expected)
    rounds = [line for line in text.splitlines() if ". Pool: " in line]
    assert len(rounds) == 63
    assert [line.count(":") - 3 for line in rounds] == list(range(63, 0, -1))  # pool left
