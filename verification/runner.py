"""Orchestration: cases -> prompts -> model -> parse -> validate -> journal -> results.

Data moves one way. The runner plans the cases, checks every prerequisite before the first
request (scaffold files, provider), then answers cases concurrently (bounded by
``concurrency``), appending one flushed journal line per attempt. Results are folded from the
journal afterwards, exactly as ``report RUN_ID`` folds them.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from verification.cases import (
    TIERS,
    TestCase,
    Tier,
    parse_case_id,
)
from verification.catalog import Catalog, default_catalog
from verification.catalog.compat import LegacyRunnerAPI
from verification.catalog.spec import ScaffoldSpec
from verification.certify.calibration import CaseCalibration, calibrate_case
from verification.certify.costs import ScaffoldCost, run_costs
from verification.certify.results import (
    ScaffoldResults,
    TestResult,
    results_from_journal,
)
from verification.config import RunConfig, VerificationSettings, load_settings, resolve_settings
from verification.errors import (
    FatalLLMError,
    LLMError,
    PluginError,
)
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse
from verification.llm.batches import ClaudeBatches
from verification.llm.cache.provider import CachingProvider
from verification.llm.cache.responses import shared_cache
from verification.llm.limiter import Slot
from verification.llm.prompt_builder import Prompt, PromptBuilder
from verification.llm.providers import build_provider
from verification.llm.response_parser import ResponseParser
from verification.run.batch_mode import BatchMode, JobTuple, run_batches
from verification.run.budget import CostBudget, cost_basis
from verification.run.early_stop import LOOK_MIN_N, EarlyStopping
from verification.run.manifest import ended_manifest, new_manifest
from verification.run.plan import plan_new, plan_resumed
from verification.run.planned_cases import plan_cases
from verification.run.resuming import answered_cases, check_resumable
from verification.run.scheduling import CaseScheduler, Job
from verification.run.shards import Shard, cut_shard
from verification.store.journal import JournalWriter, read_journal
from verification.store.manifests import RunManifest
from verification.store.paths import RunPaths
from verification.store.pricing import estimate_tokens, min_cacheable_for
from verification.store.records import AttemptRecord, Outcome, cap_response
from verification.store.run_ids import new_run_id
from verification.store.thinking import check_thinking, max_tokens_with
from verification.validators.base import Validator
from verification.validators.judging import judge_answer

__all__ = [
    "RunResult",
    "ScaffoldResults",
    "TestResult",
    "VerificationRunner",
    "plan_cases",
    "run_verification",
]

logger = logging.getLogger(__name__)
ProgressCallback = Callable[[AttemptRecord], None]


@dataclass(frozen=True)
class RunResult:
    """What a finished (or interrupted) run leaves."""

    run_id: str
    paths: RunPaths
    manifest: RunManifest
    results: dict[str, ScaffoldResults]
    costs: dict[str, ScaffoldCost] = field(default_factory=dict)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class VerificationRunner(LegacyRunnerAPI[TestResult, ScaffoldResults]):
    """Runs cases against a provider and journals every attempt."""

    def __init__(
        self,
        settings: RunConfig | VerificationSettings | None = None,
        provider: LLMProvider | None = None,
        *,
        prompt_builder: PromptBuilder | None = None,
        scaffold_overrides: dict[str, Path] | None = None,
        progress: ProgressCallback | None = None,
        catalog: Catalog | None = None,
        planned: Callable[[int], None] | None = None,
    ) -> None:
        self.settings = resolve_settings(settings)
        """The run's configuration: the settings given (or the environment's), resolved once."""
        self.provider = provider
        self.catalog = catalog or default_catalog()
        self.prompt_builder = prompt_builder or PromptBuilder(
            self.settings.scaffolds_dir, overrides=scaffold_overrides, catalog=self.catalog
        )
        self.parser = ResponseParser(self.catalog)
        self.progress = progress
        self.planned = planned
        """Told how many first answers a run will ask, once it knows (a progress bar's
        total)."""
        self._journal: JournalWriter | None = None
        self.scheduler = CaseScheduler(
            self.settings.concurrency, warms_cache=self._warms_cache, worst_case=self._worst_case
        )
        """Starts cases: the limiter per model, the budget, the prompt cache warm-up."""
        self.run_id: str | None = None
        """The id of the run under way (set once its directory exists)."""
        self.thinking_budget = self.settings.thinking_budget
        """Extended thinking's budget per request (a resumed run keeps its manifest's)."""
        self._calibrations: dict[str, CaseCalibration] = {}
        """Each answered case's calibration, by id: made while other requests wait, so the
        results folded after the last answer need not judge them all then."""

    @property
    def model(self) -> str:
        """The model this run asks: the settings', as the provider settles it."""
        configured = self.settings.model_name
        return self.provider.model_for(configured) if self.provider else configured

    # -- one case ----------------------------------------------------------------------

    async def _attempt(
        self,
        spec: ScaffoldSpec,
        case: TestCase,
        prompt: Prompt,
        validator: Validator,
        *,
        epoch: int,
        attempt: int,
        slot: Slot,
    ) -> AttemptRecord:
        assert self.provider is not None
        request = self.request_for(spec, case, prompt, epoch=epoch)
        started = time.perf_counter()
        reply: LLMResponse | LLMError
        try:
            reply = await self.provider.generate_with_retry(
                request, max_retries=self.settings.max_retries, slot=slot
            )
        except FatalLLMError:
            raise
        except LLMError as exc:
            reply = exc
        return await self.judged(
            spec,
            case,
            validator,
            request,
            reply,
            epoch=epoch,
            attempt=attempt,
            latency_s=time.perf_counter() - started,
        )

    def request_for(
        self, spec: ScaffoldSpec, case: TestCase, prompt: Prompt, *, epoch: int
    ) -> LLMRequest:
        """The request that asks ``prompt`` of this run's model for one sample of ``case``."""
        return LLMRequest(
            system=prompt.system,
            prompt=prompt.user,
            model=self.model,
            max_tokens=max_tokens_with(self.thinking_budget, spec.max_output_tokens),
            temperature=None if self.thinking_budget else self.settings.temperature,
            thinking_budget=self.thinking_budget,
            case_id=case.id,
            sample=epoch,
        )

    async def judged(
        self,
        spec: ScaffoldSpec,
        case: TestCase,
        validator: Validator,
        request: LLMRequest,
        reply: LLMResponse | LLMError,
        *,
        epoch: int,
        attempt: int,
        latency_s: float,
    ) -> AttemptRecord:
        """Judge one attempt's ``reply`` (an answer, or the error that stood for one),
        journal it, and only then keep the answer in the response cache."""
        assert self.provider is not None
        response = reply if isinstance(reply, LLMResponse) else None
        if response is None:
            outcome: Outcome = "infra_error"
            level: int | None = None
            reason = str(reply)
            answer: Any = None
            leniency: tuple[str, ...] = ()
        else:
            try:
                outcome, level, reason, answer, leniency = self._judge_reply(
                    spec, validator, case, response
                )
            except PluginError as exc:
                # The plugin's fault, not the answer's: kept, not counted, asked on resume.
                outcome, level, reason, answer, leniency = "infra_error", None, str(exc), None, ()
        raw, raw_chars, raw_sha = cap_response(response.content if response else None)
        record = AttemptRecord(
            scaffold=case.scaffold,
            case_id=case.id,
            index=case.index,
            epoch=epoch,
            attempt=attempt,
            tier=case.tier,
            input=case.input,
            expected=case.expected,
            outcome=outcome,
            level=level,
            reason=reason,
            leniency=list(leniency),
            answer=answer,
            raw_response=raw,
            raw_response_chars=raw_chars,
            raw_response_sha256=raw_sha,
            stop_reason=response.stop_reason if response else None,
            usage=dict(response.usage) if response else {},
            latency_s=round(latency_s, 6),
            model=response.model if response else None,
            finished_at=_now(),
            source=response.source if response else None,
            size=case.size,
            model_asked=request.model,
        )
        if self._journal is not None:
            self._journal.append(record)
        if self.scheduler.budget is not None and record.source == "live":
            self.scheduler.budget.record(record.usage)
        if response is not None:  # kept (cached) only once journalled: a paid answer stays
            await self.provider.keep(request, response)
        if self.progress is not None:
            self.progress(record)
        return record

    def _judge_reply(
        self, spec: ScaffoldSpec, validator: Validator, case: TestCase, response: LLMResponse
    ) -> tuple[Outcome, int | None, str, Any, tuple[str, ...]]:
        """A reply's outcome, failed level, reason, answer and leniency (a plugin's schema
        or validator may raise :class:`PluginError`)."""
        parsed = self.parser.extract(spec, response.content)
        outcome: Outcome
        level: int | None
        if response.stop_reason == "max_tokens":
            outcome, level = "truncated", 1
            limit = max_tokens_with(self.thinking_budget, spec.max_output_tokens)
            reason = f"the reply hit the {limit}-token limit"
        elif response.stop_reason == "model_context_window_exceeded":
            outcome, level = "truncated", 1
            reason = "the reply ran out of the model's context window"
        elif response.stop_reason == "refusal":
            # The model declined: not a formatting bug, so no level takes the blame.
            outcome, level = "refused", None
            reason = "the model refused to answer (stop_reason refusal)"
        elif not parsed.ok:
            outcome, level, reason = "failed", parsed.failed_level, parsed.reason
        else:
            verdict = judge_answer(validator, parsed.answer, case)
            outcome = "passed" if verdict.is_valid else "failed"
            level = None if verdict.is_valid else 3
            reason = verdict.message
        return outcome, level, reason, parsed.answer, tuple(parsed.leniency)

    def _keep_plugin_failure(
        self, identifier: str, error: PluginError, *, epoch: int, case: TestCase | None = None
    ) -> AttemptRecord:
        """Journal a case no model was asked because its plugin failed (drawing it, or
        writing its prompt): an infrastructure error with the plugin's message as reason,
        so the scaffold is INCOMPLETE, the others run, and ``--resume`` tries it again."""
        key = parse_case_id(identifier)
        assert key is not None  # planned ids are made by case_id()
        record = AttemptRecord(
            scaffold=key.scaffold,
            case_id=identifier,
            index=key.index,
            epoch=epoch,
            attempt=1,
            tier=key.tier,
            input=case.input if case else {},
            expected=case.expected if case else {},
            outcome="infra_error",
            level=None,
            reason=str(error),
            leniency=[],
            answer=None,
            raw_response=None,
            raw_response_chars=0,
            raw_response_sha256=None,
            stop_reason=None,
            usage={},
            latency_s=0.0,
            model=None,
            finished_at=_now(),
            size=case.size if case else key.size,
            model_asked=self.model,
        )
        if self._journal is not None:
            self._journal.append(record)
        if self.progress is not None:
            self.progress(record)
        return record

    async def _answer_case(
        self,
        spec: ScaffoldSpec,
        case: TestCase,
        validator: Validator,
        *,
        epoch: int,
        slot: Slot | None = None,
        prompt: Prompt | None = None,
        first_attempt: int = 1,
    ) -> list[AttemptRecord]:
        """The first attempt (in ``slot``, if one is held) and, when it cannot be read,
        repair attempts (each queuing for a slot); from ``first_attempt`` with ``prompt``
        when an earlier mode made the attempts before it (a batch)."""
        slot = slot or self.scheduler.limiter_for(self.model).slot()
        if prompt is None:
            try:
                prompt = self.prompt_builder.build(spec, case.input)
            except PluginError as exc:
                return [self._keep_plugin_failure(case.id, exc, epoch=epoch, case=case)]
        records = [
            await self._attempt(
                spec, case, prompt, validator, epoch=epoch, attempt=first_attempt, slot=slot
            )
        ]
        while (
            records[-1].outcome == "failed"
            and records[-1].level in (1, 2)
            and first_attempt - 1 + len(records) < self.settings.repair_attempts
        ):
            prompt = PromptBuilder.repair(prompt, records[-1].reason)
            records.append(
                await self._attempt(
                    spec,
                    case,
                    prompt,
                    validator,
                    epoch=epoch,
                    attempt=first_attempt + len(records),
                    slot=slot,
                )
            )
        if case.id not in self._calibrations:
            self._calibrations[case.id] = calibrate_case(spec, case)
        return records

    def _case_result(self, attempts: Sequence[AttemptRecord]) -> TestResult:
        return TestResult.from_records(attempts[0], attempts[-1])

    def _suite_results(
        self, scaffold: str, attempts: Sequence[AttemptRecord], *, planned: int
    ) -> ScaffoldResults:
        label = self.provider.label if self.provider else None
        return ScaffoldResults.from_records(scaffold, attempts, planned=planned, run_label=label)

    @classmethod
    def from_environment(cls, **overrides: Any) -> Self:
        """A runner with settings from the environment and ``overrides``."""
        return cls(load_settings(**overrides))

    # -- a whole run ---------------------------------------------------------------------

    async def _ensure_provider(self, cases: dict[str, list[TestCase]]) -> None:
        if self.provider is None:
            provider = build_provider(self.settings.provider_config, self.catalog)
            if self.settings.cache and not provider.dry_run:
                cache = shared_cache(self.settings.cache_dir, self.settings.cache_max_mb)
                provider = CachingProvider(provider, cache)
            self.provider = provider
            await self.provider.preflight()
        await self.provider.prepare([case for planned in cases.values() for case in planned])

    async def _gather(
        self,
        jobs: list[tuple[ScaffoldSpec, TestCase, Validator, int]],
        *,
        done: set[tuple[str, int]],
    ) -> list[AttemptRecord]:
        async def answer(job: Job, slot: Slot) -> list[AttemptRecord]:
            return await self._answer_case(
                job.spec, job.case, job.validator, epoch=job.epoch, slot=slot
            )

        todo = [Job(*job) for job in jobs if (job[1].id, job[3]) not in done]
        return await self.scheduler.run(todo, self.model, answer)

    async def _finish_sync(self, items: Sequence[tuple[JobTuple, Prompt, int]]) -> None:
        """Answer each (job, prompt, attempt) in the default mode: what a batch left."""
        starts = {(job[1].id, job[3]): (prompt, attempt) for job, prompt, attempt in items}

        async def answer(job: Job, slot: Slot) -> list[AttemptRecord]:
            prompt, attempt = starts[(job.case.id, job.epoch)]
            return await self._answer_case(
                job.spec,
                job.case,
                job.validator,
                epoch=job.epoch,
                slot=slot,
                prompt=prompt,
                first_attempt=attempt,
            )

        await self.scheduler.run([Job(*job) for job, _, _ in items], self.model, answer)

    def _batch_mode(self, paths: RunPaths, batches: ClaudeBatches) -> BatchMode:
        """The run's cases through Message Batches, judged and journalled as here."""
        assert self.provider is not None
        provider = self.provider

        async def judge(
            job: JobTuple, request: LLMRequest, reply: LLMResponse | LLMError, attempt: int
        ) -> AttemptRecord:
            spec, case, validator, epoch = job
            return await self.judged(
                spec, case, validator, request, reply, epoch=epoch, attempt=attempt, latency_s=0.0
            )

        async def plugin_failed(job: JobTuple, error: PluginError) -> None:
            self._keep_plugin_failure(job[1].id, error, epoch=job[3], case=job[1])

        return BatchMode.for_run(
            batches,
            paths,
            self.settings,
            prompt_builder=self.prompt_builder,
            request_for=lambda job, prompt: self.request_for(job[0], job[1], prompt, epoch=job[3]),
            cached=provider.cached,
            judge=judge,
            plugin_failed=plugin_failed,
            finish_sync=self._finish_sync,
            budget=self.scheduler.budget,
        )

    def _warms_cache(self, spec: ScaffoldSpec) -> bool:
        """The provider caches prompts and the scaffold is long enough to be cached."""
        if self.provider is None or not self.provider.caches_prompts:
            return False
        minimum = min_cacheable_for(self.model, self.settings.min_cacheable_tokens)
        scaffold = self.prompt_builder.get_scaffold_content(spec)
        return minimum is None or estimate_tokens(scaffold) >= minimum

    def _worst_case(self, job: Job) -> float:
        """The most a case could cost (its prompt estimated): what the budget holds for it."""
        assert self.scheduler.budget is not None
        try:
            prompt = self.prompt_builder.build(job.spec, job.case.input)
        except PluginError:
            return 0.0  # no prompt, no request: the case journals its plugin's failure
        tokens = estimate_tokens(prompt.system) + estimate_tokens(prompt.user)
        return self.scheduler.budget.worst_case(
            tokens,
            max_tokens_with(self.thinking_budget, job.spec.max_output_tokens),
            self.settings.repair_attempts,
        )

    async def run(
        self,
        scaffold_names: Sequence[str],
        *,
        tiers: Sequence[Tier] = TIERS,
        case_ids: Sequence[str] = (),
        resume: str | None = None,
        size: int | None = None,
        shard: Shard | None = None,
    ) -> RunResult:
        """Plan, answer, journal and certify; reports are the caller's (see ``reports``).
        With ``shard``, only that slice of the plan is asked (:mod:`verification.run.shards`).
        The run directory is this process's alone (:class:`~verification.store.locks.RunLock`)
        from before a resumed run reads its journal, or a new run writes its manifest, until
        the journal is closed; a resume of a run in use sends nothing."""
        paths = RunPaths(self.settings.results_dir, resume or new_run_id())
        with contextlib.ExitStack() as owned:
            if resume:
                paths.read_manifest()  # an unknown run is said so, and no folder is made
                owned.enter_context(paths.lock())
            return await self._run_owned(
                paths,
                scaffold_names,
                tiers=tiers,
                case_ids=case_ids,
                resumed=bool(resume),
                size=size,
                shard=shard,
                owned=owned,
            )

    async def _run_owned(
        self,
        paths: RunPaths,
        scaffold_names: Sequence[str],
        *,
        tiers: Sequence[Tier],
        case_ids: Sequence[str],
        resumed: bool,
        size: int | None,
        shard: Shard | None,
        owned: contextlib.ExitStack,
    ) -> RunResult:
        settings = self.settings
        run_id = paths.run_id
        previous = paths.read_manifest() if resumed else None
        self._calibrations = {}  # another run's case of the same id may differ (its seed)
        if previous is not None:  # a resumed run answers exactly the cases it planned
            plan = plan_resumed(previous, settings, self.prompt_builder, catalog=self.catalog)
        else:
            plan = plan_new(
                settings,
                scaffold_names,
                catalog=self.catalog,
                tiers=tiers,
                case_ids=case_ids,
                size=size,
                shard=shard,
            )
        planned, failures = plan.cases, plan.failures
        specs = {name: self.catalog.get_spec(name) for name in planned}
        for spec in specs.values():  # a broken scaffold file stops the run before any request
            self.prompt_builder.get_scaffold_content(spec)
        await self._ensure_provider(planned)
        assert self.provider is not None
        if previous is not None:
            self.thinking_budget = previous.thinking_budget
        check_thinking(
            self.thinking_budget,
            model=self.model,
            provider=self.provider.name,
            dry_run=self.provider.dry_run,
            temperature=settings.temperature,
        )
        batches = run_batches(settings, self.provider, previous)
        # Priced before the folder is made: --max-cost with no known price leaves nothing.
        basis = cost_basis(
            settings,
            self.model,
            prompt_caching=self.provider.caches_prompts,
            recorded=previous.cost_basis if previous else None,
        )
        if not resumed:  # a new run's folder is made only once the provider can answer
            owned.enter_context(paths.lock())
        done: set[tuple[str, int]] = set()
        samples = settings.samples
        if previous is not None:
            check_resumable(
                previous, self.provider, self.model, self.prompt_builder, settings.thinking_budget
            )
            samples = previous.samples
            done = answered_cases(read_journal(paths.journal))
            manifest = previous.model_copy(update={"interrupted": False, "finished_at": None})
        else:
            manifest = new_manifest(
                run_id,
                settings,
                self.provider,
                self.prompt_builder,
                model=self.model,
                specs=specs,
                planned=planned,
                failures=failures,
                sweep=plan.sweep,
                tiers=plan.tiers,
                case_ids=plan.case_ids,
                basis=basis,
                thinking_budget=self.thinking_budget,
            )
            if shard is not None:
                manifest = cut_shard(manifest, shard)
                mine = {i for info in manifest.scaffolds.values() for i in info.case_ids}
                planned = {
                    name: [case for case in cases if case.id in mine]
                    for name, cases in planned.items()
                }
                failures = {i: error for i, error in failures.items() if i in mine}
        paths.write_manifest(manifest)
        self.run_id = run_id
        jobs = [
            (specs[name], case, specs[name].validator, epoch)
            for name, cases in planned.items()
            for case in cases
            for epoch in range(samples)
        ]
        unanswerable = [
            (identifier, error, epoch)
            for identifier, error in failures.items()
            for epoch in range(samples)
            if (identifier, epoch) not in done
        ]
        if self.planned is not None:
            todo = sum((case.id, epoch) not in done for _, case, _, epoch in jobs)
            self.planned(todo + len(unanswerable))
        # What the run paid before (on resume) counts against this invocation's budget.
        self.scheduler.budget = (
            None
            if self.provider.dry_run
            else CostBudget.for_run(basis, read_journal(paths.journal))
        )
        self._journal = JournalWriter(paths.journal, run_id)
        interrupted = False
        stopping = None
        if manifest.early_stops is not None:
            stopping = EarlyStopping(
                planned,
                min_n=LOOK_MIN_N.get(manifest.level or "standard", LOOK_MIN_N["standard"]),
                samples=samples,
                stops=manifest.early_stops,
            )
        try:
            for identifier, error, epoch in unanswerable:
                self._keep_plugin_failure(identifier, error, epoch=epoch)
            if batches is not None:
                await self._batch_mode(paths, batches).run(jobs)
            elif stopping is None:
                await self._gather(jobs, done=done)
            else:
                await stopping.run(
                    jobs,
                    lambda job: job[1],
                    lambda segment: self._gather(segment, done=done),
                    lambda: read_journal(paths.journal),
                )
        except BaseException:
            # Whatever ends the run early (Ctrl-C, SIGTERM, a refused key, a full disk)
            # leaves it unfinished: the manifest says so, and --resume goes on from the journal.
            interrupted = True
            raise
        finally:
            journal, self._journal = self._journal, None
            await self.provider.aclose()
            journal.close()
            records = read_journal(paths.journal)
            manifest = ended_manifest(
                manifest,
                records,
                interrupted=interrupted,
                basis=basis,
                stopped_by_budget=bool(self.scheduler.budget and self.scheduler.budget.refused),
                early_stops=stopping.stops if stopping else manifest.early_stops,
            )
            paths.write_manifest(manifest)
        return RunResult(
            run_id,
            paths,
            manifest,
            results_from_journal(
                manifest, records, catalog=self.catalog, calibrations=self._calibrations
            ),
            run_costs(manifest, records),
        )


run_verification = VerificationRunner.run_verification
"""Synchronous wrapper: run the named scaffolds with settings from the environment and
``overrides``, and return their results (reports are not written)."""
