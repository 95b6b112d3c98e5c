"""When a run stops: the :class:`StoppingRule` protocol, and asking the whole plan.

A rule hands the run's case samples to the transport, all at once or in looks, and says
where each scaffold stopped (for the manifest). A run that cannot look as it goes (a fixed
plan, ``--shard``, ``--batch``, several models) asks everything (``fixed``) and its
certification plan's looks are applied afterwards; otherwise it asks in the plan's looks and
stops a scaffold once one decides (:mod:`verification.run.looks`). Either way the verdict is
the same. One is chosen by the run plan's name for it (:mod:`verification.run.strategies`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from typing import Protocol

from verification.cases import Planned
from verification.run.attempts import Job
from verification.run.growth import SizeGrowth
from verification.store.manifests import EarlyStop, RunManifest
from verification.store.records import AttemptRecord

__all__ = ["FixedPlan", "Send", "StoppingFactory", "StoppingRule", "settled_by"]

Send = Callable[[Sequence[Job]], Awaitable[None]]
"""The transport's ``send``."""


class StoppingRule(Protocol):
    """Decides how much of the plan is asked."""

    async def run(self, jobs: Sequence[Job], send: Send) -> None:
        """Hand ``jobs`` (in the plan's order) to ``send``, as much of them as the rule asks."""
        ...

    @property
    def stops(self) -> dict[str, EarlyStop] | None:
        """Where each scaffold stopped before the end of its plan (the manifest's
        ``early_stops``)."""
        ...


def settled_by(rule: StoppingRule) -> Collection[str]:
    """The scaffolds ``rule`` decided whole (their level and every size they sweep):
    nothing more of them is asked, so a case of theirs a budget refused was not needed
    (:func:`~verification.run.budget.stopped_by_budget`). A rule that sweeps sizes as it
    looks says so by a ``settled`` property (:class:`~verification.run.looks.PlannedLooks`);
    for any other (the fixed plan, the envelope climb, whose search the budget ends is its
    own stop, said as such, and a plugin's rule) they are the scaffolds it stopped
    (:attr:`StoppingRule.stops`)."""
    settled: Collection[str] | None = getattr(rule, "settled", None)
    return set(rule.stops or {}) if settled is None else settled


StoppingFactory = Callable[
    [
        Mapping[str, Sequence[Planned]],
        RunManifest,
        Callable[[], list[AttemptRecord]],
        SizeGrowth,
    ],
    StoppingRule,
]
"""Makes a run's rule from its planned cases (in the order asked), its manifest, a
reader of its journal and the means to add sizes to the run as it goes (the envelope
search's; the other rules ask what was planned)."""


class FixedPlan:
    """Asks the whole plan (the looks are applied to the journal afterwards)."""

    def __init__(
        self,
        planned: Mapping[str, Sequence[Planned]],
        manifest: RunManifest,
        journal: Callable[[], list[AttemptRecord]],
        growth: object = None,
    ) -> None:
        self._stops = manifest.early_stops

    async def run(self, jobs: Sequence[Job], send: Send) -> None:
        stopped = self._stops or {}  # a resumed run's scaffolds a look decided already
        await send([job for job in jobs if job.planned.scaffold not in stopped])

    @property
    def stops(self) -> dict[str, EarlyStop] | None:
        return self._stops
