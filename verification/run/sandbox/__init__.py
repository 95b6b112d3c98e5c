"""The sandbox that runs a model-written program on many inputs (code mode, issue 26).

A program is Python source defining ``solve(input: dict) -> dict``. It runs in an isolation
engine, never without one: ``bubblewrap`` on Linux, or ``docker`` where a daemon runs. One
sandboxed interpreter per program serves its cases over a pipe on private descriptors (the
driver inside, :mod:`~verification.run.sandbox.driver`), so start-up is paid once per program;
a case that kills the interpreter is that case's failure and the next case starts a new one.

The interface (import these from ``verification.run.sandbox``)::

    engine = available_engine("bubblewrap")  # or None: any that works; raises
                                             # SandboxUnavailableError (how to install one)
    engine.python_version                    # "3.11.7": the Python the programs run on
    limits = Limits(cpu_seconds=cpu_seconds_for(reference_seconds))
    executions = await run_program(source, inputs, limits=limits, engine=engine)
    # or, case by case (to skip larger sizes after a time-out):
    async with ProgramSession(source, limits=limits, engine=engine) as session:
        execution = await session.run(case_input, cpu_seconds=...)
    # an input encoded once serves many programs: session.run_encoded(encode_input(case))
    # or several programs at once, up to the machine's cores, identical sources run once:
    per_program = await run_programs(sources, inputs, limits=limits, engine=engine)

An :class:`Execution` is one case: its :class:`Outcome` (``ok``, ``syntax``, ``no_solve``,
``exception``, ``timeout``, ``memory``, ``crash``, ``output_limit``, ``bad_value``; ``sandbox``
when the engine itself failed, no fault of the program; ``not_run`` for a caller's skipped
case), the JSON value ``solve`` returned (``ok`` only; ``output`` is its JSON text), the
case's wall seconds, ``solve``'s own seconds, its CPU seconds read from outside, a reason and
the tail of what it printed. Nothing a program does raises: a failure is an outcome.

- ``limits``: :class:`Limits` and their ceilings; a case's CPU limit from the reference's.
- ``execution``: :class:`Execution` and :class:`Outcome`.
- ``engines``: the engines by name, :func:`available_engine` (probed once, cached).
- ``seccomp``: the filter that leaves a program no child process, even when run as root.
- ``driver``: the program inside the sandbox and its line protocol.
- ``session``: :class:`ProgramSession`, one program's interpreter, case by case.
- ``runs``: :func:`run_program` and :func:`run_programs`, programs over many inputs.
- ``cpu_clock``: the interpreter's CPU time read from outside, and a reply read under it.
"""

from __future__ import annotations

from verification.run.sandbox.engines import ENGINES, Engine, available_engine
from verification.run.sandbox.execution import PROGRAM_FAILURES, Execution, Outcome
from verification.run.sandbox.limits import Limits, cpu_seconds_for
from verification.run.sandbox.runs import run_program, run_programs
from verification.run.sandbox.session import ProgramSession, encode_input

__all__ = [
    "ENGINES",
    "PROGRAM_FAILURES",
    "Engine",
    "Execution",
    "Limits",
    "Outcome",
    "ProgramSession",
    "available_engine",
    "cpu_seconds_for",
    "encode_input",
    "run_program",
    "run_programs",
]
