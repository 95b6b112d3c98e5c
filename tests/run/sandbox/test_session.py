"""A program in the sandbox, case by case: its answers, each way a case can fail as its own
outcome with its reason, one interpreter for many cases, a fresh one after a case kills it.
These start sandboxes (bubblewrap here; the engine that ``available_engine`` finds)."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Sequence

import pytest

from verification.run.sandbox import (
    Engine,
    Execution,
    Limits,
    Outcome,
    ProgramSession,
    run_program,
    run_programs,
)
from verification.run.sandbox.engines import Launch

pytestmark = pytest.mark.slow

FAST = Limits(cpu_seconds=1, wall_seconds=4, startup_seconds=20)
SORTER = """
def solve(input):
    return {"sorted": sorted(input["values"]), "total": sum(input["values"])}
"""


def _run(
    source: str, inputs: Sequence[dict[str, object]], engine: Engine, limits: Limits = FAST
) -> list[Execution]:
    return asyncio.run(run_program(source, inputs, limits=limits, engine=engine))


def _inputs(count: int) -> list[dict[str, object]]:
    rng = random.Random(26)
    return [
        {"values": [rng.randint(-99, 99) for _ in range(rng.randint(0, 30))]} for _ in range(count)
    ]


def test_a_correct_program_answers_every_case_in_one_interpreter(engine: Engine) -> None:
    inputs = _inputs(50)

    async def go() -> tuple[list[Execution], int]:
        async with ProgramSession(SORTER, limits=FAST, engine=engine) as session:
            done = [await session.run(case) for case in inputs]
            return done, session.starts

    executions, starts = asyncio.run(go())
    assert starts == 1
    for case, execution in zip(inputs, executions, strict=True):
        values = case["values"]
        assert isinstance(values, list)
        assert execution.outcome is Outcome.OK, execution.reason
        assert execution.value == {"sorted": sorted(values), "total": sum(values)}
        assert execution.seconds > 0 and execution.solve_seconds is not None
        assert execution.output.startswith("{")


def test_the_python_version_the_sandbox_runs_is_known(engine: Engine) -> None:
    (execution,) = _run(
        "import sys\ndef solve(i): return {'v': list(sys.version_info[:3])}", [{}], engine
    )
    assert ".".join(map(str, execution.value["v"])) == engine.python_version  # type: ignore[index]


def test_hashes_repeat_across_interpreters(engine: Engine) -> None:
    source = "def solve(i): return {'h': hash('dijkstra')}"
    first, second = (_run(source, [{}], engine)[0] for _ in range(2))
    assert first.value == second.value


@pytest.mark.parametrize(
    ("source", "outcome", "words"),
    [
        ("def solve(:\n", Outcome.SYNTAX, "SyntaxError"),
        ("x = 1\n", Outcome.NO_SOLVE, "solve"),
        ("solve = 3\n", Outcome.NO_SOLVE, "solve"),
        ("raise RuntimeError('at import')\n", Outcome.EXCEPTION, "at import"),
        ("def solve(i):\n    raise KeyError('nope')\n", Outcome.EXCEPTION, "KeyError"),
        # Hunt jj 7: a lone surrogate in an honest message read as a damaged reply.
        ("def solve(i):\n    raise ValueError('\\ud800')\n", Outcome.EXCEPTION, "\\ud800"),
        ("def solve(i):\n    return {1: 2}\n", Outcome.BAD_VALUE, "key of type int"),
        ("def solve(i):\n    return {'d': float('inf')}\n", Outcome.BAD_VALUE, "inf"),
        ("def solve(i):\n    return {'s': {1}}\n", Outcome.BAD_VALUE, "set"),
        ("def solve(i):\n    return ['a' * 100] * 20000\n", Outcome.OUTPUT_LIMIT, "bytes"),
        ("def solve(i):\n    while True:\n        pass\n", Outcome.TIMEOUT, "CPU"),
    ],
)
def test_each_failure_is_the_programs_outcome_with_its_reason(
    engine: Engine, source: str, outcome: Outcome, words: str
) -> None:
    # A quarter of a second of CPU: the spinning program ends there (the harness reads its
    # CPU clock); the others take milliseconds.
    limits = Limits(cpu_seconds=0.25, wall_seconds=8, value_bytes=1 << 20)
    executions = _run(source, [{}, {}], engine, limits)
    for execution in executions:
        assert execution.outcome is outcome, execution
        assert words in execution.reason, execution.reason
        assert execution.value is None and execution.output == ""


def test_a_spinning_case_ends_at_its_cpu_limit_not_at_the_rlimit_past_it(engine: Engine) -> None:
    """The harness reads the interpreter's CPU clock when the limit could first be reached
    and ends the case there; the soft rlimit (whole seconds, one past the case's end, at 2 s
    of CPU here) is only the backstop."""
    limits = Limits(cpu_seconds=0.25, wall_seconds=30)
    (spun,) = _run("def solve(i):\n    while True:\n        pass\n", [{}], engine, limits)
    assert spun.outcome is Outcome.TIMEOUT, spun
    assert spun.reason.startswith("over the CPU limit of 0.25 s"), spun.reason
    assert spun.cpu_seconds is not None and 0.25 <= spun.cpu_seconds < 1.25, spun


def test_a_case_that_kills_the_interpreter_is_its_own_failure_and_the_next_starts_afresh(
    engine: Engine,
) -> None:
    source = (
        "import os\ndef solve(i):\n    if i['die']:\n        os._exit(7)\n    return {'ok': 1}\n"
    )
    inputs = [{"die": False}, {"die": True}, {"die": False}]

    async def go() -> tuple[list[Execution], int]:
        async with ProgramSession(source, limits=FAST, engine=engine) as session:
            return [await session.run(case) for case in inputs], session.starts

    executions, starts = asyncio.run(go())
    assert [e.outcome for e in executions] == [Outcome.OK, Outcome.CRASH, Outcome.OK]
    assert "exit status 7" in executions[1].reason
    assert starts == 2


def test_a_program_that_fails_to_start_is_started_once(engine: Engine) -> None:
    async def go() -> int:
        async with ProgramSession("def solve(:", limits=FAST, engine=engine) as session:
            for _ in range(5):
                await session.run({})
            return session.starts

    assert asyncio.run(go()) == 1


def test_a_cases_own_cpu_limit_applies(engine: Engine) -> None:
    source = (
        "import time\n"
        "def solve(i):\n"
        "    end = time.process_time() + i['spin']\n"
        "    while time.process_time() < end:\n"
        "        pass\n"
        "    return {}\n"
    )
    # The same spin, past the case's own limit and within the session's: each spin is CPU
    # the test pays, so it is short (60 clock ticks of /proc; the case's limit half that).
    limits = Limits(cpu_seconds=5, wall_seconds=40)

    async def go() -> list[Execution]:
        async with ProgramSession(source, limits=limits, engine=engine) as session:
            return [
                await session.run({"spin": 0.6}, cpu_seconds=0.3),
                await session.run({"spin": 0.6}),
            ]

    tight, loose = asyncio.run(go())
    assert tight.outcome is Outcome.TIMEOUT and loose.outcome is Outcome.OK
    assert loose.cpu_seconds is not None and loose.cpu_seconds >= 0.55


def test_a_program_s_top_level_is_charged_to_the_next_case_after_each_start(
    engine: Engine,
) -> None:
    # Hunt jj 5: the CPU of the top level (run when the program is loaded, and again after
    # each crash) was charged to no case: tables precomputed there were free.
    source = (
        "import os, time\n"
        "end = time.process_time() + 0.6\n"
        "while time.process_time() < end:\n"
        "    pass\n"
        "def solve(i):\n"
        "    if i.get('crash'):\n"
        "        os._exit(3)\n"
        "    return {}\n"
    )
    limits = Limits(cpu_seconds=5, wall_seconds=40)

    async def go() -> tuple[list[Execution], int]:
        async with ProgramSession(source, limits=limits, engine=engine) as session:
            done = [
                await session.run({}),  # the load's 0.6 s, within 5 s
                await session.run({}, cpu_seconds=0.3),  # loaded already: nothing of it
                await session.run({"crash": True}),
                await session.run({}, cpu_seconds=0.3),  # loaded again: 0.6 s, over
            ]
            return done, session.starts

    (first, second, crashed, again), starts = asyncio.run(go())
    assert starts == 2 and crashed.outcome is Outcome.CRASH
    assert first.outcome is Outcome.OK and first.cpu_seconds is not None
    assert first.cpu_seconds >= 0.55
    assert second.outcome is Outcome.OK and second.cpu_seconds is not None
    assert second.cpu_seconds < 0.3
    assert again.outcome is Outcome.TIMEOUT, again.reason
    assert "of it the program's top level, run when it was loaded" in again.reason


def test_identical_programs_run_once_and_share_their_executions(engine: Engine) -> None:
    other = SORTER.replace("sum(", "max(0, *")
    results = asyncio.run(
        run_programs([SORTER, other, SORTER], _inputs(3), limits=FAST, engine=engine)
    )
    assert results[0] is results[2] and results[0] is not results[1]
    assert all(e.ok for e in results[1])


def test_threads_and_child_processes_are_refused(engine: Engine) -> None:
    # As the Code Format's rules say: and RLIMIT_NPROC binds no root, where threads of small
    # stacks ran by the thousand.
    source = (
        "import os, threading\n"
        "def solve(i):\n"
        "    if i['fork']:\n"
        "        os.fork()\n"
        "    threading.Thread(target=print).start()\n"
        "    return {}\n"
    )
    threaded, forked = _run(source, [{"fork": False}, {"fork": True}], engine)
    assert threaded.outcome is Outcome.EXCEPTION and "can't start new thread" in threaded.reason
    assert forked.outcome is Outcome.EXCEPTION and "PermissionError" in forked.reason


@pytest.mark.parametrize(
    "grab",
    [
        # System V shared memory, attached and filled: outside the address-space limit.
        "import ctypes\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "if libc.shmget(0, 1 << 20, 0o1600) < 0: raise OSError(ctypes.get_errno(), 'shmget')\n",
        # A memory file filled by writing: counted by no limit the sandbox sets.
        "import os\nos.memfd_create('x')\n",
    ],
)
def test_memory_outside_the_address_space_is_refused(engine: Engine, grab: str) -> None:
    source = grab + "def solve(i):\n    return {}\n"
    (execution,) = _run(source, [{}], engine)
    assert execution.outcome is Outcome.EXCEPTION, execution
    assert "Errno 1" in execution.reason or "PermissionError" in execution.reason


def test_a_program_cannot_pass_its_crash_off_as_the_sandbox_s(engine: Engine) -> None:
    # "bwrap:" on its error output, then a crash: the program's own failure, not an
    # infrastructure error left out of the pass rate.
    source = "import os, sys\nsys.stderr.write('bwrap: no\\n'); sys.stderr.flush(); os._exit(1)\n"
    (execution,) = _run(source, [{}], engine)
    assert execution.outcome is Outcome.CRASH, execution


def test_a_time_the_program_forges_is_not_taken(engine: Engine) -> None:
    # The driver's clock and repr are the program's builtins too.
    template = (
        "import builtins\nbuiltins.repr = lambda x: {forged!r}\ndef solve(i):\n    return {{}}\n"
    )
    for forged in ("1e400", "-1e11", "1" * 401, "NaN"):
        (execution,) = _run(template.format(forged=forged), [{}], engine)
        if forged == "NaN":  # no JSON: the reply is the program's damage, judged so
            assert execution.outcome is Outcome.BAD_VALUE, execution
            continue
        assert execution.outcome is Outcome.OK, execution
        assert execution.solve_seconds is not None
        assert 0 <= execution.solve_seconds <= execution.seconds


def test_cases_asked_at_once_of_one_session_are_served_in_turn(engine: Engine) -> None:
    inputs = _inputs(6)

    async def go() -> list[Execution]:
        async with ProgramSession(SORTER, limits=FAST, engine=engine) as session:
            return list(await asyncio.gather(*(session.run(case) for case in inputs)))

    for case, execution in zip(inputs, asyncio.run(go()), strict=True):
        values = case["values"]
        assert isinstance(values, list)
        assert execution.value == {"sorted": sorted(values), "total": sum(values)}


def test_a_file_over_the_file_size_limit_cannot_be_written(engine: Engine) -> None:
    limits = Limits(cpu_seconds=2, wall_seconds=10, file_bytes=1024**2, tmp_bytes=64 * 1024**2)
    source = (
        "def solve(i):\n"
        "    with open('/tmp/big', 'wb') as f:\n"
        "        f.write(b'x' * i['bytes'])\n"
        "    return {'wrote': i['bytes']}\n"
    )
    under, over = _run(source, [{"bytes": 1024**2}, {"bytes": 1024**2 + 1}], engine, limits)
    assert under.outcome is Outcome.OK
    assert over.outcome is Outcome.EXCEPTION and "File too large" in over.reason


def test_a_program_whose_task_limit_cannot_be_set_ends_as_a_sandbox_failure(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(engine_pid: int, limits: Limits) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(engine, "limit_tasks", refused)  # this engine's prlimit, refused
    # Refused before the program is sent (the session sends it only once the limit is set):
    # the run raises nothing, and the case says why it was not answered.
    (execution,) = _run(SORTER, [{"values": [2, 1]}], engine)
    assert execution.outcome is Outcome.SANDBOX
    assert "its task limit could not be set" in execution.reason
    assert "Operation not permitted" in execution.reason


def test_an_interpreter_that_does_not_start_the_driver_is_sent_no_program(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    launch = engine.launch
    # In place of the driver: a first line that is not "started", then a wait for a program.
    impostor = 'import sys; print(\'{"status": "ready"}\', flush=True); sys.stdin.readline()'

    def launched(limits: Limits, code: str) -> Launch:
        made = launch(limits, code)
        return dataclasses.replace(made, argv=[*made.argv[:-1], impostor])

    limited: list[int] = []
    monkeypatch.setattr(engine, "launch", launched)
    monkeypatch.setattr(engine, "limit_tasks", lambda pid, limits: limited.append(pid))
    (execution,) = _run(SORTER, [{"values": [2, 1]}], engine)
    assert execution.outcome is Outcome.SANDBOX
    assert execution.reason == "starting the program: the interpreter did not start the driver"
    assert limited == []  # nor was it limited as if the driver ran


def test_a_case_whose_cpu_clock_is_gone_ends_and_the_next_starts_afresh(engine: Engine) -> None:
    # Hunt jj 1: a program handed its pipes to another process of its sandbox and ended;
    # the case then waited with no CPU limit (the clock read nothing), and so did every case
    # after it. The clock lost in a case now ends it; lost between cases, starts afresh.
    source = "import time\ndef solve(i):\n    time.sleep(i['sleep'])\n    return {'ok': 1}\n"
    limits = Limits(cpu_seconds=1, wall_seconds=30, startup_seconds=20)

    async def gone(session: ProgramSession) -> None:
        assert session._clock is not None
        session._clock.seconds = lambda: None  # type: ignore[method-assign]

    async def go() -> tuple[list[Execution], int]:
        async with ProgramSession(source, limits=limits, engine=engine) as session:
            first = await session.run({"sleep": 0})
            asking = asyncio.ensure_future(session.run({"sleep": 60}))
            await asyncio.sleep(0.5)
            await gone(session)
            lost = await asking
            again = await session.run({"sleep": 0})
            await gone(session)  # between cases now
            fresh = await session.run({"sleep": 0})
            return [first, lost, again, fresh], session.starts

    (first, lost, again, fresh), starts = asyncio.run(go())
    assert first.outcome is Outcome.OK and again.outcome is Outcome.OK
    assert lost.outcome is Outcome.CRASH, lost
    assert "the interpreter ended during the case" in lost.reason
    assert lost.seconds < limits.wall_seconds / 2  # ended, not waited out to its wall clock
    assert fresh.outcome is Outcome.OK and fresh.cpu_seconds is not None
    assert starts == 3  # the first, after the lost case, and after the clock went between


def test_a_reply_written_ahead_of_its_case_is_no_reply_to_it(engine: Engine) -> None:
    # Hunt jj 4: a program wrote whole reply lines on the driver's descriptor; each was read
    # as a later case's answer before that case's input was sent, every reply after shifted.
    source = (
        "import gc, os\n"
        "def solve(i):\n"
        "    channel = next(o for o in gc.get_objects() if type(o).__name__ == '_Channel')\n"
        "    said = channel.dumps(getattr(channel, 'nonce', None)).encode()\n"
        '    ahead = b\'{"status":"ok","nonce":\' + said\n'
        '    ahead += b\',"seconds":0.0,"value":{"n":9}}\\n\'\n'
        "    os.write(channel.out_fd, ahead * 2)\n"
        "    return {'n': i['n']}\n"
    )
    executions = _run(source, [{"n": 1}, {"n": 2}, {"n": 3}], engine)
    first, second, third = executions
    assert first.outcome is Outcome.OK and first.value == {"n": 9}  # its own nonce: its own
    assert second.outcome is Outcome.BAD_VALUE, second
    assert "the reply was not to this case" in second.reason
    assert third.outcome is Outcome.OK and third.value == {"n": 9}  # a fresh interpreter
