"""The ``envelope`` stopping rule (``verify --envelope``; a thorough run's automatic
envelope): the run's level cases as the ``looks`` rule asks them, and beside them the
envelope search (:class:`~verification.certify.envelope_search.EnvelopeSearch`), one size
at a time per scaffold.

Each stage asks, for every scaffold still searching, the next size the search names: its
sweep cases are drawn, priced at their worst and added to the run
(:class:`~verification.run.growth.SizeGrowth`), then asked look by look of the size's plan
(:class:`~verification.run.looks.PlannedLooks`, the same rule a fixed sweep's sizes follow)
until it decides; the first stage asks the level's cases too. A size's decision is the
point a report folds for it, so the search and the report cannot disagree. The search ends
for a scaffold when it has found the boundary (or the range's end), when the next size's
worst case would take the run past ``--max-cost`` (it stops, and says so), or when a size
is left INCOMPLETE (errors: no verdict to climb or narrow on). The sizes tried, in order,
and why a search stopped are in the manifest (``envelope``), so a resumed run walks the same
course: a size decided before is decided again from the journal and asked nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from verification.cases import Planned
from verification.certify.envelope import CaseSplit, run_split
from verification.certify.envelope_search import EnvelopeSearch, search_for
from verification.run.attempts import Job
from verification.run.growth import SizeGrowth
from verification.run.looks import PlannedLooks, size_point
from verification.run.stopping import Send
from verification.store.manifests import EarlyStop, EnvelopeRecord, RunManifest
from verification.store.records import AttemptRecord

__all__ = ["EnvelopeClimb"]


class EnvelopeClimb:
    """Asks the level's cases, and each scaffold's envelope search size by size."""

    def __init__(
        self,
        planned: Mapping[str, Sequence[Planned]],
        manifest: RunManifest,
        journal: Callable[[], list[AttemptRecord]],
        growth: SizeGrowth,
    ) -> None:
        self.planned = planned
        self.journal = journal
        self.growth = growth
        self._stops: dict[str, EarlyStop] = dict(manifest.early_stops or {})
        self.searches: dict[str, EnvelopeSearch] = {
            name: search_for(growth.specs[name]) for name in planned
        }
        self.verdicts: dict[str, dict[int, bool]] = {name: {} for name in planned}
        self.records: dict[str, EnvelopeRecord] = {
            name: EnvelopeRecord() for name in planned
        }  # the course is walked again from the journal: a resumed run's is rebuilt
        self.sent: set[tuple[str, int]] = set()

    @property
    def stops(self) -> dict[str, EarlyStop]:
        """The scaffolds whose level cases a look decided."""
        return self._stops

    async def run(self, jobs: Sequence[Job], send: Send) -> None:
        """The level's cases with each search's first size, then a size per scaffold per
        stage until every search has ended."""
        known = {job.sample: job for job in jobs}
        level = self._level_jobs(jobs)
        first = True
        while True:
            # A size is started only if it can be finished beside what the stage asks
            # with it: in the first, the level's cases (a helper's hunt: a size whose own
            # worst case fitted was started, paid for, and left INCOMPLETE).
            # A resumed run's level a look decided before is asked no more: none of its
            # cases is pending (a helper's hunt: their worst case refused a size that fit).
            undecided = [job for job in level if job.planned.scaffold not in self._stops]
            pending = self.growth.worst_case(undecided if first else [])
            stage = await self._next_sizes(known, pending or 0.0)
            if not stage and not first:
                return
            asked: list[Job] = []
            for job in [*(level if first else []), *self._stage_jobs(stage, known)]:
                if job.sample not in self.sent:  # a level case a size visits too: once
                    self.sent.add(job.sample)
                    asked.append(job)
            looks = PlannedLooks(
                {name: self._order(name, asked) for name in self.planned},
                self.growth.manifest.model_copy(
                    update={
                        "sizes": {name: [size] for name, size in stage.items()},
                        "early_stops": self._stops,
                    }
                ),
                self.journal,
                catalog=self.growth.catalog,
                level=first,
            )
            await looks.run(asked, send)
            if first:
                self._stops = looks.stops
            first = False
            self._decide(stage)

    def _level_jobs(self, jobs: Sequence[Job]) -> list[Job]:
        """The level's jobs of ``jobs``: all of a new run's; a resumed run's without the
        sizes it added (each is asked in its stage, or not at all once decided)."""
        level: list[Job] = []
        for name in self.planned:
            split = run_split(self.growth.specs[name], self.growth.manifest)
            mine = [job for job in jobs if job.planned.scaffold == name]
            level += mine if split is None else [j for j in mine if j.planned.id in split.level]
        return level

    async def _next_sizes(
        self, known: dict[tuple[str, int], Job], pending: float = 0.0
    ) -> dict[str, int]:
        """Each searching scaffold's next size, drawn and added to the run unless it is
        there already (its jobs kept in ``known``); a search the budget ends is recorded
        so. ``pending``: the worst case of what the stage asks besides its sizes; each size
        must fit beside it and the sizes taken before it."""
        stage: dict[str, int] = {}
        for name, search in self.searches.items():
            if self.records[name].stopped:
                continue
            size = search.next_size(self.verdicts[name])
            if size is None:
                continue
            if size not in (self.growth.manifest.sizes or {}).get(name, ()):
                jobs, failed = self.growth.draw(name, size)
                worst = self.growth.worst_case(jobs)
                if worst is not None and self.growth.over_budget(pending + worst):
                    beside = self.growth.committed() + pending
                    self._keep(
                        name,
                        stopped="budget",
                        next_size=size,
                        next_worst_usd=worst,
                        next_beside_usd=beside,
                    )
                    continue
                pending += worst or 0.0
                await self.growth.add(name, size, jobs, failed)
                known.update((job.sample, job) for job in jobs)
            stage[name] = size
        return stage

    def _stage_jobs(
        self, stage: Mapping[str, int], known: Mapping[tuple[str, int], Job]
    ) -> list[Job]:
        """The jobs of each stage size's sweep cases, in the sweep's order."""
        samples = range(self.growth.manifest.samples)
        return [
            known[(identifier, epoch)]
            for name, size in stage.items()
            for identifier in self._split(name).sizes.get(size, [])
            for epoch in samples
            if (identifier, epoch) in known
        ]

    def _split(self, name: str) -> CaseSplit:
        split = run_split(self.growth.specs[name], self.growth.manifest)
        assert split is not None, "a stage's scaffold has a size added"
        return split

    def _order(self, name: str, jobs: Sequence[Job]) -> list[Planned]:
        """``name``'s cases among ``jobs``, in their order, once each."""
        seen: dict[str, Planned] = {}
        for job in jobs:
            if job.planned.scaffold == name:
                seen.setdefault(job.planned.id, job.planned)
        return list(seen.values())

    def _decide(self, stage: Mapping[str, int]) -> None:
        """Each stage size's decision, as a report folds it, read from the journal."""
        if not stage:
            return
        records = self.journal()
        budget = self.growth.attempts.budget
        for name, size in stage.items():
            split = self._split(name)
            point = size_point(
                name, size, split.sizes.get(size, []), split.plan, records, final=True
            )
            tried = [*self.records[name].tried, size]
            if point.status == "INCOMPLETE":
                why = "budget" if budget is not None and budget.refused else "incomplete"
                self._keep(name, tried=tried, stopped=why, next_size=size)
                continue
            self.verdicts[name][size] = point.status == "CERTIFIED"
            self._keep(name, tried=tried)

    def _keep(self, name: str, **changes: object) -> None:
        self.records[name] = self.records[name].model_copy(update=changes)
        self.growth.record(name, self.records[name])
