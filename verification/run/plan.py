"""Which cases a run asks: a new run's, drawn from the settings, or a resumed run's, exactly
those its manifest planned."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from verification.cases import TestCase, Tier
from verification.catalog import Catalog
from verification.config import RunConfig
from verification.errors import PluginError
from verification.llm.prompt_builder import PromptBuilder
from verification.run.early_stop import check_early_stop, interleaved
from verification.run.planned_cases import level_tiers, plan_cases, planned_sweep, resumed_seed
from verification.run.resuming import adopt_stored_scaffolds
from verification.run.shards import Shard
from verification.store.manifests import RunManifest

__all__ = ["RunPlan", "plan_new", "plan_resumed"]


@dataclass(frozen=True)
class RunPlan:
    """A run's cases, by scaffold, and how they were chosen (what a new run's manifest says)."""

    cases: dict[str, list[TestCase]]
    failures: dict[str, PluginError] = field(default_factory=dict)
    """The cases a plugin could not draw, by id: planned too, each answered by its error."""
    tiers: Sequence[Tier] = ()
    case_ids: Sequence[str] = ()
    sweep: dict[str, list[int]] | None = None


def plan_resumed(
    previous: RunManifest,
    settings: RunConfig,
    prompt_builder: PromptBuilder,
    *,
    catalog: Catalog,
) -> RunPlan:
    """The cases ``previous`` planned, drawn again from its seed; ``prompt_builder`` reads
    each scaffold from the file the run read, where that still holds the text it hashed."""
    failures: dict[str, PluginError] = {}
    adopt_stored_scaffolds(previous, prompt_builder)
    case_ids = [i for info in previous.scaffolds.values() for i in info.case_ids]
    planned = plan_cases(
        list(previous.scaffolds),
        seed=resumed_seed(previous, settings),
        cases=1,
        case_ids=case_ids,
        catalog=catalog,
        plugin_failures=failures,
    )
    return RunPlan(planned, failures, case_ids=case_ids)


def plan_new(
    settings: RunConfig,
    scaffold_names: Sequence[str],
    *,
    catalog: Catalog,
    tiers: Sequence[Tier],
    case_ids: Sequence[str],
    size: int | None,
    shard: Shard | None,
) -> RunPlan:
    """A new run's cases: the level's tiers and count, the size sweep, ``case_ids`` or
    ``size`` when given; with early stopping, each scaffold's cases interleaved."""
    failures: dict[str, PluginError] = {}
    tiers = level_tiers(settings.level, tiers)
    sweep = planned_sweep(
        settings,
        scaffold_names,
        catalog=catalog,
        narrowed=bool(case_ids) or size is not None,
    )
    planned = plan_cases(
        scaffold_names,
        seed=settings.case_seed,
        cases=settings.cases,
        tiers=tiers,
        case_ids=case_ids,
        size=size,
        sweep=sweep,
        catalog=catalog,
        plugin_failures=failures,
    )
    if settings.early_stop:  # every prefix of a scaffold's cases holds all its groups
        check_early_stop(sweep=sweep is not None, shard=shard is not None)
        planned = {name: interleaved(cases) for name, cases in planned.items()}
    return RunPlan(planned, failures, tiers, case_ids, sweep)
