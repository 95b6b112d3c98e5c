"""Copies of one input: a tier with few possible inputs draws some again (n_queens at size
4: 8 inputs in 290 cases of the thorough level), and copies of one prompt are no independent
answers (the response cache within a run, or a model at temperature 0, answers them alike).
:func:`~verification.certify.input_keys.input_key` names an input; :func:`input_tallies`
clusters a scaffold's answers by it, for the interval of its rate
(:mod:`verification.certify.results`), as a case's samples are clustered, and the paired
comparison counts the copies of one input once (:mod:`verification.reports.regressions`). A
sequential plan's looks count each input once, by the first case of the plan's order asked
with it (:func:`~verification.certify.input_keys.later_copies`): a look's boundary is exact
for independent answers, and copies answered alike are not."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from verification.cases import ProgramTask
from verification.certify.answers import TestResult
from verification.certify.input_keys import input_key

__all__ = ["drawn_inputs", "input_copies", "input_tallies"]


def input_tallies(counted: Iterable[TestResult]) -> dict[str, tuple[int, int]]:
    """(answers that pass, answers counted) per input asked: every sample of every case
    drawn with that input. A tier with few possible inputs draws some again, and copies of
    one prompt are no independent answers (the response cache within a run, or a model at
    temperature 0, answers them alike): clustered by input, as a case's samples are, they
    count as many answers as their agreement allows (a helper's hunt: 8 inputs in 290
    cases of n_queens at size 4, each counted as its own evidence). A code-mode program is
    its own request: its own cluster."""
    tallies: dict[str, tuple[int, int]] = {}
    for r in counted:
        case = r.test_case
        key = case.id if isinstance(case, ProgramTask) else input_key(case.input)
        good, seen = tallies.get(key, (0, 0))
        tallies[key] = (good + r.passed, seen + 1)
    return tallies


def drawn_inputs(answers: Iterable[TestResult]) -> dict[str, str]:
    """Case id -> its input's key, for the cases asked by their input alone: a code-mode
    program is its own request (its own sample of one shared prompt), never a copy; a case
    its plugin could not draw has no input (hunt ah: two runs' undrawn cases read as drawn
    with other inputs)."""
    return {
        r.test_case.id: input_key(r.test_case.input)
        for r in answers
        if not isinstance(r.test_case, ProgramTask)
        and (r.outcome != "infra_error" or r.test_case.input)
    }


def input_copies(counted: Iterable[TestResult]) -> tuple[int, ...]:
    """The cases of ``counted`` per distinct input (:func:`drawn_inputs`), most first: what
    a fixed plan's claim computes the risks of copies answered alike from
    (:func:`~verification.certify.operating.alike_outcome`)."""
    return tuple(sorted(Counter(drawn_inputs(counted).values()).values(), reverse=True))
