"""Every declared size draws: ``check`` sweeps every size of every tier's range, and a
generator that cannot draw a case of its range is the spec's error (exit 2), never the
harness's (exit 4).

The sweep itself runs for every registered scaffold in ``tests/catalog/test_scaffold_contract.py``
(the ``every size`` check of :func:`verification.certify.checks.check_scaffold`) and for the plugin
scaffold in ``tests/catalog/plugins/test_plugins.py`` (``check largest_number``); a plugin that
cannot draw a size is ``tests/catalog/plugins/test_plugin_sizes.py``.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from verification.cases import DEFAULT_SEED, TIERS, Tier
from verification.catalog import Catalog, default_catalog
from verification.catalog.spec import STRESS_TIERS, ScaffoldSpec
from verification.certify.checks import STRESS_POINTS, check_every_size, check_scaffold
from verification.cli import main
from verification.config import packaged_scaffolds_dir
from verification.errors import CaseDrawError, VerificationError
from verification.runner import plan_cases

CATALOG = default_catalog()
BASE = CATALOG["merge_sort"]
"""A cheap spec to build broken variants of (same name, so its Markdown file is found); its
input is ``{"array": [...]}`` and its size the array's length."""


def _with_generator(generator: Any) -> ScaffoldSpec:
    return dataclasses.replace(BASE, generator=generator)


def _fails_at(tier: Tier, size: int) -> Any:
    def generate(rng: random.Random, asked_tier: Tier, asked_size: int) -> dict[str, Any]:
        if (asked_tier, asked_size) == (tier, size):
            raise RuntimeError(f"no {tier} input of size {size}")
        return BASE.generator(rng, asked_tier, asked_size)

    return generate


def _a_standard_size_off_default() -> int:
    low, high = BASE.size.ranges["standard"]
    return next(s for s in range(low, high + 1) if s != BASE.sizes["standard"])


# --- the reproducer of issue 19 ------------------------------------------------------------


def test_the_dfs_reproducer_shows_its_prompt(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show-prompt", "dfs", "--case", "dfs-standard-s6-030", "--part", "user"]) == 0
    assert "dfs-standard-s6-030" not in capsys.readouterr().err


@pytest.mark.parametrize("index", [30, 45, 82, 177, 206])
def test_dfs_standard_draws_at_six_vertices_where_it_ran_out_of_attempts(index: int) -> None:
    """The case indices at which the default seed's draw failed before the fix."""
    spec = CATALOG["dfs"]
    case = plan_cases(
        ["dfs"], seed=DEFAULT_SEED, cases=1, case_ids=[f"dfs-standard-s6-{index:03d}"]
    )
    assert spec.size.measure(case["dfs"][0].input) == 6


# --- the sweep fails, naming what failed ---------------------------------------------------


def test_check_fails_naming_the_one_size_a_generator_cannot_draw() -> None:
    size = _a_standard_size_off_default()
    spec = _with_generator(_fails_at("standard", size))
    with pytest.raises(CaseDrawError) as raised:
        check_every_size(spec)
    error = raised.value
    assert (error.scaffold, error.tier, error.size, error.index) == (BASE.name, "standard", size, 0)
    assert f"standard case 0 at size {size}" in str(error)
    assert f"{BASE.name}-standard-s{size}-000" in str(error)

    results = check_scaffold(
        BASE.name, scaffolds_dir=packaged_scaffolds_dir(), catalog=Catalog([spec]), hash_seed=False
    )
    failed = {r.check: r.detail for r in results if not r.ok}
    assert list(failed) == ["every size"], failed
    assert f"{BASE.name}-standard-s{size}-000" in failed["every size"]


def test_check_fails_on_a_size_that_does_not_read_back() -> None:
    size = _a_standard_size_off_default()

    def generate(rng: random.Random, tier: Tier, asked: int) -> dict[str, Any]:
        return BASE.generator(
            rng, tier, asked + 1 if (tier, asked) == ("standard", size) else asked
        )

    with pytest.raises(
        VerificationError, match=f"standard size {size}, case 0 .*measured {size + 1}"
    ):
        check_every_size(_with_generator(generate))


def test_an_edge_case_may_be_smaller_than_asked_never_larger() -> None:
    high = BASE.size.ranges["edge"][1]

    def smaller(rng: random.Random, tier: Tier, asked: int) -> dict[str, Any]:
        return BASE.generator(
            rng, tier, max(BASE.size.ranges[tier][0], asked - 1) if tier == "edge" else asked
        )

    check_every_size(_with_generator(smaller))

    def larger(rng: random.Random, tier: Tier, asked: int) -> dict[str, Any]:
        drawn = BASE.generator(rng, tier, asked)
        if (tier, asked) == ("edge", high - 1):
            return {**drawn, "array": [*drawn["array"], 0] * 2}  # twice as long, at least
        return drawn

    with pytest.raises(VerificationError, match=rf"edge size {high - 1}, case \d+ .*measured"):
        check_every_size(_with_generator(larger))


def test_the_first_round_draws_every_size_whatever_the_budget() -> None:
    drawn: list[tuple[Tier, int]] = []

    def counting(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
        drawn.append((tier, size))
        return BASE.generator(rng, tier, size)

    ticks: Iterator[float] = itertools.count(0.0, 100.0)
    detail = check_every_size(
        _with_generator(counting), per_size=5, budget=1.0, clock=lambda: next(ticks)
    )
    declared = [
        (tier, size)
        for tier in TIERS
        for size in range(BASE.size.ranges[tier][0], BASE.size.ranges[tier][1] + 1)
    ]
    assert BASE.size.stress is not None  # and the stress range, at a few spread sizes
    low, high = BASE.size.stress
    spread = sorted({low + (high - low) * k // (STRESS_POINTS - 1) for k in range(STRESS_POINTS)})
    declared += [(tier, size) for tier in STRESS_TIERS for size in spread]
    assert drawn == declared
    assert "time budget 1 s reached" in detail

    drawn.clear()
    check_every_size(_with_generator(counting), per_size=3)
    assert sorted(drawn) == sorted(declared * 3)


# --- a spec that cannot draw is the spec's error: exit 2, never 4 --------------------------


def test_planning_a_case_the_generator_cannot_draw_is_the_specs_error() -> None:
    size = _a_standard_size_off_default()
    catalog = Catalog([_with_generator(_fails_at("standard", size))])
    with pytest.raises(CaseDrawError, match=f"cannot draw standard case 3 at size {size}"):
        plan_cases(
            [BASE.name],
            seed=1,
            cases=1,
            case_ids=[f"{BASE.name}-standard-s{size}-003"],
            catalog=catalog,
        )


def test_check_names_the_size_at_which_measure_fails() -> None:
    size = _a_standard_size_off_default()

    def generate(rng: random.Random, tier: Tier, asked: int) -> dict[str, Any]:
        drawn = BASE.generator(rng, tier, asked)
        return {"values": drawn["array"]} if (tier, asked) == ("standard", size) else drawn

    def reference(**given: Any) -> dict[str, Any]:
        return BASE.reference(array=given.get("array", given.get("values")))

    spec = dataclasses.replace(BASE, generator=generate, reference=reference)
    with pytest.raises(VerificationError, match=f"standard size {size}, case 0 .*measure raised"):
        check_every_size(spec)


def test_a_draw_that_fails_in_the_reference_blames_the_reference() -> None:
    # A helper adding a scaffold read "Its generator must honour every size ... narrow the
    # range" for a reference that returned the wrong type.
    from verification.catalog.drawing import draw_case

    def reference(**test_input: Any) -> dict[str, Any]:
        raise TypeError("tuple indices must be integers or slices, not str")

    with pytest.raises(CaseDrawError, match="Its reference raised on the generated input"):
        draw_case(dataclasses.replace(BASE, reference=reference), "simple", 0, seed=1)
    with pytest.raises(CaseDrawError, match="Its generator must honour every size"):
        draw_case(_with_generator(_fails_at("simple", BASE.sizes["simple"])), "simple", 0, seed=1)
