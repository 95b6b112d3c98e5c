"""One attempt's journal line, made from what the attempt had: its case (or the id alone,
when a plugin could not draw it), the verdict on its reply, and the reply."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from verification.cases import (
    ProgramTask,
    TestCase,
    parse_case_id,
    parse_program_id,
)
from verification.llm.base import LLMResponse
from verification.llm.credentials import redact_known
from verification.run.answers import Judgement
from verification.store.records import PROGRAM_TIER, Arm, AttemptRecord, cap_response

__all__ = ["attempt_record"]


def _undrawn(identifier: str) -> TestCase:
    """The case ``identifier`` names, as far as its id says (no input, no answer)."""
    program = parse_program_id(identifier)
    if program is not None:
        scaffold, index = program
        return ProgramTask(
            id=identifier, scaffold=scaffold, tier="standard", index=index, input={}, expected={}
        )
    key = parse_case_id(identifier)
    assert key is not None  # planned ids are made by case_id()
    return TestCase(
        id=identifier,
        scaffold=key.scaffold,
        tier=key.tier,
        index=key.index,
        input={},
        expected={},
        size=key.size,
    )


_written: tuple[int, str] = (-1, "")
"""The second :func:`_now` last wrote, and its text."""


def _now() -> str:
    """``datetime.now(UTC).isoformat(timespec="seconds")``, formatted once per second (the
    second ``datetime.now`` takes: the system clock's nanoseconds, floored)."""
    global _written
    second = time.time_ns() // 1_000_000_000
    if second != _written[0]:
        _written = (second, datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds"))
    return _written[1]


def attempt_record(
    identifier: str,
    case: TestCase | None,
    verdict: Judgement,
    *,
    epoch: int,
    attempt: int,
    model_asked: str,
    response: LLMResponse | None = None,
    latency_s: float = 0.0,
    batch_id: str | None = None,
    arm: Arm | None = None,
) -> AttemptRecord:
    """The journal line of one attempt at case ``identifier``: ``case`` is ``None`` when
    its plugin could not draw it (its id says the rest), ``response`` is ``None`` when no
    reply came."""
    drawn = case or _undrawn(identifier)
    raw, raw_chars, raw_sha = cap_response(response.content if response else None)
    record = AttemptRecord(
        scaffold=drawn.scaffold,
        case_id=identifier,
        index=drawn.index,
        epoch=epoch,
        attempt=attempt,
        tier=PROGRAM_TIER if isinstance(drawn, ProgramTask) else drawn.tier,
        input=drawn.input,
        expected=drawn.expected,
        outcome=verdict.outcome,
        level=verdict.level,
        reason=redact_known(verdict.reason),  # an error's words may be a server's
        leniency=list(verdict.leniency),
        answer=verdict.answer,
        raw_response=raw,
        raw_response_chars=raw_chars,
        raw_response_sha256=raw_sha,
        stop_reason=response.stop_reason if response else None,
        usage=dict(response.usage) if response else {},
        latency_s=round(latency_s, 6),
        model=response.model if response else None,
        finished_at=_now(),
        source=response.source if response else None,
        size=drawn.size,
        model_asked=model_asked,
        batch_id=batch_id,
        program=verdict.program,
        arm=arm,
    )
    if case is not None:
        record.keep_case(case)
    return record
