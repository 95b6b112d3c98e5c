"""The size envelope (issue 23 items 3 and 4): which of a swept run's cases are the level's
and which each size's, how each size is decided, and the envelope's sentence."""

from __future__ import annotations

from verification.catalog import default_catalog
from verification.certify.envelope import (
    CASES_PER_SIZE,
    SizePoint,
    certified_up_to,
    envelope_sentence,
    fails_from,
    holds_across_range,
    split_cases,
    sweep_plan,
    sweep_sizes,
)
from verification.config import LEVEL_CASES, LEVEL_TIERS
from verification.registry import plan_tier_counts
from verification.run.plan import plan_cases


def test_a_sweep_case_at_a_default_size_is_the_levels_only_where_the_level_asked_it() -> None:
    spec = default_catalog()["astar"]
    sizes = sweep_sizes(spec)
    tiers = list(LEVEL_TIERS["thorough"])
    assert set(sizes) & set(spec.sizes.values())  # the sweep visits a tier's default size
    planned = [
        case.id
        for case in plan_cases(
            ["astar"], seed=7, cases=LEVEL_CASES["thorough"], tiers=tiers, sweep={"astar": sizes}
        )["astar"]
    ]
    split = split_cases(spec, sizes, planned, cases=LEVEL_CASES["thorough"], tiers=tiers)
    counts = plan_tier_counts(LEVEL_CASES["thorough"], tiers)  # type: ignore[arg-type]
    assert len(split.level) == sum(counts.values()) == LEVEL_CASES["thorough"]
    assert list(split.sizes) == sizes
    for size, ids in split.sizes.items():
        # Each size's cases in the sweep's own order, whatever the level shares with it.
        drawn = sweep_plan(spec, [size])
        assert len(ids) == CASES_PER_SIZE == len(drawn)
        for case_id, (tier, index, at) in zip(ids, drawn, strict=True):
            named = "" if at == spec.sizes[tier] else f"s{at}-"
            assert case_id == f"astar-{tier}-{named}{index:03d}"
    swept = {i for ids in split.sizes.values() for i in ids}
    assert split.level | swept == set(planned)
    shared = split.level & swept
    assert shared and all(i.startswith("astar-standard-0") for i in shared)


def _point(size: int, status: str, *, wrong: int = 0, truncated: int = 0) -> SizePoint:
    answers = CASES_PER_SIZE
    score = float(answers - wrong - truncated)
    return SizePoint(
        size=size,
        score=score,
        n=answers,
        answers=answers,
        truncated=truncated,
        wrong=wrong,
        interval=(0.0, 1.0),
        status=status,
        budget_limited=10 * truncated > answers,
    )


def test_the_envelope_is_the_unbroken_run_of_certified_sizes_from_the_smallest() -> None:
    points = [
        _point(3, "CERTIFIED"),
        _point(7, "CERTIFIED"),
        _point(12, "CERTIFIED"),
        _point(16, "FAILED", wrong=20, truncated=4),
    ]
    assert certified_up_to(points) == 12 and fails_from(points) == 16
    assert not holds_across_range(points)
    assert envelope_sentence(points, "vertices") == (
        "up to 12 vertices; fails from 16: 20 wrong and 4 truncated of 35, budget-limited"
    )
    # A size that certifies after one that does not is not in the run from the smallest.
    gap = [_point(3, "CERTIFIED"), _point(7, "PARTIAL", wrong=5), _point(12, "CERTIFIED")]
    assert certified_up_to(gap) == 3 and fails_from(gap) == 7
    # An incomplete size breaks the run without failing it; the sentence says so.
    short = [_point(3, "CERTIFIED"), _point(7, "INCOMPLETE"), _point(12, "FAILED", wrong=30)]
    assert certified_up_to(short) == 3 and fails_from(short) == 12
    assert envelope_sentence(short, "vertices") == (
        "up to 3 vertices; fails from 12: 30 wrong and 0 truncated of 35; 7 incomplete "
        "(35 case(s) counted)"
    )
    whole = [_point(3, "CERTIFIED"), _point(16, "CERTIFIED", wrong=1)]
    assert holds_across_range(whole) and fails_from(whole) is None
    assert (
        envelope_sentence(whole, "vertices")
        == "holds across the whole range tried (3 to 16 vertices)"
    )
    assert envelope_sentence([], "vertices") == "" and not holds_across_range([])
