"""The plan's looks (the ``looks`` stopping rule): ask a scaffold's cases segment by
segment up to each look of its certification plan, and stop once the plan decides.

Each scaffold's cases are planned in an order that interleaves its tiers and sizes (one
case of each group in turn, :func:`interleaved`), so every prefix holds all of them. The
plan's first ``cap`` cases are sent up to its first look, then up to each next look; after
each segment the journal is folded for each scaffold still going, and one the plan
(:func:`~verification.certify.sequential.decide`) has decided is asked nothing more. The
cases past the cap (a size sweep's) go with the first segment, and so does a level case a
sweep visits too (at a tier's default size): the plan does not stop the sweep. Where each
scaffold stopped is written to the manifest (``early_stops``), so its unasked cases are not
missing. The statuses are decided from the journal by the same function
(:func:`~verification.certify.results.results_from_journal`), so a run that asks its whole
plan and looks afterwards (the ``fixed`` rule) ends with the same verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from verification.cases import TIERS, TestCase, case_id, parse_case_id
from verification.catalog import default_catalog
from verification.certify.envelope import CASES_PER_SIZE, sweep_plan
from verification.certify.results import ScaffoldResults
from verification.certify.sequential import plan_from_record
from verification.errors import ConfigurationError
from verification.run.attempts import Job
from verification.run.stopping import Send
from verification.store.manifests import EarlyStop, RunManifest
from verification.store.records import AttemptRecord

__all__ = ["PlannedLooks", "interleaved"]


def interleaved(cases: Sequence[TestCase]) -> list[TestCase]:
    """``cases`` with their tiers and sizes interleaved: one of each group in turn (groups
    in tier order, then size), each group in its own order."""
    groups: dict[tuple[int, int], list[TestCase]] = {}
    for case in cases:
        key = parse_case_id(case.id)
        size = -1 if key is None or key.size is None else key.size
        tier = TIERS.index(case.tier) if case.tier in TIERS else len(TIERS)
        groups.setdefault((tier, size), []).append(case)
    ordered = [groups[key] for key in sorted(groups)]
    longest = max((len(group) for group in ordered), default=0)
    return [group[i] for i in range(longest) for group in ordered if i < len(group)]


def _swept(manifest: RunManifest) -> frozenset[str]:
    """The case ids a run's size sweep asks (at a tier's default size, a level case's)."""
    catalog = default_catalog()
    ids: set[str] = set()
    for name, sizes in (manifest.sizes or {}).items():
        spec = catalog.get(name)
        if spec is None:
            continue
        per_size = manifest.sweep_cases or CASES_PER_SIZE
        for tier, index, size in sweep_plan(spec, sizes, per_size=per_size):
            ids.add(case_id(name, tier, index, None if size == spec.sizes[tier] else size))
    return frozenset(ids)


class PlannedLooks:
    """The ``looks`` rule: asks a run's jobs look by look of its plan (the same journal
    lines, fewer of them)."""

    def __init__(
        self,
        planned: Mapping[str, Sequence[TestCase]],
        manifest: RunManifest,
        journal: Callable[[], list[AttemptRecord]],
    ) -> None:
        """``planned`` in plan order; the manifest's ``plan`` is the one followed, its
        ``early_stops`` those a run being resumed made already."""
        if manifest.plan is None:
            raise ConfigurationError(
                f"run {manifest.run_id} records no certification plan, so it cannot look as it goes"
            )
        self.plan = plan_from_record(manifest.plan)
        self.samples = manifest.samples
        self.journal = journal
        self.order = {name: [case.id for case in cases] for name, cases in planned.items()}
        self.position = {
            case.id: place for cases in planned.values() for place, case in enumerate(cases)
        }
        self._stops: dict[str, EarlyStop] = dict(manifest.early_stops or {})
        self.swept = _swept(manifest)

    @property
    def stops(self) -> dict[str, EarlyStop]:
        """The scaffolds a look decided so far."""
        return self._stops

    async def run(self, jobs: Sequence[Job], send: Send) -> None:
        """Send ``jobs`` segment by segment, folding the journal after each look but the
        last."""
        looks = self.plan.looks
        for look, point in enumerate(looks):
            await send([job for job in jobs if self._segment(job.case) == look])
            if point == self.plan.cap:
                return
            records = self.journal()
            for name in self.order:
                if name not in self._stops:
                    self._look(name, point, records)

    def _segment(self, case: TestCase) -> int | None:
        """Which look's segment ``case`` belongs to; ``None`` once its scaffold stopped."""
        if case.scaffold in self._stops:
            return None
        place = self.position[case.id]
        if place >= self.plan.cap or case.id in self.swept:
            return 0  # a sweep's case: not the plan's to stop
        return next(k for k, point in enumerate(self.plan.looks) if place < point)

    def _look(self, name: str, point: int, records: Sequence[AttemptRecord]) -> None:
        asked = self.order[name][: min(point, self.plan.cap)]
        mine = set(asked)
        seen = [r for r in records if r.scaffold == name and r.case_id in mine]
        results = ScaffoldResults.from_records(
            name,
            seen,
            planned=len(asked) * self.samples,
            plan=self.plan,
            order=asked,
            final=False,
        )
        decision = results.decision
        if results.status == "INCOMPLETE" or decision is None or not decision.decided:
            return  # too many unanswered cases, or no look decided yet
        self._stops[name] = EarlyStop(
            cases=len(asked), look=decision.look or len(self.plan.looks), looks=len(self.plan.looks)
        )
