"""Certification from the journal: a pure function of attempt records.

``n`` counts distinct case ids with at least one counted answer: a first attempt that ended
``passed``, ``failed``, ``truncated`` or ``refused`` (a refusal is an answer the model
chose not to give: it counts against the rate, at no level). A case's score is the share of
its counted answers (its samples) that pass; the pass rate is the mean case score, so that
asking a case again adds no evidence of new cases. The interval is the two-sided 95% Wilson
interval of the rate at the effective number of answers (:mod:`verification.certify.effective`):
``n`` with one sample per case, more when a case's samples vary independently.

Status uses exact fractions so that no rounding decides it: CERTIFIED when the rate is at
least 9/10, PARTIAL at 1/2 or more, else FAILED; INCOMPLETE when nothing was counted, more
than 10% of the planned answers are missing or ended in an infrastructure error, or the
validator missed on the run's own calibration answers. "Borderline" means the interval
straddles the deciding threshold: 0.90 for CERTIFIED, 0.50 for FAILED, either for PARTIAL.
The certified rate is the first-attempt rate; the rate after repair is shown beside it.
A swept run's status is on its level's cases (:mod:`verification.certify.envelope`).

A run that follows a sequential certification plan (:mod:`verification.certify.sequential`)
is decided by :func:`~verification.certify.sequential.decide` on its case scores in plan
order: its status and figures are those of the cases up to the look that decided, so a run
that asked up to the cap and looked afterwards (``--shard``, ``--batch``) is decided as one
that looked as it went. The status a decision gives is the rate's at that look, as above.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from verification.cases import ProgramTask, parse_case_id
from verification.catalog import Catalog, default_catalog
from verification.certify.answers import (
    CaseScores,
    TestResult,
    attempt_chains,
    check_passes,
)
from verification.certify.calibration import (
    Calibration,
    CaseCalibration,
    calibrate,
    fitting_records,
)
from verification.certify.effective import (
    effective_answers,
    effective_interval,
    intra_case_correlation,
)
from verification.certify.effective import worst_case_rate as _worst_case
from verification.certify.envelope import (
    CaseSplit,
    SizePoint,
    certified_up_to,
    envelope_sentence,
    fails_from,
    holds_across_range,
    run_split,
    size_points,
)
from verification.certify.inputs import input_copies, input_tallies
from verification.certify.looked import read_by_looks
from verification.certify.sequential import (
    CertificationPlan,
    Decision,
    ended_short,
    fixed_plan,
    plan_from_record,
)
from verification.certify.statuses import (
    THRESHOLDS,
    Status,
    certify,
    deciding_thresholds,
    straddles,
    wilson_interval,
)
from verification.certify.uncertified import UNCERTIFIED, uncertified_reason
from verification.generators.base import TestCase
from verification.store.journal import check_planned
from verification.store.manifests import RunManifest
from verification.store.records import AttemptRecord

__all__ = [
    "THRESHOLDS",
    "ScaffoldResults",
    "Status",
    "TestResult",
    "case_order",
    "certify",
    "deciding_thresholds",
    "journalled_cases",
    "results_from_journal",
    "wilson_interval",
]


def _record_size(record: AttemptRecord) -> int | None:
    if record.size is not None:
        return record.size
    key = parse_case_id(record.case_id)  # journals from before sizes were recorded
    return key.size if key else None


@dataclass(frozen=True)
class ScaffoldResults:
    """One scaffold's certification."""

    scaffold: str
    results: list[TestResult]
    """Counted answers, then infrastructure errors, each by first attempt."""
    planned: int
    passed: int
    n: int
    passed_after_repair: int
    infra_errors: int
    missing: int
    truncated: int
    failures_by_level: dict[int, int]
    refused: int
    """Answers the model declined to give (``stop_reason`` refusal): failures at no level."""
    per_tier: dict[str, tuple[float, int]]
    """Tier -> (score sum, cases)."""
    leniency: dict[str, int]
    usage: dict[str, int]
    models: list[str]
    status: Status
    interval: tuple[float, float] = field(default=(0.0, 1.0))
    run_label: str | None = None
    """``DRY RUN`` or ``REPLAY`` when no model answered: such results certify no model."""
    from_cache: int = 0
    """Answers (repairs included) the response cache gave instead of a model call."""
    score: float = 0.0
    """The sum of case scores (each the share of the case's answers that pass)."""
    score_after_repair: float = 0.0
    answers: int = 0
    """Counted answers: ``n`` times the samples, less any infrastructure errors."""
    consistent: int = 0
    """Cases whose answers all agree (all pass or all fail); every case with one sample."""
    per_size: dict[int, tuple[float, int]] = field(default_factory=dict)
    """Size -> (score sum, cases), over every counted case whose size is known."""
    size_points: tuple[SizePoint, ...] = ()
    """The envelope: one point per swept size, ascending (empty without a sweep)."""
    size_unit: str = "size"
    certified_up_to: int | None = None
    """The largest size of the unbroken run of CERTIFIED sizes from the smallest; ``None``
    when the smallest is not, or there was no sweep."""
    fails_from: int | None = None
    """The smallest swept size decided PARTIAL or FAILED (``None``: none)."""
    budget_limited_sizes: list[int] = field(default_factory=list)
    calibration: Calibration | None = None
    """How the validator did on this run's cases (``None``: not run)."""
    incomplete_reason: str | None = None
    """Why the status is INCOMPLETE (``validator miss``, ...), else ``None``."""
    uncertified: str | None = None
    """Why this run certifies nothing because of what it asked (:func:`uncertified_reason`);
    then :attr:`shown_status` is UNCERTIFIED, whatever the rate."""
    effective_answers: float = 0.0
    """The independent answers the interval stands on: ``n`` with one sample per case."""
    intra_case_correlation: float | None = None
    """How alike a case's samples are (``None``: one sample per case)."""
    worst_case_rate: float | None = None
    """The pass rate had every answer lost to an infrastructure error that the status is
    judged on failed (not a copy's, nor one past a deciding look's window; ``None``: no
    such error): shown beside the rate, since errors on the hard cases bias it up."""
    plan: CertificationPlan | None = None
    """The plan the status was decided by (``None``: a run from before plans)."""
    decision: Decision | None = None
    """What a sequential plan decided, and at which look (``None``: a fixed plan, or a
    run from before plans, decided by the point cut on every counted case)."""
    asked_after: int = 0
    """Counted cases answered past the look that decided (a run that asked up to its cap
    and looked afterwards): shown, not counted."""
    copies: int = 0
    """Of a sequential plan's cases up to the one that decided, those answered with an input
    a case answered before them had (:func:`~verification.certify.input_keys.later_copies`;
    those past it are in :attr:`asked_after`): shown, counted by no look, so ``n`` counts
    distinct inputs."""

    repeated_inputs: int = 0
    """The level's counted cases whose input an earlier counted case had: a tier with few
    possible inputs (small boards, short texts) draws some again. A fixed plan counts each in
    ``n`` (the interval clusters the copies:
    :func:`~verification.certify.inputs.input_tallies`); a sequential one counts none
    (:attr:`copies`). The report says how many, so a rate over many copies of one easy input
    is seen for what it is. A sweep's cases are not the level's: each size counts its own
    inputs once (hunt ee: "5 of 5 planned; 45 of them repeat ...")."""
    input_copies: tuple[int, ...] = ()
    """The level's counted cases per distinct input, most first (a program is its own):
    what a fixed plan's claim computes its risks for copies answered alike from
    (:func:`~verification.certify.operating.alike_outcome`)."""

    @property
    def short_plan(self) -> CertificationPlan | None:
        """The plan as this scaffold's run read it when it ended short of the cap (its
        inputs, each counted once, or its answers ran out): the status claims that plan's
        OC (:func:`~verification.certify.sequential.ended_short`)."""
        if self.plan is None or self.status == "INCOMPLETE":  # decided nothing: claims nothing
            return None
        return ended_short(self.plan, self.decision)

    @property
    def pass_rate(self) -> float:
        """First-attempt pass rate: the mean case score (0.0 when nothing counted)."""
        return self.score / self.n if self.n else 0.0

    @property
    def shown_status(self) -> str:
        """The status a report shows: :attr:`status`, or UNCERTIFIED (INCOMPLETE aside)
        when the run certifies nothing because of what it asked."""
        if self.uncertified and self.status != "INCOMPLETE":
            return UNCERTIFIED
        return self.status

    @property
    def repaired_pass_rate(self) -> float:
        """Pass rate when repair attempts count."""
        return self.score_after_repair / self.n if self.n else 0.0

    @property
    def borderline(self) -> bool:
        """True when the 95% interval straddles the threshold that decided the status; never
        in a run that certifies nothing (no threshold decided anything), nor when a look of
        a sequential plan decided before its cap (its Wald tests did, at the plan's risks)."""
        if self.uncertified or (self.decision is not None and self.decision.early):
            return False
        return straddles(self.interval, self.status)

    @property
    def holds_across_range(self) -> bool:
        """True when every swept size is CERTIFIED."""
        return holds_across_range(self.size_points)

    @property
    def envelope(self) -> str:
        """The envelope in one line (:func:`~verification.certify.envelope.envelope_sentence`)."""
        return envelope_sentence(self.size_points, self.size_unit)

    @classmethod
    def from_records(
        cls,
        scaffold: str,
        records: Iterable[AttemptRecord],
        *,
        planned: int,
        run_label: str | None = None,
        swept: Sequence[int] = (),
        split: CaseSplit | None = None,
        samples: int = 1,
        size_unit: str = "size",
        calibration: Calibration | None = None,
        uncertified: str | None = None,
        plan: CertificationPlan | None = None,
        order: Sequence[str] = (),
        final: bool = True,
    ) -> ScaffoldResults:
        """Fold a journal's records for ``scaffold``. Later lines for the same case,
        sample and attempt supersede earlier ones (a resumed run retries infra errors).
        ``swept`` are the sizes of a sweep, ``split`` which cases are the level's (the
        status and its figures are theirs alone, ``planned`` their answers) and each
        size's; ``samples`` the answers planned per case; ``calibration`` the validator's
        record on the run's cases (a miss makes the status INCOMPLETE). A sequential
        ``plan`` decides on the case scores in ``order`` (its cases, in plan order);
        ``final``: the run asks nothing more (else an undecided plan stays UNDECIDED)."""
        mine, latest, chains = attempt_chains(scaffold, records)
        counted: list[TestResult] = []
        infra: list[TestResult] = []
        sizes: dict[str, int | None] = {}
        # The inputs of the cases answered, and of those lost to errors alone (a program is
        # its own request, nobody's copy; a case never drawn has none).
        asked: dict[str, Any] = {}
        errored: dict[str, Any] = {}
        for key in sorted(chains):
            chain = chains[key]
            if 1 not in chain:
                continue
            result = TestResult.from_records(chain[1], chain[max(chain)])
            if result.outcome == "infra_error":
                infra.append(result)
                if not isinstance(result.test_case, ProgramTask) and not chain[1].undrawn:
                    errored[key[0]] = chain[1].input
            else:
                counted.append(result)
                sizes[key[0]] = _record_size(chain[1])
                if not isinstance(result.test_case, ProgramTask):
                    asked[key[0]] = chain[1].input
        every, every_infra = counted, infra
        points = size_points(every, sizes, swept, split, samples, (asked, errored))
        if split is not None:  # the sweep's own cases speak for their sizes only
            counted = [r for r in every if r.test_case.id in split.level]
            infra = [r for r in every_infra if r.test_case.id in split.level]
        level_counted = counted
        cases = CaseScores.fold(counted)
        usage: Counter[str] = Counter()
        for record in mine:  # every call costs, superseded ones included; the cache is free
            if record.source != "cache":
                usage.update(record.usage)
        models = sorted({r.model for r in latest.values() if r.model})
        missing = max(planned - len(counted) - len(infra), 0)
        judged, unfinished = planned, len(infra) + missing  # what INCOMPLETE is read on
        decision, asked_after, copies = None, 0, 0
        lost = [r.test_case.id for r in infra]  # the errors its worst case fails
        if plan is not None and plan.sequential:  # its status is the decided cases' alone
            looked = read_by_looks(
                plan,
                order,
                cases.tallies,
                lost,
                (asked, errored),
                planned=planned,
                samples=samples,
                final=final,
            )
            decision, judged, unfinished = looked.decision, looked.judged, looked.unfinished
            asked_after, copies, lost = looked.asked_after, looked.copies, list(looked.lost)
            counted = [r for r in counted if r.test_case.id in looked.decided]
            cases = CaseScores.fold(counted)
        # Of the cases counted, as passed, truncated and refused are (hunt ag: answers past
        # the deciding look were in it, 15 failures beside a rate of 39 in 40).
        failures = Counter(r.level for r in counted if not r.passed and r.level is not None)
        score = cases.total()
        inputs = input_tallies(counted)
        # The curves show what counts: no answer past a decision, and no copy (hunt aa).
        kept = {r.test_case.id for r in counted}.union(*(p.cases for p in points))
        shown = [r for r in every if r.test_case.id in kept]
        status = certify(score, cases.n, planned=judged, unfinished=unfinished)
        copied = input_copies(level_counted)
        reason = None
        if status == "INCOMPLETE":
            reason = "nothing counted" if cases.n == 0 else "unfinished answers over 10%"
        if calibration is not None and calibration.misses:
            status, reason = "INCOMPLETE", "validator miss"
        elif calibration is not None and calibration.unchecked and status == "CERTIFIED":
            status, reason = "INCOMPLETE", calibration.unchecked_reason
        return cls(
            scaffold=scaffold,
            results=every + every_infra,
            planned=planned,
            passed=sum(r.passed for r in counted),
            n=cases.n,
            passed_after_repair=sum(r.passed or r.repaired for r in counted),
            infra_errors=len(infra),
            missing=missing,
            truncated=sum(r.outcome == "truncated" for r in counted),
            failures_by_level={level: failures.get(level, 0) for level in (1, 2, 3)},
            refused=sum(r.outcome == "refused" for r in counted),
            per_tier={
                tier: (float(part.total()), part.n)
                for tier in ("simple", "standard", "edge")
                if (
                    part := CaseScores.fold(
                        [
                            r
                            for r in counted
                            if r.test_case.tier == tier and not isinstance(r.test_case, ProgramTask)
                        ]
                    )
                ).n
            },
            leniency=dict(Counter(name for r in counted for name in r.leniency)),
            usage=dict(usage),
            models=models,
            status=status,
            interval=effective_interval(float(cases.total()), cases.n, inputs.values()),
            run_label=run_label,
            from_cache=sum(record.source == "cache" for record in mine),
            score=float(score),
            score_after_repair=float(CaseScores.fold(counted, after_repair=True).total()),
            answers=len(counted),
            consistent=cases.consistent(),
            per_size={
                size: (float(part.total()), part.n)
                for size in sorted({s for s in sizes.values() if s is not None})
                if (part := CaseScores.fold([r for r in shown if sizes[r.test_case.id] == size])).n
            },
            size_points=points,
            size_unit=size_unit,
            certified_up_to=certified_up_to(points),
            fails_from=fails_from(points),
            budget_limited_sizes=[p.size for p in points if p.budget_limited],
            calibration=calibration,
            incomplete_reason=reason,
            uncertified=uncertified,
            effective_answers=effective_answers(inputs.values()),
            intra_case_correlation=intra_case_correlation(inputs.values()),
            # Had every error the status is judged with failed: a copy's counts for nothing
            # either way, and one past a deciding look's window is shown only (hunt aa).
            worst_case_rate=_worst_case(cases.tallies, Counter(lost)) if lost else None,
            plan=plan,
            decision=decision,
            asked_after=asked_after,
            copies=copies,
            repeated_inputs=sum(copied) - len(copied),
            input_copies=copied,
        )


def results_from_journal(
    manifest: RunManifest,
    records: Sequence[AttemptRecord],
    *,
    catalog: Catalog | None = None,
    calibrations: Mapping[str, CaseCalibration] | None = None,
) -> dict[str, ScaffoldResults]:
    """Each scaffold's certification, folded from the journal (what ``report`` does too).
    A journal that answers cases the manifest never planned (a hand-edited manifest, or
    files of two runs mixed) is refused: no status is computed from it. Each scaffold's
    validator is calibrated on the journal's cases (no model call); a scaffold the catalog
    no longer has (a plugin since removed) is folded without that. ``calibrations`` are
    cases' calibrations already made, by case id (the runner's, made as answers came)."""
    check_planned(manifest, records, f"run {manifest.run_id}")
    catalog = catalog or default_catalog()
    records = fitting_records(records, catalog)
    check_passes(manifest, records, catalog)
    plan = plan_from_record(manifest.plan) if manifest.plan is not None else None
    # Each scaffold's records, sorted out once rather than once for every scaffold.
    by_scaffold: dict[str, list[AttemptRecord]] = {}
    for record in records:
        by_scaffold.setdefault(record.scaffold, []).append(record)
    results = {}
    for name in manifest.scaffolds:
        own = by_scaffold.get(name, [])
        spec = catalog.get(name)
        split = run_split(spec, manifest) if spec else None
        mine = plan
        if mine is not None and manifest.case_filter:  # the cases chosen, by the point cut
            mine = fixed_plan(max(len(manifest.scaffolds[name].case_ids), 1))
        results[name] = ScaffoldResults.from_records(
            name,
            own,
            planned=_asked(manifest, name, split) * manifest.samples,
            run_label=manifest.run_label,
            swept=(manifest.sizes or {}).get(name, ()),
            split=split,
            samples=manifest.samples,
            plan=mine,
            order=case_order(manifest, name, mine, split),
            size_unit=spec.size.unit if spec else "size",
            calibration=(
                calibrate(spec, journalled_cases(name, own), known=calibrations) if spec else None
            ),
            uncertified=uncertified_reason(manifest),
        )
    return results


def _asked(manifest: RunManifest, scaffold: str, split: CaseSplit | None = None) -> int:
    """The cases a run meant to ask of ``scaffold`` for its status: all it planned (of a
    swept run, the level's), or those before the look that stopped it early (the rest are
    not missing)."""
    stop = (manifest.early_stops or {}).get(scaffold)
    if stop:
        return stop.cases
    return len(split.level) if split else len(manifest.scaffolds[scaffold].case_ids)


def case_order(
    manifest: RunManifest,
    scaffold: str,
    plan: CertificationPlan | None,
    split: CaseSplit | None = None,
) -> list[str]:
    """The cases ``plan`` decides ``scaffold`` on, in plan order: its first ``cap`` level
    cases (tiers interleaved; a size sweep's are ``split``'s own)."""
    if plan is None:
        return []
    ids = manifest.scaffolds[scaffold].case_ids
    level = [i for i in ids if i in split.level] if split is not None else ids
    return level[: plan.cap]


def journalled_cases(scaffold: str, records: Sequence[AttemptRecord]) -> list[TestCase]:
    """The test cases of ``scaffold`` the journal holds an attempt at, each once, drawn
    as the journal holds it (what calibration judges)."""
    cases: dict[str, TestCase] = {}
    for record in records:
        # A code-mode program is no case, nor one never drawn: calibration judges answers.
        if (
            record.scaffold == scaffold
            and record.case_id not in cases
            and not record.is_program
            and not record.undrawn
        ):
            cases[record.case_id] = record.test_case()
    return list(cases.values())
