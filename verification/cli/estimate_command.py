"""``verify --estimate``: the plan and its price, printed, no run made.

It refuses what the run would refuse, in the run's words (code mode's options, ``--batch``
with a provider that has no Message Batches), and what only a run can take (``--resume``,
``--shard``, the outputs of a finished run).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from verification.errors import ConfigurationError

if TYPE_CHECKING:
    from verification.cases import Tier
    from verification.config import RunConfig
    from verification.llm.prompt_builder import PromptBuilder

__all__ = ["print_estimate"]


def print_estimate(
    settings: RunConfig,
    scaffolds: Sequence[str],
    *,
    tiers: Sequence[Tier],
    case_ids: Sequence[str],
    size: int | None,
    overrides: Mapping[str, Path],
    baseline: str | None,
    several: bool,
    refused: Mapping[str, bool],
    outputs: str,
    reruns: str | None = None,
) -> int:
    """Print the estimate of ``verify`` over ``scaffolds`` (each model's, each arm's of a
    ``baseline`` pair, the plan's cases and any sweep), or refuse: ``refused`` says which of
    ``--resume`` and ``--shard`` were given, ``outputs`` names the outputs of a run that
    were (empty: none); ``reruns`` the run whose failures are asked again (a bare arm's are
    asked bare, and priced so). Returns the exit code."""
    from verification.certify.sequential import fixed_plan
    from verification.llm.prompt_builder import PromptBuilder
    from verification.run.estimate import (
        UNPAID_PROVIDERS,
        estimate_run,
        format_estimate,
        pair_total,
        plan_cases_line,
        sweep_estimate,
    )
    from verification.run.plan import check_code_options

    if refused.get("--resume"):
        raise ConfigurationError("--estimate plans a new run: leave out --resume")
    if outputs:
        raise ConfigurationError(f"--estimate prints a plan and makes no run: leave out {outputs}")
    if refused.get("--shard"):
        raise ConfigurationError("--estimate prices the whole plan: leave out --shard")
    # What the run refuses, the estimate refuses too, in the run's words (it priced code
    # mode's programs twice over, and batches no provider but Anthropic's has: hunt ii).
    check_code_options(settings, {"--case": bool(case_ids), "--size": size is not None})
    if settings.batch and settings.provider != "anthropic":
        from verification.llm.batches import no_batches

        raise no_batches(settings.provider)
    arms: list[tuple[str | None, PromptBuilder]] = [
        (None, PromptBuilder(settings.scaffolds_dir, overrides=overrides))
    ]
    if reruns is not None and baseline is None:  # as the runner asks them (rerun_arm)
        from verification.run.resuming import rerun_arm
        from verification.store.paths import RunPaths

        rerun = RunPaths(settings.results_dir, reruns).read_manifest()
        arms = [(None, rerun_arm(rerun, arms[0][1])[0])]
    if baseline is not None:  # a pair makes two runs: each arm priced, then both
        from verification.compose.baseline import arm_builders

        arms = list(
            arm_builders(
                settings.scaffolds_dir, "none" if baseline == "none" else "current", overrides
            )
        )
    unpaid = settings.provider in UNPAID_PROVIDERS
    for model in settings.model_names:
        # With no model named, an openai server's own is asked: the estimate says it cannot
        # price that, rather than price the default Anthropic model.
        server_s = settings.provider == "openai" and not settings.model
        priced = settings if server_s else settings.for_model(model)
        if several:  # asked all at once: a thorough run sweeps its fixed sizes
            priced = priced.model_copy(update={"envelope": False})
        costs: list[float | None] = []
        for arm, builder in arms:
            estimates, model = estimate_run(
                priced,
                scaffolds,
                tiers=tiers,
                case_ids=case_ids,
                size=size,
                prompt_builder=builder,
            )
            if arm is not None:
                print(f"--baseline arm {arm}:")
            print(
                format_estimate(
                    estimates,
                    model,
                    batch=settings.batch,
                    unpaid=settings.provider if unpaid else None,
                    repairs=settings.repair_attempts > 1,
                )
            )
            costs += [e.usd for e in estimates]
        if baseline is not None and not unpaid:
            print(pair_total(costs, model))
    plan = fixed_plan(len(case_ids)) if case_ids else settings.certification_plan
    # Code mode's plan counts programs (each runs the whole suite), trace mode's cases.
    programs = settings.answer == "code"
    print(plan_cases_line(plan, samples=settings.samples, programs=programs))
    swept = sweep_estimate(settings, scaffolds, narrowed=bool(case_ids) or size is not None)
    if swept:
        print(swept)
    return 0
