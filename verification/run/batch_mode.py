"""``--batch``: a run's cases through Anthropic's Message Batches (half price), a mode of
the runner that produces the same journal lines as the default one.

Round after round, until nothing is left to ask:

1. From the journal, each case sample's next attempt: the first, or a repair of the last
   one when it could not be read (repairs go in a later batch, as their prompts need the
   first answer), or again an attempt that ended in an infrastructure error on resume.
2. Answers the response cache holds are journalled from it and not sent.
3. The rest go in batches (at most :data:`~verification.llm.batches.MAX_BATCH_REQUESTS`
   requests or :data:`~verification.llm.batches.MAX_BATCH_BYTES` each), each request under
   a ``custom_id`` made of its case id, sample and attempt (hashed when it would not fit
   ``^[a-zA-Z0-9_-]{1,64}$``). Each batch's id and the ``custom_id`` mapping are written to
   ``batches.jsonl`` in the run folder, flushed to the disk, *before* it is polled: a
   process killed while waiting resumes polling that batch instead of sending it again.
4. Each batch is polled every ``batch_poll_interval`` seconds until it ends or
   ``batch_deadline`` passes (no per-call time limit applies meanwhile); its results, in
   any order, are journalled: ``succeeded`` judged like any answer (``source`` ``batch``),
   ``errored``, ``canceled`` and ``expired`` as infrastructure errors naming why. Then the
   batch is marked collected.

Samples that did not succeed in a batch are then finished synchronously through the
default mode (``batch_sync_finish``, on by default), or left to ``--resume``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from verification.cases import TestCase
from verification.catalog.spec import ScaffoldSpec
from verification.config import RunConfig
from verification.errors import (
    ConfigurationError,
    InvalidRequestError,
    JournalError,
    LLMError,
    PluginError,
    StoredFileError,
)
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse
from verification.llm.batches import (
    BATCH_ID,
    CUSTOM_ID,
    MAX_BATCH_BYTES,
    MAX_BATCH_REQUESTS,
    BatchResult,
    ClaudeBatches,
    batches_for,
)
from verification.llm.prompt_builder import Prompt, PromptBuilder
from verification.run.budget import CostBudget
from verification.store.journal import read_journal
from verification.store.manifests import RunManifest
from verification.store.paths import RunPaths
from verification.store.pricing import BATCH_PRICE_SHARE, estimate_tokens
from verification.store.records import AttemptRecord
from verification.store.stored_files import open_regular_file, parse_stored_json
from verification.validators.base import Validator

__all__ = [
    "BATCH_FILE",
    "BatchLine",
    "BatchLog",
    "BatchMode",
    "JobTuple",
    "RequestKey",
    "custom_id",
    "run_batches",
]

BATCH_FILE = "batches.jsonl"
MAX_BATCH_LINE_BYTES = 64 * 1024 * 1024
"""The longest ``batches.jsonl`` line read back (a submitted batch's custom id map)."""
logger = logging.getLogger(__name__)

JobTuple = tuple[ScaffoldSpec, TestCase, Validator, int]
"""(spec, case, validator, sample): one case sample, as the runner plans it."""


class RequestKey(BaseModel):
    """What one ``custom_id`` stands for."""

    case_id: str = Field(max_length=200)
    epoch: int = Field(ge=0)
    attempt: int = Field(ge=1, le=3)


class BatchLine(BaseModel):
    """One line of ``batches.jsonl``."""

    event: Literal["submitted", "collected"]
    batch_id: str = Field(pattern=rf"^{BATCH_ID.pattern}$")
    at: str = Field(max_length=64)
    requests: dict[str, RequestKey] = {}
    """``custom_id`` -> case sample and attempt (``submitted`` only)."""
    note: str | None = Field(default=None, max_length=300)


def custom_id(case_id: str, epoch: int, attempt: int) -> str:
    """The ``custom_id`` of one attempt at one case sample: readable when it fits the API's
    ``^[a-zA-Z0-9_-]{1,64}$``, else a hash of it (``batches.jsonl`` keeps the mapping)."""
    plain = f"{case_id}_{epoch}_{attempt}"
    if CUSTOM_ID.fullmatch(plain):
        return plain
    return "h-" + hashlib.sha256(plain.encode("utf-8", "surrogatepass")).hexdigest()[:48]


class BatchLog:
    """``batches.jsonl``: appended and forced to the disk line by line; read back as an
    untrusted file (regular file, bounded lines, each validated)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def append(self, line: BatchLine) -> None:
        text = json.dumps(line.model_dump(mode="json"), allow_nan=False, ensure_ascii=True)
        with self.path.open("a", encoding="utf-8") as file:
            file.write(text + "\n")
            file.flush()
            os.fsync(file.fileno())  # a batch paid for must be found again after a crash

    def read(self) -> list[BatchLine]:
        try:
            fd = open_regular_file(self.path)
        except FileNotFoundError:
            return []
        lines: list[BatchLine] = []
        with os.fdopen(fd, "rb") as file:
            while raw := file.readline(MAX_BATCH_LINE_BYTES + 1):
                where = f"{self.path}:{len(lines) + 1}"
                if len(raw) > MAX_BATCH_LINE_BYTES or not raw.endswith(b"\n"):
                    # Not skipped: a batch it names could be paid for twice. The user decides.
                    raise JournalError(
                        f"{where}: not a whole batch line (torn by a crash, or too long). "
                        "If it names a batch, that batch may be under way; remove the line "
                        "to send its requests again, then --resume"
                    )
                try:
                    data = parse_stored_json(raw.decode("utf-8"), where=where)
                    lines.append(BatchLine.model_validate(data))
                except (UnicodeDecodeError, ValueError, ValidationError, StoredFileError) as exc:
                    raise JournalError(f"{where}: not a batch line ({exc})"[:400]) from None
        return lines

    def pending(self) -> list[BatchLine]:
        """Batches submitted and not yet collected, oldest first."""
        lines = self.read()
        collected = {line.batch_id for line in lines if line.event == "collected"}
        return [x for x in lines if x.event == "submitted" and x.batch_id not in collected]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class _Step:
    """One attempt to ask: a job, which attempt, and its request."""

    job: JobTuple
    attempt: int
    request: LLMRequest

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.job[1].id, self.job[3], self.attempt)


Judge = Callable[[JobTuple, LLMRequest, LLMResponse | LLMError, int], Awaitable[AttemptRecord]]
"""Judges and journals one attempt's reply (the runner's ``judged``)."""
FinishSync = Callable[[Sequence[tuple[JobTuple, Prompt, int]]], Awaitable[object]]
"""Answers (job, prompt, first attempt) through the default mode, repairs included."""


@dataclass
class BatchMode:
    """Answers a run's jobs through Message Batches."""

    batches: ClaudeBatches
    log: BatchLog
    prompt_builder: PromptBuilder
    request_for: Callable[[JobTuple, Prompt], LLMRequest]
    cached: Callable[[LLMRequest], Awaitable[LLMResponse | None]]
    """The response cache's answer to a request, if it holds one."""
    judge: Judge
    plugin_failed: Callable[[JobTuple, PluginError], Awaitable[object]]
    journal: Callable[[], list[AttemptRecord]]
    finish_sync: FinishSync | None
    """Answers what did not succeed in a batch (``None``: left to ``--resume``)."""
    repair_attempts: int
    poll_interval: float
    deadline: float
    budget: CostBudget | None = None
    """``--max-cost``: each batch is held whole against it when it is sent."""
    submitted: int = 0
    """Batches this process sent."""
    _held: list[int] = field(default_factory=list)

    @classmethod
    def for_run(
        cls,
        batches: ClaudeBatches,
        paths: RunPaths,
        settings: RunConfig,
        *,
        prompt_builder: PromptBuilder,
        request_for: Callable[[JobTuple, Prompt], LLMRequest],
        cached: Callable[[LLMRequest], Awaitable[LLMResponse | None]],
        judge: Judge,
        plugin_failed: Callable[[JobTuple, PluginError], Awaitable[object]],
        finish_sync: FinishSync,
        budget: CostBudget | None,
    ) -> BatchMode:
        """The batch mode of the run in ``paths``: its batches logged beside its journal,
        polled and repaired as ``settings`` say, ``finish_sync`` used only when they ask
        (``VERIFY_BATCH_SYNC_FINISH``)."""
        return cls(
            batches,
            BatchLog(paths.run_dir / BATCH_FILE),
            prompt_builder=prompt_builder,
            request_for=request_for,
            cached=cached,
            judge=judge,
            plugin_failed=plugin_failed,
            journal=lambda: read_journal(paths.journal),
            finish_sync=finish_sync if settings.batch_sync_finish else None,
            repair_attempts=settings.repair_attempts,
            poll_interval=settings.batch_poll_interval,
            deadline=settings.batch_deadline,
            budget=budget,
        )

    async def run(self, jobs: Sequence[JobTuple]) -> None:
        """Ask every job's attempts in batches, then finish the rest synchronously."""
        by_sample = {(job[1].id, job[3]): job for job in jobs}
        asked: set[tuple[str, int, int]] = set()
        unfinished: dict[tuple[str, int], tuple[int, str]] = {}
        while True:
            for line in self.log.pending():  # a killed run's batches are polled, not re-sent
                await self._collect(line, by_sample, unfinished)
            steps = [s for s in await self._next_steps(jobs) if s.key not in asked]
            if not steps:
                break
            sent = []
            for step in steps:
                hit = await self.cached(step.request)
                if hit is not None:  # the response cache answers: nothing to send
                    await self.judge(step.job, step.request, hit, step.attempt)
                    asked.add(step.key)
                else:
                    sent.append(step)
            for chunk in _chunks(sent, self.batches):
                if not self._reserve(chunk):
                    logger.warning("--max-cost: a batch of %d request(s) not sent", len(chunk))
                    return  # the budget is spent: nothing more is sent, the run says so
                await self._submit(chunk)
                asked.update(step.key for step in chunk)
        if unfinished and self.finish_sync is not None:
            await self.finish_sync(
                [
                    (by_sample[sample], self._prompt(by_sample[sample], attempt, chains), attempt)
                    for chains in [self._chains()]
                    for sample, (attempt, _) in unfinished.items()
                ]
            )

    # -- what to ask next ---------------------------------------------------------------

    def _chains(self) -> dict[tuple[str, int], dict[int, AttemptRecord]]:
        chains: dict[tuple[str, int], dict[int, AttemptRecord]] = {}
        for record in self.journal():
            chains.setdefault((record.case_id, record.epoch), {})[record.attempt] = record
        return chains

    def _prompt(
        self, job: JobTuple, attempt: int, chains: dict[tuple[str, int], dict[int, AttemptRecord]]
    ) -> Prompt:
        """Attempt ``attempt``'s prompt: the case's, with a repair for each reply before
        it that could not be read (their reasons from the journal's ``chains``)."""
        spec, case, _, epoch = job
        prompt = self.prompt_builder.build(spec, case.input)
        chain = chains.get((case.id, epoch), {})
        for earlier in range(1, attempt):
            prompt = PromptBuilder.repair(prompt, chain[earlier].reason)
        return prompt

    async def _next_steps(self, jobs: Sequence[JobTuple]) -> list[_Step]:
        chains = self._chains()
        steps = []
        for job in jobs:
            attempt = _next_attempt(chains.get((job[1].id, job[3]), {}), self.repair_attempts)
            if attempt is None:
                continue
            try:
                prompt = self._prompt(job, attempt, chains)
            except PluginError as exc:  # no prompt, no request: the plugin's failure is kept
                await self.plugin_failed(job, exc)
                continue
            steps.append(_Step(job, attempt, self.request_for(job, prompt)))
        return steps

    # -- one batch -----------------------------------------------------------------------

    def _reserve(self, steps: Sequence[_Step]) -> bool:
        """Count a batch whole against the budget before it is sent: the worst case of
        every request in it, at the batch price."""
        if self.budget is None:
            return True
        worst = sum(
            self.budget.worst_case(
                estimate_tokens(step.request.system or "") + estimate_tokens(step.request.prompt),
                step.request.max_tokens,
                1,
            )
            for step in steps
        )
        key = self.submitted + 1  # one hold per batch this process sends
        if not self.budget.start(key, BATCH_PRICE_SHARE * worst):
            return False
        self._held.append(key)
        return True

    async def _submit(self, steps: Sequence[_Step]) -> None:
        requests = {custom_id(*step.key): step for step in steps}
        if len(requests) != len(steps):  # a hash collision of two attempts: never silent
            raise JournalError("two requests of one batch got the same custom_id")
        batch_id = await self.batches.submit([(cid, s.request) for cid, s in requests.items()])
        self.submitted += 1
        self.log.append(
            BatchLine(
                event="submitted",
                batch_id=batch_id,
                at=_now(),
                requests={
                    cid: RequestKey(case_id=s.key[0], epoch=s.key[1], attempt=s.key[2])
                    for cid, s in requests.items()
                },
            )
        )
        logger.info("batch %s: %d request(s) submitted", batch_id, len(requests))

    async def _collect(
        self,
        line: BatchLine,
        by_sample: dict[tuple[str, int], JobTuple],
        unfinished: dict[tuple[str, int], tuple[int, str]],
    ) -> None:
        """Poll ``line``'s batch until it ends (or its deadline passes) and journal its
        results; a request without a succeeded result is left ``unfinished``."""
        started = time.monotonic() - _age(line.at)  # the deadline runs from submission
        results: list[BatchResult] = []
        note = None
        while not await self._ended(line):
            if time.monotonic() - started >= self.deadline:
                note = f"the batch did not end within {self.deadline:g} s: canceled"
                await self.batches.cancel(line.batch_id)  # what it has not done is not paid
                break
            await asyncio.sleep(self.poll_interval)
        else:
            results = await self.batches.results(line.batch_id)
        seen = set()
        chains = self._chains()
        for result in results:
            key = line.requests.get(result.custom_id)
            job = by_sample.get((key.case_id, key.epoch)) if key else None
            if key is None or job is None or result.custom_id in seen:
                logger.warning("batch %s: a result for no request of it", line.batch_id)
                continue
            seen.add(result.custom_id)
            await self._journal(line, job, key.attempt, result, unfinished, chains)
        for cid, key in line.requests.items():
            job = by_sample.get((key.case_id, key.epoch))
            if cid not in seen and job is not None:
                missing = BatchResult(cid, "errored", error=note or "the batch gave no result")
                await self._journal(line, job, key.attempt, missing, unfinished, chains)
        self.log.append(BatchLine(event="collected", batch_id=line.batch_id, at=_now(), note=note))
        if self.budget is not None and self._held:  # what it cost is recorded: the hold goes
            self.budget.finish(self._held.pop(0))

    async def _ended(self, line: BatchLine) -> bool:
        try:
            return await self.batches.ended(line.batch_id)
        except InvalidRequestError as exc:
            if exc.status_code != 404:
                raise
            # A batch of another workspace or key, or a line written by hand: a resume would
            # stop here again, so the error says how to go on.
            raise JournalError(
                f"{self.log.path}: the server knows no batch {line.batch_id} ({exc}). If it "
                "was sent with another key, resume with that key; else remove its line to "
                "send its requests again, then --resume"
            ) from None

    async def _journal(
        self,
        line: BatchLine,
        job: JobTuple,
        attempt: int,
        result: BatchResult,
        unfinished: dict[tuple[str, int], tuple[int, str]],
        chains: dict[tuple[str, int], dict[int, AttemptRecord]],
    ) -> None:
        request = self.request_for(job, self._prompt(job, attempt, chains))
        sample = (job[1].id, job[3])
        if result.response is not None:
            unfinished.pop(sample, None)
            await self.judge(job, request, result.response, attempt)
            if self.budget is not None:
                self.budget.record(result.response.usage, share=BATCH_PRICE_SHARE)
            return
        reason = f"batch {line.batch_id}: {result.error or result.kind}"
        unfinished[sample] = (attempt, reason)
        await self.judge(job, request, LLMError(reason), attempt)


def _age(stamp: str) -> float:
    """Seconds since ``stamp`` (an ISO time this module wrote); 0 when it is none."""
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return 0.0
    if then.tzinfo is None:
        return 0.0
    return max((datetime.now(UTC) - then).total_seconds(), 0.0)


def _next_attempt(chain: dict[int, AttemptRecord], repair_attempts: int) -> int | None:
    """The attempt a case sample needs next, given its journalled attempts; ``None`` when
    it is answered (or out of repairs)."""
    if not chain:
        return 1
    last = max(chain)
    record = chain[last]
    if record.outcome == "infra_error":
        return last
    if record.outcome == "failed" and record.level in (1, 2) and last < repair_attempts:
        return last + 1
    return None


def _chunks(steps: Sequence[_Step], batches: ClaudeBatches) -> list[list[_Step]]:
    """``steps`` cut into batches the API takes (request count and size)."""
    chunks: list[list[_Step]] = []
    size = 0
    for step in steps:
        length = len(json.dumps(batches.params(step.request))) + 100
        if not chunks or len(chunks[-1]) >= MAX_BATCH_REQUESTS or size + length > MAX_BATCH_BYTES:
            chunks.append([])
            size = 0
        chunks[-1].append(step)
        size += length
    return chunks


def run_batches(
    settings: RunConfig, provider: LLMProvider, previous: RunManifest | None
) -> ClaudeBatches | None:
    """The Message Batches a run is sent through (``--batch``, or a resumed run that was),
    else ``None``; refused beside early stopping, which asks in looks."""
    if not (settings.batch or (previous is not None and previous.settings.get("batch"))):
        return None
    if settings.early_stop or (previous is not None and previous.early_stops is not None):
        raise ConfigurationError(
            "--batch sends every case at once: leave out --early-stop (it asks in looks)"
        )
    return batches_for(provider)  # a provider without batches: said before
