"""A paired test counts copies of one input once (``reports/regressions.py: input_units``).

A tier with few possible inputs draws some again (n_queens at size 4: 8 inputs in 290
cases), and a model that answers one prompt alike each time (temperature 0, or the response
cache within a run) flips all its copies together. A helper's hunt played nights of the
nightly workflow with such a model, unchanged: one input of 45 copies flipped, and the gate
called a significant drop. Counted once, that input is one changed answer of many."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from verification.cases import TestCase
from verification.reports.regressions import ArmAnswers, compare_outcomes, input_units

COPIES, OTHERS = 45, 55


def _case(index: int, n: int) -> TestCase:
    return TestCase(
        id=f"n_queens-simple-{index:03d}",
        scaffold="n_queens",
        tier="simple",
        index=index,
        input={"n": n},
        expected={},
    )


CASES = [_case(i, 4) for i in range(COPIES)] + [_case(COPIES + i, 10 + i) for i in range(OTHERS)]


def _run(copies_pass: bool) -> tuple[dict[str, float], Any]:
    scores = {c.id: float(copies_pass if c.input["n"] == 4 else 1.0) for c in CASES}
    results = SimpleNamespace(
        results=[SimpleNamespace(test_case=c, outcome="passed") for c in CASES]
    )
    return scores, results


def _all(scores: dict[str, float]) -> ArmAnswers:
    """A run that answered every case it meant to: these scores, nothing lost."""
    return ArmAnswers(scores, {}, frozenset(), False)


def test_copies_of_one_input_flipping_together_are_one_changed_answer() -> None:
    (before, ran_before), (now, ran_now) = _run(True), _run(False)
    units = input_units({"n_queens": ran_before}, {"n_queens": ran_now})
    (row,) = compare_outcomes({"n_queens": _all(before)}, {"n_queens": _all(now)}, units=units)
    assert row.comparison.shared == OTHERS + 1
    assert (row.comparison.only_a, row.comparison.only_b) == (1, 0)
    assert not row.significant
    # Counted case by case, as before: 45 "independent" drops, a significant one.
    (apart,) = compare_outcomes({"n_queens": _all(before)}, {"n_queens": _all(now)})
    assert apart.comparison.only_a == COPIES and apart.significant


def test_cases_the_runs_drew_differently_stay_apart() -> None:
    _, ran_before = _run(True)
    other = [_case(i, 5 + i) if i < 3 else c for i, c in enumerate(CASES)]
    ran_now = SimpleNamespace(
        results=[SimpleNamespace(test_case=c, outcome="passed") for c in other]
    )
    units = input_units({"n_queens": ran_before}, {"n_queens": ran_now})["n_queens"]
    assert [units[c.id] for c in CASES[:3]] == [c.id for c in CASES[:3]]
    assert len({units[c.id] for c in CASES[3:COPIES]}) == 1


def test_a_copy_only_one_run_asked_moves_no_score_of_the_pair() -> None:
    # Hunt ag: a copy of a shared case's input that only B asked was folded into B's unit,
    # and two runs alike on every shared case read "A better 1" with different rates.
    extra = _case(len(CASES), 4)  # one more copy of the repeated input, B's alone, failed
    before = {c.id: 1.0 for c in CASES}
    now = {**before, extra.id: 0.0}
    ran_before = SimpleNamespace(
        results=[SimpleNamespace(test_case=c, outcome="passed") for c in CASES]
    )
    ran_now = SimpleNamespace(
        results=[SimpleNamespace(test_case=c, outcome="passed") for c in [*CASES, extra]]
    )
    units = input_units({"n_queens": ran_before}, {"n_queens": ran_now})
    (row,) = compare_outcomes({"n_queens": _all(before)}, {"n_queens": _all(now)}, units=units)
    assert row.comparison.shared == OTHERS + 1
    assert (row.comparison.only_a, row.comparison.only_b) == (0, 0)
    assert row.comparison.score_a == row.comparison.score_b == OTHERS + 1
