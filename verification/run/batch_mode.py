"""``--batch`` (the ``batches`` transport): a run's cases through Anthropic's Message
Batches (half price), making the same journal lines as the concurrent transport.

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

Samples that did not succeed in a batch are then finished synchronously as the concurrent
transport asks (``batch_sync_finish``, on by default), or left to ``--resume``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from verification.errors import (
    InvalidRequestError,
    JournalError,
    LLMError,
    PluginError,
    StoredFileError,
)
from verification.llm.base import LLMRequest
from verification.llm.batches import (
    BATCH_ID,
    CUSTOM_ID,
    MAX_BATCH_BYTES,
    MAX_BATCH_REQUESTS,
    BatchResult,
    ClaudeBatches,
    batches_for,
)
from verification.llm.limiter import Slot
from verification.llm.prompt_builder import Prompt
from verification.run.attempts import Job
from verification.run.transport import TransportSetting
from verification.store.pricing import BATCH_PRICE_SHARE, estimate_tokens
from verification.store.records import AttemptRecord
from verification.store.stored_files import open_regular_file, parse_stored_json

__all__ = [
    "BATCH_FILE",
    "BatchLine",
    "BatchLog",
    "BatchTransport",
    "RequestKey",
    "custom_id",
]

BATCH_FILE = "batches.jsonl"
MAX_BATCH_LINE_BYTES = 64 * 1024 * 1024
"""The longest ``batches.jsonl`` line read back (a submitted batch's custom id map)."""
logger = logging.getLogger(__name__)


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

    job: Job
    attempt: int
    request: LLMRequest

    @property
    def key(self) -> tuple[str, int, int]:
        return (*self.job.sample, self.attempt)


Chains = dict[tuple[str, int], dict[int, AttemptRecord]]
"""Each case sample's journalled attempts, by attempt."""


class BatchTransport:
    """The ``batches`` transport: a run's jobs through Message Batches."""

    def __init__(self, setting: TransportSetting) -> None:
        """The batch transport of the run in ``setting``: its batches logged beside its
        journal, polled as its settings say, what a batch left finished through the
        concurrent transport only when they ask (``VERIFY_BATCH_SYNC_FINISH``)."""
        self.attempts = setting.attempts
        self.batches = batches_for(self.attempts.provider)  # refused before the folder is made
        self.log = BatchLog(setting.paths.run_dir / BATCH_FILE)
        self.scheduler = setting.scheduler if setting.settings.batch_sync_finish else None
        """Answers what did not succeed in a batch (``None``: left to ``--resume``)."""
        self.poll_interval = setting.settings.batch_poll_interval
        self.deadline = setting.settings.batch_deadline
        self.submitted = 0
        """Batches this process sent."""
        self._held: list[int] = []

    async def send(self, jobs: Sequence[Job]) -> None:
        """Ask every job's attempts in batches, then finish the rest synchronously."""
        by_sample = {job.sample: job for job in jobs}
        asked: set[tuple[str, int, int]] = set()
        unfinished: dict[tuple[str, int], tuple[int, str]] = {}
        while True:
            for line in self.log.pending():  # a killed run's batches are polled, not re-sent
                await self._collect(line, by_sample, unfinished)
            steps = [s for s in self._next_steps(jobs) if s.key not in asked]
            if not steps:
                break
            sent = []
            for step in steps:
                hit = await self.attempts.provider.cached(step.request)
                if hit is not None:  # the response cache answers: nothing to send
                    await self.attempts.judged(step.job, step.request, hit, attempt=step.attempt)
                    asked.add(step.key)
                else:
                    sent.append(step)
            for chunk in _chunks(sent, self.batches):
                if not self._reserve(chunk):
                    logger.warning("--max-cost: a batch of %d request(s) not sent", len(chunk))
                    return  # the budget is spent: nothing more is sent, the run says so
                await self._submit(chunk)
                asked.update(step.key for step in chunk)
        if unfinished and self.scheduler is not None:
            await self._finish(by_sample, unfinished)

    async def _finish(
        self,
        by_sample: dict[tuple[str, int], Job],
        unfinished: dict[tuple[str, int], tuple[int, str]],
    ) -> None:
        """Answer what a batch left through the scheduler, from the attempt it stopped at."""
        assert self.scheduler is not None
        chains = self._chains()
        starts = {
            sample: (self._prompt(by_sample[sample], attempt, chains), attempt)
            for sample, (attempt, _) in unfinished.items()
        }

        async def answer(job: Job, slot: Slot) -> list[AttemptRecord]:
            prompt, attempt = starts[job.sample]
            return await self.attempts.answer(job, slot, prompt=prompt, first_attempt=attempt)

        await self.scheduler.run([by_sample[s] for s in unfinished], self.attempts, answer)

    # -- what to ask next ---------------------------------------------------------------

    def _chains(self) -> Chains:
        chains: Chains = {}
        for record in self.attempts.journalled():
            chains.setdefault((record.case_id, record.epoch), {})[record.attempt] = record
        return chains

    def _prompt(self, job: Job, attempt: int, chains: Chains) -> Prompt:
        return self.attempts.prompt_at(job, attempt, chains.get(job.sample, {}))

    def _next_steps(self, jobs: Sequence[Job]) -> list[_Step]:
        chains = self._chains()
        steps = []
        for job in jobs:
            attempt = self.attempts.next_attempt(chains.get(job.sample, {}))
            if attempt is None:
                continue
            try:
                prompt = self._prompt(job, attempt, chains)
            except PluginError as exc:  # no prompt, no request: the plugin's failure is kept
                self.attempts.keep_plugin_failure(job.case.id, exc, epoch=job.epoch, case=job.case)
                continue
            steps.append(_Step(job, attempt, self.attempts.request_for(job, prompt)))
        return steps

    # -- one batch -----------------------------------------------------------------------

    def _reserve(self, steps: Sequence[_Step]) -> bool:
        """Count a batch whole against the budget before it is sent: the worst case of
        every request in it, at the batch price."""
        budget = self.attempts.budget
        if budget is None:
            return True
        worst = sum(
            budget.worst_case(
                estimate_tokens(step.request.system or "") + estimate_tokens(step.request.prompt),
                step.request.max_tokens,
                1,
            )
            for step in steps
        )
        key = self.submitted + 1  # one hold per batch this process sends
        if not budget.start(key, BATCH_PRICE_SHARE * worst):
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
        by_sample: dict[tuple[str, int], Job],
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
        budget = self.attempts.budget
        if budget is not None and self._held:  # what it cost is recorded: the hold goes
            budget.finish(self._held.pop(0))

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
        job: Job,
        attempt: int,
        result: BatchResult,
        unfinished: dict[tuple[str, int], tuple[int, str]],
        chains: Chains,
    ) -> None:
        request = self.attempts.request_for(job, self._prompt(job, attempt, chains))
        if result.response is not None:
            unfinished.pop(job.sample, None)
            await self.attempts.judged(job, request, result.response, attempt=attempt)
            if self.attempts.budget is not None:
                self.attempts.budget.record(result.response.usage, share=BATCH_PRICE_SHARE)
            return
        reason = f"batch {line.batch_id}: {result.error or result.kind}"
        unfinished[job.sample] = (attempt, reason)
        await self.attempts.judged(job, request, LLMError(reason), attempt=attempt)


def _age(stamp: str) -> float:
    """Seconds since ``stamp`` (an ISO time this module wrote); 0 when it is none."""
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return 0.0
    if then.tzinfo is None:
        return 0.0
    return max((datetime.now(UTC) - then).total_seconds(), 0.0)


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
