"""The size envelope: which sizes a sweep asks, and the cases it asks at each.

A sweep asks each size at least :data:`CASES_PER_SIZE` times, the simple and standard tiers
interleaved at that size (case ``k`` goes to the ``k mod m``-th of the ``m`` tiers whose
range holds the size). The edge tier stays out of the curve: its generator may draw an
input smaller than asked (an empty or one-element input is its point), which would blur
the rate at that size. Case ids at a size are the ordinary ones
(``dijkstra-standard-s12-004``), so resume, replay and the cache need nothing new.

Each size is decided on its own sweep cases, in the sweep's order, as the level's cases are:
an answer cut by the output budget is a failure there (level 1), never a reason to leave the
size out; a size where more than :data:`BUDGET_LIMIT_SHARE` of the answers were cut is
flagged *budget-limited* beside its decision. "Certified up to S" names the largest size of
the unbroken run of CERTIFIED sizes from the smallest; "fails from S" the smallest size
decided PARTIAL or FAILED. A swept run's status is its level's cases' alone
(:func:`split_cases`): the envelope speaks for the sizes beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from verification.cases import TestCase, Tier, case_id
from verification.catalog.drawing import draw_case, plan_tier_counts
from verification.catalog.sizes import in_units
from verification.catalog.spec import SWEEP_TIERS, ScaffoldSpec
from verification.certify.answers import CaseScores, TestResult, look_windows
from verification.certify.effective import effective_interval
from verification.certify.input_keys import input_key, later_copies
from verification.certify.inputs import input_tallies
from verification.certify.sequential import (
    CAPS,
    CertificationPlan,
    Decision,
    decide,
    ended_short,
    fixed_plan,
    level_plan,
)
from verification.certify.statuses import certify, straddles
from verification.errors import ConfigurationError
from verification.store.manifests import RunManifest

__all__ = [
    "BUDGET_LIMIT_SHARE",
    "CASES_PER_SIZE",
    "SWEEP_POINTS",
    "SWEEP_TIERS",
    "CaseSplit",
    "SizePoint",
    "certified_up_to",
    "decide_size",
    "envelope_sentence",
    "fails_from",
    "holds_across_range",
    "honoured_sizes",
    "is_budget_limited",
    "run_size_plan",
    "run_split",
    "size_plan",
    "size_plan_of",
    "size_points",
    "split_cases",
    "sweep_cases",
    "sweep_plan",
    "sweep_sizes",
]

CASES_PER_SIZE = 35
"""The fewest cases at which a perfect score is not borderline (Wilson lower bound of 35/35
is 90.1%)."""
SWEEP_POINTS = 4
"""Sizes an automatic sweep visits, from the smallest to the largest honoured."""
BUDGET_LIMIT_SHARE = Fraction(1, 10)
"""A size where more than this share of answers hit the output budget is budget-limited:
flagged beside its decision (the cut answers still count against it)."""


def _tiers_at(spec: ScaffoldSpec, size: int) -> list[Tier]:
    return [tier for tier in SWEEP_TIERS if spec.size.check(tier, size) is None]


def honoured_sizes(spec: ScaffoldSpec, *, stress: bool = False) -> list[int]:
    """Every size some sweep tier of ``spec`` honours, ascending; with ``stress``, its
    stress range too (an automatic sweep stays within the declared ranges: stress sizes
    are asked for by name)."""
    found: set[int] = set()
    for tier in SWEEP_TIERS:
        low, high = spec.size.ranges[tier]
        found.update(range(low, high + 1))
    if stress and spec.size.stress is not None:
        found.update(range(spec.size.stress[0], spec.size.stress[1] + 1))
    return sorted(found)


def sweep_sizes(spec: ScaffoldSpec) -> list[int]:
    """:data:`SWEEP_POINTS` sizes evenly spread from the smallest to the largest honoured
    (each the nearest honoured size), or every size when fewer are honoured."""
    sizes = honoured_sizes(spec)
    if len(sizes) <= SWEEP_POINTS:
        return sizes
    low, high = sizes[0], sizes[-1]
    step = (high - low) / (SWEEP_POINTS - 1)
    return sorted({_nearest(sizes, low + i * step) for i in range(SWEEP_POINTS)})


def _nearest(sizes: Sequence[int], wanted: float) -> int:
    return min(sizes, key=lambda size: (abs(size - wanted), size))


def sweep_plan(
    spec: ScaffoldSpec, sizes: Sequence[int], *, per_size: int = CASES_PER_SIZE
) -> list[tuple[Tier, int, int]]:
    """``(tier, index, size)`` of ``per_size`` cases at each of ``sizes``, tiers
    interleaved. A size no sweep tier honours is a :class:`ConfigurationError` naming the
    range."""
    plan: list[tuple[Tier, int, int]] = []
    for size in sizes:
        tiers = _tiers_at(spec, size)
        if not tiers:
            honoured = ", ".join(f"{low}..{high}" for low, high in spec.size.spanned(SWEEP_TIERS))
            each = ", ".join(
                f"{tier} {spec.size.ranges[tier][0]}..{spec.size.ranges[tier][1]}"
                for tier in SWEEP_TIERS
            )
            stress = spec.size.stress
            each += f", stress {stress[0]}..{stress[1]}" if stress else ""
            raise ConfigurationError(
                f"{spec.name}: --sizes {size} is outside the sizes a sweep honours, "
                f"{in_units(honoured, spec.size.unit)} (its tiers {each}); choose --sizes in it"
            )
        plan.extend((tiers[k % len(tiers)], k // len(tiers), size) for k in range(per_size))
    return plan


def sweep_cases(
    spec: ScaffoldSpec, sizes: Sequence[int], *, seed: int, per_size: int = CASES_PER_SIZE
) -> list[TestCase]:
    """The cases of :func:`sweep_plan`, drawn from ``seed``."""
    return [
        draw_case(spec, tier, index, seed=seed, size=size)
        for tier, index, size in sweep_plan(spec, sizes, per_size=per_size)
    ]


@dataclass(frozen=True)
class CaseSplit:
    """A swept run's cases of one scaffold: the level's, and the sweep's at each size."""

    level: frozenset[str]
    """The level's case ids (its tiers at their default sizes): what the status is on."""
    sizes: dict[int, list[str]]
    """Per swept size, ascending, its sweep case ids in the sweep's order."""
    plan: CertificationPlan = field(default_factory=lambda: fixed_plan(CASES_PER_SIZE))
    """The plan each size is decided by (:func:`size_plan`)."""
    final: bool = True
    """The run asks nothing more: a size no look decided falls to the point cut on what it
    has (``False`` at a look while the run goes on: it stays undecided)."""


def split_cases(
    spec: ScaffoldSpec,
    sizes: Sequence[int],
    planned: Sequence[str],
    *,
    cases: int,
    tiers: Sequence[Tier],
    per_size: int = CASES_PER_SIZE,
    level: str | None = None,
) -> CaseSplit:
    """Which of ``planned`` (a swept run's case ids of ``spec``) are the level's
    (``cases`` over ``tiers``, as the planner splits them) and which the sweep's, at most
    ``per_size`` at each of ``sizes``. A sweep case at a tier's default size has a level
    case's id: it is the level's when the level asked that index too, and counts at its
    size as well. Each size is decided by ``level``'s plan cut at ``per_size``
    (:func:`size_plan`)."""
    known = set(planned)
    counts = plan_tier_counts(cases, tiers) if cases > 0 and tiers else {}
    level_ids = {
        case_id(spec.name, tier, i) for tier, count in counts.items() for i in range(count)
    }
    by_size: dict[int, list[str]] = {}
    for size in sorted(set(sizes)):
        at = _tiers_at(spec, size)
        ids = (
            (
                case_id(
                    spec.name, at[k % len(at)], k // len(at), _named(spec, at[k % len(at)], size)
                )
                for k in range(per_size)
            )
            if at
            else iter(())
        )
        by_size[size] = [i for i in ids if i in known]
    swept = {i for ids in by_size.values() for i in ids}
    level_ids_planned = frozenset(i for i in planned if i in level_ids or i not in swept)
    return CaseSplit(level_ids_planned, by_size, size_plan(level, per_size))


def run_size_plan(manifest: RunManifest) -> CertificationPlan:
    """The plan each swept size of a run is decided by (:func:`size_plan` at the cases a
    size was planned; 35 for a run from before it recorded them): what its reports' header
    promises at each size."""
    return size_plan(manifest.level, manifest.sweep_cases or CASES_PER_SIZE)


def run_split(spec: ScaffoldSpec, manifest: RunManifest) -> CaseSplit | None:
    """:func:`split_cases` of a run's cases of ``spec``; ``None`` when it swept no sizes."""
    sizes = (manifest.sizes or {}).get(spec.name)
    if not sizes or spec.name not in manifest.scaffolds:
        return None
    return split_cases(
        spec,
        sizes,
        manifest.scaffolds[spec.name].case_ids,
        cases=manifest.cases,
        tiers=manifest.tiers,
        per_size=manifest.sweep_cases or CASES_PER_SIZE,
        level=manifest.level,
    )


def size_plan(level: str | None, per_size: int | None = None) -> CertificationPlan:
    """The plan each swept size of a ``level`` run is decided by: the level's sequential
    plan, with its risks, cut at ``per_size`` (default its cap: a size may need as many
    cases as the level does); at a level without one (quick) a fixed plan of ``per_size``
    (default :data:`CASES_PER_SIZE`), decided by the point cut."""
    if level in CAPS:
        return level_plan(level, per_size or CAPS[level])
    return fixed_plan(per_size or CASES_PER_SIZE)


def decide_size(
    plan: CertificationPlan,
    ids: Sequence[str],
    scores: Mapping[str, Fraction],
    *,
    final: bool = True,
    copies: frozenset[str] = frozenset(),
) -> tuple[Decision, frozenset[str], int]:
    """``plan``'s decision on a size's answered cases (``scores`` by id) in its sweep order
    ``ids``: the decision, the cases it was reached on, and how many of ``ids`` it reached
    (up to the deciding case when a look decided early, else all: the cases after an early
    decision were never asked, those missing before it are missing). ``copies`` are
    answered, but counted by no look (:func:`~verification.certify.input_keys.later_copies`:
    a small size has few inputs). A look whose window holds more than a tenth of errors and
    missing answers decides nothing, as at the level (:func:`~verification.certify.answers
    .look_windows`): a size whose every answer was right read INCOMPLETE on four errors
    among its first 34 cases, and was asked to its cap (hunt gg)."""
    order = [i for i in ids if i not in copies]
    answered = [i for i in order if i in scores]
    decision = decide(
        plan,
        [scores[i] for i in answered],
        final=final,
        may_decide=look_windows(order, answered),
    )
    kept = answered[: decision.n]
    reach = ids.index(kept[-1]) + 1 if decision.early and kept else len(ids)
    return decision, frozenset(kept), reach


def _named(spec: ScaffoldSpec, tier: Tier, size: int) -> int | None:
    return None if size == spec.sizes[tier] else size


@dataclass(frozen=True)
class SizePoint:
    """One size of the envelope: its sweep cases' score, and its decision."""

    size: int
    score: float
    n: int
    answers: int
    truncated: int
    wrong: int
    """Counted answers that failed other than by the output budget (refusals included)."""
    interval: tuple[float, float]
    status: str
    """The size's decision: CERTIFIED, PARTIAL, FAILED, or INCOMPLETE (too few answers)."""
    budget_limited: bool
    decision: Decision | None = None
    """What the size's plan decided, at which look (``None``: decided by the point cut on
    every case recorded at the size)."""
    cases: frozenset[str] = frozenset()
    """The cases it was decided on (a run that asked past its deciding look shows the rest,
    and counts them nowhere)."""
    plan: CertificationPlan | None = None
    """The plan that decided it (``None``: the point cut on every case recorded at it)."""
    lost: int = 0
    """Answers its plan asked up to where it decided that never came (infrastructure
    errors, or a run stopped): its decision is on the rest, as the level's is, and says so
    (hunt kk 4: a size CERTIFIED at 50 of 50 with 5 of its first 55 answers lost)."""

    @property
    def pass_rate(self) -> float:
        return self.score / self.n if self.n else 0.0

    @property
    def borderline(self) -> bool:
        """The 95% interval straddles the threshold that decided it, as the level's status
        is marked: never where a look decided before the cap (the plan's Wald tests did;
        hunt kk 8: a size decided at its cap at 162 of 180, 84.7% to 93.6%, read plain), nor
        where it ended short (its row says so, and its claim gives that plan's own risks)."""
        early = self.decision is not None and self.decision.early
        if self.status == "INCOMPLETE" or early or self.short_plan is not None:
            return False
        return straddles(self.interval, self.status)

    @property
    def worst_case_rate(self) -> float | None:
        """The pass rate had every lost answer failed (``None``: none was lost); a case's
        lost samples count as the share of a case they are."""
        if not self.lost:
            return None
        if not self.n:
            return 0.0
        samples = self.answers / self.n  # answers a case counted here has
        return self.score / (self.n + self.lost / samples)

    @property
    def short_plan(self) -> CertificationPlan | None:
        """The plan as this size read it when it ended short of the plan's cap (a small
        size has few inputs: n_queens' board of side 4 has 8), whose OC its decision
        claims (:func:`~verification.certify.sequential.ended_short`); else ``None``."""
        if self.plan is None or self.status == "INCOMPLETE":
            return None
        return ended_short(self.plan, self.decision)


def is_budget_limited(truncated: int, answers: int) -> bool:
    """More than :data:`BUDGET_LIMIT_SHARE` of ``answers`` hit the output budget."""
    return answers > 0 and truncated > BUDGET_LIMIT_SHARE * answers


def certified_up_to(points: Sequence[SizePoint]) -> int | None:
    """The largest size of the unbroken run of CERTIFIED sizes from the smallest; ``None``
    when the smallest is not CERTIFIED (or there was no sweep)."""
    reached = None
    for point in points:
        if point.status != "CERTIFIED":
            break
        reached = point.size
    return reached


def fails_from(points: Sequence[SizePoint]) -> int | None:
    """The smallest size decided PARTIAL or FAILED; ``None`` when there is none."""
    return next((p.size for p in points if p.status in ("PARTIAL", "FAILED")), None)


def holds_across_range(points: Sequence[SizePoint]) -> bool:
    """Every swept size is CERTIFIED."""
    return bool(points) and all(p.status == "CERTIFIED" for p in points)


def size_plan_of(points: Sequence[SizePoint]) -> CertificationPlan | None:
    """The plan the sizes were decided by (one for every size of a run), if any."""
    return next((p.plan for p in points if p.plan is not None), None)


def envelope_sentence(points: Sequence[SizePoint], unit: str) -> str:
    """The envelope in one line: "up to 12 vertices; fails from 16 (FAILED): 20 wrong and 4
    truncated of 35, budget-limited"; "" without a sweep."""
    if not points:
        return ""
    caveat = _decided_short(points)
    if holds_across_range(points):
        return (
            "holds at every size tried "
            f"({in_units(f'{points[0].size} to {points[-1].size}', unit)})" + caveat
        )
    reached = certified_up_to(points)
    if reached is not None:
        said = f"up to {in_units(reached, unit)}"
    elif points[0].status == "INCOMPLETE":  # nothing failed there: it was not decided
        said = "undecided from the smallest size tried"
    else:
        said = "holds at none of the sizes tried"
    failing = fails_from(points)
    broken = next(p for p in points if p.status != "CERTIFIED")
    if failing is not None:
        # Its status said: "fails" is "falls short of CERTIFIED", and PARTIAL is no FAILED.
        point = next(p for p in points if p.size == failing)
        said += f"; fails from {failing} ({point.status}): {_counts(point)}"
    if broken.status == "INCOMPLETE" and (failing is None or broken.size < failing):
        said += f"; {broken.size} incomplete ({broken.n} case(s) counted)"
    return said + caveat


def _decided_short(points: Sequence[SizePoint]) -> str:
    """ "; 4, 5 and 6 decided on fewer inputs than the plan's cap", said beside the bounds:
    such a size's decision claims much less than the level's (its own OC,
    :attr:`SizePoint.short_plan`); "" when every size read its whole plan."""
    short = [str(p.size) for p in points if p.short_plan is not None]
    if not short:
        return ""
    named = short[0] if len(short) == 1 else f"{', '.join(short[:-1])} and {short[-1]}"
    return f"; {named} decided on fewer inputs than the plan's cap"


def _counts(point: SizePoint) -> str:
    said = f"{point.wrong} wrong and {point.truncated} truncated of {point.answers}"
    return said + (", budget-limited" if point.budget_limited else "")


def size_points(
    counted: Sequence[TestResult],
    sizes: dict[str, int | None],
    swept: Sequence[int],
    split: CaseSplit | None,
    samples: int,
    inputs: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
) -> tuple[SizePoint, ...]:
    """Each swept size decided on its cases: ``split``'s ids at it, by its plan on their
    scores in sweep order (INCOMPLETE as a run is, up to where it decided), each input
    counted once (``inputs``: the inputs of the cases answered and of those lost to errors
    alone, by id; a fixed plan's error on an input another case answered lost nothing),
    else every counted case recorded at it by the point cut."""
    points = []
    for size in sorted(set(swept)):
        decision = None
        copied = 0  # the answers planned of copies the decision reached: none unfinished
        if split is not None:
            ids = split.sizes.get(size, [])
            wanted = set(ids)  # once per size, not once per answer
            tallies = CaseScores.fold(r for r in counted if r.test_case.id in wanted)
            copies: frozenset[str] = frozenset()
            if inputs is not None:  # a fixed plan's too: copies are answered alike (hunt dd)
                asked, errored = inputs
                answered = {i: asked[i] for i in ids if i in asked}
                lost = {i: errored[i] for i in ids if i in errored}
                copies = later_copies(ids, answered, lost)
                if not split.plan.sequential:
                    # No look reads them in order: an error whose input a case answered, before
                    # it or after, lost nothing (hunt ee: one error on an input's first case
                    # left n_queens' 8 inputs at 4 INCOMPLETE, 1 unfinished of 9).
                    known = {input_key(value) for value in answered.values()}
                    copies |= {i for i, value in lost.items() if input_key(value) in known}
            decision, kept, reach = decide_size(
                split.plan, ids, tallies.scores(), final=split.final, copies=copies
            )
            here = [r for r in counted if r.test_case.id in kept]
            planned = reach * samples
            copied = len(copies.intersection(ids[:reach])) * samples
        else:
            here = [r for r in counted if sizes[r.test_case.id] == size]
            planned = len(here)
        missing = max(planned - copied - len(here), 0)
        cases = CaseScores.fold(here)
        score = cases.total()
        truncated = sum(r.outcome == "truncated" for r in here)
        points.append(
            SizePoint(
                size=size,
                score=float(score),
                n=cases.n,
                answers=len(here),
                truncated=truncated,
                wrong=sum(not r.passed for r in here) - truncated,
                interval=effective_interval(float(score), cases.n, input_tallies(here).values()),
                status=certify(
                    score,
                    cases.n,
                    planned=planned - copied,
                    unfinished=missing,
                ),
                budget_limited=is_budget_limited(truncated, len(here)),
                decision=decision,
                cases=frozenset(r.test_case.id for r in here),
                plan=split.plan if split is not None else None,
                lost=missing,
            )
        )
    return tuple(points)
