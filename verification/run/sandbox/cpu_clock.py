"""A sandboxed interpreter's CPU time, read from outside through ``/proc``: what ends a case
at its CPU limit while the harness waits for its answer, and what says why a case killed at
its wall clock failed."""

from __future__ import annotations

import asyncio
import os
from enum import Enum
from pathlib import Path

from verification.run.sandbox.limits import Limits

__all__ = [
    "CLOCK_TICKS",
    "CPU_TICK",
    "GONE_GRACE_SECONDS",
    "ClockStop",
    "CpuClock",
    "interpreter_pid",
    "read_line_within",
    "timeout_reason",
]

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
CPU_TICK = 1 / CLOCK_TICKS
"""The CPU clock's resolution (``/proc``'s clock ticks): the shortest wait between reads."""

GONE_GRACE_SECONDS = 2.0
"""How long a case waits for its reply once the interpreter has ended: what it wrote is
already in the pipe (a sandbox whose other process goes on answering is ended, not waited
for to its wall clock with no CPU limit; hunt jj 1)."""


class ClockStop(Enum):
    """Why a read under the CPU clock ended with no line (:func:`read_line_within`)."""

    OVER = "over"
    """The case's CPU time passed its limit while the harness waited for its answer."""
    GONE = "gone"
    """The interpreter whose CPU time is the case's clock ended, and the sandbox did not
    answer in the moment after: another process of it holds the pipes, unmetered."""


def interpreter_pid(pid: int) -> int | None:
    """The last process under ``pid`` (``/proc``'s children lists): under bubblewrap's
    own processes, the interpreter."""
    found = None
    while True:
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            return found
        if not children:
            return found
        pid = found = int(children[-1])


class CpuClock:
    """The interpreter's CPU time (user and system), read from outside through its
    ``/proc/<pid>/stat``, opened once and re-read with ``pread``."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)

    def seconds(self) -> float | None:
        """Its CPU seconds so far, or ``None`` once it is gone."""
        try:
            stat = os.pread(self.fd, 1024, 0)
        except OSError:
            return None
        if not stat:
            return None
        fields = stat[stat.rindex(b")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime

    def close(self) -> None:
        os.close(self.fd)


def timeout_reason(limits: Limits, cpu: float | None) -> str:
    """Why a case killed at its wall clock failed: its CPU time says whether it was slow or
    the machine was."""
    if cpu is None:
        return f"killed at the wall-clock limit of {limits.wall_seconds:g} s"
    if cpu >= limits.cpu_seconds:
        return f"over the CPU limit of {limits.cpu_seconds:g} s (used {cpu:.2f} s)"
    return (
        f"killed at the wall-clock limit of {limits.wall_seconds:g} s, having used {cpu:.2f} s "
        f"of CPU (sleeping, or a loaded machine)"
    )


async def read_line_within(
    stream: asyncio.StreamReader, clock: CpuClock | None, cpu_end: float | None
) -> bytes | ClockStop:
    """The next line of ``stream``; :attr:`ClockStop.OVER` once ``clock`` passes
    ``cpu_end``, :attr:`ClockStop.GONE` when the clock's interpreter has ended and no line
    follows within :data:`GONE_GRACE_SECONDS`. The clock is read again when the limit could
    first have been reached (CPU time grows no faster than the wall clock on one core), so
    a program that spins ends at its CPU limit, not at the soft rlimit set past it (whole
    seconds, kept as the backstop)."""
    if cpu_end is None or clock is None:
        return await stream.readline()
    reading = asyncio.ensure_future(stream.readline())
    try:
        while True:
            used = clock.seconds()
            if used is None:  # the interpreter is gone: the read ends with it, or soon
                try:
                    async with asyncio.timeout(GONE_GRACE_SECONDS):
                        return await reading
                except TimeoutError:
                    return ClockStop.GONE
            if used > cpu_end:
                return ClockStop.OVER
            done, _ = await asyncio.wait({reading}, timeout=max(cpu_end - used, CPU_TICK))
            if done:
                return reading.result()
    finally:
        if not reading.done():
            reading.cancel()
