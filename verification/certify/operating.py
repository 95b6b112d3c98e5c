"""A certification plan's exact operating characteristic: how often it certifies, passes
partly or fails a scaffold of each true pass rate (see :mod:`verification.certify.sequential`
for the plan). The level caps are the smallest at which it meets the level's risks
(:func:`search_cap`), and the reports state it in a sentence (:func:`oc_sentence`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any

from verification.certify.binomial import binomial_pmf
from verification.certify.sequential import (
    FIRST_LOOK,
    LOOK_EVERY,
    CertificationPlan,
    DecisionStatus,
    OperatingCharacteristic,
    level_plan,
    level_risks,
    look_status,
)

__all__ = [
    "alike_outcome",
    "meets_risks",
    "oc_sentence",
    "oc_table",
    "operating_characteristic",
    "search_cap",
]

_STATUSES: tuple[DecisionStatus, ...] = ("CERTIFIED", "PARTIAL", "FAILED")


@lru_cache(maxsize=64)
def _look_masks(plan: CertificationPlan) -> tuple[tuple[Any, ...], ...]:
    """Per look, for each status, which whole numbers of passes 0..look it decides (the
    same at every true rate, so made once per plan)."""
    import numpy as np

    masks = []
    for look in plan.looks:
        decisions = [
            look_status(plan, Fraction(x), look, last=look == plan.cap) for x in range(look + 1)
        ]
        masks.append(
            tuple(np.array([d == status for d in decisions], dtype=bool) for status in _STATUSES)
        )
    return tuple(masks)


def operating_characteristic(plan: CertificationPlan, p: float) -> OperatingCharacteristic:
    """The plan's exact operating characteristic at true pass rate ``p`` (one answer per
    case): the distribution of passes among runs still going is carried from look to look
    (binomial increments between looks), and each look's deciding mass is taken out."""
    import numpy as np

    if not 0.0 <= p <= 1.0:
        raise ValueError(f"a pass rate is between 0 and 1, not {p}")
    going = np.ones(1)
    outcome = dict.fromkeys(_STATUSES, 0.0)
    expected = 0.0
    most = 0
    before = 0
    # Looks after the first are LOOK_EVERY cases apart: one step's probabilities serve each.
    steps: dict[int, Any] = {}
    for look, masks in zip(plan.looks, _look_masks(plan), strict=True):
        step = look - before
        if step not in steps:
            steps[step] = binomial_pmf(step, p)
        going = np.convolve(going, steps[step])
        before = look
        if going.sum() > 0:
            most = look
        for status, mask in zip(_STATUSES, masks, strict=True):
            mass = float(going[mask].sum())
            outcome[status] += mass
            expected += look * mass
            going[mask] = 0.0
    return OperatingCharacteristic(
        p=p,
        certified=outcome["CERTIFIED"],
        partial=outcome["PARTIAL"],
        failed=outcome["FAILED"],
        expected_cases=expected,
        max_cases=most,
    )


def meets_risks(plan: CertificationPlan, *, grid: bool = False) -> bool:
    """Whether the plan's exact OC keeps every risk it states: at each risk's edge, or
    (``grid``) at every hundredth of its zone."""
    # The zones overlap (0 to 0.85 and 0 to 0.40, 0.60 to 1 and 0.95 to 1): each rate's OC
    # is computed once and read by every risk whose zone holds it.
    at = lru_cache(maxsize=None)(partial(operating_characteristic, plan))
    for risk in plan.risks:
        low, high = risk.zone
        points = (
            [round(low + k / 100, 2) for k in range(round((high - low) * 100) + 1)]
            if grid
            else [risk.p]
        )
        if not all(risk.met(at(p)) for p in points):
            return False
    return True


def search_cap(level: str, *, start: int = FIRST_LOOK, stop: int = 1000) -> int:
    """The smallest multiple of :data:`LOOK_EVERY` at which ``level``'s plan meets its
    risks."""
    for cap in range(start, stop + 1, LOOK_EVERY):
        if meets_risks(level_plan(level, cap)):
            return cap
    raise ValueError(f"no cap up to {stop} meets the {level} level's risks")


def oc_table(
    plan: CertificationPlan, rates: Sequence[float] | None = None
) -> list[OperatingCharacteristic]:
    """The plan's OC at ``rates`` (default 0.50, 0.55, ..., 1.00)."""
    rates = rates if rates is not None else [round(0.5 + k / 20, 2) for k in range(11)]
    return [operating_characteristic(plan, p) for p in rates]


def alike_outcome(copies: Sequence[int], p: float) -> tuple[float, float]:
    """The exact chances that a fixed plan's point cut certifies and fails a model that
    answers every copy of an input alike, right on each input with probability ``p``:
    ``copies`` holds the cases of each distinct input, so the passes are the sum of the
    copies of the inputs answered right (a binomial of the inputs, weighted), cut as
    :func:`~verification.certify.statuses.certify` cuts them (at least 9/10 of the cases:
    CERTIFIED; under a half: FAILED). With one case per input it is the plan's OC."""
    import numpy as np

    if not 0.0 <= p <= 1.0:
        raise ValueError(f"a pass rate is between 0 and 1, not {p}")
    cases = sum(copies)
    passes = np.zeros(cases + 1)
    passes[0] = 1.0
    for count in copies:
        right = np.zeros(cases + 1)
        right[count:] = passes[: cases + 1 - count]
        passes = (1 - p) * passes + p * right
    counts = np.arange(cases + 1)
    return float(passes[10 * counts >= 9 * cases].sum()), float(passes[2 * counts < cases].sum())


def _runs(probability: float, *, at_least: bool) -> int:
    """Runs of 100, rounded against the plan (so the sentence never flatters it)."""
    scaled = probability * 100
    return math.floor(scaled + 1e-9) if at_least else math.ceil(scaled - 1e-9)


def oc_sentence(
    plan: CertificationPlan,
    *,
    samples: int = 1,
    short: CertificationPlan | None = None,
    copies: tuple[int, ...] = (),
) -> str:
    """:func:`_oc_sentence`, its ``copies`` kept only where they change the sentence (a
    fixed plan whose inputs repeat): the sentences are cached, and every scaffold's own
    copies as the key missed the cache, the OC computed again per scaffold and report."""
    if plan.sequential or sum(copies) == len(copies):
        copies = ()
    return _oc_sentence(plan, samples=samples, short=short, copies=copies)


@lru_cache(maxsize=256)
def _oc_sentence(
    plan: CertificationPlan,
    *,
    samples: int = 1,
    short: CertificationPlan | None = None,
    copies: tuple[int, ...] = (),
) -> str:
    """One sentence saying what the plan's verdicts mean, from its exact OC; a fixed plan
    that misses the standard level's risks is called weak. ``short``: the plan as a run
    that ended short of its cap read it (:func:`~verification.certify.sequential.ended_short`),
    whose OC the status claims. ``copies``: a fixed plan's counted cases per distinct input;
    where inputs repeat (all counted in its rate), the sentence adds the exact risks for a
    model that answers an input alike each time (:func:`alike_outcome`), besides the OC's,
    which hold for independent cases (a sequential plan counts each input once)."""
    read = short or plan
    at = {p: operating_characteristic(read, p) for p in (0.40, 0.60, 0.85, 0.95)}
    certified_low = _runs(at[0.85].certified, at_least=False)
    certified_high = _runs(at[0.95].certified, at_least=True)
    failed_high = _runs(at[0.60].failed, at_least=False)
    failed_low = _runs(at[0.40].failed, at_least=True)
    if plan.sequential:
        most, least = "at most ", "at least "
        opening = (
            f"By this plan ({plan.name}: a look every {LOOK_EVERY} cases from "
            f"{plan.looks[0]}, at most {plan.cap})"
        )
        if short is not None:
            opening += (
                f", which ended at {short.cap} answered inputs, short of its cap (its last "
                f"look the rate on those {short.cap}),"
            )
    else:
        most = least = ""
        weak = not all(risk.met(at[risk.p]) for risk in level_risks("standard"))
        opening = (
            f"By this plan ({plan.cap} case{'' if plan.cap == 1 else 's'}, the rate alone "
            f"decides{', a weak plan' if weak else ''})"
        )
        if short is not None:
            opening += (
                f", which ended at {short.cap} answered inputs, short of its {plan.cap} (the "
                f"rate on those {short.cap} decided),"
            )
    sentence = (
        f"{opening} a scaffold whose true pass rate is 85% is certified in {most}"
        f"{certified_low} run{'' if certified_low == 1 else 's'} of 100, one at 95% in "
        f"{least}{certified_high}; one at 60% is failed in {most}{failed_high}, one at 40% "
        f"in {least}{failed_low}."
    )
    repeated = sum(copies) - len(copies)
    if repeated and not plan.sequential:
        # Hunt gg simulated 37 in 100 where the OC said 19: copies answered alike flip together.
        alike = {p: alike_outcome(copies, p) for p in (0.40, 0.60, 0.85, 0.95)}
        sentence += (
            f" (Stated for independent cases: {repeated} of these repeat an earlier case's "
            f"input. For a model that answers an input alike each time, its {len(copies)} "
            f"inputs certify one at 85% in {_runs(alike[0.85][0], at_least=False)} runs of "
            f"100, one at 95% in {_runs(alike[0.95][0], at_least=True)}; they fail one at 60% "
            f"in {_runs(alike[0.60][1], at_least=False)}, one at 40% in "
            f"{_runs(alike[0.40][1], at_least=True)}.)"
        )
    if samples > 1:
        sentence += f" (Stated for one answer per case; with {samples} it is conservative.)"
    return sentence
