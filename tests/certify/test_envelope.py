"""The size envelope (issue 23 items 3 and 4): which of a swept run's cases are the level's
and which each size's, how each size is decided, and the envelope's sentence."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.records import attempt_record
from verification.catalog import default_catalog
from verification.certify.answers import look_windows, window_of
from verification.certify.envelope import (
    CASES_PER_SIZE,
    CaseSplit,
    SizePoint,
    certified_up_to,
    decide_size,
    envelope_sentence,
    fails_from,
    holds_across_range,
    size_plan,
    split_cases,
    sweep_plan,
    sweep_sizes,
)
from verification.certify.operating import operating_characteristic
from verification.certify.results import ScaffoldResults
from verification.certify.sequential import decide
from verification.config import LEVEL_CASES, LEVEL_TIERS, load_settings, resolve_settings
from verification.registry import plan_tier_counts
from verification.run.case_plan import planned_cases
from verification.run.estimate import envelope_paths, sweep_estimate
from verification.store.records import AttemptRecord


def test_a_sweep_case_at_a_default_size_is_the_levels_only_where_the_level_asked_it() -> None:
    spec = default_catalog()["astar"]
    sizes = sweep_sizes(spec)
    tiers = list(LEVEL_TIERS["thorough"])
    assert set(sizes) & set(spec.sizes.values())  # the sweep visits a tier's default size
    planned = [  # the planned ids: planned lazily, since no case's input is read here
        case.id
        for case in planned_cases(
            ["astar"],
            seed=7,
            cases=LEVEL_CASES["thorough"],
            tiers=tiers,
            sweep={"astar": sizes},
            lazily=lambda _: True,
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
        "up to 12 vertices; fails from 16 (FAILED): 20 wrong and 4 truncated of 35, budget-limited"
    )
    # A size that certifies after one that does not is not in the run from the smallest.
    gap = [_point(3, "CERTIFIED"), _point(7, "PARTIAL", wrong=5), _point(12, "CERTIFIED")]
    assert certified_up_to(gap) == 3 and fails_from(gap) == 7
    # "Fails" falls short of CERTIFIED: the sentence says PARTIAL where it is no FAILED.
    assert "; fails from 7 (PARTIAL): 5 wrong" in envelope_sentence(gap, "vertices")
    # An incomplete size breaks the run without failing it; the sentence says so.
    short = [_point(3, "CERTIFIED"), _point(7, "INCOMPLETE"), _point(12, "FAILED", wrong=30)]
    assert certified_up_to(short) == 3 and fails_from(short) == 12
    assert envelope_sentence(short, "vertices") == (
        "up to 3 vertices; fails from 12 (FAILED): 30 wrong and 0 truncated of 35; 7 incomplete "
        "(35 case(s) counted)"
    )
    whole = [_point(3, "CERTIFIED"), _point(16, "CERTIFIED", wrong=1)]
    assert holds_across_range(whole) and fails_from(whole) is None
    assert envelope_sentence(whole, "vertices") == "holds at every size tried (3 to 16 vertices)"
    assert envelope_sentence([], "vertices") == "" and not holds_across_range([])
    # Nothing decided at the smallest size (a budget stopped the run before it): no size
    # failed, so none is said to (hunt bb: "holds at none of the sizes tried").
    unasked = [
        dataclasses.replace(_point(16, "INCOMPLETE"), n=0, score=0.0, answers=0),
        _point(32, "CERTIFIED"),
    ]
    assert envelope_sentence(unasked, "vertices") == (
        "undecided from the smallest size tried; 16 incomplete (0 case(s) counted)"
    )


def _answer(case: str, outcome: str, size: int) -> AttemptRecord:
    return attempt_record(
        case,
        outcome,
        level=None if outcome == "passed" else 1,
        stop_reason="max_tokens" if outcome == "truncated" else "end_turn",
        usage={},
        size=size,
    )


def test_the_status_is_the_levels_and_each_size_is_decided_by_its_plan() -> None:
    plan = size_plan("thorough", 60)
    level = [f"kmp-simple-{k:03d}" for k in range(20)]
    good = [f"kmp-simple-s6-{k:03d}" for k in range(60)]
    bad = [f"kmp-simple-s48-{k:03d}" for k in range(60)]
    split = CaseSplit(frozenset(level), {6: good, 48: bad}, plan)
    # The level's 20 right, size 48's cases all wrong (the first four cut): pooled with the
    # sweep's the rate would be 80 of 100, PARTIAL; on its own cases the level is CERTIFIED.
    outcomes = {i: "passed" for i in level + good} | {i: "failed" for i in bad}
    outcomes |= dict.fromkeys(bad[:4], "truncated")
    asked = level + good + bad[: decide(plan, [0.0] * 60).n]  # size 48 stopped at its look
    records = [_answer(i, outcomes[i], 48 if "-s48-" in i else 6) for i in asked]
    results = ScaffoldResults.from_records(
        "kmp", records, planned=20, swept=[6, 48], split=split, size_unit="text length"
    )
    assert (results.status, results.n, results.score) == ("CERTIFIED", 20, 20.0)
    assert results.truncated == 0 and len(results.results) == len(asked)
    six, forty_eight = results.size_points
    assert six.decision == decide(plan, [1.0] * 60) and six.n == six.decision.n
    assert (six.status, forty_eight.status) == ("CERTIFIED", "FAILED")
    early = decide(plan, [0.0] * 60)
    assert early.early and forty_eight.decision == early and forty_eight.n == early.n
    assert (forty_eight.wrong, forty_eight.truncated) == (early.n - 4, 4)
    # The cases after a look that decided were never asked: not missing. A size whose cases
    # before its decision are missing is INCOMPLETE, neither certified nor failed.
    gaps = [r for r in records if r.case_id not in good[:10]]
    holed = ScaffoldResults.from_records("kmp", gaps, planned=20, swept=[6, 48], split=split)
    assert [p.status for p in holed.size_points] == ["INCOMPLETE", "FAILED"]
    assert holed.certified_up_to is None and holed.fails_from == 48


def test_the_estimate_says_a_size_may_need_more_cases_than_35() -> None:
    thorough = load_settings(provider="reference", level="thorough")
    plan = size_plan("thorough")
    line = sweep_estimate(thorough, ["dijkstra", "bfs"])
    assert line is not None and plan.cap > CASES_PER_SIZE
    # A thorough run's envelope is the search: priced at its costliest course.
    paths = envelope_paths(
        resolve_settings(thorough), ["dijkstra", "bfs"], catalog=default_catalog()
    )
    assert paths is not None
    worst = sum(len(path) for path in paths.values())
    assert f"at worst {worst} size(s)" in line
    assert f"each decided by its own thorough plan: at most {plan.cap} cases a size" in line
    fixed = load_settings(provider="reference", level="thorough", envelope=False)
    line = sweep_estimate(fixed, ["dijkstra", "bfs"])
    assert line is not None
    assert "size sweep: 8 size(s), each decided by its own thorough plan" in line
    assert f"at most {plan.cap} cases a size" in line
    at_one = operating_characteristic(plan, 1.0).expected_cases
    assert f"on average {at_one:.0f} when the true pass rate is 1.00" in line
    standard = load_settings(provider="reference", level="standard")
    assert sweep_estimate(standard, ["dijkstra"]) is None
    assert sweep_estimate(thorough, ["dijkstra"], narrowed=True) is None
    quick = load_settings(provider="reference", level="quick", sizes=[4, 8])
    assert sweep_estimate(quick, ["dijkstra"]) == (
        f"size sweep: 2 size(s), {CASES_PER_SIZE} cases at each (the point cut decides)"
    )


@pytest.mark.slow  # over half a second
@settings(max_examples=150)
@given(
    outcomes=st.lists(
        st.sampled_from([Fraction(1)] * 8 + [Fraction(0), None]), min_size=30, max_size=180
    ),
    copy_every=st.integers(0, 9),
)
def test_a_size_is_read_at_its_looks_as_the_level_reads_them(
    outcomes: list[Fraction | None], copy_every: int
) -> None:
    """A size's looks skip a window holed by errors (``None``: more than a tenth of the
    planned cases up to the look uncounted) as the level's do, and count no copy (hunt gg:
    four errors among a size's first 34 cases, every answer right, read INCOMPLETE at look
    2, where the level's reading is CERTIFIED at look 3)."""
    plan = size_plan("standard")
    ids = [f"c{place:03d}" for place in range(len(outcomes))]
    scores = {case: score for case, score in zip(ids, outcomes, strict=True) if score is not None}
    copies = frozenset(ids[copy_every::10]) if copy_every else frozenset()
    decision, kept, reach = decide_size(plan, ids, scores, copies=copies)
    order = [case for case in ids if case not in copies]
    counted = [case for case in order if case in scores]
    level = decide(
        plan,
        [scores[case] for case in counted],
        final=True,
        may_decide=look_windows(order, counted),
    )
    assert decision == level
    assert kept == frozenset(counted[: level.n]) and not kept & copies
    if level.early:
        window = window_of(order, counted[: level.n])
        assert 10 * sum(case not in scores for case in window) <= len(window)
        assert reach == ids.index(window[-1]) + 1


def test_a_size_with_every_answer_right_and_a_few_early_errors_certifies_at_a_later_look() -> None:
    plan = size_plan("standard")
    ids = [f"c{place:03d}" for place in range(plan.cap)]
    errors = {ids[place] for place in (2, 9, 17, 25)}
    scores = {case: Fraction(1) for case in ids if case not in errors}
    decision, _, reach = decide_size(plan, ids, scores)
    assert decision.status == "CERTIFIED" and decision.early
    # The deciding look's window (the planned cases up to its last counted one) holds at
    # most a tenth of errors: the look at 30, whose 34 cases held all four, decided nothing.
    assert 10 * len(errors.intersection(ids[:reach])) <= reach < plan.cap
    assert reach == decision.n + len(errors)


def test_a_swept_size_s_interval_counts_its_samples_as_the_level_s_does() -> None:
    # Hunt ag: with --samples a size's interval was Wilson's at its n cases whatever its
    # samples said, where the level's (and the guide) takes their effective number.
    from tests.support.records import attempt_record
    from verification.certify.answers import TestResult
    from verification.certify.envelope import size_points
    from verification.certify.results import ScaffoldResults
    from verification.certify.statuses import wilson_interval

    records = [
        attempt_record(
            f"kmp-simple-{k:03d}",
            "passed" if (k + epoch) % 3 else "failed",
            epoch=epoch,
            level=None if (k + epoch) % 3 else 3,
        )
        for k in range(30)
        for epoch in range(3)
    ]  # each case two samples of three right, the third wrong: samples as apart as can be
    answers = [TestResult.from_records(r, r) for r in records]
    (point,) = size_points(answers, {r.case_id: 6 for r in records}, [6], None, 3)
    level = ScaffoldResults.from_records("kmp", records, planned=90, samples=3)
    assert point.interval == level.interval
    low, high = wilson_interval(point.score, point.n)
    assert point.interval[1] - point.interval[0] < high - low  # worth more than 30 answers
