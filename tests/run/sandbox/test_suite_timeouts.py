"""A program's run on its suite (``execute_suite``): after a time-out at size S the tier's
remaining cases, of size S and above, are not run, so a program that never returns costs one
time-out per tier; a case killed by the wall clock says so in its own reason. These start
sandboxed interpreters."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections import Counter

import pytest

from verification.cases import ProgramTask
from verification.catalog import default_catalog
from verification.run.code_answers import execute_suite
from verification.run.programs import program_tasks
from verification.run.sandbox import Engine, Execution, Limits, Outcome, ProgramSession

pytestmark = pytest.mark.slow

# A spinning case ends at its CPU limit: a tenth of a second (the floor of a case's limit
# scaled from the reference's time, 1 s by default) is plenty for dijkstra's cases here,
# which take milliseconds, and each time-out costs that much CPU.
LIMITS = Limits(cpu_seconds=0.5, wall_seconds=4, startup_seconds=20, cpu_floor_seconds=0.1)


@pytest.fixture(scope="module")
def task() -> ProgramTask:
    """The dijkstra suite both suite tests run, drawn once (its ladder up to 1,000 vertices
    is a second of CPU to draw); they only read it."""
    spec = default_catalog().get_spec("dijkstra")
    (task,) = program_tasks(spec, seed=26, cases=5, tiers=("simple", "standard", "edge"), count=1)
    assert isinstance(task, ProgramTask)
    return task


def _execute(source: str, task: ProgramTask, engine: Engine) -> list[Execution]:
    return asyncio.run(execute_suite(source, task, engine=engine, limits=LIMITS))


def test_a_time_out_skips_the_rest_of_its_size_and_every_larger_one(
    engine: Engine, task: ProgramTask
) -> None:
    """The ladder draws two cases at each size: the second at the size that timed out is
    not run either (it waited out its own limit before)."""
    source = (
        "def solve(input):\n"
        "    while len(input['vertices']) >= 50:\n"
        "        pass\n"
        "    return {'distances': {v: None for v in input['vertices']}}\n"
    )
    executions = _execute(source, task, engine)
    standard = [
        (case.size or 0, execution)
        for case, execution in zip(task.suite, executions, strict=True)
        if case.tier == "standard"
    ]
    at_50 = [execution.outcome for size, execution in standard if size == 50]
    assert len(at_50) >= 2, "the ladder should draw more than one case at size 50"
    assert Counter(at_50) == Counter({Outcome.TIMEOUT: 1, Outcome.NOT_RUN: len(at_50) - 1})
    for size, execution in standard:
        if size < 50:
            assert execution.outcome is Outcome.OK, execution.reason
        elif execution.outcome is Outcome.NOT_RUN:
            assert execution.reason == "not run: over the time limit at size 50"
    assert sum(execution.outcome is Outcome.TIMEOUT for _, execution in standard) == 1


def test_a_program_that_never_returns_costs_one_time_out_per_tier(
    engine: Engine, task: ProgramTask
) -> None:
    executions = _execute("def solve(input):\n    while True:\n        pass\n", task, engine)
    by_tier: dict[str, Counter[Outcome]] = {}
    for case, execution in zip(task.suite, executions, strict=True):
        by_tier.setdefault(case.tier, Counter())[execution.outcome] += 1
    tiers = {case.tier for case in task.suite}
    assert set(by_tier) == tiers
    for counts in by_tier.values():
        assert counts[Outcome.TIMEOUT] == 1
        assert counts[Outcome.TIMEOUT] + counts[Outcome.NOT_RUN] == sum(counts.values())
    # The run is as short as its time-outs: one wall clock per tier at most, not per case
    # (a loaded machine may end a spinning case at its wall clock before its CPU limit).
    spent = sum(execution.seconds for execution in executions)
    assert spent < len(tiers) * (LIMITS.wall_seconds + 1)


def test_a_wall_clock_kill_reads_as_its_own_reason(engine: Engine) -> None:
    sleeper = "import time\n\ndef solve(input):\n    time.sleep(60)\n"
    spinner = "def solve(input):\n    while True:\n        pass\n"

    async def one(source: str, limits: Limits) -> Execution:
        async with ProgramSession(source, limits=limits, engine=engine) as session:
            return await session.run({})

    async def both() -> tuple[Execution, Execution]:
        # At once: the sleeper waits out its wall clock while the spinner spends its CPU.
        # The sleeper's wall clock is short (the test waits it out in full; its sleep spends
        # no CPU, so it cannot reach its CPU limit first). The spinner's own wall clock is
        # generous: it ends at its CPU limit however small a share of a core a loaded
        # machine gives it (4 s of wall at load 12 gave 0.9 s).
        brief = Limits(cpu_seconds=LIMITS.cpu_seconds, wall_seconds=1, startup_seconds=20)
        generous = Limits(cpu_seconds=0.25, wall_seconds=60, startup_seconds=20)
        return await asyncio.gather(one(sleeper, brief), one(spinner, generous))

    slept, spun = asyncio.run(both())
    assert slept.outcome is Outcome.TIMEOUT and spun.outcome is Outcome.TIMEOUT
    assert slept.reason.startswith("killed at the wall-clock limit of 1 s")
    assert "having used" in slept.reason and "CPU limit" not in slept.reason
    assert "CPU limit" in spun.reason and "wall-clock" not in spun.reason


def test_a_program_that_crashes_each_case_to_be_started_again_spends_the_suite_s_clock(
    engine: Engine, task: ProgramTask
) -> None:
    # Each crash starts the interpreter again and reruns the top level, under the start-up
    # limit alone; with a sleep there, a suite of crashes took most of an hour of wall time.
    source = "import os, time\ntime.sleep(0.3)\ndef solve(input):\n    os._exit(3)\n"
    limits = dataclasses.replace(LIMITS, suite_wall_seconds=1.0)
    executions = asyncio.run(execute_suite(source, task, engine=engine, limits=limits))
    outcomes = Counter(execution.outcome for execution in executions)
    assert outcomes[Outcome.CRASH] >= 1 and outcomes[Outcome.NOT_RUN] >= len(task.suite) // 2
    spent = [e for e in executions if e.outcome is Outcome.NOT_RUN]
    assert all(e.reason == "not run: the suite's wall-clock limit of 1 s is spent" for e in spent)


def test_a_right_program_that_sleeps_out_the_suite_s_clock_does_not_pass(
    engine: Engine, task: ProgramTask
) -> None:
    # Hunt jj 2: the cases left once the suite's clock was spent were "not run", which is
    # no failure, so a program right on the few cases it had time for passed "all" of them.
    from pathlib import Path

    from verification.run.programs import extract_program, judge_executions

    reply = Path(__file__).parents[1] / "fixtures" / "helper_programs" / "dijkstra-program-000.txt"
    right, why = extract_program(reply.read_text(encoding="utf-8"))
    assert right is not None, why
    slow = right + "\nimport time as _time\n_solve = solve\n\ndef solve(input):\n"
    slow += "    _time.sleep(0.3)\n    return _solve(input)\n"
    limits = dataclasses.replace(LIMITS, suite_wall_seconds=1.0)
    executions = asyncio.run(execute_suite(slow, task, engine=engine, limits=limits))
    outcomes = [execution.outcome for execution in executions]
    assert Outcome.OK in outcomes and Outcome.NOT_RUN in outcomes
    (timed_out,) = [e for e in executions if e.outcome is Outcome.TIMEOUT]
    assert "the suite's wall-clock limit of 1 s was spent before this case" in timed_out.reason
    spec = default_catalog().get_spec("dijkstra")
    run = judge_executions(spec, spec.validator, task, slow, executions, engine="test", python="3")
    passed = [case for case in run.cases if case.outcome == "passed"]
    assert passed and all(case.outcome != "failed" or case.level == 2 for case in run.cases)
    assert run.first_failure is not None and run.first_failure.level == 2
    assert "suite's wall-clock limit" in run.first_failure.reason


def test_an_answer_far_longer_than_the_expected_one_is_refused_before_it_is_judged(
    engine: Engine, task: ProgramTask
) -> None:
    # Hunt jj 3: an answer of megabytes passed the driver's 16 MiB bound and cost the
    # harness seconds and gigabytes to judge (its schema's errors, one per element).
    from verification.run.code_answers import MIN_ANSWER_BYTES, answer_bytes_for

    source = "def solve(input):\n    return {'distances': [None] * 100_000}\n"
    executions = asyncio.run(execute_suite(source, task, engine=engine, limits=LIMITS))
    for case, execution in zip(task.suite, executions, strict=True):
        limit = answer_bytes_for(case.expected, LIMITS)
        assert MIN_ANSWER_BYTES <= limit <= LIMITS.value_bytes
        assert execution.outcome is Outcome.OUTPUT_LIMIT, execution
        assert f"over this case's limit of {limit:,}" in execution.reason
    # The expected answers themselves, and one 16 times as long, fit.
    for case in task.suite:
        assert len(json.dumps(case.expected).encode()) * 16 <= answer_bytes_for(
            case.expected, LIMITS
        )
