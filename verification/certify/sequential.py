"""The certification plan: when a run stops asking a scaffold and what it then decides.

A plan is acceptance sampling's group-sequential plan (Wald's sequential probability ratio
test, looked at in groups): the run looks at a scaffold every 10 answered cases from 20 up
to the plan's cap. Two Wald tests run side by side on the case scores so far: an upper one
(0.85 against 0.95) that says whether the scaffold is good enough to certify, and a lower
one (0.40 against 0.60) that says whether it fails. A look stops the run when both tests
are decided and what they decide is the status the rate so far gives (CERTIFIED only at a
rate of at least 0.90, PARTIAL at 0.50 or more and below 0.90, FAILED below 0.50), so a
status always means what the API reference says of the final rate; at the cap the point
cut at 0.90 and 0.50 decides. The risks are controlled by *when* the run stops, not by
moving the thresholds, and the cap is the smallest multiple of 10 at which the plan's exact
operating characteristic (:func:`operating_characteristic`) meets the level's risks.

``--cases N`` is a fixed plan (:func:`fixed_plan`): one look at ``N``, the point cut. Its
operating characteristic is stated as well; at small ``N`` it is weak, and
:func:`oc_sentence` says so.

Scores may be fractional (``--samples K``: a case's score is the share of its answers that
pass); the log-likelihood ratio is linear in the score sum, so the plan decides on them as
they are. The operating characteristic is computed for one answer per case (K = 1); with
more the scores vary less about the same mean and the plan errs less, so its stated OC is
conservative.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from verification.store.manifests import PlanRecord, WaldRecord

__all__ = [
    "CAPS",
    "FIRST_LOOK",
    "LOOK_EVERY",
    "QUICK_CASES",
    "CertificationPlan",
    "Decision",
    "DecisionStatus",
    "OperatingCharacteristic",
    "PlanLevel",
    "Risk",
    "WaldTest",
    "decide",
    "ended_short",
    "fixed_plan",
    "level_plan",
    "level_risks",
    "look_status",
    "plan_for",
    "plan_from_record",
    "plan_record",
    "sequential_looks",
]

DecisionStatus = Literal["CERTIFIED", "PARTIAL", "FAILED", "UNDECIDED"]
PlanLevel = Literal["quick", "standard", "thorough"]

FIRST_LOOK = 20
"""The fewest answered cases a look decides on: every tier several times over."""
LOOK_EVERY = 10
QUICK_CASES = 5
"""The quick level's fixed plan: a smoke test, which certifies nothing."""

_CERTIFIED = Fraction(9, 10)
_PARTIAL = Fraction(1, 2)


@dataclass(frozen=True)
class WaldTest:
    """Wald's sequential probability ratio test of ``p0`` against ``p1`` (``p0 < p1``):
    ``alpha`` is the risk of deciding for ``p1`` when ``p0`` holds, ``beta`` of deciding
    for ``p0`` when ``p1`` holds."""

    p0: float
    p1: float
    alpha: float
    beta: float

    @property
    def accept_high(self) -> float:
        """The log-likelihood ratio at or above which the test decides for ``p1``."""
        return math.log((1 - self.beta) / self.alpha)

    @property
    def accept_low(self) -> float:
        """The log-likelihood ratio at or below which the test decides for ``p0``."""
        return math.log(self.beta / (1 - self.alpha))

    def llr(self, passed: float, n: int) -> float:
        """The log-likelihood ratio of ``p1`` to ``p0`` after ``passed`` of ``n`` (a sum of
        case scores, so possibly fractional)."""
        return passed * math.log(self.p1 / self.p0) + (n - passed) * math.log(
            (1 - self.p1) / (1 - self.p0)
        )

    def verdict(self, passed: float, n: int) -> int:
        """+1 for ``p1``, -1 for ``p0``, 0 while undecided."""
        ratio = self.llr(passed, n)
        if ratio >= self.accept_high:
            return 1
        if ratio <= self.accept_low:
            return -1
        return 0


@dataclass(frozen=True)
class Risk:
    """A risk the plan promises: the probability of ``event`` when the true pass rate is
    ``p`` (and everywhere beyond it, away from the thresholds) is at most (``bound`` with
    ``at_least`` false) or at least ``bound``."""

    event: Literal["CERTIFIED", "FAILED", "not FAILED"]
    p: float
    bound: float
    at_least: bool = False

    def probability(self, oc: OperatingCharacteristic) -> float:
        """The event's probability under ``oc``."""
        if self.event == "CERTIFIED":
            return oc.certified
        if self.event == "FAILED":
            return oc.failed
        return 1.0 - oc.failed

    def met(self, oc: OperatingCharacteristic) -> bool:
        """Whether ``oc`` (at :attr:`p`) keeps this promise."""
        value = self.probability(oc)
        return value >= self.bound if self.at_least else value <= self.bound

    @property
    def zone(self) -> tuple[float, float]:
        """The true rates the promise covers."""
        good = self.event != "FAILED"  # more likely the higher the true rate
        above = self.at_least == good
        return (self.p, 1.0) if above else (0.0, self.p)

    def __str__(self) -> str:
        side = ">=" if self.zone[0] == self.p else "<="
        bound = ">=" if self.at_least else "<="
        return f"P({self.event} | p {side} {self.p:.2f}) {bound} {self.bound:g}"


@dataclass(frozen=True)
class CertificationPlan:
    """When a run looks at a scaffold's answers and how it decides: ``looks`` are the
    numbers of answered cases it looks at (the last is ``cap``); ``upper`` and ``lower``
    the Wald tests at the 0.90 and 0.50 thresholds (``None`` for a fixed plan, which only
    cuts at the cap); ``risks`` what its operating characteristic promises."""

    name: str
    looks: tuple[int, ...]
    cap: int
    upper: WaldTest | None = None
    lower: WaldTest | None = None
    risks: tuple[Risk, ...] = ()

    @property
    def sequential(self) -> bool:
        """True when the plan may stop before its cap."""
        return len(self.looks) > 1


@dataclass(frozen=True)
class Decision:
    """What a plan decided on a scaffold's scores: ``status`` (``UNDECIDED`` while the
    run must ask more), the ``n`` answered cases it decided on, the ``look`` (1-based;
    ``None`` when undecided, or when a run that ended short of its cap fell to the point
    cut on what it had) and whether it stopped ``early`` (before the cap)."""

    status: DecisionStatus
    n: int
    look: int | None
    early: bool

    @property
    def decided(self) -> bool:
        return self.status != "UNDECIDED"


@dataclass(frozen=True)
class OperatingCharacteristic:
    """A plan's behaviour at a true pass rate ``p``, one answer per case."""

    p: float
    certified: float
    partial: float
    failed: float
    expected_cases: float
    max_cases: int
    """The most cases a run asks with positive probability at this rate."""


def sequential_looks(cap: int) -> tuple[int, ...]:
    """A look every :data:`LOOK_EVERY` answered cases from :data:`FIRST_LOOK` up to
    ``cap``, the cap the last."""
    looks = list(range(FIRST_LOOK, cap, LOOK_EVERY))
    return (*looks, cap)


_LEVEL_RISKS: dict[str, tuple[float, float, float]] = {
    "standard": (0.05, 0.10, 0.10),
    "thorough": (0.01, 0.01, 0.01),
}
"""Per level: the risk of certifying at 0.85, of not certifying at 0.95, and of each wrong
decision at the failure zone (0.40/0.60)."""
_LEVEL_TESTS: dict[str, tuple[float, float]] = {"standard": (0.05, 0.10), "thorough": (0.01, 0.01)}
"""Per level, the Wald tests' risks (alpha = beta) at the 0.90 and at the 0.50 threshold."""

CAPS: dict[str, int] = {"standard": 180, "thorough": 290}
"""Each sequential level's cap: the smallest multiple of 10 whose exact operating
characteristic meets the level's risks (:func:`search_cap`; a test searches again)."""


def level_plan(level: str, cap: int) -> CertificationPlan:
    """The sequential plan of ``level`` (standard or thorough) cut at ``cap``."""
    upper, lower = _LEVEL_TESTS[level]
    return CertificationPlan(
        name=level,
        looks=sequential_looks(cap),
        cap=cap,
        upper=WaldTest(0.85, 0.95, upper, upper),
        lower=WaldTest(0.40, 0.60, lower, lower),
        risks=level_risks(level),
    )


def level_risks(level: str) -> tuple[Risk, ...]:
    """What ``level``'s plan promises (issue 23's zones): certifying at 0.85 or below,
    missing at 0.95 or above, failing at 0.60 or above, not failing at 0.40 or below."""
    certify, miss, fail = _LEVEL_RISKS[level]
    return (
        Risk("CERTIFIED", 0.85, certify),
        Risk("CERTIFIED", 0.95, 1 - miss, at_least=True),
        Risk("FAILED", 0.60, fail),
        Risk("not FAILED", 0.40, fail),
    )


def fixed_plan(cases: int) -> CertificationPlan:
    """``--cases N``: one look at ``N`` cases, decided by the point cut."""
    if cases < 1:
        raise ValueError(f"a plan needs at least one case, not {cases}")
    return CertificationPlan(name=f"fixed {cases}", looks=(cases,), cap=cases)


def plan_for(level: str, cases: int | None = None) -> CertificationPlan:
    """The plan a run of ``level`` follows: ``--cases N`` makes it fixed at ``N``; quick
    is fixed at 5 (a smoke test); standard and thorough are sequential to their cap."""
    if cases is not None:
        return fixed_plan(cases)
    if level == "quick":
        return fixed_plan(QUICK_CASES)
    if level not in CAPS:
        raise ValueError(f"no certification plan for level {level!r}")
    return level_plan(level, CAPS[level])


def plan_record(plan: CertificationPlan) -> PlanRecord:
    """``plan`` as a manifest keeps it."""

    def wald(test: WaldTest | None) -> WaldRecord | None:
        if test is None:
            return None
        return WaldRecord(p0=test.p0, p1=test.p1, alpha=test.alpha, beta=test.beta)

    return PlanRecord(
        name=plan.name,
        looks=list(plan.looks),
        cap=plan.cap,
        upper=wald(plan.upper),
        lower=wald(plan.lower),
    )


def plan_from_record(record: PlanRecord) -> CertificationPlan:
    """The plan a manifest recorded (its risks, when it is a level's plan as issued)."""

    def wald(test: WaldRecord | None) -> WaldTest | None:
        if test is None:
            return None
        return WaldTest(test.p0, test.p1, test.alpha, test.beta)

    plan = CertificationPlan(
        name=record.name,
        looks=tuple(record.looks),
        cap=record.cap,
        upper=wald(record.upper),
        lower=wald(record.lower),
    )
    if record.name in _LEVEL_RISKS:
        issued = level_plan(record.name, record.cap)
        if replace(issued, risks=()) == plan:
            return issued
    return plan


def _point_status(passed: Fraction, n: int) -> DecisionStatus:
    if passed >= _CERTIFIED * n:
        return "CERTIFIED"
    if passed >= _PARTIAL * n:
        return "PARTIAL"
    return "FAILED"


def look_status(plan: CertificationPlan, passed: Fraction, n: int, *, last: bool) -> DecisionStatus:
    """The decision at a look of ``n`` answered cases scoring ``passed``; ``last``: the
    cap (or the end of what a run asked), where the point cut decides."""
    point = _point_status(passed, n)
    if last or plan.upper is None or plan.lower is None:
        return point
    upper = plan.upper.verdict(float(passed), n)
    lower = plan.lower.verdict(float(passed), n)
    tests = {(1, 1): "CERTIFIED", (-1, 1): "PARTIAL", (-1, -1): "FAILED"}.get((upper, lower))
    return point if tests == point else "UNDECIDED"


def ended_short(plan: CertificationPlan, decision: Decision | None) -> CertificationPlan | None:
    """The plan as a run that ended short of its cap read it, when one did: a plan whose
    scaffold or size had fewer answers than its cap (its inputs ran out, each counted once,
    or errors left fewer) decided by the point cut on the ``n`` there were, so its looks up
    to ``n`` and ``n`` its last (a fixed plan: the rate on ``n``). Its exact OC, not the
    whole plan's, is what that decision claims. ``None`` for any other decision (a look's,
    the cap's, none yet). A fixed plan's status is read on every case, copies too: only a
    swept size's fixed plan counts inputs, and so ends short."""
    if (
        decision is None
        or decision.status == "UNDECIDED"
        or decision.look is not None
        or not 0 < decision.n < plan.cap
    ):
        return None
    looks = (*(look for look in plan.looks if look < decision.n), decision.n)
    return replace(plan, looks=looks, cap=decision.n)


def _exact(score: float | Fraction) -> Fraction:
    """A case score as a fraction (a share of at most a few hundred samples), so no
    rounding of a float decides a status."""
    return Fraction(score).limit_denominator(10**6)


def decide(
    plan: CertificationPlan,
    scores: Iterable[float | Fraction],
    *,
    final: bool = False,
    may_decide: Callable[[int], bool] | None = None,
) -> Decision:
    """The plan's decision on ``scores``, the answered cases' scores (0 to 1) in plan
    order: the first look that decides, else the cap's point cut, else ``UNDECIDED`` while
    fewer scores than the next look needs are in. ``final``: nothing more will be asked
    (a run that ended short of its cap, e.g. infrastructure errors left it fewer answered
    cases), so an undecided plan falls to the point cut on every score there is.
    ``may_decide(n)``, when given, says whether the look at ``n`` scores may decide
    (:func:`~verification.certify.answers.look_windows`: not where the cases it skipped
    were too many)."""
    # Whole scores (nearly all: one answer per case) are counted as ints, and only the
    # shares of several samples are summed as fractions: a Fraction sum per score cost far
    # more than the looks, and the sum at a look is the same exact number either way.
    whole, parts = 0, Fraction(0)
    n = 0
    looks = iter(enumerate(plan.looks, start=1))
    number, look = next(looks)
    for score in scores:
        if score == 1:
            whole += 1
        elif score != 0:
            parts += _exact(score)
        n += 1
        if n < look:
            continue
        status = look_status(plan, parts + whole, n, last=look == plan.cap)
        if status != "UNDECIDED" and (may_decide is None or may_decide(n)):
            return Decision(status, n, number, early=look < plan.cap)
        number, look = next(looks)
    if final and n:
        return Decision(_point_status(parts + whole, n), n, None, early=False)
    return Decision("UNDECIDED", n, None, early=False)
