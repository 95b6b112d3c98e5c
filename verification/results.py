"""Certification from the journal: a pure function of attempt records.

Status uses integers so that no rounding decides it: CERTIFIED when ``10*passed >= 9*n``,
PARTIAL when ``2*passed >= n``, else FAILED; INCOMPLETE when nothing was counted or more than
10% of the planned answers are missing or ended in an infrastructure error. ``n`` counts
first attempts that ended ``passed``, ``failed``, ``truncated`` or ``refused`` (a refusal is
an answer the model chose not to give: it counts against the rate, at no level); the
certified rate is the first-attempt rate, and the rate after repair is shown beside it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from verification.generators.base import TestCase
from verification.journal import AttemptRecord

__all__ = [
    "THRESHOLDS",
    "ScaffoldResults",
    "Status",
    "TestResult",
    "certify",
    "wilson_interval",
]

Status = Literal["CERTIFIED", "PARTIAL", "FAILED", "INCOMPLETE"]
THRESHOLDS = {"CERTIFIED": 0.9, "PARTIAL": 0.5}
_Z95 = 1.959963984540054


def wilson_interval(passed: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of ``passed / n`` (95% by default); (0, 1) when n = 0."""
    if n == 0:
        return 0.0, 1.0
    p = passed / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def certify(passed: int, n: int, *, planned: int, unfinished: int) -> Status:
    """The status of ``passed`` out of ``n`` counted answers, ``planned`` in all."""
    if n == 0 or 10 * unfinished > planned:
        return "INCOMPLETE"
    if 10 * passed >= 9 * n:
        return "CERTIFIED"
    if 2 * passed >= n:
        return "PARTIAL"
    return "FAILED"


@dataclass(frozen=True)
class TestResult:
    """One answer to one case (its last attempt), as reports show it."""

    __test__ = False

    test_case: TestCase
    passed: bool
    actual: Any
    expected: dict[str, Any]
    llm_response: str | None
    validation_message: str
    error: str | None
    outcome: str
    level: int | None
    epoch: int
    attempts: int
    final_outcome: str
    """The outcome of the last attempt (after any repair)."""
    leniency: tuple[str, ...]
    stop_reason: str | None
    raw_response_chars: int
    usage: dict[str, int]
    latency_s: float
    model: str | None

    @classmethod
    def from_records(cls, first: AttemptRecord, last: AttemptRecord) -> TestResult:
        """The result of a chain of attempts (first and last may be the same record)."""
        case = TestCase(
            id=last.case_id,
            scaffold=last.scaffold,
            tier=last.tier,  # type: ignore[arg-type]
            index=last.index,
            input=last.input,
            expected=last.expected,
        )
        passed = first.outcome == "passed"
        return cls(
            test_case=case,
            passed=passed,
            actual=first.answer,
            expected=first.expected,
            llm_response=first.raw_response,
            validation_message=first.reason,
            error=None if passed else first.reason,
            outcome=first.outcome,
            level=first.level,
            epoch=first.epoch,
            attempts=last.attempt,
            final_outcome=last.outcome,
            leniency=tuple(first.leniency),
            stop_reason=first.stop_reason,
            raw_response_chars=first.raw_response_chars,
            usage=dict(first.usage),
            latency_s=first.latency_s,
            model=first.model,
        )

    @property
    def repaired(self) -> bool:
        """Failed first, passed on a repair attempt."""
        return not self.passed and self.final_outcome == "passed"


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
    per_tier: dict[str, tuple[int, int]]
    """Tier -> (passed, n)."""
    leniency: dict[str, int]
    usage: dict[str, int]
    models: list[str]
    status: Status
    interval: tuple[float, float] = field(default=(0.0, 1.0))
    run_label: str | None = None
    """``DRY RUN`` or ``REPLAY`` when no model answered: such results certify no model."""
    from_cache: int = 0
    """Answers (repairs included) the response cache gave instead of a model call."""

    @property
    def pass_rate(self) -> float:
        """First-attempt pass rate over counted answers (0.0 when none)."""
        return self.passed / self.n if self.n else 0.0

    @property
    def repaired_pass_rate(self) -> float:
        """Pass rate when repair attempts count."""
        return self.passed_after_repair / self.n if self.n else 0.0

    @property
    def borderline(self) -> bool:
        """True when the 95% interval straddles a status threshold."""
        low, high = self.interval
        return self.status in ("CERTIFIED", "PARTIAL", "FAILED") and any(
            low < threshold <= high for threshold in THRESHOLDS.values()
        )

    @classmethod
    def from_records(
        cls,
        scaffold: str,
        records: Iterable[AttemptRecord],
        *,
        planned: int,
        run_label: str | None = None,
    ) -> ScaffoldResults:
        """Fold a journal's records for ``scaffold``. Later lines for the same case,
        sample and attempt supersede earlier ones (a resumed run retries infra errors)."""
        mine = [record for record in records if record.scaffold == scaffold]
        latest: dict[tuple[str, int, int], AttemptRecord] = {}
        for record in mine:
            latest[(record.case_id, record.epoch, record.attempt)] = record
        chains: dict[tuple[str, int], dict[int, AttemptRecord]] = {}
        for (case_id, epoch, attempt), record in latest.items():
            chains.setdefault((case_id, epoch), {})[attempt] = record
        counted: list[TestResult] = []
        infra: list[TestResult] = []
        for key in sorted(chains):
            chain = chains[key]
            if 1 not in chain:
                continue
            result = TestResult.from_records(chain[1], chain[max(chain)])
            if result.outcome == "infra_error":
                infra.append(result)
            else:
                counted.append(result)
        n = len(counted)
        passed = sum(r.passed for r in counted)
        after_repair = sum(r.passed or r.repaired for r in counted)
        per_tier: dict[str, tuple[int, int]] = {}
        for tier in ("simple", "standard", "edge"):
            in_tier = [r for r in counted if r.test_case.tier == tier]
            if in_tier:
                per_tier[tier] = (sum(r.passed for r in in_tier), len(in_tier))
        failures = Counter(r.level for r in counted if not r.passed and r.level is not None)
        usage: Counter[str] = Counter()
        for record in mine:  # every call costs, superseded ones included; the cache is free
            if record.source != "cache":
                usage.update(record.usage)
        models = sorted({r.model for r in latest.values() if r.model})
        missing = max(planned - n - len(infra), 0)
        return cls(
            scaffold=scaffold,
            results=counted + infra,
            planned=planned,
            passed=passed,
            n=n,
            passed_after_repair=after_repair,
            infra_errors=len(infra),
            missing=missing,
            truncated=sum(r.outcome == "truncated" for r in counted),
            failures_by_level={level: failures.get(level, 0) for level in (1, 2, 3)},
            refused=sum(r.outcome == "refused" for r in counted),
            per_tier=per_tier,
            leniency=dict(Counter(name for r in counted for name in r.leniency)),
            usage=dict(usage),
            models=models,
            status=certify(passed, n, planned=planned, unfinished=len(infra) + missing),
            interval=wilson_interval(passed, n),
            run_label=run_label,
            from_cache=sum(record.source == "cache" for record in mine),
        )
