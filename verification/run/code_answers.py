"""The ``code`` answer kind (``--answer code``): the model writes the algorithm once, as a
Python program, and the harness runs it in a sandbox on every case of the suite.

Each request asks one program (a :class:`~verification.cases.ProgramTask`, id
``<scaffold>-program-<k>``); its prompt is the scaffold plus the Code Format
(:func:`~verification.catalog.code_format.code_format`). Its judgement is level 1 when the
reply holds no python block that compiles, else the program's run on the suite
(:mod:`verification.run.programs`): passed when every case passes, failed naming its first
failing case and level. Identical programs (the same source) are executed once and share
their executions. A reply with no program is repaired like an unreadable trace.

The sandbox engine is found when the kind is made, before any request: where none works
the run is refused saying how to install one (there is no unsandboxed fallback).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from verification.cases import ProgramTask, TestCase
from verification.catalog import Catalog
from verification.catalog.code_format import code_format
from verification.catalog.spec import ScaffoldSpec
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.prompt_builder import Prompt, PromptBuilder
from verification.run.answers import Judgement, stopped_early
from verification.run.programs import extract_program, judge_executions, run_order, source_sha256
from verification.run.sandbox import (
    Engine,
    Execution,
    Limits,
    Outcome,
    ProgramSession,
    available_engine,
    cpu_seconds_for,
)
from verification.run.sandbox.limits import CPU_FACTOR, CPU_FLOOR_SECONDS
from verification.store.records import AttemptRecord, ProgramRun
from verification.validators.base import Validator

__all__ = [
    "ANSWER_FACTOR",
    "MIN_ANSWER_BYTES",
    "CodeAnswers",
    "answer_bytes_for",
    "code_prompt",
    "execute_suite",
    "python_version",
    "time_limit_text",
]


def python_version() -> str:
    """The Python the sandbox runs programs on, as the Code Format names it: the harness's
    own interpreter (``major.minor``: the same in every prompt of a run)."""
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def time_limit_text() -> str:
    """How the Code Format states a call's time limit."""
    return (
        f"{CPU_FACTOR:g} times the reference implementation's CPU time on the same input "
        f"(plain Python, following the scaffold's method), and never less than "
        f"{CPU_FLOOR_SECONDS:g} s"
    )


def code_prompt(
    prompt_builder: PromptBuilder, spec: ScaffoldSpec, *, version: str | None = None
) -> Prompt:
    """A program's prompt: the scaffold verbatim (the system prompt, as in trace mode) and
    the Code Format as the user prompt, naming Python ``version`` (default: the harness's,
    which the bubblewrap sandbox runs)."""
    user = code_format(
        spec, python_version=version or python_version(), time_limit=time_limit_text()
    )
    return Prompt(system=prompt_builder.get_scaffold_content(spec), user=user)


async def execute_suite(
    source: str, task: ProgramTask, *, engine: Engine, limits: Limits | None = None
) -> list[Execution]:
    """``source`` on every case of ``task``'s suite in one sandboxed interpreter, tier by
    tier in increasing size; after a time-out at size ``S`` the tier's remaining cases of
    size ``S`` and above are not run (each would only wait out its own limit), and once the
    suite's wall clock (``limits.suite_wall_seconds``) is spent no case is (a program that
    crashes each case, to be started again, or sleeps under its CPU limit, would otherwise
    hold its slot for most of an hour): the first case it leaves is the program's time-out,
    the rest are not run. One execution per case, in suite order."""
    limits = limits or Limits()
    executions: dict[int, Execution] = {}
    over: dict[str, int] = {}
    clock_spent = False
    began = time.monotonic()
    async with ProgramSession(source, limits=limits, engine=engine) as session:
        for position in run_order(task.suite):
            case = task.suite[position]
            size = case.size or 0
            if time.monotonic() - began >= limits.suite_wall_seconds:
                # The first case the clock leaves unrun is the program's time-out: a suite
                # slept through to its clock passed on the cases it had time for (hunt jj 2).
                executions[position] = Execution(
                    Outcome.NOT_RUN if clock_spent else Outcome.TIMEOUT,
                    reason=(
                        f"not run: {_SUITE_SPENT} of {limits.suite_wall_seconds:g} s is spent"
                        if clock_spent
                        else f"{_SUITE_SPENT} of {limits.suite_wall_seconds:g} s was spent "
                        "before this case: a program passes only if it runs its whole suite"
                    ),
                )
                clock_spent = True
                continue
            if case.tier in over and size >= over[case.tier]:
                executions[position] = Execution(
                    Outcome.NOT_RUN,
                    reason=f"not run: over the time limit at size {over[case.tier]}",
                )
                continue
            execution = await session.run(
                case.input,
                cpu_seconds=cpu_seconds_for(
                    task.reference_seconds[position], floor=limits.cpu_floor_seconds
                ),
                answer_bytes=answer_bytes_for(case.expected, limits),
            )
            if execution.outcome is Outcome.TIMEOUT:
                over[case.tier] = size
            executions[position] = execution
    return [executions[i] for i in range(len(task.suite))]


_SUITE_SPENT = "the suite's wall-clock limit"

ANSWER_FACTOR = 16
"""A case's answer may be this many times its expected answer's JSON, and no more (an
answer of the same fields, its numbers written longer, its lists in another order)."""
MIN_ANSWER_BYTES = 64 * 1024
"""The least a case's answer may be, however short its expected answer."""


def answer_bytes_for(expected: object, limits: Limits) -> int:
    """The most JSON a case's answer may be: :data:`ANSWER_FACTOR` times its expected
    answer's, never under :data:`MIN_ANSWER_BYTES` nor over ``limits.value_bytes``. An
    answer megabytes long is wrong whatever it holds, and judging it cost the harness
    seconds and gigabytes (its schema's errors, one per element; hunt jj 3)."""
    expected_bytes = len(json.dumps(expected, ensure_ascii=False).encode())
    return min(limits.value_bytes, max(MIN_ANSWER_BYTES, ANSWER_FACTOR * expected_bytes))


@dataclass
class CodeAnswers:
    """Programs, asked with the Code Format and run in the sandbox found when made."""

    prompt_builder: PromptBuilder
    catalog: Catalog
    engine: Engine | None = None
    """The sandbox (found when the kind is made, unless given)."""
    sandbox: str | None = None
    """The engine asked for by name (``--sandbox``); ``None``: the first that works."""
    parallel: int = field(default_factory=lambda: os.cpu_count() or 1)
    """Programs executed at once."""
    _runs: dict[tuple[str, str, str], asyncio.Future[list[Execution]]] = field(
        default_factory=dict, init=False
    )
    _first: dict[tuple[str, str, str], str] = field(default_factory=dict, init=False)
    _judged: dict[tuple[str, str, str], ProgramRun] = field(default_factory=dict, init=False)
    _overhead: dict[tuple[str, str, str], float] = field(default_factory=dict, init=False)
    """The harness's own seconds in each suite's run: its wall time less the cases'."""
    _slots: asyncio.Semaphore | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        if self.engine is None:
            self.engine = available_engine(self.sandbox)

    def prompt(self, spec: ScaffoldSpec, case: TestCase) -> Prompt:
        # The sandbox's own Python (a Docker image's may differ from the harness's).
        running = self.engine.python_version if self.engine is not None else ""
        version = ".".join(running.split(".")[:2]) or None
        return code_prompt(self.prompt_builder, spec, version=version)

    async def judge(
        self,
        spec: ScaffoldSpec,
        validator: Validator,
        case: TestCase,
        request: LLMRequest,
        response: LLMResponse,
    ) -> Judgement:
        started = time.perf_counter()
        source, reason = extract_program(response.content)
        read = time.perf_counter() - started
        early = stopped_early(response, request.max_tokens)
        if early is not None:
            return early._replace(program=ProgramRun(source=source))
        if source is None:
            return Judgement("failed", 1, reason, program=ProgramRun(source=None))
        if not isinstance(case, ProgramTask) or not case.suite:
            return Judgement("infra_error", None, f"{case.id} is no program with a suite")
        executions, shared = await self._executions(spec, case, source)
        judging = time.perf_counter()
        assert self.engine is not None
        key = self._key(spec, case, source)
        judged = self._judged.get(key) if shared else None
        if judged is not None:  # the same executions judged the same way: judged once
            # Recorded once, with the first program: its cases are this one's too.
            run = judged.model_copy(
                update={"source": None, "cases": [], "shared_with": shared, "harness_seconds": 0.0}
            )
        else:
            run = judge_executions(
                spec,
                validator,
                case,
                source,
                executions,
                engine=self.engine.name,
                python=self.engine.python_version or python_version(),
                shared_with=shared,
            )
            # Reading the reply, running the suite outside the cases' own round trips
            # (the sandbox's start included) and judging: not the wait for a free slot.
            overhead = self._overhead.get(key, 0.0) if not shared else 0.0
            harness = read + overhead + time.perf_counter() - judging
            run = run.model_copy(update={"harness_seconds": round(max(0.0, harness), 6)})
            if not shared:
                self._judged[key] = run
        if any(e.outcome is Outcome.SANDBOX for e in executions):
            failed = next(e for e in executions if e.outcome is Outcome.SANDBOX)
            return Judgement("infra_error", None, f"the sandbox failed: {failed.reason}"[:500])
        return _verdict(run) if judged is None else _verdict(judged, recorded=run)

    async def _executions(
        self, spec: ScaffoldSpec, task: ProgramTask, source: str
    ) -> tuple[list[Execution], str | None]:
        """The executions of ``source`` on the suite: run now, or shared with the program
        of the same source run before (whose id is returned)."""
        key = self._key(spec, task, source)
        if key in self._runs:
            return list(await asyncio.shield(self._runs[key])), self._first[key]
        future: asyncio.Future[list[Execution]] = asyncio.get_running_loop().create_future()
        self._runs[key] = future
        self._first[key] = task.id
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.parallel)
        assert self.engine is not None
        try:
            async with self._slots:
                began = time.perf_counter()
                executions = await execute_suite(source, task, engine=self.engine)
                elapsed = time.perf_counter() - began
            self._overhead[key] = max(0.0, elapsed - sum(e.seconds for e in executions))
        except BaseException as exc:
            del self._runs[key]
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when none waits
            raise
        future.set_result(executions)
        return executions, None

    @staticmethod
    def _key(spec: ScaffoldSpec, task: ProgramTask, source: str) -> tuple[str, str, str]:
        """What identical programs share: the scaffold, its suite and the source."""
        return (spec.name, task.suite[0].id if task.suite else "", source_sha256(source))

    def needs_repair(self, record: AttemptRecord) -> bool:
        return record.outcome == "failed" and record.level == 1

    def repair(self, prompt: Prompt, reason: str) -> Prompt:
        return PromptBuilder.repair_program(prompt, reason)


def _verdict(run: ProgramRun, recorded: ProgramRun | None = None) -> Judgement:
    """The verdict of ``run`` (its cases judged), journalled with ``recorded`` (default
    ``run``): a program identical to one judged before records no cases of its own, and is
    told by the cases of that one."""
    cases: Sequence[object] = run.cases
    first = run.first_failure
    program = run if recorded is None else recorded
    same = f" (the same source as {recorded.shared_with})" if recorded is not None else ""
    if first is None:
        return Judgement("passed", None, f"passed all {len(cases)} cases{same}", program=program)
    failed = sum(c.outcome != "passed" for c in run.cases)
    size = next((c.size for c in run.cases if c.case_id == first.case_id), None)
    at = f" (size {size})" if size is not None else ""
    return Judgement(
        "failed",
        first.level,
        f"first failing case {first.case_id}{at}, level {first.level}: {first.reason}"[:600]
        + f" ({failed} of {len(cases)} cases not passed){same}",
        program=program,
    )
