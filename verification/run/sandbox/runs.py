"""Programs run over many inputs: one program case after case in one sandboxed interpreter
(:func:`run_program`), several programs at once up to the machine's cores, identical sources
run once (:func:`run_programs`). A program's own interpreter, case by case, is
:class:`~verification.run.sandbox.session.ProgramSession`."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping, Sequence

from verification.run.sandbox.engines import Engine
from verification.run.sandbox.execution import Execution
from verification.run.sandbox.limits import Limits
from verification.run.sandbox.session import ProgramSession
from verification.run.sandbox.wire import encode_input

__all__ = ["run_program", "run_programs"]


async def run_program(
    source: str,
    inputs: Sequence[Mapping[str, object] | bytes],
    *,
    limits: Limits,
    engine: Engine,
    cpu_seconds: Sequence[float] | None = None,
) -> list[Execution]:
    """``source``'s ``solve`` on every input in turn, in one sandboxed interpreter (each
    case's CPU limit from ``cpu_seconds`` where given). An input may be given encoded
    (:func:`encode_input`)."""
    async with ProgramSession(source, limits=limits, engine=engine) as session:
        done = []
        for index, case in enumerate(inputs):
            payload = case if isinstance(case, bytes) else encode_input(case)
            limit = None if cpu_seconds is None else cpu_seconds[index]
            done.append(await session.run_encoded(payload, cpu_seconds=limit))
        return done


async def run_programs(
    sources: Sequence[str],
    inputs: Sequence[Mapping[str, object]],
    *,
    limits: Limits,
    engine: Engine,
    cpu_seconds: Sequence[float] | None = None,
    parallel: int | None = None,
) -> list[list[Execution]]:
    """Each program on every input, ``parallel`` programs at once (the machine's cores
    unless given); identical sources run once and share their executions."""
    slots = asyncio.Semaphore(parallel or os.cpu_count() or 1)
    distinct = list(dict.fromkeys(sources))
    payloads = [encode_input(case) for case in inputs]

    async def one(source: str) -> list[Execution]:
        async with slots:
            return await run_program(
                source, payloads, limits=limits, engine=engine, cpu_seconds=cpu_seconds
            )

    results = await asyncio.gather(*(one(source) for source in distinct))
    by_source = dict(zip(distinct, results, strict=True))
    return [by_source[source] for source in sources]
