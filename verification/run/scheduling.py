"""When each case starts: the runner's default mode of answering a run's cases.

:class:`CaseScheduler` starts every planned case as a task and lets each go when three
things allow it, in this order:

1. **the prompt cache is warm**: where the provider caches prompts and the scaffold is long
   enough to be cached, the first case of a scaffold goes alone and the rest of that
   scaffold wait until it has its answer, so parallel cold requests do not each pay the
   cache-write price (other scaffolds' cases go meanwhile);
2. **a slot is free** in the model's :class:`~verification.llm.limiter.AdaptiveLimiter`
   (one per model, started at ``--concurrency``);
3. **the budget allows it** (``--max-cost``): once it does not, no further case starts.

Another mode (batches, say) is another scheduler producing the same journal lines.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from verification.cases import TestCase
from verification.catalog.spec import ScaffoldSpec
from verification.llm.limiter import AdaptiveLimiter, Slot
from verification.run.budget import CostBudget
from verification.store.records import AttemptRecord
from verification.validators.base import Validator

__all__ = ["CaseScheduler", "Job"]


@dataclass(frozen=True)
class Job:
    """One case sample to answer."""

    spec: ScaffoldSpec
    case: TestCase
    validator: Validator
    epoch: int


Answer = Callable[[Job, Slot], Awaitable[list[AttemptRecord]]]
"""Answers a job, its first try in the slot given (the runner's ``_answer_case``)."""


class CaseScheduler:
    """Starts a run's cases under its limiters, its budget and the cache warm-up."""

    def __init__(
        self,
        concurrency: int,
        *,
        budget: CostBudget | None = None,
        warms_cache: Callable[[ScaffoldSpec], bool] = lambda spec: False,
        worst_case: Callable[[Job], float] = lambda job: 0.0,
    ) -> None:
        self.concurrency = concurrency
        self.budget = budget
        self.warms_cache = warms_cache
        """Whether a scaffold's first case should warm the prompt cache alone."""
        self.worst_case = worst_case
        """The most a job could cost (asked only under a budget)."""
        self.limiters: dict[str, AdaptiveLimiter] = {}
        """One per model, made on first use."""

    def limiter_for(self, model: str) -> AdaptiveLimiter:
        """The model's limiter."""
        if model not in self.limiters:
            self.limiters[model] = AdaptiveLimiter(self.concurrency)
        return self.limiters[model]

    async def run(self, jobs: Sequence[Job], model: str, answer: Answer) -> list[AttemptRecord]:
        """Answer every job; on any error (Ctrl-C, a refused key) cancel the others."""
        limiter = self.limiter_for(model)
        warm: dict[str, asyncio.Event] = {}
        warmers: set[int] = set()
        for position, job in enumerate(jobs):
            name = job.spec.name
            if name not in warm and self.warms_cache(job.spec):
                warm[name] = asyncio.Event()
                warmers.add(position)

        async def one(position: int, job: Job) -> list[AttemptRecord]:
            event = warm.get(job.spec.name)
            if event is not None and position not in warmers:
                await event.wait()
            try:
                async with limiter.slot() as slot:
                    return await self._started(job, slot, answer)
            finally:
                if position in warmers:
                    event.set()  # type: ignore[union-attr]

        tasks = [asyncio.create_task(one(position, job)) for position, job in enumerate(jobs)]
        try:
            finished = await asyncio.gather(*tasks)
        except BaseException:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        return [record for records in finished for record in records]

    async def _started(self, job: Job, slot: Slot, answer: Answer) -> list[AttemptRecord]:
        budget = self.budget
        if budget is None:
            return await answer(job, slot)
        key = id(job)
        if not budget.start(key, self.worst_case(job)):
            return []  # left unasked: the run says it stopped at its budget
        try:
            return await answer(job, slot)
        finally:
            budget.finish(key)
