"""Code mode's programs: the suite each is run on, reading one from a reply, running it in
the sandbox and judging every case.

A program is asked once per request (``dijkstra-program-000``) and run on the whole suite:
the level's cases of every tier, then the spec's size ladder on the standard tier, far past
the trace sizes (:attr:`~verification.catalog.spec.ScaffoldSpec.code_ladder`). Cases run in
one sandboxed interpreter (:mod:`verification.run.sandbox`), each tier's in increasing size;
once a case is over its time limit at size ``S``, the tier's remaining cases (size ``S`` and
above) are not run. Each
case is judged at level 2 (it returned within the limits a value that fits the answer schema)
and level 3 (the validator accepts it); a program passes when every case passes.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator, Sequence
from typing import Any

from verification.cases import TIERS, ProgramTask, TestCase, Tier, program_id
from verification.catalog.code_format import code_answer
from verification.catalog.drawing import draw_case, plan_tier_counts
from verification.catalog.spec import ScaffoldSpec
from verification.llm.reply_blocks import REASONING_ONLY, after_reasoning, fenced_blocks
from verification.run.sandbox import Execution, Outcome
from verification.store.records import CaseRun, CaseRunOutcome, ProgramFailure, ProgramRun
from verification.validators.base import Validator
from verification.validators.judging import failed_level, judge_answer

__all__ = [
    "LADDER_CASES",
    "MAX_PROGRAM_CHARS",
    "OUTPUT_CHARS",
    "PASSED_OUTPUT_CHARS",
    "SUITE_CASES",
    "extract_program",
    "judge_executions",
    "program_suite",
    "program_tasks",
    "run_order",
    "source_sha256",
    "suite_cases",
]

LADDER_CASES = 2
"""Cases drawn at each size of a spec's code-mode ladder."""
SUITE_CASES: dict[str, int] = {"quick": 5, "standard": 40, "thorough": 100}
"""The cases of every tier each program runs on, per level, before the ladder (the
certification plan counts programs, not these)."""
MAX_PROGRAM_CHARS = 256 * 1024
"""The longest program read from a reply."""
OUTPUT_CHARS = 2000
"""How much of a returned value, an input or an expected answer a record keeps."""
PASSED_OUTPUT_CHARS = 200
"""How much of a passed case's returned value a record keeps."""
_PYTHON_TAGS = frozenset({"python", "py", "python3"})


def extract_program(text: str | None) -> tuple[str | None, str]:
    """The program of a reply, its last fenced ```python block, or ``None`` with why there
    is none; it must compile (level 1, syntactic)."""
    if text is None or not text.strip():
        return None, "the reply is empty"
    if len(text) > 8 * MAX_PROGRAM_CHARS:
        return None, f"the reply is longer than {8 * MAX_PROGRAM_CHARS // 1024} KiB"
    text = after_reasoning(text)  # a program drafted while thinking is not the answer
    if not text.strip():
        return None, REASONING_ONLY
    blocks = [block for block in fenced_blocks(text) if block[0] in _PYTHON_TAGS]
    if not blocks:
        return None, "the reply holds no fenced ```python block"
    _, source, closed = blocks[-1]
    if not closed:
        return None, "the reply ends inside an unclosed ```python block"
    if len(source) > MAX_PROGRAM_CHARS:
        return None, f"the program is longer than {MAX_PROGRAM_CHARS // 1024} KiB"
    try:
        compile(source, "<program>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        return None, f"the program does not compile: {type(exc).__name__}: {exc}"[:500]
    return source, "one python block that compiles"


def source_sha256(source: str) -> str:
    """What identical programs share: the hash of their source text."""
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()


def suite_cases(
    spec: ScaffoldSpec, *, seed: int, cases: int, tiers: Sequence[Tier]
) -> Iterator[TestCase]:
    """The cases every program of ``spec`` runs on, in suite order, each drawn when it is
    asked for: ``cases`` split over ``tiers`` at their default sizes, then
    :data:`LADDER_CASES` at each size of the spec's ladder (standard tier)."""
    counts = plan_tier_counts(cases, tiers)
    keys: list[tuple[Tier, int, int | None]] = [
        (tier, index, None) for tier in tiers for index in range(counts[tier])
    ]
    if "standard" in tiers:
        keys += [
            ("standard", index, size)
            for size in spec.code_ladder
            if size != spec.sizes["standard"]
            for index in range(LADDER_CASES)
        ]
    for tier, index, size in keys:
        yield draw_case(spec, tier, index, seed=seed, size=size)


def program_suite(
    spec: ScaffoldSpec, *, seed: int, cases: int, tiers: Sequence[Tier]
) -> tuple[list[TestCase], list[float]]:
    """The cases every program of ``spec`` runs on (:func:`suite_cases`), with the
    reference's seconds on each."""
    suite: list[TestCase] = []
    seconds: list[float] = []
    for case in suite_cases(spec, seed=seed, cases=cases, tiers=tiers):
        started = time.perf_counter()
        spec.reference(**case.input)
        seconds.append(time.perf_counter() - started)
        suite.append(case)
    return suite, seconds


def program_tasks(
    spec: ScaffoldSpec, *, seed: int, cases: int, tiers: Sequence[Tier], count: int
) -> list[TestCase]:
    """The ``count`` programs asked of ``spec`` (each a
    :class:`~verification.cases.ProgramTask`), each to be run on the same suite."""
    suite, seconds = program_suite(spec, seed=seed, cases=cases, tiers=tiers)
    return [
        ProgramTask(
            id=program_id(spec.name, index),
            scaffold=spec.name,
            tier="standard",
            index=index,
            input={},
            expected={},
            suite=tuple(suite),
            reference_seconds=tuple(seconds),
        )
        for index in range(count)
    ]


def run_order(suite: Sequence[TestCase]) -> list[int]:
    """The positions of ``suite`` in the order they run: tier by tier, sizes increasing."""
    rank = {tier: i for i, tier in enumerate(TIERS)}
    return sorted(
        range(len(suite)),
        key=lambda i: (rank.get(suite[i].tier, len(TIERS)), suite[i].size or 0, i),
    )


def _cut(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, allow_nan=False)
    return text if len(text) <= OUTPUT_CHARS else text[: OUTPUT_CHARS - 3] + "..."


def _schema_problem(spec: ScaffoldSpec, answer: Any) -> str | None:
    if not isinstance(answer, dict):
        return f"solve returned {type(answer).__name__}, not a dict"
    misfit = spec.answer_misfit(answer)  # as a reply is judged
    return None if misfit is None else "the answer does not fit the schema: " + misfit


def _judge_case(
    spec: ScaffoldSpec, validator: Validator, case: TestCase, execution: Execution
) -> tuple[CaseRunOutcome, int | None, str]:
    if execution.outcome is Outcome.NOT_RUN:
        return "not_run", None, execution.reason
    if execution.outcome is not Outcome.OK:
        level = 1 if execution.outcome is Outcome.SYNTAX else 2
        return "failed", level, f"{execution.outcome.value}: {execution.reason}"[:OUTPUT_CHARS]
    answer = code_answer(spec, execution.value, case.expected)
    problem = _schema_problem(spec, answer)
    if problem is not None:
        return "failed", 2, problem[:OUTPUT_CHARS]
    verdict = judge_answer(validator, answer, case)
    if verdict.is_valid:
        return "passed", None, verdict.message[:OUTPUT_CHARS]
    # A right value written against a rule the Code Format states is the contract's (2).
    return "failed", failed_level(verdict), verdict.message[:OUTPUT_CHARS]


def judge_executions(
    spec: ScaffoldSpec,
    validator: Validator,
    task: ProgramTask,
    source: str,
    executions: Sequence[Execution],
    *,
    engine: str,
    python: str,
    harness_seconds: float = 0.0,
    shared_with: str | None = None,
) -> ProgramRun:
    """Each case's verdict on ``executions`` (one per case of ``task``'s suite, in suite
    order) and the program's first failing case."""
    runs: list[CaseRun] = []
    first: ProgramFailure | None = None
    for position, (case, execution) in enumerate(zip(task.suite, executions, strict=True)):
        outcome, level, reason = _judge_case(spec, validator, case, execution)
        output = _cut(json.dumps(execution.value)) if execution.ok else None
        if output is not None and outcome == "passed" and len(output) > PASSED_OUTPUT_CHARS:
            # A right answer is the reference's: its beginning is enough to recognise it.
            output = output[: PASSED_OUTPUT_CHARS - 3] + "..."
        runs.append(
            CaseRun(
                case_id=case.id,
                tier=case.tier,
                size=case.size,
                outcome=outcome,
                level=level,
                reason=reason,
                seconds=(
                    None
                    if outcome == "not_run"
                    else round(execution.solve_seconds or execution.seconds, 6)
                ),
                reference_seconds=round(task.reference_seconds[position], 6),
                output=output,
            )
        )
        if first is None and outcome == "failed":
            first = ProgramFailure(
                case_id=case.id,
                level=level,
                reason=reason,
                input=_cut(case.input),
                expected=_cut(case.expected),
                actual=output,
            )
    return ProgramRun(
        # A program sharing another's source is recorded once, with that one.
        source=None if shared_with else source[:MAX_PROGRAM_CHARS],
        source_sha256=source_sha256(source),
        cases=runs,
        first_failure=first,
        python=python,
        engine=engine,
        harness_seconds=round(harness_seconds, 6),
        shared_with=shared_with,
    )
