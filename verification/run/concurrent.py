"""The ``concurrent`` transport: every case sample a request of its own, started under
the model's limiter, the budget and the prompt cache warm-up
(:class:`~verification.run.scheduling.CaseScheduler`), repaired at once when its reply
cannot be read. A resumed run's answered samples are not asked again, but the repairs they
were owed are."""

from __future__ import annotations

from collections.abc import Sequence

from verification.run.attempts import Job
from verification.run.transport import TransportSetting

__all__ = ["ConcurrentTransport"]


class ConcurrentTransport:
    """Sends each case sample's requests as a slot frees."""

    def __init__(self, setting: TransportSetting) -> None:
        self.attempts = setting.attempts
        self.scheduler = setting.scheduler

    async def send(self, jobs: Sequence[Job]) -> None:
        todo = [job for job in jobs if job.sample not in self.attempts.answered]
        await self.scheduler.run(todo, self.attempts)
        owed = [job for job in jobs if job.sample in self.attempts.owed]
        if owed:  # a resumed run's repairs, owed when it stopped
            await self.scheduler.run(owed, self.attempts, answer=self.attempts.repaired)
