"""A run's manifest: a new run's (what it asks, of whom, with which settings and scaffold
texts), and how it ended."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from verification.catalog.code_format import CODE_FORMAT_VERSION
from verification.catalog.spec import ScaffoldSpec
from verification.certify.envelope import size_plan
from verification.certify.sequential import plan_record
from verification.config import RunConfig
from verification.llm.base import LLMProvider
from verification.llm.prompt_builder import USER_TEMPLATE_VERSION, PromptBuilder
from verification.run.plan import ENVELOPE, LOOKS, RunPlan
from verification.run.resuming import check_resumable
from verification.store.code_version import code_version
from verification.store.manifests import (
    CostBasis,
    EarlyStop,
    EnvelopeRecord,
    RunManifest,
    ScaffoldEntry,
)
from verification.store.pricing import estimate_tokens
from verification.store.records import AttemptRecord

__all__ = ["ended_manifest", "manifest_for", "named_models", "new_manifest"]


def new_manifest(
    run_id: str,
    plan: RunPlan,
    settings: RunConfig,
    provider: LLMProvider,
    prompt_builder: PromptBuilder,
    *,
    model: str,
    specs: Mapping[str, ScaffoldSpec],
    basis: CostBasis,
) -> RunManifest:
    """The manifest of run ``run_id`` before its first request, written from its ``plan``:
    every planned case (a plugin's failures too, answered by its error); a shard's is the
    whole plan's, narrowed to the shard's cases with where they stand in it."""
    case_ids = plan.cut.whole if plan.cut is not None else plan.case_ids()
    manifest = RunManifest(
        run_id=run_id,
        created_at=datetime.now(UTC).isoformat(timespec="microseconds"),
        provider=provider.describe(),
        dry_run=provider.dry_run,
        run_label=provider.label,
        model_requested=None if provider.dry_run else model,
        settings=named_models(settings.public_dump(), asked=not provider.dry_run),
        seed=0 if settings.private_seed else settings.seed,
        seed_private=settings.private_seed,
        seed_sha256=settings.cert_seed_sha256 if settings.private_seed else None,
        level=settings.level,
        sizes=plan.sweep,
        sweep_cases=size_plan(settings.level).cap if plan.sweep else None,
        cases=settings.cases,
        samples=plan.samples,
        tiers=list(plan.tiers),
        case_filter=list(plan.case_filter) or None,
        scaffolds={
            name: ScaffoldEntry(
                file=str(prompt_builder.scaffold_path(spec)),
                sha256=prompt_builder.scaffold_sha256(spec),
                case_ids=case_ids[name],
                tolerances={what: str(bound) for what, bound in spec.tolerances.items()},
                prompt_tokens=estimate_tokens(prompt_builder.get_scaffold_content(spec)),
            )
            for name, spec in ((name, specs[name]) for name in plan.cases)
        },
        template_version=USER_TEMPLATE_VERSION,
        code_version=code_version(),
        cost_basis=None if provider.dry_run else basis,
        early_stops={} if plan.stopping in (LOOKS, ENVELOPE) else None,
        envelope=(
            {name: EnvelopeRecord() for name in plan.cases} if plan.stopping == ENVELOPE else None
        ),
        plan=plan_record(plan.certification) if plan.certification else None,
        thinking_budget=plan.thinking_budget,
        code_format_version=CODE_FORMAT_VERSION if settings.answer == "code" else None,
    )
    return manifest if plan.cut is None else plan.cut.narrow(manifest)


def manifest_for(
    plan: RunPlan,
    run_id: str,
    settings: RunConfig,
    provider: LLMProvider,
    prompt_builder: PromptBuilder,
    *,
    model: str,
    specs: Mapping[str, ScaffoldSpec],
    basis: CostBasis,
) -> RunManifest:
    """The manifest a run of ``plan`` starts with: a resumed run's own, no longer ended, once
    the run may go on with this provider, model and these scaffold texts
    (:func:`~verification.run.resuming.check_resumable`); else a new one."""
    if plan.resumes is None:
        return new_manifest(
            run_id,
            plan,
            settings,
            provider,
            prompt_builder,
            model=model,
            specs=specs,
            basis=basis,
        )
    check_resumable(plan.resumes, provider, model, prompt_builder, settings.thinking_budget)
    return plan.resumes.model_copy(update={"interrupted": False, "finished_at": None})


def named_models(settings: dict[str, Any], *, asked: bool) -> dict[str, Any]:
    """``settings`` as a manifest keeps them: a dry run, which asks no model, names none."""
    if asked:
        return settings
    return settings | {key: None for key in ("model", "model_name", "dev_model", "cert_model")}


def ended_manifest(
    manifest: RunManifest,
    records: Iterable[AttemptRecord],
    *,
    interrupted: bool,
    basis: CostBasis,
    stopped_by_budget: bool,
    early_stops: dict[str, EarlyStop] | None,
) -> RunManifest:
    """``manifest`` once its run ended (finished or ``interrupted``): when, the models that
    answered in ``records`` (its whole journal), the budget in force, where it stopped."""
    return manifest.model_copy(
        update={
            "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "interrupted": interrupted,
            "models_returned": sorted({r.model for r in records if r.model}),
            # A resume's budget is the one in force; a dry run prices no model.
            "cost_basis": None if manifest.dry_run else basis,
            "stopped_by_budget": stopped_by_budget,
            "early_stops": early_stops,
        }
    )
