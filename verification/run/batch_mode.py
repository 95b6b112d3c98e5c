"""``--batch`` (the ``batches`` transport): a run's cases through Anthropic's Message Batches
(half price), making the same journal lines as the concurrent transport.

Round after round, until nothing is left to ask:

1. From the journal, each case sample's next attempt: the first, or a repair of the last
   one when it could not be read (repairs go in a later batch, as their prompts need the
   first answer), or again an attempt that ended in an infrastructure error on resume.
2. Answers the response cache holds are journalled from it and not sent.
3. The rest go in batches (at most :data:`~verification.llm.batches.MAX_BATCH_REQUESTS`
   requests or :data:`~verification.llm.batches.MAX_BATCH_BYTES` each), each request under
   a ``custom_id`` led by its intent's token (a hash of the run id) and made of its case
   id, sample and attempt (hashed when it would not fit ``^[a-zA-Z0-9_-]{1,64}$``). The
   intent (time, requests, worst cost) is written to ``batches.jsonl`` and forced to the
   disk *before* the create call, and the batch's id after it
   (:mod:`verification.run.batch_log`): a process killed while waiting resumes polling
   that batch instead of sending it again, and one killed during the create call looks
   for the batch it may have made (:mod:`verification.run.batch_intents`).
4. Each batch is polled every ``batch_poll_interval`` seconds until it ends; past
   ``batch_deadline`` it is canceled and polled until it ends canceled (no per-call time
   limit applies meanwhile). Its results, in any order, read line by line, are journalled:
   ``succeeded`` judged like any answer (``source`` ``batch``), ``errored``, ``canceled``,
   ``expired`` and a missing or unreadable result as infrastructure errors naming why.
   Each journal line names its batch, so a result journalled before a crash is never
   journalled (or counted) twice. Then the batch is marked collected.

Samples that did not succeed in a batch are then finished synchronously as the concurrent
transport asks (``batch_sync_finish``, on by default), or left to ``--resume``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from verification.certify.answers import Chains, standing_chains
from verification.errors import (
    FatalLLMError,
    InvalidRequestError,
    JournalError,
    LLMError,
    PluginError,
)
from verification.llm.base import LLMRequest
from verification.llm.batches import (
    MAX_BATCH_BYTES,
    MAX_BATCH_REQUESTS,
    BatchResult,
    BatchResults,
    ClaudeBatches,
    batches_for,
)
from verification.llm.limiter import Slot
from verification.llm.prompt_builder import Prompt
from verification.run.attempts import Job
from verification.run.batch_intents import Adopted, NotMade, Unsure, find_batch
from verification.run.batch_log import (
    BATCH_FILE,
    BatchLine,
    BatchLog,
    RequestKey,
    age,
    custom_id,
    intent_token,
    now,
)
from verification.run.transport import TransportSetting
from verification.store.pricing import BATCH_PRICE_SHARE, estimate_tokens, price_for
from verification.store.records import AttemptRecord

__all__ = ["BATCH_FILE", "CANCEL_WAIT", "BatchLog", "BatchTransport", "custom_id"]

CANCEL_WAIT = 600.0
"""Seconds a canceled batch is polled for to end; one still canceling is left to --resume."""
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Step:
    """One attempt to ask: a job, which attempt, and its request."""

    job: Job
    attempt: int
    request: LLMRequest

    @property
    def key(self) -> tuple[str, int, int]:
        return (*self.job.sample, self.attempt)


Unfinished = dict[tuple[str, int], tuple[int, str]]
"""Case samples a batch did not answer: the attempt it stopped at, and why."""


class BatchTransport:
    """The ``batches`` transport: a run's jobs through Message Batches."""

    def __init__(self, setting: TransportSetting) -> None:
        """The batch transport of the run in ``setting``: its batches logged beside its
        journal, polled as its settings say, what a batch left finished through the
        concurrent transport only when they ask (``VERIFY_BATCH_SYNC_FINISH``)."""
        self.attempts = setting.attempts
        self.batches = batches_for(self.attempts.provider)  # refused before the folder is made
        self.log = BatchLog(setting.paths.run_dir / BATCH_FILE)
        self.run_id = setting.paths.run_id
        self.scheduler = setting.scheduler if setting.settings.batch_sync_finish else None
        """Answers what did not succeed in a batch (``None``: left to ``--resume``)."""
        self.poll_interval = setting.settings.batch_poll_interval
        self.deadline = setting.settings.batch_deadline
        self.resend = setting.settings.batch_resend
        self.prices = setting.settings.prices
        self.submitted = 0
        """Batches this process sent."""
        self._held: dict[str, int] = {}
        """The budget hold of each batch this process sent, by batch id."""
        self._left: set[str] = set()
        """Batches canceled that had not ended: left to --resume."""

    async def send(self, jobs: Sequence[Job]) -> None:
        """Ask every job's attempts in batches, then finish the rest synchronously."""
        by_sample = {job.sample: job for job in jobs}
        asked: set[tuple[str, int, int]] = set()
        unfinished: Unfinished = {}
        await self._resolve_intents()
        while True:
            waiting: set[tuple[str, int]] = set()  # a batch under way answers them
            for line in self.log.pending():  # a killed run's batches are polled, not re-sent
                if line.batch_id in self._left or not await self._collect(
                    line, by_sample, unfinished
                ):
                    self._left.add(str(line.batch_id))
                    waiting.update((k.case_id, k.epoch) for k in line.requests.values())
            steps = [
                s
                for s in self._next_steps(jobs)
                if s.key not in asked and s.job.sample not in waiting
            ]
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
                hold = self._reserve(chunk)
                if hold is None:
                    logger.warning("--max-cost: a batch of %d request(s) not sent", len(chunk))
                    return  # the budget is spent: nothing more is sent, the run says so
                batch_id = await self._submit(chunk)
                if hold:
                    self._held[batch_id] = hold
                asked.update(step.key for step in chunk)
        if unfinished and self.scheduler is not None:
            await self._finish(by_sample, unfinished)

    async def _finish(self, by_sample: dict[tuple[str, int], Job], unfinished: Unfinished) -> None:
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
        # An answer stands against a later infrastructure error on its attempt, as the
        # certification folds the journal (attempt_chains): asked again, a second answer
        # that differs would leave a journal no status is read from.
        return standing_chains(self.attempts.journalled())

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

    # -- sending a batch ----------------------------------------------------------------

    def _worst(self, steps: Sequence[_Step]) -> float | None:
        """The most a batch of ``steps`` could cost: each request's prompt as a cache
        write and its whole output budget, at the batch price (``None``: no price)."""
        budget = self.attempts.budget
        price = budget.price if budget is not None else price_for(self.attempts.model, self.prices)
        if price is None:
            return None
        worst = 0.0
        for step in steps:
            tokens = estimate_tokens(step.request.system or "")
            tokens += estimate_tokens(step.request.prompt)
            worst += price.cost(price.dearest(tokens, step.request.max_tokens))
        return BATCH_PRICE_SHARE * worst

    def _reserve(self, steps: Sequence[_Step]) -> int | None:
        """Count a batch whole against the budget before it is sent (its worst case): the
        hold's key, 0 without a budget, ``None`` when it would pass the budget."""
        budget = self.attempts.budget
        if budget is None:
            return 0
        key = self.submitted + 1  # one hold per batch this process sends
        return key if budget.start(key, self._worst(steps) or 0.0) else None

    async def _submit(self, steps: Sequence[_Step]) -> str:
        token = intent_token(self.run_id, self.log.intents() + 1)
        requests = {custom_id(token, *step.key): step for step in steps}
        if len(requests) != len(steps):  # a hash collision of two attempts: never silent
            raise JournalError("two requests of one batch got the same custom_id")
        mapping = {
            cid: RequestKey(case_id=s.key[0], epoch=s.key[1], attempt=s.key[2])
            for cid, s in requests.items()
        }
        # Written first: a process killed during the call leaves what to look for.
        self.log.append(
            BatchLine(
                event="intent",
                intent=token,
                at=now(),
                requests=mapping,
                worst_usd=self._worst(steps),
            )
        )
        try:
            batch_id = await self.batches.submit([(cid, s.request) for cid, s in requests.items()])
        except FatalLLMError as exc:  # the server refused it: no batch was made
            self.log.append(
                BatchLine(event="abandoned", intent=token, at=now(), note=str(exc)[:300])
            )
            raise
        self.submitted += 1
        self.log.append(
            BatchLine(
                event="submitted", batch_id=batch_id, intent=token, at=now(), requests=mapping
            )
        )
        logger.info("batch %s: %d request(s) submitted", batch_id, len(requests))
        return batch_id

    async def _resolve_intents(self) -> None:
        """Look for the batch of each intent a killed process left without a batch id:
        adopt it, or send its requests again when none was made; stop when that cannot
        be told (unless ``VERIFY_BATCH_RESEND`` says to send them again)."""
        for intent in self.log.unresolved():
            found = await find_batch(
                self.batches,
                intent,
                self.log.known(),
                deadline=self.deadline,
                poll_interval=self.poll_interval,
            )
            token = intent.intent
            if isinstance(found, Adopted):
                logger.warning(
                    "batch %s: made by a create call this run did not see answered; adopted",
                    found.batch_id,
                )
                line = BatchLine(
                    event="submitted",
                    batch_id=found.batch_id,
                    intent=token,
                    at=now(),
                    requests=intent.requests,
                    note="found by listing the batches made since its intent",
                )
                self.log.append(line)
            elif isinstance(found, NotMade):
                note = f"no batch of it was made ({found.looked_at} of its size looked at)"
                self.log.append(BatchLine(event="abandoned", intent=token, at=now(), note=note))
            elif self.resend:
                note = f"sent again (VERIFY_BATCH_RESEND): {found.why}"[:600]
                self.log.append(BatchLine(event="abandoned", intent=token, at=now(), note=note))
                logger.warning("%s: %s", self.log.path, self._unsure(intent, found))
            else:
                raise JournalError(self._unsure(intent, found))

    def _unsure(self, intent: BatchLine, found: Unsure) -> str:
        may_be = ", ".join(
            f"{c.batch_id} ({'ended' if c.ended else 'under way'})" for c in found.candidates
        )
        cost = "" if intent.worst_usd is None else f" (at most ${intent.worst_usd:.4f})"
        command = f"python -m verification verify --resume {self.run_id}"
        return (
            f"{self.log.path}: a batch of {len(intent.requests)} request(s) was being sent at "
            f"{intent.at} when the run stopped, and whether the server made it cannot be "
            f"told: {found.why}. "
            + (f"It may be {may_be}. " if may_be else "")
            + f"If it was made, it is billed{cost}. To wait and look again: {command}. "
            f"To send its requests again (a batch made before is paid too): "
            f"VERIFY_BATCH_RESEND=true {command}"
        )

    # -- collecting a batch -------------------------------------------------------------

    async def _collect(
        self, line: BatchLine, by_sample: dict[tuple[str, int], Job], unfinished: Unfinished
    ) -> bool:
        """Poll ``line``'s batch until it ends (canceled past its deadline) and journal its
        results; a request without a succeeded result is left ``unfinished``. ``False``
        when a canceled batch has not ended yet (left to --resume)."""
        batch_id = str(line.batch_id)
        started = time.monotonic() - age(line.at)  # the deadline runs from submission
        note = None
        canceled_at: float | None = None
        while not await self._ended(line):
            waited = time.monotonic()
            if canceled_at is None and waited - started >= self.deadline:
                note = f"the batch did not end within {self.deadline:g} s: canceled"
                refused = await self._cancel(batch_id)
                if refused is not None:
                    why = f"{note}, and the cancel was refused ({refused}): could not be canceled"
                    await self._journal_all(line, by_sample, unfinished, BatchResults(), why)
                    return True
                canceled_at = waited
            elif canceled_at is not None and waited - canceled_at >= CANCEL_WAIT:
                logger.warning(
                    "batch %s: canceled, and not ended %g s later: --resume reads what it did",
                    batch_id,
                    CANCEL_WAIT,
                )
                return False
            await asyncio.sleep(self.poll_interval)
        try:
            read = await self.batches.results(batch_id, len(line.requests))
        except InvalidRequestError as exc:
            if exc.status_code != 404:
                raise
            # Gone (expired, or a server's fault): asked again, or every resume stops here.
            read = BatchResults(problem=f"its results could not be had ({exc})"[:300])
        await self._journal_all(line, by_sample, unfinished, read, note)
        return True

    async def _cancel(self, batch_id: str) -> str | None:
        """Cancel the batch (what it finished is still read, and billed); the reason when
        the server knows no such batch to cancel."""
        try:
            await self.batches.cancel(batch_id)
        except InvalidRequestError as exc:
            if exc.status_code != 404:
                raise
            return str(exc)[:200]
        return None

    async def _ended(self, line: BatchLine) -> bool:
        try:
            return await self.batches.ended(str(line.batch_id))
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

    async def _journal_all(
        self,
        line: BatchLine,
        by_sample: dict[tuple[str, int], Job],
        unfinished: Unfinished,
        read: BatchResults,
        note: str | None,
    ) -> None:
        """Journal each request's result (or why it has none) once, mark the batch
        collected and release its budget hold."""
        batch_id = str(line.batch_id)
        records = self.attempts.journalled()
        done = {(r.case_id, r.epoch, r.attempt) for r in records if r.batch_id == batch_id}
        chains: Chains = {}
        for record in records:
            chains.setdefault((record.case_id, record.epoch), {})[record.attempt] = record
        results: dict[str, BatchResult] = {}
        given: dict[str, int] = {}
        for result in read.results:
            if result.custom_id not in line.requests:
                logger.warning("batch %s: a result for no request of it", batch_id)
                continue
            given[result.custom_id] = given.get(result.custom_id, 0) + 1
            results.setdefault(result.custom_id, result)
        for cid, count in given.items():
            if count > 1:  # which one is its answer? neither: judged on either, a verdict hung
                # on the lines' order (hunt qq); an infrastructure error, asked again
                logger.warning("batch %s: %d results for request %s", batch_id, count, cid)
                results[cid] = BatchResult(
                    cid, "errored", error=f"the batch gave {count} results for it"
                )
        why = read.problem or "the batch gave no result for it"
        if read.unread:
            why = f"its result could not be read ({read.unread} results line(s) did not decode)"
        for cid, key in line.requests.items():
            job = by_sample.get((key.case_id, key.epoch))
            if job is None or key.key in done:  # journalled before a crash: once only
                continue
            result = results.get(cid) or BatchResult(cid, "errored", error=note or why)
            if note and result.response is None and note not in (result.error or ""):
                result = BatchResult(cid, result.kind, error=f"{result.error} ({note})")
            await self._journal(line, job, key, result, unfinished, chains)
        self.log.append(BatchLine(event="collected", batch_id=batch_id, at=now(), note=note))
        hold = self._held.pop(batch_id, 0)
        if self.attempts.budget is not None and hold:  # what it cost is recorded: the hold goes
            self.attempts.budget.finish(hold)

    async def _journal(
        self,
        line: BatchLine,
        job: Job,
        key: RequestKey,
        result: BatchResult,
        unfinished: Unfinished,
        chains: Chains,
    ) -> None:
        chain = chains.get(job.sample, {})
        lost = [n for n in range(1, key.attempt) if n not in chain]
        if lost:  # a line edited, or of another run: its own failure, never the run's
            logger.warning(
                "%s: batch %s maps %s to attempt %d of %s (sample %d), which has no attempt "
                "%d in the journal: its result is not journalled, the case is asked as it needs",
                self.log.path,
                line.batch_id,
                result.custom_id,
                key.attempt,
                key.case_id,
                key.epoch,
                lost[0],
            )
            return
        request = self.attempts.request_for(job, self._prompt(job, key.attempt, chains))
        batch_id = str(line.batch_id)
        if result.response is not None:
            unfinished.pop(job.sample, None)
            record = await self.attempts.judged(
                job, request, result.response, attempt=key.attempt, batch_id=batch_id
            )
            if self.attempts.budget is not None:
                # The usage journalled, as a live call's is counted: a count no billed call
                # has is filled with its worst case there (hunt al: zeros counted as free,
                # and the next batch was sent past the budget).
                self.attempts.budget.record(
                    record.usage,
                    share=BATCH_PRICE_SHARE,
                    worst_case=self.attempts.worst_case(job, 1),
                )
            return
        reason = f"batch {batch_id}: {result.error or result.kind}"
        unfinished[job.sample] = (key.attempt, reason)
        await self.attempts.judged(
            job, request, LLMError(reason), attempt=key.attempt, batch_id=batch_id
        )


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
