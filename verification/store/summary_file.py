"""The ``summary.json`` format: a run's certification as data, with a schema of its own.

:class:`RunSummary` is what the summary reporter (:mod:`verification.reports.summary`) writes
and what any reader (history, compare, an HTML view) reads back. ``schema_version`` says the
shape (:data:`SUMMARY_SCHEMA`); a field added later is optional with a default, so a summary
written by an older harness still loads, and a field this version does not know (written by
a newer one) is ignored rather than refused.
"""

from __future__ import annotations

import json
from typing import Any, Self

from pydantic import BaseModel, Field, NonNegativeInt, model_validator

from verification.store.summary_pairs import (
    TOLERANT,
    LiftRowSummary,
    LiftSummary,
    RateDrop,
    RegressionGate,
    StatusChange,
)

__all__ = [
    "MAX_SUMMARY_BYTES",
    "SUMMARY_SCHEMA",
    "CalibrationSummary",
    "CostFigures",
    "EnvelopeSearchSummary",
    "EnvelopeTry",
    "LiftRowSummary",
    "LiftSummary",
    "MissSummary",
    "PlanSummary",
    "ProgramsSummary",
    "RateDrop",
    "RegressionGate",
    "RunSummary",
    "ScaffoldSummary",
    "SizeSummary",
    "StatusChange",
    "TierCount",
]

SUMMARY_SCHEMA = 2
"""Version 1 was the untyped dictionary before this model (no ``schema_version`` key)."""
MAX_SUMMARY_BYTES = 16 * 1024 * 1024
"""A summary file larger than this is not one the harness wrote: readers refuse it."""


class _Tolerant(BaseModel):
    model_config = TOLERANT


def _score_within(score: float, n: int, what: str) -> None:
    """Refuse a score no ``n`` cases can sum to (a hand-edited summary read back): the
    rates and intervals drawn from it would be no rates."""
    if not 0 <= score <= n:
        raise ValueError(f"{what} score {score} is not between 0 and its {n} cases")


class TierCount(_Tolerant):
    """One tier's (or size's) first-attempt figures."""

    score: float = Field(allow_inf_nan=False)
    """The sum of its case scores."""
    n: int = Field(ge=0)
    """Its distinct cases."""

    @model_validator(mode="before")
    @classmethod
    def _version_1(cls, data: Any) -> Any:
        # Version 1 counted a tier's passes (one answer a case, so its score): every run
        # before it was typed read as damaged, its statuses as "not reported" (hunt af).
        if isinstance(data, dict) and "score" not in data and "passed" in data:
            return {**data, "score": data["passed"]}
        return data

    @model_validator(mode="after")
    def _possible(self) -> Self:
        _score_within(self.score, self.n, "a tier's")
        return self


class CostFigures(_Tolerant):
    """What a scaffold or a run cost (USD; ``None`` where the model has no known price)."""

    usd: float | None = None
    usd_per_case: float | None = None
    """Mean cost of a case asked live, every sample and repair of it included."""
    most_expensive_case: str | None = None
    """The case whose calls (every sample's) cost most."""
    input_tokens: int = 0
    """Input billed at the full price (neither written to nor read from the prompt cache)."""
    output_tokens: int = 0
    """Output, thinking included."""
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    live_calls: int = 0
    """Calls answered one by one (not a batch's answers: ``batch_answers``)."""
    cached_answers: int = 0
    """Answers the response cache gave (no call, no cost)."""
    batch_answers: int = 0
    """Answers Message Batches gave (at the batch price)."""
    worst_case_calls: int = Field(default=0, ge=0)
    """Calls whose usage the server gave no readable counts of: counted in these figures
    (and by ``--max-cost``) at their worst case, their prompt estimated and their whole
    output budget."""
    prompt_cache_savings_usd: float | None = None
    response_cache_savings_usd: float | None = None
    batch_savings_usd: float | None = None
    prompt_cache: str | None = None
    """``worked``, ``written-not-read``, ``below-minimum``, ``no-activity``, ``off``, or
    ``None`` (no live call, or scaffolds that differ)."""
    prompt_cache_detail: str = ""


class MissSummary(_Tolerant):
    """One answer the validator judged wrongly in the run's calibration."""

    case_id: str
    kind: str
    answer: str


class CalibrationSummary(_Tolerant):
    """How the validator did on the run's own cases (mutants it must reject,
    alternatives it must accept)."""

    mutants_rejected: int
    mutants: int
    alternatives_accepted: int
    alternatives: int
    misses: int
    first_misses: list[MissSummary] = []


class SizeSummary(_Tolerant):
    """One swept size."""

    size: int
    score: float
    n: int
    pass_rate: float
    interval_95: tuple[float, float]
    status: str
    """The size's decision on its own sweep cases."""
    truncated: int = 0
    budget_limited: bool = False
    """More than a tenth of its answers hit the output budget (they count as failures)."""
    answers: int = 0
    wrong: int = 0
    """Answers that failed other than by the output budget."""
    borderline: bool = False
    """Its 95% interval straddles the threshold that decided it at its cap or a point cut
    (never where a look decided before the cap, nor where it ended short)."""
    lost: NonNegativeInt = 0
    """Answers its plan asked up to where it decided that never came (infrastructure
    errors, or a run stopped): it was decided on the rest."""
    worst_case_rate: float | None = Field(default=None, ge=0.0, le=1.0)
    """The pass rate had every lost answer failed (``None``: none was lost)."""
    decided_look: int | None = None
    """The look of the size's plan that decided it (1 is the first; ``None``: its point
    cut on every case it had, a run that ended short of a look)."""
    decided_early: bool = False
    """The look came before the plan's cap: the size's later cases were not asked."""
    short_oc: str | None = None
    """What the size's decision claims when it ended short of its plan's cap (few distinct
    inputs at the size, or answers lost): the OC of the plan read on the inputs it had, in
    a sentence. ``None`` where it read its whole plan (the scaffold's ``plan.oc``), or
    decided nothing."""


class EnvelopeTry(_Tolerant):
    """One size an envelope search decided, in the order it tried them."""

    size: int
    status: str
    n: int
    pass_rate: float
    budget_limited: bool = False
    input_tokens: int = 0
    output_tokens: int = 0
    usd: float | None = None
    """What its live calls cost (``None``: no known price, or a dry run)."""
    ended_short: bool = False
    """Decided on fewer inputs than its plan's cap: its sweep entry's ``short_oc`` says
    what that claims."""


class EnvelopeSearchSummary(_Tolerant):
    """A scaffold's envelope search (``verify --envelope``, a thorough run's envelope)."""

    certified_up_to: int | None = None
    fails_from: int | None = None
    tried: list[EnvelopeTry] = []
    """Every size it decided, in the order it tried them (``sweep`` has them ascending)."""
    stopped: str = ""
    """Why it ended before finding the boundary ("" when it ran its course)."""
    statement: str = ""
    """The search in one line, as the reports say it."""
    overshoot: str = ""
    """What the boundary it names risks, from each size's exact OC: at most how many runs
    in 100 name one too high ("" when it named none)."""


class PlanSummary(_Tolerant):
    """The certification plan a status was decided by, and what the status claims."""

    name: str
    looks: list[int]
    """The numbers of answered cases it looks at; the last is the cap."""
    cap: int
    oc: str
    """What a status by it claims: one sentence from its exact operating characteristic."""
    decided_at: int | None = None
    """The answered cases the decision was reached at, each input once (a case asked with
    an earlier case's input is counted by no look); ``None`` at run level."""
    look: int | None = None
    """The look that decided (1-based); ``None`` when the point cut decided what a run
    that ended short of its cap had, or at run level."""


class ProgramsSummary(_Tolerant):
    """Code mode: a scaffold's programs (each run on the whole suite)."""

    programs: int
    """Programs counted (infrastructure errors and refusals left out)."""
    passing: int
    """Programs that passed every case."""
    pass_at_k: dict[str, float] = {}
    """k (as text) -> the unbiased pass@k of Chen et al. (2021)."""
    first_failing_sizes: dict[str, int | None] = {}
    """Per failed program, the size of its first failing case."""
    handled_up_to: dict[str, int | None] = {}
    """Per program, the largest size at and below which every case passed in time."""
    harness_seconds_per_case: dict[str, float] = {}
    """Per program run (not one sharing another's run), the harness's own seconds per case
    it ran: reading it, the sandbox beyond the cases' round trips, judging."""


class ScaffoldSummary(_Tolerant):
    """One scaffold's certification in a run."""

    status: str
    """CERTIFIED, PARTIAL, FAILED or INCOMPLETE; UNCERTIFIED when the run certifies nothing
    because of what it asked (``uncertified`` says why; ``rate_status`` is what the rate
    alone reads)."""
    rate_status: str | None = None
    """The status the pass rate gives, by the rule that certifies (the same as ``status``
    unless that is UNCERTIFIED)."""
    uncertified: str | None = None
    """Why the run certifies nothing because of what it asked (the quick level, chosen
    cases or tiers, one shard); ``None`` when it certifies, and for dry runs and replays."""
    run_label: str | None = None
    pass_rate: float = Field(ge=0.0, le=1.0)
    passed: int = Field(ge=0)
    """First answers that pass, every sample counted (``score`` is what certifies)."""
    n: int = Field(ge=0)
    """Distinct cases counted."""
    planned: int = Field(ge=0)
    """Answers planned: cases times samples."""
    interval_95: tuple[float, float]
    borderline: bool
    pass_rate_after_repair: float
    per_tier: dict[str, TierCount] = {}
    failures_by_level: dict[str, int] = {}
    truncated: int = 0
    refused: int = 0
    from_cache: int = 0
    infra_errors: int = 0
    missing: int = 0
    usage: dict[str, int] = {}
    cost: CostFigures | None = None
    score: float = Field(default=0.0, allow_inf_nan=False)
    """The sum of case scores; ``pass_rate`` is ``score / n``."""
    answers: int = 0
    """Counted answers (``n`` cases times the samples, less infrastructure errors)."""
    consistent: int = 0
    """Cases whose samples all agree."""
    incomplete_reason: str | None = None
    per_size: dict[str, TierCount] = {}
    """Size (as text: JSON keys are strings) -> score and cases, every known size."""
    size_unit: str = "size"
    sweep: list[SizeSummary] = []
    """The size envelope, ascending; empty when the run swept no sizes."""
    certified_up_to: int | None = None
    """The largest size of the unbroken run of CERTIFIED sizes from the smallest."""
    fails_from: int | None = None
    """The smallest swept size decided PARTIAL or FAILED."""
    holds_across_range: bool = False
    budget_limited_sizes: list[int] = []
    envelope: str = ""
    """The envelope in one line, as the reports say it ("" without a sweep)."""
    size_oc: str | None = None
    """What a swept size's decision claims, from the exact OC of the plan each size is
    decided by (at the quick level a fixed 35 cases, a weak plan); ``None`` without a
    sweep. A size that ended short of it says its own (its ``short_oc``)."""
    envelope_search: EnvelopeSearchSummary | None = None
    """The envelope search that chose the swept sizes (``None``: none; a fixed sweep)."""
    calibration: CalibrationSummary | None = None
    worst_case_pass_rate: float | None = None
    """The pass rate had every answer lost to an infrastructure error that the status is
    judged on failed (not a copy's, nor one past a deciding look's window); ``None`` when
    there was no such error."""
    effective_answers: float | None = None
    """The independent answers the rate stands on (``--samples``: the answers over the
    design effect of their intra-case correlation; ``n`` with one sample per case)."""
    intra_case_correlation: float | None = None
    """The ANOVA estimate of how alike a case's samples are, in [0, 1]; ``None`` when it
    cannot be estimated (one sample per case)."""
    programs: ProgramsSummary | None = None
    """Code mode (``--answer code``): the programs and their pass@k; ``None`` in trace mode."""
    stopped_early_at: int | None = None
    """The planned cases asked before the look that decided the status (the rest were not
    asked, and are not missing); ``None`` when the run did not stop early."""
    copies: int = 0
    """Cases of a sequential plan answered with the input of a case answered before them,
    up to the case that decided (those past it are among the cases answered after it):
    shown, counted by no look, neither in ``n`` nor missing (a tier with few possible inputs
    draws some again, and copies of one prompt are answered alike)."""
    repeated_inputs: int = 0
    """The level's counted cases whose input an earlier counted case had, as the scaffold's
    report says: under a fixed plan (``--cases N``) they are in ``n``, and the interval
    clusters them (so it stands on about :attr:`effective_answers`); a sequential plan
    counts none of them (:attr:`copies`)."""
    plan: PlanSummary | None = None
    """The plan this status was decided by (``None``: a run from before plans)."""

    @model_validator(mode="after")
    def _possible(self) -> Self:
        _score_within(self.score, self.n, "the scaffold's")
        return self


class RunSummary(_Tolerant):
    """The whole ``summary.json``."""

    schema_version: int = SUMMARY_SCHEMA
    run_id: str
    dry_run: bool
    run_label: str | None = None
    provider: str | None = None
    model_requested: str | None = None
    """``None`` in a dry run: no model was asked."""
    models_returned: list[str] = []
    model_runs: dict[str, str] | None = None
    """Every model asked together with this run's (``--model A --model B``) and the run
    that asked it, this one included; ``None``: one model."""
    thinking_budget: int | None = None
    """Extended thinking's budget per request (``--thinking-budget``); ``None``: none."""
    seed: int
    """The public seed; 0 when ``seed_private`` (the seed itself is never written)."""
    seed_private: bool = False
    seed_sha256: str | None = None
    level: str | None = None
    """``quick`` (certifies nothing), ``standard`` or ``thorough``."""
    certifies: bool = True
    """False for a dry run, a replay, the quick level, a shard, or a run narrowed to some
    cases or tiers: such a run certifies nothing."""
    validator_misses: list[str] = []
    """Scaffolds whose validator missed on the run's own cases: harness defects."""
    scaffolds: dict[str, ScaffoldSummary] = Field(default_factory=dict)
    previous_run_id: str | None = None
    status_changes: list[StatusChange] | None = None
    cost: CostFigures | None = None
    """The run's cost, with the savings of each cache apart."""
    stopped_by_budget: bool = False
    """The run stopped at its ``--max-cost`` budget with cases left to ask."""
    plan: PlanSummary | None = None
    """The run's certification plan and what its statuses claim (``None``: a run from
    before plans)."""
    """Against ``previous_run_id``: regressions first, then improvements."""
    rate_drops: list[RateDrop] | None = None
    regressions: list[str] | None = None
    """Scaffolds with a significant drop on the shared cases (the regression gate); runs
    written before it also named every lower status here."""
    regression_gate: RegressionGate | None = None
    """Against ``previous_run_id``: the gate's family and its power at this n."""
    lift: dict[str, LiftSummary] | None = None
    """In either run of a ``--baseline none`` pair: per scaffold, what the scaffold adds
    over no scaffold, size by size, and its price in output tokens; ``None`` otherwise."""

    @classmethod
    def from_json(cls, text: str | bytes) -> RunSummary:
        """Read a ``summary.json`` (``json`` first, as the journal does: text may hold
        escapes pydantic's own parser refuses). Raises ``ValueError`` (pydantic's
        ``ValidationError`` among them) for anything that is not a summary."""
        if len(text) > MAX_SUMMARY_BYTES:
            raise ValueError(f"larger than {MAX_SUMMARY_BYTES} bytes: not a summary")
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return cls.model_validate(data)
