"""How a run's requests are sent: the :class:`Transport` protocol.

A transport answers the case samples it is handed and journals every attempt through the
run's :class:`~verification.run.attempts.Attempts`, so that every transport leaves the
same journal lines. The built-in ones are concurrent requests under the limiter
(:mod:`verification.run.concurrent`) and Message Batches
(:mod:`verification.run.batch_mode`); one is chosen by name when the run is composed
(:mod:`verification.run.strategies`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from verification.config import RunConfig
from verification.run.attempts import Attempts, Job
from verification.run.scheduling import CaseScheduler
from verification.store.paths import RunPaths

__all__ = ["Transport", "TransportFactory", "TransportSetting"]


@dataclass(frozen=True)
class TransportSetting:
    """What a transport is made from: the run's attempts, its folder, its settings and
    the scheduler whose limiters (one per model) outlive the run."""

    attempts: Attempts
    paths: RunPaths
    settings: RunConfig
    scheduler: CaseScheduler


class Transport(Protocol):
    """Sends a run's requests."""

    async def send(self, jobs: Sequence[Job]) -> None:
        """Answer ``jobs`` (each attempt journalled as it is judged)."""
        ...


TransportFactory = Callable[[TransportSetting], Transport]
"""Makes a run's transport (refusing, before the run's folder is made, what it cannot
send through: a provider without batches, say)."""
