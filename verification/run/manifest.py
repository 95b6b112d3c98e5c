"""A run's manifest: a new run's (what it asks, of whom, with which settings and scaffold
texts), and how it ended."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from verification.cases import TestCase, Tier
from verification.catalog.spec import ScaffoldSpec
from verification.config import RunConfig
from verification.errors import PluginError
from verification.llm.base import LLMProvider
from verification.llm.prompt_builder import USER_TEMPLATE_VERSION, PromptBuilder
from verification.store.code_version import code_version
from verification.store.manifests import CostBasis, EarlyStop, RunManifest, ScaffoldEntry
from verification.store.pricing import estimate_tokens
from verification.store.records import AttemptRecord

__all__ = ["ended_manifest", "named_models", "new_manifest"]


def new_manifest(
    run_id: str,
    settings: RunConfig,
    provider: LLMProvider,
    prompt_builder: PromptBuilder,
    *,
    model: str,
    specs: dict[str, ScaffoldSpec],
    planned: dict[str, list[TestCase]],
    failures: dict[str, PluginError],
    sweep: dict[str, list[int]] | None,
    tiers: Sequence[Tier],
    case_ids: Sequence[str],
    basis: CostBasis,
    thinking_budget: int | None,
) -> RunManifest:
    """The manifest of run ``run_id``, before its first request: ``planned`` are the cases
    drawn, ``failures`` those a plugin could not draw (planned too, answered by its error)."""
    return RunManifest(
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
        sizes=sweep,
        cases=settings.cases,
        samples=settings.samples,
        tiers=list(tiers),
        case_filter=list(case_ids) or None,
        scaffolds={
            name: ScaffoldEntry(
                file=str(prompt_builder.scaffold_path(specs[name])),
                sha256=prompt_builder.scaffold_sha256(specs[name]),
                case_ids=[case.id for case in cases]
                + [i for i, error in failures.items() if error.scaffold == name],
                tolerances={what: str(bound) for what, bound in specs[name].tolerances.items()},
                prompt_tokens=estimate_tokens(prompt_builder.get_scaffold_content(specs[name])),
            )
            for name, cases in planned.items()
        },
        template_version=USER_TEMPLATE_VERSION,
        code_version=code_version(),
        cost_basis=None if provider.dry_run else basis,
        early_stops={} if settings.early_stop else None,
        thinking_budget=thinking_budget,
    )


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
