"""A sandbox that starts while its user's task count grows, as it does beside another sandbox
of the same user running a thread bomb; and its program's threads, still limited.

Not a test module: ``test_hostile.py`` runs this file as an ordinary user (``setpriv`` to
``nobody``, with the system's Python), for whom RLIMIT_NPROC counts every task of the user.
Between the engine's launch and the interpreter's start, :data:`CROWD` threads of this
process appear (the neighbour's bomb); the limit is set on the running interpreter, so the
sandbox starts, and its program can still start no more than its limit allows. It prints
the execution as JSON.
"""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import asdict
from typing import Any

from verification.run.sandbox import Limits, available_engine, run_program
from verification.run.sandbox.engines import Launch

__all__ = ["ASKED", "CROWD", "LIMITS", "run_crowded"]

LIMITS = Limits(processes=16)
CROWD = 3 * LIMITS.processes
"""Tasks of the user that appear after the launch: more than its margin of processes."""
ASKED = 4 * LIMITS.processes
"""The threads the program tries to start: all of them start with no limit on its tasks."""

PROGRAM = (
    "import resource, threading, time\n"
    "def solve(i):\n"
    "    started = 0\n"
    "    try:\n"
    "        for _ in range(i['threads']):\n"
    "            threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
    "            started += 1\n"
    "    except RuntimeError:  # can't start new thread: a limit\n"
    "        pass\n"
    "    return {'started': started, 'nproc': resource.getrlimit(resource.RLIMIT_NPROC)}\n"
)


def run_crowded() -> dict[str, Any]:
    """The program's execution, :data:`CROWD` threads of this process started between the
    engine's launch and the interpreter's start."""
    engine = available_engine("bubblewrap")
    launch_alone = engine.launch
    release = threading.Event()

    def crowded_launch(limits: Limits, code: str) -> Launch:
        launch = launch_alone(limits, code)
        for _ in range(CROWD):
            threading.Thread(target=release.wait, daemon=True).start()
        return launch

    engine.launch = crowded_launch  # type: ignore[method-assign]
    try:
        (execution,) = asyncio.run(
            run_program(PROGRAM, [{"threads": ASKED}], limits=LIMITS, engine=engine)
        )
    finally:
        release.set()
    return {**asdict(execution), "outcome": execution.outcome.value}


if __name__ == "__main__":
    print(json.dumps(run_crowded(), default=str))
