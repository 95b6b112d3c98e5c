"""Several models in one invocation (``verify --model A --model B``): every model is asked
the same cases, each in a run of its own.

Each model's run is an ordinary run (own id, manifest, journal, reports): results, resume,
reports, history and the response cache already fold by the model a run asks, and each
(model, scaffold) pair is certified on its own. The runs go at once, each with its own
case scheduler, so the adaptive concurrency limiter is per model. The settings are the same
but for the model, so every run plans the same cases. Once all have finished, each manifest
names every model and its run (``model_runs``), and each run's summary shows the model x
scaffold table (:mod:`verification.reports.models`), folded from the runs' journals.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from verification.cases import Tier
from verification.config import RunConfig
from verification.errors import ConfigurationError
from verification.run.plan import FIXED
from verification.runner import RunResult, VerificationRunner
from verification.store.records import AttemptRecord
from verification.store.thinking import check_thinking

__all__ = ["ModelRuns", "check_several_models", "model_file", "model_files"]


def model_file(path: Path, model: str) -> Path:
    """``path`` for one model's run of several (``junit.xml`` -> ``junit.claude-x.xml``):
    the model id with anything but letters, digits, ``.``, ``_`` and ``-`` made ``_``."""
    slug = re.sub(r"[^A-Za-z0-9._-]", "_", model)[:100].strip(".") or "model"
    return path.with_name(f"{path.stem}.{slug}{path.suffix}")


def model_files(path: Path, models: Sequence[str]) -> list[Path]:
    """:func:`model_file` of each of ``models``, each its own: ids that write the same
    name (``org/m`` and ``org:m``; or alike but for case, one file on some disks) get their
    place among ``models`` after it (``out.org_m.2.json``), so no run's file overwrites
    another's."""
    files: list[Path] = []
    taken: set[str] = set()
    for place, model in enumerate(models, 1):
        file = model_file(path, model)
        while file.name.lower() in taken:
            file = file.with_name(f"{file.stem}.{place}{file.suffix}")
        taken.add(file.name.lower())
        files.append(file)
    return files


def check_several_models(
    settings: RunConfig,
    *,
    resume: bool = False,
    baseline: bool = False,
    shard: bool = False,
) -> None:
    """Refuse, naming the fix, what several models in one invocation cannot do."""
    if len(settings.model_names) < 2:
        return
    refused = [
        (resume, "--resume (each model's run resumes by its own id, with its one --model)"),
        (baseline, "--baseline (a paired comparison of scaffolds asks one model)"),
        (shard, "--shard (shard each model's run apart, one --model each)"),
        (
            settings.max_cost is not None,
            "--max-cost (a budget holds for one run: give each model its own run)",
        ),
        (
            settings.envelope is True,
            "--envelope (each model's search takes its own course: one --model each)",
        ),
    ]
    for given, what in refused:
        if given:
            raise ConfigurationError(f"several models are asked in runs of their own: {what}")
    for model in settings.model_names:
        # Every model before any run starts: one refused once the others are asking would
        # stop runs already paid for. (The provider is checked by each run, alike for all.)
        check_thinking(
            settings.thinking_budget,
            model=model,
            provider=settings.provider,
            dry_run=True,
            temperature=settings.temperature,
        )


class ModelRuns:
    """One run per model of ``settings``, asked at once."""

    def __init__(
        self,
        settings: RunConfig,
        *,
        scaffold_overrides: Mapping[str, Path] | None = None,
        progress: Callable[[AttemptRecord], None] | None = None,
        planned: Callable[[int], None] | None = None,
        reruns: str | None = None,
        keyword: str | None = None,
    ) -> None:
        self.models = settings.model_names
        totals: dict[str, int] = {}

        def planned_for(model: str) -> Callable[[int], None]:
            def tell(count: int) -> None:
                totals[model] = count
                if planned is not None:
                    planned(sum(totals.values()))

            return tell

        self.runners = {
            model: VerificationRunner(
                settings.for_model(model),
                scaffold_overrides=dict(scaffold_overrides or {}),
                progress=progress,
                planned=planned_for(model),
                stopping=FIXED,  # every model answers every case: their runs pair
                reruns=reruns,
                keyword=keyword,
            )
            for model in self.models
        }
        """Each model's runner (its ``run_id`` is set once its run directory exists)."""

    async def run(
        self,
        scaffold_names: Sequence[str],
        *,
        tiers: Sequence[Tier],
        case_ids: Sequence[str] = (),
        size: int | None = None,
    ) -> list[RunResult]:
        """Every model's run, in the order the models were given, each manifest naming all
        of them (``model_runs``). A run that fails stops the others (each is left
        resumable)."""
        runs = await asyncio.gather(
            *(
                runner.run(scaffold_names, tiers=tiers, case_ids=case_ids, size=size)
                for runner in self.runners.values()
            )
        )
        model_runs = {model: run.run_id for model, run in zip(self.models, runs, strict=True)}
        linked = []
        for run in runs:
            manifest = run.manifest.model_copy(update={"model_runs": model_runs})
            run.paths.write_manifest(manifest)
            linked.append(dataclasses.replace(run, manifest=manifest))
        return linked
