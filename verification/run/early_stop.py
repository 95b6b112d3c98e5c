"""``--early-stop`` (the ``early-stop`` stopping rule): ask a scaffold's cases in planned
looks and stop once one decides.

Each scaffold's cases are asked in an order that interleaves its tiers and sizes (one case
of each group in turn), so every prefix holds all of them. The run is cut at no more than
:data:`MAX_LOOKS` points, the first at the level's minimum n (:data:`LOOK_MIN_N`), the last
at the whole plan, evenly between. After each segment the journal is folded for each
scaffold still going; a scaffold whose interval, widened for the number of looks
(:func:`~verification.certify.results.decided_at_look`), lies on one side of every threshold that
decides its status is asked nothing more. Where it stopped is written to the manifest
(``early_stops``), so its unasked cases are not missing and the report says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from verification.cases import TIERS, TestCase, parse_case_id
from verification.certify.results import ScaffoldResults, decided_at_look
from verification.errors import ConfigurationError
from verification.run.attempts import Job
from verification.run.stopping import Send
from verification.store.manifests import EarlyStop, RunManifest
from verification.store.records import AttemptRecord

__all__ = [
    "LOOK_MIN_N",
    "MAX_LOOKS",
    "EarlyStopping",
    "check_early_stop",
    "interleaved",
    "look_points",
]

MAX_LOOKS = 5
LOOK_MIN_N = {"quick": 5, "standard": 20, "thorough": 50}
"""The fewest cases a look may decide on, per level: half a standard run (every tier
several times over), and half a thorough run's level cases."""


def check_early_stop(*, sweep: bool, shard: bool) -> None:
    """Refuse what early stopping cannot go with: a size sweep (its sizes are each judged
    on their own cases) and a shard (it sees a slice of each scaffold's cases)."""
    if sweep:
        raise ConfigurationError(
            "--early-stop cannot go with a size sweep (--sizes, or the thorough level's "
            "sweep of each scaffold's size range): each size is judged on all its cases. "
            "Leave out --early-stop, or choose --level standard and no --sizes"
        )
    if shard:
        raise ConfigurationError(
            "--early-stop cannot go with --shard: a shard sees only a slice of each "
            "scaffold's cases, so no look of it decides a status"
        )


def look_points(planned: int, min_n: int) -> list[int]:
    """The case counts a scaffold of ``planned`` cases is looked at: at most
    :data:`MAX_LOOKS`, none before ``min_n`` (unless the plan is smaller), the last at
    ``planned``, evenly between."""
    first = min(min_n, planned)
    count = min(MAX_LOOKS, planned - first + 1)
    if count <= 1:
        return [planned]
    return sorted({first + round((planned - first) * k / (count - 1)) for k in range(count)})


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


class EarlyStopping:
    """The ``early-stop`` rule: asks a run's jobs look by look (the same journal lines,
    fewer of them)."""

    def __init__(
        self,
        planned: Mapping[str, Sequence[TestCase]],
        manifest: RunManifest,
        journal: Callable[[], list[AttemptRecord]],
    ) -> None:
        """``planned`` in the order asked (:func:`interleaved`); the manifest's level sets
        the first look, its ``early_stops`` are those a run being resumed made already."""
        self.samples = manifest.samples
        self.min_n = LOOK_MIN_N.get(manifest.level or "standard", LOOK_MIN_N["standard"])
        self.journal = journal
        self.position = {
            case.id: place for cases in planned.values() for place, case in enumerate(cases)
        }
        self.points = {name: look_points(len(cases), self.min_n) for name, cases in planned.items()}
        self._stops: dict[str, EarlyStop] = dict(manifest.early_stops or {})

    @property
    def stops(self) -> dict[str, EarlyStop]:
        """The scaffolds a look decided so far."""
        return self._stops

    async def run(self, jobs: Sequence[Job], send: Send) -> None:
        """Send ``jobs`` segment by segment, folding the journal at each look."""
        looks = max((len(points) for points in self.points.values()), default=0)
        for look in range(looks):
            await send([job for job in jobs if self._segment(job.case) == look])
            records = self.journal()
            for name, points in self.points.items():
                if name in self._stops or look >= len(points) - 1:
                    continue  # decided already, or its last look: nothing left to stop
                self._look(name, look, records)

    def _segment(self, case: TestCase) -> int | None:
        """Which look's segment ``case`` belongs to; ``None`` once its scaffold stopped."""
        if case.scaffold in self._stops:
            return None
        place = self.position[case.id]
        return next(k for k, point in enumerate(self.points[case.scaffold]) if place < point)

    def _look(self, name: str, look: int, records: Sequence[AttemptRecord]) -> None:
        point = self.points[name][look]
        seen = [
            r for r in records if r.scaffold == name and self.position.get(r.case_id, point) < point
        ]
        results = ScaffoldResults.from_records(name, seen, planned=point * self.samples)
        if results.status == "INCOMPLETE" or results.n < min(self.min_n, point):
            return  # too many unanswered cases to decide on
        if decided_at_look(results.score, results.n, looks=len(self.points[name])):
            self._stops[name] = EarlyStop(cases=point, look=look + 1, looks=len(self.points[name]))
