"""A look's decision folded straight from the journal's chains (``look_decision``) is what
``ScaffoldResults.from_records`` decides at that look: its decision where its status is not
INCOMPLETE, none where it is, over journals with superseded lines, repairs, chains whose
first attempt is missing, infrastructure errors, several samples, copies of an earlier
case's input and other scaffolds' lines."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.records import attempt_record
from verification.certify.looked import look_decision
from verification.certify.results import ScaffoldResults
from verification.certify.sequential import fixed_plan, plan_for
from verification.store.records import AttemptRecord

_OUTCOMES = ("passed", "passed", "passed", "failed", "truncated", "refused", "infra_error")


@functools.cache  # records are frozen: the 150 journals share one of each line
def _record(
    scaffold: str, index: int, epoch: int, attempt: int, outcome: str, input_of: int | None = None
) -> AttemptRecord:
    """A line of case ``index``, asked with case ``input_of``'s input (default its own)."""
    return attempt_record(
        f"{scaffold}-simple-{index:03d}",
        outcome,
        epoch=epoch,
        attempt=attempt,
        level=None if outcome == "passed" else 3,
        input={"case": index if input_of is None else input_of},
    )


def _journal(seed: int) -> tuple[list[Any], int, int]:
    """Journal lines of kmp's first ``asked`` cases (and a few past them) at ``samples``
    answers each, right at a drawn rate (so looks decide either way, or not yet), with now
    and then an infrastructure error, a missing answer, a repair, a superseded line, a chain
    without its first attempt, and another scaffold's line (drawn from ``seed``: hypothesis
    draws one number per journal, not one per line)."""
    rng = random.Random(seed)
    asked = rng.choice([20, 30, 40, 50])
    samples = rng.choice([1, 2])
    right = rng.choice([40, 80, 90, 95, 100])  # percent
    lines: list[Any] = []
    for index in range(asked + 3):
        # Now and then the input of a case before it (a tier with few inputs draws copies)
        of = rng.randrange(index) if index and rng.randrange(5) == 0 else index
        for epoch in range(samples):
            outcome = "passed" if rng.randrange(100) < right else "failed"
            odd = rng.randrange(30)
            if odd == 0:
                outcome = "infra_error"
            if odd == 1:
                continue  # not answered
            if odd == 2:  # a later line supersedes an infra error
                lines.append(("kmp", index, epoch, 1, "infra_error", of))
            if odd == 3:  # only a repair's line
                lines.append(("kmp", index, epoch, 2, outcome, of))
                continue
            lines.append(("kmp", index, epoch, 1, outcome, of))
            if odd == 4 and outcome != "passed":
                lines.append(("kmp", index, epoch, 2, "passed", of))  # repaired
            if odd == 5:
                lines.append(("bfs", index, epoch, 1, rng.choice(_OUTCOMES)))
    return lines, asked, samples


def _held_equal(lines: list[Any], asked: int, samples: int, plan: Any) -> None:
    records = [_record(*line) for line in lines]
    order = [f"kmp-simple-{k:03d}" for k in range(asked)]
    planned = asked * samples
    whole = ScaffoldResults.from_records(
        "kmp", records, planned=planned, plan=plan, order=order, final=False, samples=samples
    )
    expected = None if whole.status == "INCOMPLETE" else whole.decision
    got = look_decision("kmp", records, planned=planned, plan=plan, order=order, samples=samples)
    assert got == expected


@pytest.mark.slow  # 150 examples: about a second
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["standard", "thorough"]))
def test_a_looks_decision_is_from_records_decision_unless_incomplete(seed: int, level: str) -> None:
    _held_equal(*_journal(seed), plan_for(level))


def test_mostly_right_answers_decide_at_a_look_as_from_records_does() -> None:
    # Answers that certify or fail from the first look: a decided decision, not only None.
    for outcome in ("passed", "failed"):
        lines = [("kmp", k, 0, 1, outcome) for k in range(40)]
        _held_equal(lines, 40, 1, plan_for("standard"))
        got = look_decision(
            "kmp",
            [_record(*line) for line in lines],
            planned=40,
            plan=plan_for("standard"),
            order=[f"kmp-simple-{k:03d}" for k in range(40)],
        )
        assert got is not None and got.decided


def test_a_fixed_plan_has_no_look_to_decide() -> None:
    lines = [("kmp", k, 0, 1, "passed") for k in range(20)]
    plan = fixed_plan(20)
    records = [_record(*line) for line in lines]
    order = [f"kmp-simple-{k:03d}" for k in range(20)]
    assert look_decision("kmp", records, planned=20, plan=plan, order=order) is None
    assert ScaffoldResults.from_records("kmp", records, planned=20, plan=plan).decision is None


def test_a_look_whose_window_errors_push_past_asked_failures_does_not_decide() -> None:
    # A helper's hunt: 4 errors among the first 34 planned cases, then 6 failures: the look
    # at 30 counted read CERTIFIED at 100% on positions 0 to 33 and left out the failures
    # the run had asked (an 83% rate, 75% worst case).
    errors = {3, 10, 17, 24}
    lines = [
        ("kmp", k, 0, 1, "infra_error" if k in errors else "failed" if k >= 34 else "passed")
        for k in range(40)
    ]
    records = [_record(*line) for line in lines]
    order = [f"kmp-simple-{k:03d}" for k in range(40)]
    plan = plan_for("standard")
    got = look_decision("kmp", records, planned=40, plan=plan, order=order)
    assert got is None or got.status != "CERTIFIED"
    final = ScaffoldResults.from_records(
        "kmp", records, planned=40, plan=plan, order=order, final=True
    )
    assert final.status != "CERTIFIED" and final.n == 36  # every answer asked counted
    _held_equal(lines, 40, 1, plan)
