"""The graph scaffolds' stress ranges and output budgets (issue 25 item 1): each budget
follows the rule of ``benchmarks/stress_budgets.py``, measured from a careful answer in the
scaffold's own format at each stress size."""

from __future__ import annotations

import pytest

from tests.support.benchmarks import load_benchmark
from tests.support.draws import shared_draw
from verification.cases import TIERS, generate_case
from verification.catalog import default_catalog
from verification.catalog.spec import MODEL_OUTPUT_CEILING

BENCH = load_benchmark("stress_budgets")
GRAPH = sorted(BENCH.FAMILIES["graph"])
"""The graph scaffolds whose stress budgets are fitted to their measured work: those the
family renders (``benchmarks/stress_work/graph.py``)."""


def assert_budget_holds(name: str) -> None:
    """``name``'s declared budget holds the rule's, and the rendered work with its margin,
    at every stress point, and never passes what a model writes in one reply."""
    spec = default_catalog()[name]
    assert spec.size.stress is not None
    # Each size's work measured once (required_tokens would draw the standard maximum's
    # again at every size, and each size's twice): the same figures, a third of the draws.
    # The cases are the stress tests' (tests/support/stress.py): drawn once between them.
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(BENCH, "generate_case", shared_draw)
        work = {size: BENCH.work_tokens(spec, size) for size in BENCH.stress_points(spec)}
    top = work[spec.size.ranges["standard"][1]]  # stress_points holds it
    for size, done in work.items():
        declared = spec.max_output_tokens_at(size)
        hint = (
            f"{name} at size {size}: the spec's output budget ({declared} tokens) is short of "
            "the work its answer shows there; raise its output_budget (python "
            f"benchmarks/stress_budgets.py {name} prints one that fits)"
        )
        assert declared >= BENCH.rule_tokens(spec, done, top), hint
        assert declared >= BENCH.MARGIN * done, hint
        assert declared <= MODEL_OUTPUT_CEILING


@pytest.mark.parametrize("name", GRAPH)
def test_the_budget_holds_the_scaffolds_work_at_every_stress_size(name: str) -> None:
    assert_budget_holds(name)


@pytest.mark.parametrize("name", GRAPH)
def test_every_size_list_offers_to_size_is_one_every_tier_accepts(name: str) -> None:
    # bellman_ford, floyd_warshall, astar and graph_coloring's simple ranges stop short of
    # the standard maximum, where their stress ranges begin: the sizes between are no
    # simple size, so --size (every tier) must not offer them.
    axis = default_catalog()[name].size
    shared = axis.shared(TIERS)  # ascending (low, high) runs
    assert shared
    for low, high in shared:
        for size in range(low, high + 1):
            assert all(axis.check(tier, size) is None for tier in TIERS), (name, size)


@pytest.mark.slow  # twenty cases a tier at 28 vertices, about five seconds
def test_floyd_warshall_stops_where_its_tables_would_pass_what_a_model_writes() -> None:
    spec = default_catalog()["floyd_warshall"]
    assert spec.size.stress is not None and spec.size.stress_limit
    past = 28
    assert spec.size.stress[1] < past
    assert BENCH.required_tokens(spec, past, cases=20) > MODEL_OUTPUT_CEILING


def test_every_scaffold_with_a_stress_range_has_its_work_rendered() -> None:
    # The budget tests took their scaffolds from lists kept by hand: a new scaffold's budget
    # was held to nothing, and nothing said so (a helper adding one).
    catalog = default_catalog()
    stressed = {
        name
        for name in catalog
        if catalog.origins[name].startswith("verification.catalog.")
        and catalog[name].size.stress is not None
    }
    missing = sorted(stressed - set(BENCH.RENDERERS))
    assert not missing, [BENCH.no_renderer(name) for name in missing]
    assert sorted(BENCH.RENDERERS) == sorted(
        name for family in BENCH.FAMILIES.values() for name in family
    )


def test_the_benchmark_names_the_renderer_a_scaffold_lacks(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delitem(BENCH.RENDERERS, "dijkstra")
    with pytest.raises(SystemExit) as exited:
        BENCH.main(["dijkstra"])
    assert exited.value.code == 2
    assert "no renderer of dijkstra's work" in capsys.readouterr().err
    with pytest.raises(LookupError, match="add one to its family's RENDERERS"):
        BENCH.work_tokens(default_catalog()["dijkstra"], 8)


def test_a_careful_dijkstra_answer_settles_every_reached_vertex_once() -> None:
    drawn = generate_case(default_catalog()["dijkstra"], "standard", 0, seed=7, size=40)
    text = BENCH.RENDERERS["dijkstra"](drawn.input, drawn.expected)
    reached = [v for v, d in drawn.expected["distances"].items() if d is not None]
    assert text.count("- Settle ") == len(reached)
