"""The plan's looks (the ``looks`` stopping rule): ask a scaffold's cases segment by
segment up to each look of its certification plan, and stop once the plan decides.

Each scaffold's cases are planned in an order that interleaves its tiers and sizes (one
case of each group in turn, :func:`interleaved`), so every prefix holds all of them. The
plan's first ``cap`` cases are sent up to its first look, then up to each next look; after
each segment the journal is folded for each scaffold still going, and one the plan
(:func:`~verification.certify.sequential.decide`) has decided is asked nothing more. Each
swept size is a unit of its own: its cases, in the sweep's order, are asked look by look
of its own plan (:func:`~verification.certify.envelope.size_plan`) and stop once that
decides, beside the level's and as independently (a level case a sweep visits too, at a
tier's default size, is asked while either still needs it). Where each scaffold's level
cases stopped is written to the manifest (``early_stops``), so its unasked cases are not
missing; a size's stop needs no record: its decision is reached on its cases again. The
statuses are decided from the journal by the same function
(:func:`~verification.certify.results.results_from_journal`), so a run that asks its whole
plan and looks afterwards (the ``fixed`` rule) ends with the same verdicts.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from verification.cases import TIERS, Planned, PlannedCase, parse_case_id
from verification.catalog import Catalog, default_catalog
from verification.certify.envelope import CaseSplit, SizePoint, run_split
from verification.certify.looked import look_decision
from verification.certify.results import ScaffoldResults
from verification.certify.sequential import CertificationPlan, plan_from_record
from verification.errors import ConfigurationError
from verification.run.attempts import Job
from verification.run.stopping import Send
from verification.store.manifests import EarlyStop, RunManifest
from verification.store.records import AttemptRecord

__all__ = ["PlannedLooks", "interleaved", "interleaved_ids", "size_point"]

T = TypeVar("T")


def interleaved(cases: Sequence[Planned]) -> list[Planned]:
    """``cases`` with their tiers and sizes interleaved: one of each group in turn (groups
    in tier order, then size), each group in its own order."""

    def group(case: Planned) -> tuple[int, int]:
        if isinstance(case, PlannedCase):
            named = case.named_size
        else:
            key = parse_case_id(case.id)
            named = None if key is None else key.size
        return _group(case.tier, named)

    return _in_turn(cases, group)


def interleaved_ids(ids: Sequence[str]) -> list[str]:
    """Case ids (each group's in its own order) as :func:`interleaved` orders their cases:
    the order of a plan that holds cases it could not draw, which keep their places."""

    def group(identifier: str) -> tuple[int, int]:
        key = parse_case_id(identifier)
        return _group(None, None) if key is None else _group(key.tier, key.size)

    return _in_turn(ids, group)


def _group(tier: str | None, size: int | None) -> tuple[int, int]:
    return (TIERS.index(tier) if tier in TIERS else len(TIERS), -1 if size is None else size)


def _in_turn(items: Sequence[T], group: Callable[[T], tuple[int, int]]) -> list[T]:
    groups: dict[tuple[int, int], list[T]] = {}
    for item in items:
        groups.setdefault(group(item), []).append(item)
    ordered = [groups[key] for key in sorted(groups)]
    longest = max((len(each) for each in ordered), default=0)
    return [each[i] for i in range(longest) for each in ordered if i < len(each)]


def size_point(
    scaffold: str,
    size: int,
    ids: Sequence[str],
    plan: CertificationPlan,
    records: Sequence[AttemptRecord],
    *,
    final: bool,
) -> SizePoint:
    """``scaffold``'s point at ``size``: its sweep cases ``ids`` (in order) decided by
    ``plan`` on ``records`` (``final`` false: undecided while a look may still ask more)."""
    mine = set(ids)
    seen = [r for r in records if r.scaffold == scaffold and r.case_id in mine]
    split = CaseSplit(frozenset(), {size: list(ids)}, plan, final=final)
    (point,) = ScaffoldResults.from_records(
        scaffold, seen, planned=0, swept=[size], split=split
    ).size_points
    return point


@dataclass(frozen=True, eq=False)  # each unit is itself: looked up by identity, fast
class _Unit:
    """What one plan decides on: a scaffold's level cases (``size`` ``None``) or one swept
    size's cases, in plan order (at most the plan's cap)."""

    scaffold: str
    size: int | None
    plan: CertificationPlan
    ids: tuple[str, ...]

    def segment(self, place: int) -> int:
        """The look whose segment the unit's ``place``-th case is asked in (a unit holds at
        most its plan's cap of cases, the last look)."""
        return bisect_right(self.plan.looks, place)


def _size_units(manifest: RunManifest, catalog: Catalog) -> list[_Unit]:
    """Each swept size of each scaffold, a unit of its own (:func:`run_split`)."""
    units: list[_Unit] = []
    for name in manifest.sizes or {}:
        spec = catalog.get(name)
        split = run_split(spec, manifest) if spec is not None else None
        if split is not None:
            units.extend(
                _Unit(name, size, split.plan, tuple(ids)) for size, ids in split.sizes.items()
            )
    return units


def _by_scaffold(records: Sequence[AttemptRecord]) -> dict[str, list[AttemptRecord]]:
    """``records`` sorted out by scaffold once a look, not once for each unit looked at."""
    sorted_out: dict[str, list[AttemptRecord]] = {}
    for record in records:
        sorted_out.setdefault(record.scaffold, []).append(record)
    return sorted_out


def _plan_order(name: str, cases: Sequence[Planned], manifest: RunManifest) -> list[str]:
    """The ids of ``cases`` in plan order, with the cases a plugin could not draw (the
    manifest lists them in their places, answered by their errors) among them, so a look's
    window holds their errors: left out, a tier that could not be drawn was in no look, and
    the scaffold certified on its other tiers (a helper's hunt). A case asked that the
    manifest does not list yet (a size an envelope search adds as it goes) comes after."""
    ids = [case.id for case in cases]
    listed = manifest.scaffolds[name].case_ids if name in manifest.scaffolds else ()
    if len(listed) == len(ids):
        return ids
    known = set(listed)
    return [*listed, *(i for i in ids if i not in known)]


class PlannedLooks:
    """The ``looks`` rule: asks a run's jobs look by look of its plans (the same journal
    lines, fewer of them): each scaffold's level cases by the run's plan, each swept size's
    by its own."""

    def __init__(
        self,
        planned: Mapping[str, Sequence[Planned]],
        manifest: RunManifest,
        journal: Callable[[], list[AttemptRecord]],
        growth: object = None,
        *,
        catalog: Catalog | None = None,
        level: bool = True,
    ) -> None:
        """``planned`` in plan order; the manifest's ``plan`` is the one followed, its
        ``early_stops`` those a run being resumed made already. ``level`` false: only the
        manifest's swept sizes are looked at (a stage of the envelope search); ``catalog``
        holds the specs (default the packaged one)."""
        if manifest.plan is None:
            raise ConfigurationError(
                f"run {manifest.run_id} records no certification plan, so it cannot look as it goes"
            )
        self.plan = plan_from_record(manifest.plan)
        self.samples = manifest.samples
        self.journal = journal
        self.order = {name: _plan_order(name, cases, manifest) for name, cases in planned.items()}
        self._stops: dict[str, EarlyStop] = dict(manifest.early_stops or {})
        levels = [
            _Unit(name, None, self.plan, tuple(ids[: self.plan.cap]))
            for name, ids in self.order.items()
            if level
        ]  # the level's cases come first, tiers interleaved; a sweep's after them
        sizes = [
            unit
            for unit in _size_units(manifest, catalog or default_catalog())
            if unit.scaffold in self.order
        ]
        self.units = levels + sizes
        # The units that ask each case, and the case's segment in each, found once (run()
        # asks again at each look). Tuples: a run keeps thousands, up to a level's cap, and
        # the collector leaves a tuple of ints alone.
        self.units_asking: dict[str, tuple[_Unit, ...]] = {}
        self.segments: dict[str, tuple[int, ...]] = {}
        for unit in self.units:
            for place, identifier in enumerate(unit.ids):
                self.units_asking[identifier] = (*self.units_asking.get(identifier, ()), unit)
                self.segments[identifier] = (
                    *self.segments.get(identifier, ()),
                    unit.segment(place),
                )
        self.decided: set[_Unit] = set()
        """The units a look decided (a level unit's scaffold is in :attr:`stops` too)."""
        self.sent: set[tuple[str, int]] = set()
        self._relooking: dict[str, EarlyStop] = {}
        """A resumed run's stops, each kept until its level's looks reach it again."""

    @property
    def stops(self) -> dict[str, EarlyStop]:
        """The scaffolds whose level cases a look decided so far: a resumed run's stop
        stands until its level is looked at again up to it (a resume stopped before then
        leaves the run as it found it, not its scaffold short of its answers)."""
        return {**self._relooking, **self._stops}

    @property
    def settled(self) -> set[str]:
        """The scaffolds whose level a look decided and every size they sweep too (hunt ww:
        a size's cases the budget refused after its level had decided were read as not
        needed, and the run gave no hint to resume with a larger budget)."""
        sweeping = {u.scaffold for u in self.units if u.size is not None and u not in self.decided}
        return {name for name in self.stops if name not in sweeping}

    def _going(self, unit: _Unit) -> bool:
        if unit.size is None:
            return unit.scaffold not in self._stops
        return unit not in self.decided

    async def run(self, jobs: Sequence[Job], send: Send) -> None:
        """Send ``jobs`` segment by segment, folding the journal after each look but the
        last; a resumed run's sizes are looked at on what it has first."""
        records = _by_scaffold(self.journal())
        if records:  # a resumed run: a size decided before is asked nothing more
            for unit in self.units:
                if unit.size is not None:
                    self._look(unit, len(unit.ids), records.get(unit.scaffold, []))
                else:
                    # Looked at again from its first look, on every answer there is: an
                    # answer an error lost is asked again (--resume retries them), and a
                    # stop decided with it missing, or by a process killed before it wrote
                    # its manifest, would not be the plan's (hunts x and z). On the same
                    # answers it stops where it stopped, asking nothing more.
                    stop = self._stops.pop(unit.scaffold, None)
                    if stop is not None:
                        self._relooking[unit.scaffold] = stop
        rounds = max(len(unit.plan.looks) for unit in self.units) if self.units else 1
        # A case's segment only grows as units decide (or becomes None, for good): each job
        # waits under the segment it had, is looked at again only when that look comes,
        # and moves on to the segment it has then (dropped once no unit asks it). A level's
        # cap plans thousands of cases; the looks that decide ask a few hundred.
        waiting: dict[int, list[int]] = {}  # segment: the jobs' places in ``jobs``
        for order, job in enumerate(jobs):
            place = None if job.sample in self.sent else self._segment(job.planned)
            if place is not None:
                waiting.setdefault(place, []).append(order)
        for look in range(rounds):
            due = []
            for order in waiting.pop(look, []):
                place = self._segment(jobs[order].planned)
                if place == look:
                    due.append(order)
                elif place is not None:
                    waiting.setdefault(place, []).append(order)
            segment = [jobs[order] for order in sorted(due)]  # in plan order
            self.sent.update(job.sample for job in segment)
            await send(segment)
            if not any(self._going(unit) for unit in self.units):
                return  # every unit decided: nothing is left to ask (nor to read again)
            looking = [u for u in self.units if self._going(u) and look < len(u.plan.looks) - 1]
            if look == rounds - 1 or not looking:
                continue
            records = _by_scaffold(self.journal())
            for unit in looking:
                self._look(unit, unit.plan.looks[look], records.get(unit.scaffold, []))

    def _segment(self, case: Planned) -> int | None:
        """Which look's segment ``case`` belongs to: the earliest of the units that ask it
        and still go (a level case a sweep visits too, at a tier's default size, is both);
        ``None`` once none does."""
        units = self.units_asking.get(case.id, ())
        if not units:  # in no unit (past the cap of a plan that was cut): asked at once
            return None if case.scaffold in self._stops else 0
        segments = self.segments[case.id]
        going = [
            segment for unit, segment in zip(units, segments, strict=True) if self._going(unit)
        ]
        return min(going) if going else None

    def _look(self, unit: _Unit, point: int, records: Sequence[AttemptRecord]) -> None:
        """Look at ``unit`` on its first ``point`` cases; ``records`` are its scaffold's."""
        stop = self._relooking.get(unit.scaffold)
        if unit.size is None and stop is not None and point >= stop.cases:
            del self._relooking[unit.scaffold]  # looked at again up to it: what it decides now
        asked = list(unit.ids[:point])
        mine = set(asked)
        seen = [r for r in records if r.case_id in mine]
        if unit.size is not None:
            size = size_point(unit.scaffold, unit.size, asked, unit.plan, seen, final=False)
            if size.status != "INCOMPLETE" and size.decision and size.decision.decided:
                self.decided.add(unit)
            return
        decision = look_decision(  # the status and decision of ScaffoldResults.from_records
            unit.scaffold,
            seen,
            planned=len(asked) * self.samples,
            plan=self.plan,
            order=asked,
            samples=self.samples,
        )
        if decision is None or not decision.decided:
            return  # too many unanswered cases, or no look decided yet
        self._stops[unit.scaffold] = EarlyStop(
            cases=len(asked), look=decision.look or len(self.plan.looks), looks=len(self.plan.looks)
        )
