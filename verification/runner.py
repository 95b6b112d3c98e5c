"""Orchestration: cases -> prompts -> model -> parse -> validate -> journal -> results.

Data moves one way. The runner plans the cases, checks every prerequisite before the first
request (scaffold files, provider), then answers cases concurrently (bounded by
``concurrency``), appending one flushed journal line per attempt. Results are folded from the
journal afterwards, exactly as ``report RUN_ID`` folds them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from verification.cases import TIERS, Planned, TestCase, Tier
from verification.catalog import Catalog, default_catalog
from verification.catalog.compat import LegacyRunnerAPI
from verification.catalog.spec import ScaffoldSpec
from verification.certify.answers import check_journal
from verification.certify.calibration import CaseCalibration, fitting_records
from verification.certify.costs import ScaffoldCost, run_costs
from verification.certify.results import (
    ScaffoldResults,
    TestResult,
    results_from_journal,
)
from verification.config import RunConfig, VerificationSettings, load_settings, resolve_settings
from verification.llm.base import LLMProvider
from verification.llm.batches import batches_for
from verification.llm.cache.provider import CachingProvider
from verification.llm.cache.responses import shared_cache
from verification.llm.prompt_builder import PromptBuilder
from verification.llm.providers import build_provider
from verification.run.attempts import Attempts, Job, ProgressCallback
from verification.run.batch_log import BATCH_FILE
from verification.run.budget import CostBudget, cost_basis, stopped_by_budget
from verification.run.call_log import CALL_FILE, CallLog, in_flight
from verification.run.growth import SizeGrowth
from verification.run.manifest import ended_manifest, manifest_for
from verification.run.plan import plan_cases, plan_run
from verification.run.resuming import (
    answered_samples,
    check_same_draws,
    owed_repairs,
    rerun_arm,
    resumed_arm,
)
from verification.run.scheduling import CaseScheduler
from verification.run.shards import Shard
from verification.run.stopping import settled_by
from verification.run.strategies import ANSWER_KINDS, STOPPING_RULES, TRANSPORTS
from verification.run.transport import TransportSetting
from verification.store.journal import JournalWriter, read_journal
from verification.store.manifests import RunManifest
from verification.store.paths import RunPaths
from verification.store.records import Arm, AttemptRecord
from verification.store.run_ids import new_run_id
from verification.store.stored_files import check_own_file
from verification.store.thinking import check_thinking, check_thinking_provider
from verification.validators.base import Validator

__all__ = [
    "RunResult",
    "ScaffoldResults",
    "TestResult",
    "VerificationRunner",
    "plan_cases",
    "run_verification",
]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, repr=False)
class RunResult:
    """What a finished (or interrupted) run leaves."""

    run_id: str
    paths: RunPaths
    manifest: RunManifest
    results: dict[str, ScaffoldResults]
    costs: dict[str, ScaffoldCost] = field(default_factory=dict)
    records: list[AttemptRecord] | None = None
    """Its whole journal, when the run has it in memory (the reports then need not read
    it back)."""
    calls_now: int | None = None
    """On a resume, the paid answers (live calls, batch answers) this invocation journalled
    (``None``: a new run): the cost the terminal gives is the whole run's (hunt ak)."""

    def __repr__(self) -> str:
        # Short on purpose: asyncio.run formats its main task, result included, when it
        # puts the SIGINT handler back, and the generated repr walked every record (0.13 s
        # of CPU for 990 answers, twice per run).
        answers = "?" if self.records is None else len(self.records)
        scaffolds = list(self.results)
        return f"RunResult(run_id={self.run_id!r}, scaffolds={scaffolds}, records={answers})"


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
        answer_kind: str | None = None,
        transport: str | None = None,
        stopping: str | None = None,
        arm: Arm | None = None,
        reruns: str | None = None,
        keyword: str | None = None,
        pair_with: str | None = None,
    ) -> None:
        self.settings = resolve_settings(settings)
        """The run's configuration: the settings given (or the environment's), resolved once."""
        self.provider = provider
        self.catalog = catalog or default_catalog()
        self.prompt_builder = prompt_builder or PromptBuilder(
            self.settings.scaffolds_dir, overrides=scaffold_overrides, catalog=self.catalog
        )
        self.progress = progress
        self.planned = planned
        """Told how many first answers a run will ask, once it knows (a progress bar's
        total)."""
        self.answer_kind = answer_kind or self.settings.answer
        """What kind of answer is asked and judged (:mod:`verification.run.strategies`);
        the settings' (``--answer``) unless given."""
        self.transport = transport
        """How requests are sent, by name; ``None``: as the plan says (``--batch``)."""
        self.stopping = stopping
        """How much is asked, by name; ``None``: as the plan says (its looks, as it goes,
        where it can)."""
        self.arm = arm
        """The arm of a ``--baseline`` pair this run is, journalled on each line (``None``:
        no pair)."""
        self.pair_with = pair_with
        """The run of the pair's first arm, when this run is its second: named in the
        manifest from the start, so a resume of this run ends the pair (the first arm's
        manifest names this one only once both have ended)."""
        self.reruns = reruns
        """The run whose failed cases a new run asks again (``--rerun-failed``), named in its
        manifest."""
        self.keyword = keyword
        """The ``-k`` expression that chose a new run's cases, named in its manifest."""
        self.scheduler = CaseScheduler(
            self.settings.concurrency, max_pause=self.settings.retry_max_wait
        )
        """Starts cases: the limiter per model (kept from run to run)."""
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

    def _attempts(self, paths: RunPaths | None = None) -> Attempts:
        """The attempts of a run in ``paths`` (or of cases asked outside a run)."""
        assert self.provider is not None
        return Attempts(
            self.provider,
            self.model,
            ANSWER_KINDS[self.answer_kind](self.prompt_builder, self.catalog, self.settings),
            self.settings,
            self.prompt_builder,
            self.scheduler.limiter_for(self.model),
            thinking_budget=self.thinking_budget,
            progress=self.progress,
            paths=paths,
            calibrations=self._calibrations,
            arm=self.arm,
        )

    async def _answer_case(
        self, spec: ScaffoldSpec, case: TestCase, validator: Validator, *, epoch: int
    ) -> list[AttemptRecord]:
        """One case sample's attempts, outside a run (nothing journalled)."""
        return await self._attempts().answer(Job(spec, case, validator, epoch))

    async def _gather(
        self,
        jobs: list[tuple[ScaffoldSpec, TestCase, Validator, int]],
        *,
        done: set[tuple[str, int]],
    ) -> list[AttemptRecord]:
        """Every job not ``done``, concurrently, outside a run (nothing journalled)."""
        todo = [Job(*job) for job in jobs if (job[1].id, job[3]) not in done]
        return await self.scheduler.run(todo, self._attempts())

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

    async def _ensure_provider(
        self, cases: Mapping[str, Sequence[Planned]], *, thinking_budget: int | None = None
    ) -> None:
        if self.provider is None:
            provider = build_provider(self.settings.provider_config, self.catalog)
            # A provider that cannot send thinking is refused before the server is asked
            # anything, its model list included (the model is checked once it is settled).
            check_thinking_provider(thinking_budget, provider.name, dry_run=provider.dry_run)
            if self.settings.batch and not provider.dry_run:
                batches_for(provider)  # a provider with no Message Batches: refused as well
            if self.settings.cache and not provider.dry_run:
                cache = shared_cache(self.settings.cache_dir, self.settings.cache_max_mb)
                provider = CachingProvider(provider, cache)
            self.provider = provider
            await self.provider.preflight()
        await self.provider.prepare([case for planned in cases.values() for case in planned])

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
        with _heap_set_aside(), contextlib.ExitStack() as owned:
            if resume:
                paths.read_manifest()  # an unknown run is said so, and no folder is made
                owned.enter_context(paths.lock())
            else:
                paths.check_creatable()
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
        self._calibrations = {}  # another run's case of the same id may differ (its seed)
        previous = paths.read_manifest() if resumed else None
        # Read once: the run's folder is this process's from here (a new run's has none).
        journalled = read_journal(paths.journal)
        if previous is not None:
            # Before anything is asked: the fold refused such a journal only at the end,
            # after every remaining case had been asked (and paid for: hunt hh).
            check_journal(previous, journalled, self.catalog)
        if previous is not None:  # a run of a --baseline pair goes on as its arm
            self.prompt_builder, self.arm = resumed_arm(
                previous, self.prompt_builder, self.arm, journalled
            )
            self.reruns = previous.reruns  # what it is, for what is said if it stops again
        elif self.reruns is not None and self.arm is None:  # a pair's arms are its own
            rerun = RunPaths(settings.results_dir, self.reruns).read_manifest()
            self.prompt_builder, self.arm = rerun_arm(rerun, self.prompt_builder)
        plan = plan_run(
            settings,
            scaffold_names,
            catalog=self.catalog,
            prompt_builder=self.prompt_builder,
            tiers=tiers,
            case_ids=case_ids,
            size=size,
            shard=shard,
            resumes=previous,
            stopping=self.stopping,
        )
        if self.stopping is not None:
            plan = dataclasses.replace(plan, stopping=self.stopping)
        specs = {name: self.catalog.get_spec(name) for name in plan.cases}
        for spec in specs.values():  # a broken scaffold file stops the run before any request
            self.prompt_builder.get_scaffold_content(spec)
        await self._ensure_provider(plan.cases, thinking_budget=plan.thinking_budget)
        assert self.provider is not None
        self.thinking_budget = plan.thinking_budget
        check_thinking(
            self.thinking_budget,
            model=self.model,
            provider=self.provider.name,
            dry_run=self.provider.dry_run,
            temperature=settings.temperature,
        )
        attempts = self._attempts(paths)
        transport = TRANSPORTS[self.transport or plan.transport](
            TransportSetting(attempts, paths, settings, self.scheduler)
        )
        # Priced before the folder is made: --max-cost with no known price leaves nothing.
        basis = cost_basis(
            settings,
            self.model,
            prompt_caching=self.provider.caches_prompts,
            recorded=plan.recorded_basis,
        )
        if not resumed:  # a new run's folder is made only once the provider can answer
            owned.enter_context(paths.lock())
        manifest = manifest_for(
            plan,
            paths.run_id,
            settings,
            self.provider,
            self.prompt_builder,
            model=self.model,
            specs=specs,
            basis=basis,
        )
        if self.reruns is not None and not resumed:
            manifest = manifest.model_copy(update={"reruns": self.reruns})
        if self.keyword is not None and not resumed:
            manifest = manifest.model_copy(update={"keyword": self.keyword})
        if self.arm is not None and not resumed:
            manifest = manifest.model_copy(update={"arm": self.arm})
        if self.pair_with is not None and not resumed:
            manifest = manifest.model_copy(update={"linked_run": self.pair_with})
        unjournalled = 0.0
        if resumed:  # what it may not append to, or not read, is refused before its manifest
            for own in (paths.journal, paths.run_dir / CALL_FILE, paths.run_dir / BATCH_FILE):
                check_own_file(own)
            check_same_draws(plan.cases, fitting_records(journalled, specs), paths.run_id)
            if not self.provider.dry_run and basis.max_cost is not None:
                # The calls a killed process had in flight count at their worst as paid.
                unjournalled = _in_flight(paths)
        paths.write_manifest(manifest)
        self.run_id = paths.run_id
        # A line whose input is none of its scaffold's counts as no answer: asked again.
        fitting = fitting_records(journalled, specs)
        attempts.answered = answered_samples(fitting)
        attempts.owed = owed_repairs(fitting, attempts.next_attempt)
        # What the run paid before (on resume) counts against this invocation's budget.
        if not self.provider.dry_run:
            attempts.budget = CostBudget.for_run(basis, journalled, unjournalled=unjournalled)
        jobs = [
            Job(specs[name], case, specs[name].validator, epoch)
            for name, cases in plan.cases.items()
            for case in cases
            for epoch in range(plan.samples)
        ]
        unanswerable = [
            (identifier, error, epoch)
            for identifier, error in plan.failures.items()
            for epoch in range(plan.samples)
            if (identifier, epoch) not in attempts.answered
        ]
        todo = sum(job.sample not in attempts.answered for job in jobs) + len(unanswerable)
        if self.planned is not None:
            self.planned(todo)
        growth = SizeGrowth(
            manifest,
            paths,
            specs,
            attempts,
            catalog=self.catalog,
            seed=plan.seed,
            planned=self.planned,
            total=todo,
        )

        def journal_so_far() -> list[AttemptRecord]:
            # The lines read before the run, then those it has appended (a record read back
            # equals the one written): a look reading the file again read it all each time,
            # quadratic in a long run's answers.
            written = attempts.journal.written if attempts.journal is not None else []
            return [*journalled, *written]

        stopping = STOPPING_RULES[plan.stopping](plan.cases, manifest, journal_so_far, growth)
        attempts.journal = journal = JournalWriter(paths.journal, paths.run_id)
        if attempts.budget is not None:
            attempts.call_log = CallLog(paths.run_dir / CALL_FILE, paths.run_id)
        interrupted = False
        try:
            for identifier, error, epoch in unanswerable:
                attempts.keep_plugin_failure(identifier, error, epoch=epoch)
            await stopping.run(jobs, transport.send)
            # Repairs a stop left owed, of scaffolds a look had decided before the resume
            # (their jobs are sent no more): an unstopped run had asked them (hunt ww).
            if owed := [job for job in jobs if job.sample in attempts.owed]:
                await transport.send(owed)
        except BaseException:
            # Whatever ends the run early (Ctrl-C, SIGTERM, a refused key, a full disk)
            # leaves it unfinished: the manifest says so, and --resume goes on from the journal.
            interrupted = True
            raise
        finally:
            attempts.journal = None
            await self.provider.aclose()
            journal.close()
            if attempts.call_log is not None:
                attempts.call_log.close()
                attempts.call_log = None
            # What the journal holds now: the lines read before the run, then those this
            # run appended (kept as written: reading them back would give the same records).
            records = [*journalled, *journal.written]
            manifest = ended_manifest(
                growth.manifest,  # with the sizes a rule added as it went
                records,
                interrupted=interrupted,
                basis=basis,
                stopped_by_budget=stopped_by_budget(
                    attempts.budget.refused if attempts.budget else 0,
                    plan.cases,
                    settled_by(stopping),
                ),
                early_stops=stopping.stops,
            )
            paths.write_manifest(manifest)
        return RunResult(
            paths.run_id,
            paths,
            manifest,
            results_from_journal(
                manifest, records, catalog=self.catalog, calibrations=self._calibrations
            ),
            run_costs(manifest, records),
            records,
            sum(r.source in ("live", "batch") for r in journal.written) if resumed else None,
        )


def _in_flight(paths: RunPaths) -> float:
    """The worst cases, summed, of the calls a stopped process of the run had sent and
    never journalled (its budget counts them as paid), said on the terminal."""
    found = in_flight(paths.run_dir / CALL_FILE)
    if found.calls:
        logger.warning(
            "run %s: %d call(s) were in flight when a process of it was stopped, and never "
            "journalled: the server may have billed them, so each counts at its worst case "
            "($%.4f in all) against --max-cost",
            paths.run_id,
            found.calls,
            found.worst_usd,
        )
    return found.worst_usd


@contextlib.contextmanager
def _heap_set_aside() -> Iterator[None]:
    """The objects made before a run (modules, the catalog, the SDKs' classes: most of the
    process) set aside from the cyclic collector while it runs: each full collection walked
    them all again (a few of about 0.1 s in a run of a thousand answers, on the event loop
    between answers). Nothing is kept longer than the run; a heap already frozen (another
    run at once, or the caller's) is left as it is."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


run_verification = VerificationRunner.run_verification
"""Synchronous wrapper: run the named scaffolds with settings from the environment and
``overrides``, and return their results (reports are not written)."""
