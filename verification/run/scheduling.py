"""When each case starts: how the concurrent transport (:mod:`verification.run.concurrent`)
answers a run's cases.

:class:`CaseScheduler` starts every planned case as a task and lets each go when three
things allow it, in this order:

1. **the prompt cache is warm**: where the provider caches prompts and the scaffold is long
   enough to be cached, the first case of a scaffold goes alone and the rest of that
   scaffold wait until it has its answer, so parallel cold requests do not each pay the
   cache-write price (other scaffolds' cases go meanwhile);
2. **a slot is free** in the model's :class:`~verification.llm.limiter.AdaptiveLimiter`
   (one per model, at most ``--concurrency``, starting slow);
3. **the budget allows it** (``--max-cost``): once it does not, no further case starts. A
   case whose first answer the response cache holds is answered from it unheld (it is
   free); only the repairs that answer may need are held, before they are asked.

Another transport (batches, say) produces the same journal lines by other means.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence, Set
from typing import Any

from verification.errors import RunWriteError
from verification.llm.limiter import AdaptiveLimiter, Slot
from verification.run.attempts import Attempts, Job
from verification.store.records import AttemptRecord

__all__ = ["Answer", "CaseScheduler"]

Answer = Callable[[Job, Slot], Awaitable[list[AttemptRecord]]]
"""Answers a job, its first try in the slot given (:meth:`Attempts.answer`, say)."""


class CaseScheduler:
    """Starts a run's cases under its limiters, its budget and the cache warm-up."""

    def __init__(self, concurrency: int, *, max_pause: float = 60.0) -> None:
        self.concurrency = concurrency
        self.max_pause = max_pause
        """The longest a 429 holds a limiter's new starts (the retry policy's longest wait)."""
        self.limiters: dict[str, AdaptiveLimiter] = {}
        """One per model, made on first use."""

    def limiter_for(self, model: str) -> AdaptiveLimiter:
        """The model's limiter."""
        if model not in self.limiters:
            self.limiters[model] = AdaptiveLimiter(self.concurrency, max_pause=self.max_pause)
        return self.limiters[model]

    async def run(
        self, jobs: Sequence[Job], attempts: Attempts, answer: Answer | None = None
    ) -> list[AttemptRecord]:
        """Answer every job with ``answer`` (by default ``attempts.answer``), under the
        limiter of ``attempts``' model, its budget and its cache warm-up; on any error
        (Ctrl-C, a refused key) cancel the others."""
        # The first attempt is the cache's to answer only when the default answers it (a
        # batch's leftovers start at a later attempt, with their own prompt).
        first_from_cache = answer is None
        answer = answer or attempts.answer
        limiter = self.limiter_for(attempts.model)
        warm: dict[str, asyncio.Event] = {}
        warmers: set[int] = set()
        for position, job in enumerate(jobs):
            name = job.spec.name
            if name not in warm and attempts.warms_cache(job.spec):
                warm[name] = asyncio.Event()
                warmers.add(position)

        asking: set[int] = set()

        async def one(position: int, job: Job) -> list[AttemptRecord]:
            event = warm.get(job.spec.name)
            if event is not None and position not in warmers:
                await event.wait()
            try:
                async with limiter.slot() as slot:
                    if attempts.halted:
                        return []  # the journal's disk filled while it waited: not asked
                    asking.add(position)
                    try:
                        return await self._started(job, slot, attempts, answer, first_from_cache)
                    except RunWriteError:
                        # Halted before the slot is free: the case waiting for it starts nothing.
                        attempts.halted = True
                        raise
            finally:
                if position in warmers:
                    event.set()  # type: ignore[union-attr]

        tasks = [asyncio.create_task(one(position, job)) for position, job in enumerate(jobs)]
        try:
            finished = await asyncio.gather(*tasks)
        except RunWriteError:
            # The run's disk is full: no case starts, no call is retried or repaired, but the
            # calls already out finish, each answer kept by the response cache where the
            # journal cannot (Attempts.judged). Cancelled, they were paid for (or their reply
            # had come) and were lost.
            await _settle(tasks, keep={tasks[position] for position in asking})
            raise
        except BaseException:
            await _settle(tasks)
            raise
        return [record for records in finished for record in records]

    async def _started(
        self, job: Job, slot: Slot, attempts: Attempts, answer: Answer, first_from_cache: bool
    ) -> list[AttemptRecord]:
        budget = attempts.budget
        if budget is None:
            return await answer(job, slot)
        key = job.hold
        if first_from_cache:
            # An answer the response cache holds costs nothing: held at its worst case, a
            # repeat under a small budget would start nothing it could have had free. Only
            # the repairs that may follow it are held, as any live attempt is, and before
            # the cached answer is journalled: journalled with its repairs refused, it
            # would stand as the case's answer, and a resume would not repair it.
            left = attempts.settings.repair_attempts - 1
            if left > 0 and not budget.start(key, attempts.worst_case(job, left)):
                return []  # left unasked: the run says it stopped at its budget
            try:
                cached = await attempts.from_cache(job)
                if cached is not None:
                    prompt, first = cached
                    if not attempts.repairs_after(first):
                        attempts.calibrate(job)
                        return [first]
                    repaired = attempts.answers.repair(prompt, first.reason)
                    rest = await attempts.answer(
                        job, slot, prompt=repaired, first_attempt=first.attempt + 1
                    )
                    return [first, *rest]
            finally:
                budget.finish(key)
        if not budget.start(key, attempts.worst_case(job)):
            return []  # left unasked: the run says it stopped at its budget
        try:
            return await answer(job, slot)
        finally:
            budget.finish(key)


async def _settle(
    tasks: Sequence[asyncio.Task[Any]], keep: Set[asyncio.Task[Any]] = frozenset()
) -> None:
    """Cancel every task of ``tasks`` but those in ``keep``, and wait for all of them to end;
    a second error while waiting (Ctrl-C) cancels those kept too."""
    for task in tasks:
        if task not in keep:
            task.cancel()
    try:
        await asyncio.gather(*tasks, return_exceptions=True)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
