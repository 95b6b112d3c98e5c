"""Sizes a stopping rule adds to its run as it goes (the envelope search,
:mod:`verification.run.envelope_climb`): each size's sweep cases drawn from the run's seed,
priced at their worst before any is asked, and recorded in the manifest before the first
is, so an interrupted run resumes with them and a report folds them as a sweep's.

A run whose rule adds nothing keeps the manifest it started with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from verification.cases import TestCase, case_id
from verification.catalog import Catalog
from verification.catalog.drawing import draw_case
from verification.catalog.spec import ScaffoldSpec
from verification.certify.envelope import CASES_PER_SIZE, sweep_plan
from verification.errors import PluginError
from verification.run.attempts import Attempts, Job
from verification.store.manifests import EnvelopeRecord, RunManifest
from verification.store.paths import RunPaths

__all__ = ["SizeGrowth"]


class SizeGrowth:
    """The run's manifest as sizes are added to it, and the means to add them."""

    def __init__(
        self,
        manifest: RunManifest,
        paths: RunPaths,
        specs: Mapping[str, ScaffoldSpec],
        attempts: Attempts,
        *,
        catalog: Catalog,
        seed: int | None,
        planned: Callable[[int], None] | None = None,
        total: int = 0,
    ) -> None:
        self.manifest = manifest
        """The run's manifest, with every size added so far."""
        self.paths = paths
        self.specs = specs
        self.attempts = attempts
        self.catalog = catalog
        self.seed = seed
        self.planned = planned
        """Told the run's new total of first answers to ask when a size adds some (a
        progress bar's total)."""
        self.total = total

    @property
    def per_size(self) -> int:
        """Cases planned at each size (the size plan's cap)."""
        return self.manifest.sweep_cases or CASES_PER_SIZE

    def draw(self, scaffold: str, size: int) -> tuple[list[Job], dict[str, PluginError]]:
        """``scaffold``'s sweep cases at ``size`` as jobs (every sample), and the ids a
        plugin could not draw with its error; nothing is recorded."""
        if self.seed is None:
            raise ValueError("this run's plan names no seed to draw more sizes from")
        spec = self.specs[scaffold]
        cases: list[TestCase] = []
        failed: dict[str, PluginError] = {}
        for tier, index, at in sweep_plan(spec, [size], per_size=self.per_size):
            try:
                cases.append(draw_case(spec, tier, index, seed=self.seed, size=at))
            except PluginError as exc:
                named = None if at == spec.sizes[tier] else at
                failed[case_id(spec.name, tier, index, named)] = exc
        jobs = [
            Job(spec, case, spec.validator, epoch)
            for case in cases
            for epoch in range(self.manifest.samples)
        ]
        return jobs, failed

    def worst_case(self, jobs: list[Job]) -> float | None:
        """What ``jobs`` could cost at most (``None``: the run has no budget)."""
        if self.attempts.budget is None:
            return None
        return sum(self.attempts.worst_case(job) for job in jobs)

    def committed(self) -> float:
        """What the run has spent and holds for the cases under way against its budget
        (0 without one)."""
        budget = self.attempts.budget
        return 0.0 if budget is None else budget.spent + budget.reserved

    def over_budget(self, worst: float | None) -> bool:
        """Whether spending ``worst`` more would take the run past its budget."""
        budget = self.attempts.budget
        if budget is None or worst is None:
            return False
        return bool(budget.refused) or budget.spent + budget.reserved + worst > budget.limit

    async def add(
        self, scaffold: str, size: int, jobs: list[Job], failed: Mapping[str, PluginError]
    ) -> None:
        """Record ``size`` and its cases (``jobs``, ``failed``) in the manifest, written at
        once, and tell the provider of them (a dry run derives its answers from them); each
        failed case is journalled as its plugin's failure."""
        await self.attempts.provider.prepare([job.case for job in jobs if job.epoch == 0])
        entry = self.manifest.scaffolds[scaffold]
        known = set(entry.case_ids)
        new = [j.case.id for j in jobs if j.epoch == 0 and j.case.id not in known]
        new += [i for i in failed if i not in known]
        sizes = dict(self.manifest.sizes or {})
        sizes[scaffold] = sorted({*sizes.get(scaffold, []), size})
        self.manifest = self.manifest.model_copy(
            update={
                "sizes": sizes,
                "scaffolds": {
                    **self.manifest.scaffolds,
                    scaffold: entry.model_copy(update={"case_ids": [*entry.case_ids, *new]}),
                },
            }
        )
        self.paths.write_manifest(self.manifest)
        self.total += sum(job.sample not in self.attempts.answered for job in jobs)
        if self.planned is not None:
            self.planned(self.total)
        for identifier, error in failed.items():
            for epoch in range(self.manifest.samples):
                if (identifier, epoch) not in self.attempts.answered:
                    self.attempts.keep_plugin_failure(identifier, error, epoch=epoch)

    def record(self, scaffold: str, record: EnvelopeRecord) -> None:
        """Keep ``scaffold``'s search so far in the manifest, written at once."""
        envelope = {**(self.manifest.envelope or {}), scaffold: record}
        self.manifest = self.manifest.model_copy(update={"envelope": envelope})
        self.paths.write_manifest(self.manifest)
