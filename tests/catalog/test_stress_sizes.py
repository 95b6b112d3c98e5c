"""Stress sizes: a range past the standard maximum that the simple and standard tiers'
inputs reach, with an output budget that grows with the size (issue 25 item 1).

Built on variants of ``merge_sort`` (its generator draws an array of any length): the seam
every scaffold's stress range declares itself through. Which scaffold reaches how far is
held by ``tests/catalog/test_stress_reach.py``.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from tests.support.checked import checked
from verification.cases import DEFAULT_SEED, Tier
from verification.catalog import Catalog, default_catalog
from verification.catalog.spec import (
    MODEL_OUTPUT_CEILING,
    STRESS_FACTOR,
    OutputBudget,
    ScaffoldSpec,
    SizeAxis,
)
from verification.certify.checks import CheckResult
from verification.certify.envelope import sweep_plan, sweep_sizes
from verification.cli import main
from verification.config import load_settings, resolve_settings
from verification.errors import ConfigurationError, SpecError
from verification.run.estimate import estimate_run
from verification.run.plan import plan_cases
from verification.store.thinking import max_tokens_with

BASE = default_catalog()["merge_sort"]
TOP = BASE.size.ranges["standard"][1]
STRESS = (TOP + 1, STRESS_FACTOR * TOP)
GROWTH = OutputBudget(per_unit=100.0, exponent=1.0, base=500)
"""Past the flat budget at the top of the stress range, below it at the standard maximum."""


def _axis(**changes: object) -> SizeAxis:
    return dataclasses.replace(BASE.size, **changes)  # type: ignore[arg-type]


def _stressed(**changes: object) -> ScaffoldSpec:
    return dataclasses.replace(BASE, size=_axis(stress=STRESS), output_budget=GROWTH, **changes)  # type: ignore[arg-type]


def test_a_stress_size_is_accepted_by_the_simple_and_standard_tiers_only() -> None:
    axis = _axis(stress=STRESS)
    for size in (STRESS[0], STRESS[1]):
        assert axis.check("standard", size) is None
        assert axis.check("simple", size) is None
        assert axis.check("edge", size) is not None
    refused = axis.check("standard", STRESS[1] + 1)
    assert refused is not None and f"{STRESS[0]}..{STRESS[1]}" in refused
    assert axis.honoured("standard") == (BASE.size.ranges["standard"][0], STRESS[1])
    assert axis.honoured("edge") == BASE.size.ranges["edge"]


def test_without_a_stress_range_the_tiers_ranges_hold_as_before() -> None:
    assert BASE.size.stress is None or BASE.size.check("edge", TOP + 1) is not None
    plain = _axis(stress=None, stress_limit="")
    assert plain.check("standard", TOP + 1) is not None
    assert plain.honoured("standard") == BASE.size.ranges["standard"]


@pytest.mark.parametrize("stress", [(TOP, 2 * TOP), (TOP + 5, TOP + 1)])
def test_a_stress_range_that_does_not_lie_past_the_standard_maximum_is_a_spec_error(
    stress: tuple[int, int],
) -> None:
    with pytest.raises(SpecError, match="past the standard maximum"):
        _axis(stress=stress)


def test_a_stress_range_short_of_four_times_must_say_why() -> None:
    short = _axis(stress=(TOP + 1, 2 * TOP), stress_limit="")
    problem = short.stress_problem()
    assert problem is not None and str(STRESS_FACTOR * TOP) in problem
    assert (
        _axis(stress=(TOP + 1, 2 * TOP), stress_limit="sorting is checkable").stress_problem()
        is None
    )
    assert _axis(stress=STRESS, stress_limit="").stress_problem() is None
    assert _axis(stress=None, stress_limit="").stress_problem() is not None


def test_the_output_budget_grows_with_the_size_and_never_drops_below_the_flat_one() -> None:
    spec = _stressed()
    assert spec.max_output_tokens_at(None) == BASE.max_output_tokens
    assert spec.max_output_tokens_at(1) == BASE.max_output_tokens  # the flat one is larger
    top = STRESS[1]
    assert spec.max_output_tokens_at(top) == max(
        BASE.max_output_tokens, GROWTH.base + int(GROWTH.per_unit * top)
    )
    flat = dataclasses.replace(BASE, output_budget=None)  # no growth declared
    assert flat.max_output_tokens_at(top) == BASE.max_output_tokens


def test_a_stress_size_whose_budget_passes_what_a_model_writes_is_not_offered() -> None:
    huge = OutputBudget(per_unit=MODEL_OUTPUT_CEILING / STRESS[1] + 1)
    with pytest.raises(SpecError, match=str(MODEL_OUTPUT_CEILING)):
        dataclasses.replace(BASE, size=_axis(stress=STRESS), output_budget=huge)


@pytest.mark.parametrize(
    "bad", [{"per_unit": 0}, {"per_unit": 1.0, "exponent": -1}, {"per_unit": 1.0, "base": -3}]
)
def test_an_output_budget_that_cannot_grow_is_a_spec_error(bad: dict[str, float]) -> None:
    with pytest.raises(SpecError, match="output budget"):
        OutputBudget(**bad)  # type: ignore[arg-type]


def test_a_case_at_a_stress_size_is_drawn_at_that_size_and_its_id_carries_it() -> None:
    catalog = Catalog([_stressed()])
    size = STRESS[1]
    planned = plan_cases(
        ["merge_sort"], seed=DEFAULT_SEED, cases=2, tiers=("standard",), size=size, catalog=catalog
    )["merge_sort"]
    assert [BASE.size.measure(case.input) for case in planned] == [size, size]
    assert all(f"-s{size}-" in case.id for case in planned)
    for case in planned:
        assert case.expected == BASE.reference(**case.input)


def test_an_edge_case_at_a_stress_size_is_refused_naming_the_range() -> None:
    catalog = Catalog([_stressed()])
    with pytest.raises(ConfigurationError) as refused:
        plan_cases(
            ["merge_sort"],
            seed=DEFAULT_SEED,
            cases=1,
            tiers=("edge",),
            size=STRESS[1],
            catalog=catalog,
        )
    assert str(BASE.size.ranges["edge"][1]) in str(refused.value)
    assert "add --tier standard" in str(refused.value)  # the tiers that draw it, named


def test_a_stress_size_asked_of_every_tier_names_the_tiers_that_draw_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = default_catalog()["dijkstra"]
    assert spec.size.stress is not None
    top = spec.size.stress[1]
    assert main(["verify", "dijkstra", "--provider", "reference", "--size", str(top)]) == 2
    assert f"{top} is a stress size" in capsys.readouterr().err


def test_sizes_may_sweep_into_the_stress_range_but_an_automatic_sweep_stays_out() -> None:
    spec = _stressed()
    planned = sweep_plan(spec, [TOP, STRESS[1]], per_size=2)
    assert [size for _, _, size in planned] == [TOP, TOP, STRESS[1], STRESS[1]]
    assert max(sweep_sizes(spec)) == TOP
    # merge_sort's unit is a measure, named before its sizes (hunt mm): "array length 3..128".
    with pytest.raises(ConfigurationError, match=rf"{BASE.size.unit} \d+\.\.{STRESS[1]} "):
        sweep_plan(spec, [STRESS[1] + 1])


def test_the_estimate_reserves_each_case_s_own_budget(tmp_path: object) -> None:
    catalog = Catalog([_stressed()])
    settings = resolve_settings(load_settings(provider="reference"))
    (flat,), _ = estimate_run(
        settings, ["merge_sort"], tiers=("standard",), size=TOP, catalog=catalog
    )
    (grown,), _ = estimate_run(
        settings, ["merge_sort"], tiers=("standard",), size=STRESS[1], catalog=catalog
    )
    spec = catalog["merge_sort"]
    assert flat.tokens.output == flat.requests * max_tokens_with(
        None, spec.max_output_tokens_at(TOP)
    )
    assert grown.tokens.output == grown.requests * max_tokens_with(
        None, spec.max_output_tokens_at(STRESS[1])
    )
    assert grown.tokens.output > flat.tokens.output


def _simple_arrays_from_standard(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
    # merge_sort's simple tier draws distinct small numbers, too few past its range.
    return BASE.generator(rng, "standard" if size > TOP else tier, size)


def _checked(spec: ScaffoldSpec) -> dict[str, CheckResult]:
    """``check``'s results on ``spec`` (drawn lightly: two cases a tier, one a size)."""
    return checked(spec)


def test_check_draws_the_stress_range_and_reports_it() -> None:
    spec = _stressed(generator=_simple_arrays_from_standard)
    results = _checked(spec)
    assert results["every size"].ok, results["every size"].detail
    stress = results["stress range"]
    assert stress.ok and not stress.warning and f"{STRESS[0]}..{STRESS[1]}" in stress.detail


def test_check_warns_about_a_scaffold_with_no_stress_range_saying_why() -> None:
    spec = dataclasses.replace(BASE, size=_axis(stress=None, stress_limit=""))
    results = _checked(spec)
    assert results["stress range"].warning
    assert "no stress range" in results["stress range"].detail


def test_list_json_shows_the_stress_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--json"]) == 0
    listed = {s["name"]: s for s in json.loads(capsys.readouterr().out)["scaffolds"]}
    for name, spec in default_catalog().items():
        ranges = listed[name]["size"]["ranges"]
        assert ranges["stress"] == (list(spec.size.stress) if spec.size.stress else None)
        assert listed[name]["size"]["stress_limit"] == (spec.size.stress_limit or None)


@pytest.mark.parametrize("tier", ["simple", "standard"])
def test_a_tier_s_default_size_is_one_of_its_own_not_a_stress_size(tier: str) -> None:
    # A helper adding a scaffold set simple's default to a stress size: accepted, and every
    # simple case was then a stress case.
    spec = _stressed()
    with pytest.raises(SpecError, match=f"default size {STRESS[1]} is outside the {tier} range"):
        dataclasses.replace(spec, sizes={**spec.sizes, tier: STRESS[1]})
    with pytest.raises(SpecError, match="gives a size to 'huge', no tier"):
        dataclasses.replace(spec, sizes={**spec.sizes, "huge": TOP})
