"""A new run draws each case when it is about to be asked (issue 27 item 16): its plan holds
what identifies each case of the package's scaffolds, a run's first request goes before its
last case is drawn, and what it journals is what drawing the whole plan first gave."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from verification.cases import CaseKey, Planned, PlannedCase, TestCase, Tier
from verification.catalog import Catalog, default_catalog
from verification.config import load_settings, resolve_settings
from verification.errors import CaseDrawError
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.dry_run import ReferenceProvider
from verification.llm.prompt_builder import PromptBuilder
from verification.run.plan import plan_cases, plan_run
from verification.runner import VerificationRunner
from verification.store.journal import read_journal
from verification.store.paths import RunPaths


class _Watching(ReferenceProvider):
    """The dry run's provider, counting the planned cases drawn when each request comes."""

    def __init__(self) -> None:
        super().__init__()
        self.planned: list[Planned] = []
        self.drawn_at_request: list[int] = []

    async def prepare(self, cases: Sequence[Planned]) -> None:
        self.planned += cases
        await super().prepare(cases)

    async def generate(self, request: LLMRequest) -> LLMResponse:
        self.drawn_at_request.append(
            sum(not isinstance(c, PlannedCase) or c.is_drawn for c in self.planned)
        )
        return await super().generate(request)


def test_a_runs_first_request_is_sent_before_its_last_case_is_drawn(tmp_path: Path) -> None:
    settings = load_settings(
        provider="reference", results_dir=tmp_path, seed=11, cases=40, concurrency=4
    )
    provider = _Watching()
    result = asyncio.run(VerificationRunner(settings, provider).run(["dijkstra"]))
    assert len(provider.planned) == 40
    assert all(isinstance(case, PlannedCase) for case in provider.planned)
    # the first requests go with at most the cases in flight drawn, not all 40
    assert provider.drawn_at_request[0] <= 4 < 40
    assert len(provider.drawn_at_request) == 40
    assert result.results["dijkstra"].passed == 40
    # what it asked and judged is what drawing the whole plan first gives, in that order
    eager = plan_cases(["dijkstra"], seed=settings.case_seed, cases=40)["dijkstra"]
    journalled = {r.case_id: r for r in read_journal(result.paths.journal)}
    assert sorted(journalled) == sorted(case.id for case in eager)
    for case in eager:
        assert (
            journalled[case.id].input,
            journalled[case.id].expected,
            journalled[case.id].size,
        ) == (
            case.input,
            case.expected,
            case.size,
        )


def test_a_plugins_cases_are_drawn_while_planning_and_the_packages_when_asked(
    tmp_path: Path,
) -> None:
    settings = resolve_settings(
        load_settings(provider="reference", results_dir=tmp_path, seed=3, cases=6)
    )
    packaged = default_catalog()
    # the same spec, declared by a distribution: a plugin's, whose failures the plan keeps
    plugin = Catalog(
        [packaged["kmp"], packaged["bfs"]],
        origins={"kmp": "a-plugin", "bfs": packaged.origins["bfs"]},
    )
    builder = PromptBuilder(settings.scaffolds_dir, catalog=plugin)
    plan = plan_run(settings, ["kmp", "bfs"], catalog=plugin, prompt_builder=builder)
    assert all(isinstance(case, TestCase) for case in plan.cases["kmp"])
    assert all(isinstance(case, PlannedCase) for case in plan.cases["bfs"])
    assert not any(case.is_drawn for case in plan.cases["bfs"] if isinstance(case, PlannedCase))
    # the plan names the same cases in the same order either way
    eager = plan_run(
        settings,
        ["kmp", "bfs"],
        catalog=Catalog([packaged["kmp"], packaged["bfs"]]),
        prompt_builder=builder,
    )
    assert eager.case_ids() == plan.case_ids()
    assert all(isinstance(case, TestCase) for cases in eager.cases.values() for case in cases)


def test_a_planned_case_is_drawn_once_and_is_the_case_its_id_names() -> None:
    draws: list[str] = []
    case = plan_cases(["kmp"], seed=9, cases=3)["kmp"][1]

    def draw() -> TestCase:
        draws.append(case.id)
        return case

    key = (case.scaffold, case.tier, case.index)
    planned = PlannedCase(case.id, CaseKey(*key), case.size or 0, draw, seed=9)
    assert not planned.is_drawn and (planned.tier, planned.index) == (case.tier, case.index)
    assert planned.case is planned.case == case
    assert draws == [case.id]
    assert planned == PlannedCase(case.id, CaseKey(*key), case.size or 0, draw, seed=9)
    assert planned != PlannedCase(case.id, CaseKey(*key), case.size or 0, draw, seed=10)


def test_a_package_case_that_cannot_be_drawn_stops_the_run_with_the_specs_error(
    tmp_path: Path,
) -> None:
    packaged = default_catalog()
    kmp = packaged["kmp"]

    def generator(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
        if tier == "edge":
            raise ValueError("no edge case today")
        return kmp.generator(rng, tier, size)

    broken = dataclasses.replace(kmp, generator=generator)
    catalog = Catalog([broken], origins={"kmp": packaged.origins["kmp"]})
    settings = load_settings(provider="reference", results_dir=tmp_path, seed=2, cases=10)
    runner = VerificationRunner(settings, catalog=catalog)
    with pytest.raises(CaseDrawError, match=r"cannot draw edge case 0 .*no edge case today"):
        asyncio.run(runner.run(["kmp"]))
    (run,) = (tmp_path / "runs").iterdir()
    manifest = RunPaths(tmp_path, run.name).read_manifest()
    assert manifest.interrupted  # --resume goes on from the journal, as after any stop
    # written before the first request, from the plan: every planned id, in the plan's order
    whole = plan_cases(["kmp"], seed=settings.case_seed, cases=10, catalog=packaged)["kmp"]
    assert manifest.scaffolds["kmp"].case_ids == [case.id for case in whole]
