"""``summary.json``: a run's certification as data, built from its results.

The format itself, :class:`RunSummary` and its parts, lives with the other files a run
stores (:mod:`verification.store.summary_file`); this module builds it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from verification.certify.calibration import Calibration
from verification.certify.costs import ScaffoldCost, total_cost
from verification.certify.envelope import size_plan_of
from verification.certify.operating import oc_sentence
from verification.certify.paired import ALPHA
from verification.certify.results import ScaffoldResults
from verification.certify.sequential import CertificationPlan, plan_from_record
from verification.certify.uncertified import uncertified_reason
from verification.reports.base import ReportContext, RunComparison
from verification.reports.envelope_search import search_results, with_searches
from verification.reports.lift import lift_summaries
from verification.reports.programs import program_records, with_programs
from verification.store.manifests import RunManifest
from verification.store.summary_file import (
    CalibrationSummary,
    CostFigures,
    MissSummary,
    PlanSummary,
    RateDrop,
    RegressionGate,
    RunSummary,
    ScaffoldSummary,
    SizeSummary,
    StatusChange,
    TierCount,
)

__all__ = ["build_summary", "summary_of", "summary_with_changes"]


def _cost_figures(cost: ScaffoldCost) -> CostFigures:
    """The figures of a folded cost."""
    return CostFigures(
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
        batch_answers=cost.batch_answers,
        worst_case_calls=cost.worst_case_calls,
        prompt_cache=cost.prompt_cache.state,
        prompt_cache_detail=cost.prompt_cache.detail,
    )


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
        model_runs=manifest.model_runs,
        thinking_budget=manifest.thinking_budget,
        seed=manifest.seed,
        seed_private=manifest.seed_private,
        seed_sha256=manifest.seed_sha256,
        level=manifest.level,
        certifies=_certifies(manifest),
        validator_misses=[r.scaffold for r in results if r.calibration and r.calibration.misses],
        scaffolds={
            r.scaffold: ScaffoldSummary(
                status=r.shown_status,
                rate_status=r.status,
                uncertified=r.uncertified,
                run_label=manifest.run_label,
                pass_rate=r.pass_rate,
                passed=r.passed,
                n=r.n,
                planned=r.planned,
                interval_95=r.interval,
                borderline=r.borderline,
                pass_rate_after_repair=r.repaired_pass_rate,
                per_tier={t: TierCount(score=x, n=n) for t, (x, n) in r.per_tier.items()},
                failures_by_level={str(k): v for k, v in r.failures_by_level.items()},
                truncated=r.truncated,
                refused=r.refused,
                from_cache=r.from_cache,
                infra_errors=r.infra_errors,
                worst_case_pass_rate=r.worst_case_rate,
                effective_answers=r.effective_answers,
                intra_case_correlation=r.intra_case_correlation,
                missing=r.missing,
                usage=r.usage,
                cost=_cost_figures(costs[r.scaffold]) if r.scaffold in costs else None,
                score=r.score,
                answers=r.answers,
                consistent=r.consistent,
                incomplete_reason=r.incomplete_reason,
                per_size={str(k): TierCount(score=x, n=n) for k, (x, n) in r.per_size.items()},
                size_unit=r.size_unit,
                sweep=[
                    SizeSummary(
                        size=p.size,
                        score=p.score,
                        n=p.n,
                        pass_rate=p.pass_rate,
                        interval_95=p.interval,
                        status=p.status,
                        truncated=p.truncated,
                        budget_limited=p.budget_limited,
                        answers=p.answers,
                        wrong=p.wrong,
                        borderline=p.borderline,
                        lost=p.lost,
                        worst_case_rate=p.worst_case_rate,
                        decided_look=p.decision.look if p.decision else None,
                        decided_early=bool(p.decision and p.decision.early),
                        short_oc=oc_sentence(p.plan, samples=manifest.samples, short=p.short_plan)
                        if p.plan is not None and p.short_plan is not None
                        else None,
                    )
                    for p in r.size_points
                ],
                certified_up_to=r.certified_up_to,
                fails_from=r.fails_from,
                holds_across_range=r.holds_across_range,
                budget_limited_sizes=r.budget_limited_sizes,
                envelope=r.envelope,
                size_oc=oc_sentence(plan, samples=manifest.samples)
                if (plan := size_plan_of(r.size_points)) is not None
                else None,
                calibration=_calibration(r.calibration),
                stopped_early_at=stop.cases
                if (stop := (manifest.early_stops or {}).get(r.scaffold))
                else None,
                copies=r.copies,
                repeated_inputs=r.repeated_inputs,
                plan=_plan_summary(r.plan, manifest.samples, r),
            )
            for r in results
        },
        cost=_cost_figures(total_cost(costs, manifest.cost_basis)) if costs else None,
        stopped_by_budget=manifest.stopped_by_budget,
        plan=_plan_summary(
            plan_from_record(manifest.plan) if manifest.plan else None, manifest.samples
        ),
    )


def _plan_summary(
    plan: CertificationPlan | None, samples: int, results: ScaffoldResults | None = None
) -> PlanSummary | None:
    """``plan`` as the summary states it, with where it decided ``results``."""
    if plan is None:
        return None
    decision = results.decision if results is not None else None
    return PlanSummary(
        name=plan.name,
        looks=list(plan.looks),
        cap=plan.cap,
        oc=oc_sentence(
            plan,
            samples=samples,
            short=results.short_plan if results is not None else None,
            copies=results.input_copies if results is not None else (),
        ),
        decided_at=decision.n if decision else (results.n if results is not None else None),
        look=decision.look if decision else None,
    )


def _certifies(manifest: RunManifest) -> bool:
    return not manifest.dry_run and uncertified_reason(manifest) is None


def _calibration(calibration: Calibration | None) -> CalibrationSummary | None:
    if calibration is None:
        return None
    return CalibrationSummary(
        mutants_rejected=calibration.mutants_rejected,
        mutants=calibration.mutants,
        alternatives_accepted=calibration.alternatives_accepted,
        alternatives=calibration.alternatives,
        misses=calibration.misses,
        first_misses=[
            MissSummary(case_id=m.case_id, kind=m.kind, answer=m.answer)
            for m in calibration.first_misses
        ],
    )


def summary_with_changes(
    manifest: RunManifest,
    results: Sequence[ScaffoldResults],
    comparison: RunComparison | None,
    costs: Mapping[str, ScaffoldCost] | None = None,
) -> RunSummary:
    """The run's summary with what changed since the previous comparable run (what
    ``summary.json`` holds and the HTML page shows)."""
    summary = build_summary(manifest, results, costs)
    if comparison is not None:
        summary.previous_run_id = comparison.previous_run_id
        summary.status_changes = [
            StatusChange(scaffold=c.scaffold, before=c.before, now=c.now, direction=c.direction)
            for c in comparison.status_changes
        ]
        summary.rate_drops = [
            RateDrop(
                scaffold=row.scaffold,
                shared=row.comparison.shared,
                only_before=row.comparison.only_a,
                only_now=row.comparison.only_b,
                p_value=row.tested.p_drop,
                p_holm=1.0 if row.p_gate is None else row.p_gate,
                significant=row.significant,
                verdict=row.gate_verdict(),
                rate_before=row.comparison.rate_a,
                rate_now=row.comparison.rate_b,
                difference_interval_95=row.comparison.interval,
                power_drop_010=row.power,
                against_drop=(None if row.gated is None else (row.gated.only_a, row.gated.only_b)),
            )
            for row in comparison.rate_drops
        ]
        summary.regressions = comparison.regressions
        summary.regression_gate = RegressionGate(
            alpha=ALPHA,
            compared=len(comparison.paired),
            family=[row.scaffold for row in comparison.paired if row.p_gate is not None],
            power_drop_010={row.scaffold: row.power for row in comparison.paired},
            shared={row.scaffold: row.comparison.shared for row in comparison.paired},
            baselines={row.scaffold: row.baseline for row in comparison.paired if row.baseline},
            edited=comparison.edited,
            withheld={
                row.scaffold: row.withheld
                for row in comparison.paired
                if row.withheld and not row.significant  # a drop the gate fires on is one
            },
        )
    return summary


def summary_of(context: ReportContext) -> RunSummary:
    """The summary of the run a reporter writes (:func:`summary_with_changes`), folded once
    per context: every reporter reads the same one, none changes it."""
    shared = context.shared.get("summary")
    if isinstance(shared, RunSummary):
        return shared
    summary = summary_with_changes(
        context.manifest, list(context.results.values()), context.comparison, context.costs
    )
    if context.lift is not None:
        summary.lift = lift_summaries(context.lift)
    searches = search_results(context.manifest, context.results, context.records)
    summary = with_programs(with_searches(summary, searches), program_records(context))
    context.shared["summary"] = summary
    return summary
