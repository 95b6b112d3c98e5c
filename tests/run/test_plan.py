"""The plan is a value made before the run (issue 22 item 3): one planner for new, resumed
and sharded runs, the shard cut in it, and the manifest written from it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from verification.catalog import default_catalog
from verification.certify.sequential import fixed_plan, plan_for
from verification.config import RunConfig, load_settings, resolve_settings
from verification.llm.prompt_builder import PromptBuilder
from verification.llm.providers import build_provider
from verification.run.manifest import new_manifest
from verification.run.plan import BATCHES, CONCURRENT, FIXED, LOOKS, RunPlan, plan_run
from verification.run.shards import Shard, plan_sha256
from verification.runner import VerificationRunner
from verification.store.manifests import CostBasis, RunManifest


def _settings(tmp_path: Path, **chosen: Any) -> RunConfig:
    return resolve_settings(
        load_settings(provider="reference", results_dir=tmp_path, seed=5, **chosen)
    )


def _plan(tmp_path: Path, shard: Shard | None = None, **chosen: Any) -> RunPlan:
    settings = _settings(tmp_path, **chosen)
    builder = PromptBuilder(settings.scaffolds_dir, catalog=default_catalog())
    return plan_run(
        settings, ["kmp", "bfs"], catalog=default_catalog(), prompt_builder=builder, shard=shard
    )


def test_a_sharded_plan_holds_only_its_cut_and_its_manifest_is_written_from_it(
    tmp_path: Path,
) -> None:
    whole = _plan(tmp_path, cases=9)
    shards = [_plan(tmp_path, Shard(i, 3), cases=9) for i in (1, 2, 3)]
    asked = [[c.id for cases in s.cases.values() for c in cases] for s in shards]
    every = [c.id for cases in whole.cases.values() for c in cases]
    assert sorted(i for ids in asked for i in ids) == sorted(every)  # disjoint and whole
    assert all(s.cut is not None and s.cut.whole == whole.case_ids() for s in shards)

    settings = _settings(tmp_path, cases=9)
    builder = PromptBuilder(settings.scaffolds_dir, catalog=default_catalog())
    provider = build_provider(settings.provider_config, default_catalog())
    specs = {name: default_catalog().get_spec(name) for name in whole.cases}
    basis = CostBasis(model="m")

    def manifest(plan: RunPlan) -> RunManifest:
        return new_manifest(
            "r",
            plan,
            settings,
            provider,
            builder,
            model="m",
            specs=specs,
            basis=basis,
        )

    unsharded = manifest(whole)
    for plan, ids in zip(shards, asked, strict=True):
        written = manifest(plan)
        assert [i for e in written.scaffolds.values() for i in e.case_ids] == ids
        assert written.shard is not None
        assert written.shard.plan_sha256 == plan_sha256(unsharded)
        assert written.shard.planned == {n: len(e.case_ids) for n, e in unsharded.scaffolds.items()}


def test_the_plan_names_its_stopping_rule_and_transport(tmp_path: Path) -> None:
    looks = _plan(tmp_path)
    assert looks.stopping == LOOKS  # the level's sequential plan looks as it goes
    assert looks.certification == plan_for("standard")
    assert looks.transport == CONCURRENT
    assert len(looks.cases["kmp"]) == plan_for("standard").cap
    kmp = [case.tier for case in looks.cases["kmp"]]
    assert kmp[:3] == ["simple", "standard", "edge"]  # interleaved: every prefix holds all
    # --early-stop is what every level run does now: accepted, the same plan
    assert _plan(tmp_path, early_stop=True) == looks
    # runs that cannot look as they go ask the whole plan, in the same order
    batch = _plan(tmp_path, batch=True, early_stop=True)
    assert (batch.transport, batch.stopping) == (BATCHES, FIXED)
    assert batch.case_ids() == looks.case_ids()
    shard = _plan(tmp_path, Shard(1, 2))
    assert shard.stopping == FIXED
    assert shard.cut is not None and shard.cut.whole == looks.case_ids()
    # --cases N: a fixed plan decided by the point cut, asked at once as before
    fixed = _plan(tmp_path, cases=12)
    assert (fixed.stopping, fixed.certification) == (FIXED, fixed_plan(12))
    assert [case.tier for case in fixed.cases["kmp"]][:2] == ["simple", "simple"]


def test_a_resumed_plan_is_the_runs_own(tmp_path: Path) -> None:
    settings = _settings(tmp_path, cases=6)
    first = asyncio.run(VerificationRunner(settings).run(["kmp"]))
    builder = PromptBuilder(settings.scaffolds_dir, catalog=default_catalog())
    again = plan_run(
        settings.model_copy(update={"seed": 99, "samples": 3}),
        [],
        catalog=default_catalog(),
        prompt_builder=builder,
        resumes=first.manifest,
    )
    assert again.case_ids() == {"kmp": first.manifest.scaffolds["kmp"].case_ids}
    assert again.samples == first.manifest.samples
    assert again.resumes == first.manifest
