"""One run's attempts, whichever transport sends them: each case sample's request, its
reply judged by the run's answer kind and journalled (only then kept in the response
cache), a case's repairs, and the cases a plugin kept from being asked.

Every transport makes the same journal lines through one :class:`Attempts`: the
concurrent one asks and repairs through :meth:`Attempts.answer`, the batch one sends the
requests :meth:`Attempts.request_for` makes and hands their replies to
:meth:`Attempts.judged`.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from verification.cases import (
    Planned,
    ProgramTask,
    TestCase,
    drawn,
)
from verification.catalog.spec import ScaffoldSpec
from verification.certify.calibration import CaseCalibration, calibrate_case
from verification.config import RunConfig
from verification.errors import (
    ContextWindowError,
    FatalLLMError,
    LLMError,
    PluginError,
    RunWriteError,
)
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse
from verification.llm.limiter import AdaptiveLimiter, Slot
from verification.llm.prompt_builder import Prompt, PromptBuilder
from verification.run.answers import CONTEXT_REFUSED, UNFINISHED_STOPS, AnswerKind, Judgement
from verification.run.attempt_records import attempt_record
from verification.run.budget import CostBudget
from verification.run.call_log import CallLog
from verification.store.journal import JournalWriter, read_journal
from verification.store.paths import RunPaths
from verification.store.pricing import TokenCounts, estimate_tokens, min_cacheable_for
from verification.store.records import Arm, AttemptRecord
from verification.store.thinking import max_tokens_with
from verification.validators.base import Validator

__all__ = ["PROGRAM_NOT_RUN", "Attempts", "Job", "ProgressCallback"]

logger = logging.getLogger(__name__)

PROGRAM_NOT_RUN = (
    "the run stopped while the program's suite ran: a resume runs it again from this reply, "
    "without asking the model again"
)
"""The reason journalled for a program whose run a stop cut short."""

ProgressCallback = Callable[[AttemptRecord], None]


@dataclass(frozen=True, slots=True)
class Job:
    """One case sample to answer: its case drawn already, or drawn when first needed
    (:class:`~verification.cases.PlannedCase`: when it is about to be asked)."""

    # Slots: a run makes a job for each case of its plan's cap (thousands), all kept till
    # it ends, and the collector walks every one of them the more there are.
    spec: ScaffoldSpec
    planned: Planned
    validator: Validator
    epoch: int
    _case: TestCase | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def case(self) -> TestCase:
        """The case, drawn now if it was not yet (kept: an attempt reads it a dozen times;
        a draw that fails is tried again when read again, as the planned case tries it)."""
        case = self._case
        if case is None:
            case = drawn(self.planned)
            object.__setattr__(self, "_case", case)
        return case

    @property
    def hold(self) -> int:
        """The key of its hold in the run's budget while it is in flight."""
        return id(self)

    @property
    def sample(self) -> tuple[str, int]:
        """(case id, sample): what the journal knows the job by."""
        return (self.planned.id, self.epoch)

    @property
    def request_sample(self) -> int:
        """The sample its request names: the epoch, or a program's index (programs of a
        scaffold share their prompt, and each must be its own request to the cache)."""
        return self.planned.index if isinstance(self.planned, ProgramTask) else self.epoch


@dataclass
class Attempts:
    """Makes, judges and journals a run's attempts at its cases."""

    provider: LLMProvider
    model: str
    answers: AnswerKind
    settings: RunConfig
    prompt_builder: PromptBuilder
    limiter: AdaptiveLimiter
    """The model's limiter: a case asked on its own queues for a slot in it."""
    thinking_budget: int | None = None
    progress: ProgressCallback | None = None
    paths: RunPaths | None = None
    """The run's folder (none for cases asked outside a run)."""
    journal: JournalWriter | None = None
    budget: CostBudget | None = None
    """``--max-cost``: what every live answer costs is recorded in it."""
    call_log: CallLog | None = None
    """``--max-cost``: each live call written down as it goes out and once journalled, so
    a resume counts the calls a killed process had in flight."""
    answered: set[tuple[str, int]] = field(default_factory=set)
    """The case samples the journal answered before this invocation (a resumed run's)."""
    owed: dict[tuple[str, int], list[AttemptRecord]] = field(default_factory=dict)
    """A resumed run's samples that still owe a repair, each with its journalled attempts
    before the one owed (:func:`~verification.run.resuming.owed_repairs`, :meth:`repaired`)."""
    context_refused: dict[str, int] = field(default_factory=dict)
    """Per scaffold, the smallest size whose request a server refused for its context
    window: its cases of that size or larger are not asked (each would be refused alike)."""
    calibrations: dict[str, CaseCalibration] = field(default_factory=dict)
    """Each answered case's calibration, by id: made while other requests wait."""
    arm: Arm | None = None
    """The arm of a ``--baseline`` pair this run is (``None``: no pair): on every request
    and journal line."""
    halted: bool = field(default=False, init=False)
    """Set once the journal could not be written (a full disk): no call goes out after it,
    neither a new case's nor a retry or repair of one already asked."""
    _kept: dict[tuple[str, int, int], AttemptRecord] | None = field(default=None, init=False)
    """Code mode: programs' replies journalled whole whose runs did not end, by (program,
    sample, attempt): run again on resume rather than asked again."""
    _warned_usage: bool = field(default=False, init=False)

    def journalled(self) -> list[AttemptRecord]:
        """Every attempt the run's journal holds."""
        return read_journal(self.paths.journal) if self.paths is not None else []

    def request_for(self, job: Job, prompt: Prompt) -> LLMRequest:
        """The request that asks ``prompt`` of the run's model for ``job``'s sample."""
        return LLMRequest(
            system=prompt.system,
            prompt=prompt.user,
            model=self.model,
            max_tokens=max_tokens_with(
                self.thinking_budget, job.spec.max_output_tokens_at(job.case.size)
            ),
            temperature=None if self.thinking_budget else self.settings.temperature,
            thinking_budget=self.thinking_budget,
            case_id=job.case.id,
            arm=self.arm,
            case_input=job.case.input,
            sample=job.request_sample,
        )

    def prompt_at(self, job: Job, attempt: int, chain: Mapping[int, AttemptRecord]) -> Prompt:
        """Attempt ``attempt``'s prompt: the case's, repaired for each reply before it that
        could not be read (their reasons from the journal's ``chain`` of the sample)."""
        prompt = self.answers.prompt(job.spec, job.case)
        for earlier in range(1, attempt):
            prompt = self.answers.repair(prompt, chain[earlier].reason)
        return prompt

    def next_attempt(self, chain: Mapping[int, AttemptRecord]) -> int | None:
        """The attempt a case sample needs next, given its journalled ``chain``; ``None``
        when it is answered (or out of repairs)."""
        if not chain:
            return 1
        last = max(chain)
        if chain[last].outcome == "infra_error":
            return last
        if self.answers.needs_repair(chain[last]) and last < self.settings.repair_attempts:
            return last + 1
        return None

    async def answer(
        self,
        job: Job,
        slot: Slot | None = None,
        *,
        prompt: Prompt | None = None,
        first_attempt: int = 1,
    ) -> list[AttemptRecord]:
        """The first attempt (in ``slot``, if one is held) and, while a reply cannot be
        read, repairs (each queuing for a slot); from ``first_attempt`` with ``prompt``
        when another transport made the attempts before it (a batch)."""
        refused = self.context_refused.get(job.spec.name)
        if refused is not None and (job.planned.size or 0) >= refused:
            return []  # left unasked, as past a budget: the terminal says why
        slot = slot or self.limiter.slot()
        if prompt is None:
            try:
                prompt = self.answers.prompt(job.spec, job.case)
            except PluginError as exc:
                return [self.keep_plugin_failure(job.case.id, exc, epoch=job.epoch, case=job.case)]
        records = [await self._attempt(job, prompt, attempt=first_attempt, slot=slot)]
        while (
            self.answers.needs_repair(records[-1])
            and first_attempt - 1 + len(records) < self.settings.repair_attempts
        ):
            prompt = self.answers.repair(prompt, records[-1].reason)
            attempt = first_attempt + len(records)
            records.append(await self._attempt(job, prompt, attempt=attempt, slot=slot))
        self.calibrate(job)
        return records

    async def repaired(self, job: Job, slot: Slot | None = None) -> list[AttemptRecord]:
        """The repairs a resumed ``job`` was owed (:attr:`owed`), asked with the prompt its
        journalled attempts had led to: "pass rate after repair" counted a run stopped
        between a first attempt and its repair as never repaired (hunt vv)."""
        chain = self.owed.pop(job.sample, [])
        if not chain:
            return []
        prompt = self.answers.prompt(job.spec, job.case)
        for record in chain:
            prompt = self.answers.repair(prompt, record.reason)
        return await self.answer(job, slot, prompt=prompt, first_attempt=len(chain) + 1)

    def calibrate(self, job: Job) -> None:
        """Calibrate ``job``'s case once it is answered (once per case)."""
        if job.case.id not in self.calibrations and not isinstance(job.case, ProgramTask):
            self.calibrations[job.case.id] = calibrate_case(job.spec, job.case)

    def repairs_after(self, record: AttemptRecord) -> bool:
        """Another attempt follows ``record`` (:meth:`answer`'s rule): its reply could not
        be read and repairs are left."""
        return self.answers.needs_repair(record) and record.attempt < self.settings.repair_attempts

    async def from_cache(self, job: Job) -> tuple[Prompt, AttemptRecord] | None:
        """``job``'s first attempt answered by the response cache, judged and journalled
        with no request sent; ``None`` (nothing journalled) when the cache does not hold it,
        or the first attempt is not the cache's to answer (a plugin failing to write the
        prompt, a program's reply the journal holds): :meth:`answer` then answers it."""
        if isinstance(job.case, ProgramTask) and self._kept_reply_waiting(job):
            return None
        try:
            prompt = self.answers.prompt(job.spec, job.case)
        except PluginError:
            return None
        request = self.request_for(job, prompt)
        started = time.perf_counter()
        hit = await self.provider.cached(request)
        if hit is None:
            return None
        latency = time.perf_counter() - started
        return prompt, await self.judged(job, request, hit, attempt=1, latency_s=latency)

    def _kept_reply_waiting(self, job: Job) -> bool:
        """A journalled reply of ``job``'s first attempt waits to be run again
        (:meth:`_kept_reply`), so that attempt is not the cache's to answer."""
        return (job.case.id, job.epoch, 1) in self._kept_replies()

    def _kept_replies(self) -> dict[tuple[str, int, int], AttemptRecord]:
        if self._kept is None:
            self._kept = {
                (r.case_id, r.epoch, r.attempt): r
                for r in self.journalled()
                if r.outcome == "infra_error"
                and r.raw_response is not None
                and r.raw_response_chars == len(r.raw_response)
                and r.stop_reason not in UNFINISHED_STOPS
            }
        return self._kept

    async def _attempt(
        self, job: Job, prompt: Prompt, *, attempt: int, slot: Slot
    ) -> AttemptRecord:
        request = self.request_for(job, prompt)
        started = time.perf_counter()
        reply: LLMResponse | LLMError | None = self._kept_reply(job, attempt)
        log, call = self.call_log, ""
        try:
            if reply is None:
                sent = None
                if log is not None:
                    call = log.new_call()
                    sent = functools.partial(log.sent, call, self.worst_case(job, 1))
                reply = await self.provider.generate_with_retry(
                    request,
                    max_retries=self.settings.max_retries,
                    slot=slot,
                    on_send=functools.partial(self._sending, sent),
                )
        except FatalLLMError:
            if log is not None:  # refused (a key, a model): nothing was billed
                log.ended(call)
            raise
        except LLMError as exc:
            reply = exc
        latency = time.perf_counter() - started
        return await self.judged(job, request, reply, attempt=attempt, latency_s=latency, call=call)

    def _sending(self, sent: Callable[[], None] | None) -> None:
        """As a try goes out: none once the run has halted (it ends as a cancelled call,
        as a case never started), else ``sent`` (the call log's)."""
        if self.halted:
            raise asyncio.CancelledError
        if sent is not None:
            sent()

    def _kept_reply(self, job: Job, attempt: int) -> LLMResponse | None:
        """A code-mode program's reply that the journal holds whole but whose run did not
        end (the sandbox failed: an infrastructure error): a resume runs it again from the
        journal instead of asking the model again."""
        if not isinstance(job.case, ProgramTask):
            return None
        record = self._kept_replies().pop((job.case.id, job.epoch, attempt), None)
        if record is None or record.raw_response is None:
            return None
        return LLMResponse(
            content=record.raw_response,
            model=record.model or self.model,
            stop_reason=record.stop_reason,
            source="journal",
        )

    async def judged(
        self,
        job: Job,
        request: LLMRequest,
        reply: LLMResponse | LLMError,
        *,
        attempt: int,
        latency_s: float = 0.0,
        batch_id: str | None = None,
        call: str = "",
    ) -> AttemptRecord:
        """Judge one attempt's ``reply`` (an answer, or the error that stood for one, from
        the batch ``batch_id`` if any), journal it (and end its ``call`` in the call log),
        and only then keep the answer in the response cache; kept there too when it cannot
        be journalled (:class:`RunWriteError`), so a resume need not buy it again."""
        response = kept = reply if isinstance(reply, LLMResponse) else None
        journal = functools.partial(
            self._record,
            job.case.id,
            job.case,
            epoch=job.epoch,
            attempt=attempt,
            model_asked=request.model,
            latency_s=latency_s,
            batch_id=batch_id,
        )
        if response is not None and response.source in ("live", "batch"):
            credible = TokenCounts.credible(response.usage, has_text=bool(response.content))
            if not TokenCounts.readable(credible):  # the cache keeps what was said
                response = self._at_worst(request, response.model_copy(update={"usage": credible}))
        if isinstance(reply, ContextWindowError):
            # The case's prompt and output budget are more than the server holds: its
            # setting, not the model's answer nor the scaffold's, and not the run's end
            # either (a sweep's smaller sizes still fit): not counted, asked again on resume.
            verdict = Judgement("infra_error", None, f"{CONTEXT_REFUSED}: {reply}")
            size = job.planned.size or 0
            self.context_refused[job.spec.name] = min(
                size, self.context_refused.get(job.spec.name, size)
            )
        elif response is None:
            verdict = Judgement("infra_error", None, str(reply))
        else:
            try:
                judged = self.answers.judge(job.spec, job.validator, job.case, request, response)
                if type(judged) is not Judgement:  # a Judgement is no awaitable: not asked
                    judged = await judged if inspect.isawaitable(judged) else judged
                verdict = judged
            except PluginError as exc:
                # The plugin's fault, not the answer's: kept, not counted, asked on resume.
                verdict = Judgement("infra_error", None, str(exc))
            except asyncio.CancelledError:
                # Stopped (Ctrl-C, SIGTERM) while a paid program ran in the sandbox: its
                # reply is journalled as a run that did not end, which a resume runs again
                # from the journal (_kept_reply) rather than asking, and paying, again
                # (hunt vv: every program of a look was lost and bought twice).
                if isinstance(job.case, ProgramTask):
                    try:
                        journal(Judgement("infra_error", None, PROGRAM_NOT_RUN), response=response)
                    except RunWriteError:
                        # A full disk too: kept where the resume finds it, as below (hunt ww);
                        # the stop asked for stands.
                        if kept is not None:
                            await self.provider.keep(request, kept)
                        raise asyncio.CancelledError from None
                    if call and self.call_log is not None:
                        self.call_log.ended(call)
                raise
        try:
            record = journal(verdict, response=response)
        except RunWriteError:
            # The journal's disk is full (or gone): the answer was paid for, and the
            # response cache, often on another disk, keeps it for the resume.
            if kept is not None:
                await self.provider.keep(request, kept)
            raise
        if call and self.call_log is not None:  # journalled: its cost is counted from there
            self.call_log.ended(call)
        if self.budget is not None:
            if record.source == "live":
                self.budget.record(record.usage)
            # At once, not when the case ends: its cache write, calibration and progress
            # come first, and meanwhile other cases' starts would count it twice.
            left = self.settings.repair_attempts - attempt if self.repairs_after(record) else 0
            self.budget.settle(job.hold, self.worst_case(job, left) if left > 0 else 0.0)
        if kept is not None:  # kept (cached) only once journalled: a paid answer stays
            await self.provider.keep(request, kept)
        if self.progress is not None:
            self.progress(record)
        return record

    def _at_worst(self, request: LLMRequest, response: LLMResponse) -> LLMResponse:
        """``response`` with the token counts it lacks at their most, marked so: journalled
        so, the call is counted at its worst case by the budget (a resume's too) and priced
        so by the reports, rather than as free (a count past a billion, a float, a string
        or a null usage priced the call at $0, and the budget never saw it)."""
        if not self._warned_usage:
            self._warned_usage = True
            logger.warning(
                "the server's reply gave no readable (or credible) token counts: each such call "
                "is counted at its worst case (its prompt estimated, its whole output budget)"
            )
        usage = TokenCounts.worst_case_of(
            response.usage,
            prompt_tokens=estimate_tokens(request.system or "") + estimate_tokens(request.prompt),
            max_tokens=request.max_tokens,
        )
        return response.model_copy(update={"usage": usage})

    def keep_plugin_failure(
        self, identifier: str, error: PluginError, *, epoch: int, case: TestCase | None = None
    ) -> AttemptRecord:
        """Journal a case no model was asked because its plugin failed (drawing it, or
        writing its prompt): an infrastructure error with the plugin's message as reason,
        so the scaffold is INCOMPLETE, the others run, and ``--resume`` tries it again."""
        verdict = Judgement("infra_error", None, str(error))
        record = self._record(
            identifier, case, verdict, epoch=epoch, attempt=1, model_asked=self.model
        )
        if self.progress is not None:
            self.progress(record)
        return record

    def _record(
        self, identifier: str, case: TestCase | None, verdict: Judgement, **line: Any
    ) -> AttemptRecord:
        """The journal line of one attempt (:func:`attempt_record`, ``line`` its keyword
        arguments but the arm, the run's), journalled."""
        record = attempt_record(identifier, case, verdict, arm=self.arm, **line)
        if self.journal is not None:
            self.journal.append(record)
        return record

    def warms_cache(self, spec: ScaffoldSpec) -> bool:
        """The provider caches prompts and the scaffold is long enough to be cached."""
        if not self.provider.caches_prompts:
            return False
        minimum = min_cacheable_for(self.model, self.settings.min_cacheable_tokens)
        scaffold = self.prompt_builder.get_scaffold_content(spec)
        return minimum is None or estimate_tokens(scaffold) >= minimum

    def worst_case(self, job: Job, attempts: int | None = None) -> float:
        """The most ``job`` could cost in ``attempts`` attempts (by default every one it may
        still make: a resumed job owing a repair, those after its journalled ones), its
        prompt estimated: what the budget holds for it."""
        assert self.budget is not None
        if attempts is None and job.sample in self.owed:  # not every attempt again (hunt ww)
            attempts = self.settings.repair_attempts - len(self.owed[job.sample])
        try:
            prompt = self.answers.prompt(job.spec, job.case)
        except PluginError:
            return 0.0  # no prompt, no request: the case journals its plugin's failure
        chain = self.settings.repair_attempts
        left = chain if attempts is None else max(0, min(attempts, chain))
        # The attempts left are the chain's last, the longest prompts (repairs grow it).
        prompts = PromptBuilder.longest_attempts(prompt, chain, self.answers.repair)
        prompts = prompts[chain - left :]
        return self.budget.worst_case(
            [estimate_tokens(p.system) + estimate_tokens(p.user) for p in prompts],
            max_tokens_with(self.thinking_budget, job.spec.max_output_tokens_at(job.case.size)),
        )
