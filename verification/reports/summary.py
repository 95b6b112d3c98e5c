"""``summary.json``: a run's certification as data, with a schema of its own.

:class:`RunSummary` is what the summary reporter writes and what any reader (history,
compare, an HTML view) reads back. ``schema_version`` says the shape
(:data:`SUMMARY_SCHEMA`); a field added later is optional with a default, so a summary
written by an older harness still loads, and a field this version does not know (written by
a newer one) is ignored rather than refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from verification.costs import ScaffoldCost, total_cost
from verification.journal import RunManifest
from verification.results import ScaffoldResults

__all__ = [
    "MAX_SUMMARY_BYTES",
    "SUMMARY_SCHEMA",
    "CostFigures",
    "RunSummary",
    "ScaffoldSummary",
    "StatusChange",
    "TierCount",
    "build_summary",
]

SUMMARY_SCHEMA = 2
"""Version 1 was the untyped dictionary before this model (no ``schema_version`` key)."""
MAX_SUMMARY_BYTES = 16 * 1024 * 1024
"""A summary file larger than this is not one the harness wrote: readers refuse it."""


class _Tolerant(BaseModel):
    # A newer harness's extra fields are ignored, not refused: old readers keep working.
    model_config = ConfigDict(extra="ignore", protected_namespaces=())


class TierCount(_Tolerant):
    """One tier's first-attempt figures."""

    passed: int
    n: int


class StatusChange(_Tolerant):
    """A scaffold whose status differs from the previous run's."""

    scaffold: str
    before: str
    now: str


class CostFigures(_Tolerant):
    """What a scaffold or a run cost (USD; ``None`` where the model has no known price)."""

    usd: float | None = None
    usd_per_case: float | None = None
    most_expensive_case: str | None = None
    input_tokens: int = 0
    """Input billed at the full price (neither written to nor read from the prompt cache)."""
    output_tokens: int = 0
    """Output, thinking included."""
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    live_calls: int = 0
    cached_answers: int = 0
    """Answers the response cache gave (no call, no cost)."""
    prompt_cache_savings_usd: float | None = None
    response_cache_savings_usd: float | None = None
    batch_savings_usd: float | None = None
    prompt_cache: str | None = None
    """``worked``, ``written-not-read``, ``below-minimum``, ``no-activity``, ``off``, or
    ``None`` (no live call, or scaffolds that differ)."""
    prompt_cache_detail: str = ""

    @classmethod
    def of(cls, cost: ScaffoldCost) -> CostFigures:
        """The figures of a folded cost."""
        return cls(
            usd=cost.usd,
            usd_per_case=cost.usd_per_case,
            most_expensive_case=cost.most_expensive_case[0] if cost.most_expensive_case else None,
            input_tokens=cost.tokens.input,
            output_tokens=cost.tokens.output,
            cache_write_tokens=cost.tokens.cache_write,
            cache_read_tokens=cost.tokens.cache_read,
            live_calls=cost.live_calls,
            cached_answers=cost.cached_answers,
            prompt_cache_savings_usd=cost.prompt_cache_savings_usd,
            response_cache_savings_usd=cost.response_cache_savings_usd,
            batch_savings_usd=cost.batch_savings_usd,
            prompt_cache=cost.prompt_cache.state,
            prompt_cache_detail=cost.prompt_cache.detail,
        )


class ScaffoldSummary(_Tolerant):
    """One scaffold's certification in a run."""

    status: str
    run_label: str | None = None
    pass_rate: float
    passed: int
    n: int
    planned: int
    interval_95: tuple[float, float]
    borderline: bool
    pass_rate_after_repair: float
    per_tier: dict[str, TierCount] = {}
    failures_by_level: dict[str, int] = {}
    truncated: int = 0
    refused: int = 0
    from_cache: int = 0
    infra_errors: int = 0
    missing: int = 0
    usage: dict[str, int] = {}
    cost: CostFigures | None = None


class RunSummary(_Tolerant):
    """The whole ``summary.json``."""

    schema_version: int = SUMMARY_SCHEMA
    run_id: str
    dry_run: bool
    run_label: str | None = None
    provider: str | None = None
    model_requested: str | None = None
    """``None`` in a dry run: no model was asked."""
    models_returned: list[str] = []
    seed: int
    scaffolds: dict[str, ScaffoldSummary] = Field(default_factory=dict)
    previous_run_id: str | None = None
    status_changes: list[StatusChange] | None = None
    cost: CostFigures | None = None
    """The run's cost, with the savings of each cache apart."""
    stopped_by_budget: bool = False
    """The run stopped at its ``--max-cost`` budget with cases left to ask."""

    @classmethod
    def from_json(cls, text: str | bytes) -> RunSummary:
        """Read a ``summary.json`` (``json`` first, as the journal does: text may hold
        escapes pydantic's own parser refuses). Raises ``ValueError`` (pydantic's
        ``ValidationError`` among them) for anything that is not a summary."""
        if len(text) > MAX_SUMMARY_BYTES:
            raise ValueError(f"larger than {MAX_SUMMARY_BYTES} bytes: not a summary")
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return cls.model_validate(data)


def build_summary(
    manifest: RunManifest,
    results: Sequence[ScaffoldResults],
    costs: Mapping[str, ScaffoldCost] | None = None,
) -> RunSummary:
    """The run's summary, from its manifest, each scaffold's results and costs."""
    costs = costs or {}
    return RunSummary(
        run_id=manifest.run_id,
        dry_run=manifest.dry_run,
        run_label=manifest.run_label,
        provider=manifest.provider.get("provider"),
        model_requested=None if manifest.dry_run else manifest.model_requested,
        models_returned=manifest.models_returned,
        seed=manifest.seed,
        scaffolds={
            r.scaffold: ScaffoldSummary(
                status=r.status,
                run_label=manifest.run_label,
                pass_rate=r.pass_rate,
                passed=r.passed,
                n=r.n,
                planned=r.planned,
                interval_95=r.interval,
                borderline=r.borderline,
                pass_rate_after_repair=r.repaired_pass_rate,
                per_tier={t: TierCount(passed=p, n=n) for t, (p, n) in r.per_tier.items()},
                failures_by_level={str(k): v for k, v in r.failures_by_level.items()},
                truncated=r.truncated,
                refused=r.refused,
                from_cache=r.from_cache,
                infra_errors=r.infra_errors,
                missing=r.missing,
                usage=r.usage,
                cost=CostFigures.of(costs[r.scaffold]) if r.scaffold in costs else None,
            )
            for r in results
        },
        cost=CostFigures.of(total_cost(costs, manifest.cost_basis)) if costs else None,
        stopped_by_budget=manifest.stopped_by_budget,
    )
