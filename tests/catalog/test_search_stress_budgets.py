"""The stress ranges' output budgets of the backtracking, numerical and optimization
scaffolds (issue 25 item 1): each follows the rule of ``benchmarks/stress_budgets.py``,
measured from a careful answer in the scaffold's own format at each stress size."""

from __future__ import annotations

import pytest

from tests.catalog.test_graph_stress_budgets import BENCH, assert_budget_holds
from verification.catalog import default_catalog
from verification.catalog.backtracking.subset_sum import search_effort

SCAFFOLDS = sorted(BENCH.FAMILIES["search"])
"""The scaffolds whose stress budgets are fitted to their measured work: those the family
renders (``benchmarks/stress_work/search.py``; every scaffold has a family, a fast test holds)."""


@pytest.mark.slow  # draws and renders 5 cases a tier at up to six sizes: seconds each
@pytest.mark.parametrize("name", SCAFFOLDS)
def test_the_budget_holds_the_scaffolds_work_at_every_stress_size(name: str) -> None:
    assert_budget_holds(name)


def test_a_careful_monte_carlo_answer_has_a_row_per_draw() -> None:
    spec = default_catalog()["monte_carlo"]
    assert spec.size.stress is not None
    drawn = BENCH.generate_case(spec, "standard", 0, seed=7, size=spec.size.stress[1])
    text = BENCH.RENDERERS["monte_carlo"](drawn.input, drawn.expected)
    assert text.count("\n| ") == len(drawn.input["samples"]) + 1  # and the header


def test_a_careful_newton_raphson_answer_has_a_row_per_iteration() -> None:
    spec = default_catalog()["newton_raphson"]
    drawn = BENCH.generate_case(spec, "standard", 0, seed=7, size=48)
    text = BENCH.RENDERERS["newton_raphson"](drawn.input, drawn.expected)
    assert text.count("\n| ") == drawn.expected["iterations"] + 1  # and the header


def test_a_careful_simulated_annealing_answer_has_a_line_per_step() -> None:
    spec = default_catalog()["simulated_annealing"]
    drawn = BENCH.generate_case(spec, "standard", 0, seed=7, size=60)
    text = BENCH.RENDERERS["simulated_annealing"](drawn.input, drawn.expected)
    assert text.count("\nk=") + text.startswith("k=") == len(drawn.input["draws"])


def test_a_careful_subset_sum_answer_shows_every_step_of_the_search() -> None:
    spec = default_catalog()["subset_sum"]
    drawn = BENCH.generate_case(spec, "standard", 0, seed=7, size=56)
    text = BENCH.RENDERERS["subset_sum"](drawn.input, drawn.expected)
    steps, _ = search_effort(drawn.input["numbers"], drawn.input["target"])
    assert text.count("\n") == steps + 1 + 3  # the suffix sums; the answer's block
