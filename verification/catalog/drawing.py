"""Drawing a spec's case, with a failure reported as the spec's own; how many of each tier.

:func:`verification.cases.generate_case` runs a spec's generator and reference; whatever
they raise for a case inside the declared size range is a defect of the spec, not of the
harness, so :func:`draw_case` turns it into a :class:`~verification.errors.CaseDrawError`
naming the scaffold, tier, size and case index (the command line exits 2 on it, not 4).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence

from verification.cases import TIERS, CaseSource, TestCase, Tier, case_id, generate_case
from verification.errors import CaseDrawError, ConfigurationError, PluginError

__all__ = ["TIER_WEIGHTS", "draw_case", "plan_tier_counts"]

TIER_WEIGHTS: dict[Tier, int] = {"simple": 3, "standard": 5, "edge": 2}
"""How a number of cases is shared among the tiers."""


def plan_tier_counts(cases: int, tiers: Sequence[Tier] = TIERS) -> dict[Tier, int]:
    """Split ``cases`` over ``tiers`` by fixed weights (largest remainder first)."""
    if cases < 1:
        raise ConfigurationError(f"the number of cases must be at least 1, got {cases}")
    weights = {tier: TIER_WEIGHTS[tier] for tier in tiers}
    total = sum(weights.values())
    counts = {tier: cases * w // total for tier, w in weights.items()}
    by_remainder = sorted(tiers, key=lambda t: (-(cases * weights[t] % total), TIERS.index(t)))
    for tier in by_remainder[: cases - sum(counts.values())]:
        counts[tier] += 1
    return counts


def draw_case(
    spec: CaseSource, tier: Tier, index: int, *, seed: int, size: int | None = None
) -> TestCase:
    """Case ``index`` of ``tier`` at ``size`` (default: the tier's), as
    :func:`~verification.cases.generate_case` draws it.

    Raises
    ------
    CaseDrawError
        When the spec's generator or reference raises, or the input is not JSON data.
    PluginError
        The same, for a plugin's spec (whose calls are guarded), naming the case.
    """
    try:
        return generate_case(spec, tier, index, seed=seed, size=size)
    except Exception as exc:  # any failure of the spec's own code is the spec's defect
        actual = spec.sizes[tier] if size is None else size
        named = None if actual == spec.sizes[tier] else actual
        which = f"{tier} case {index} at size {actual} ({case_id(spec.name, tier, index, named)})"
        if isinstance(exc, PluginError):  # it names the distribution: the runner goes on
            raise PluginError(
                f"cannot draw {which}: {exc.problem}",
                distribution=exc.distribution,
                scaffold=exc.scaffold,
            ) from None
        problem = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        if _raised_in(spec.reference, exc):
            advice = (
                "Its reference raised on the generated input (fix the reference, or the "
                "generator if that input is none the reference is meant to take)"
            )
        else:
            advice = (
                "Its generator must honour every size of the tier's declared range (fix it, "
                "or narrow the range in the spec)"
            )
        raise CaseDrawError(
            f"scaffold {spec.name!r} cannot draw {which}: {problem[:300]}. {advice}",
            scaffold=spec.name,
            tier=tier,
            size=actual,
            index=index,
        ) from exc


def _raised_in(function: object, exc: BaseException) -> bool:
    """Whether ``exc`` was raised inside ``function`` (its code is among the traceback's
    frames), however it was wrapped."""
    code = getattr(inspect.unwrap(function), "__code__", None)  # type: ignore[arg-type]
    frame = exc.__traceback__
    while frame is not None:
        if frame.tb_frame.f_code is code:
            return True
        frame = frame.tb_next
    return False
