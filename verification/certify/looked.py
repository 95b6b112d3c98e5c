"""A sequential plan read on one scaffold's answers, as a run that looks as it goes reads
it: the plan's decision on the case scores in plan order, each input once (a case
answered with the input of a case answered before it is a copy: counted by no look, nor
missing), and what the status is then judged on (a look that decided early reads its own
window; answers past it are shown, not counted). :func:`read_by_looks` is what
:meth:`~verification.certify.results.ScaffoldResults.from_records` decides by; the runner's
look (:func:`~verification.certify.answers.look_decision`) reads the same from the chains."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from verification.certify.answers import CaseScores, TestResult, look_windows, window_of
from verification.certify.input_keys import later_copies
from verification.certify.sequential import CertificationPlan, Decision, decide

__all__ = ["LookedCases", "read_by_looks"]


@dataclass(frozen=True)
class LookedCases:
    """What a sequential plan decided on a scaffold's answers, and on which."""

    decision: Decision
    counted: list[TestResult]
    """The answers of the cases the decision was reached on."""
    asked_after: int
    """Cases answered past the deciding case (copies among them): shown, not counted."""
    copies: int
    """Copies answered up to the deciding case: shown, not counted."""
    lost: tuple[str, ...] = ()
    """The case of each answer lost to an error that the status is judged with (its worst
    case had it failed): none of a copy's, none past a deciding look's window."""
    judged: int | None = None
    """The answers the status's completeness is judged on, with :attr:`unfinished` those
    of them lost or missing; ``None``: every planned answer, as for any plan."""
    unfinished: int = 0


def read_by_looks(
    plan: CertificationPlan,
    order: Sequence[str],
    counted: Sequence[TestResult],
    infra: Sequence[TestResult],
    inputs: tuple[Mapping[str, Any], Mapping[str, Any]],
    *,
    planned: int,
    samples: int,
    final: bool,
) -> LookedCases:
    """``plan``'s decision on ``counted`` (the answers) in ``order`` (the cases, in plan
    order), ``infra`` the answers lost to errors; ``inputs``: the inputs of the cases
    answered and of those lost to errors alone, by id; ``planned`` the answers planned;
    ``final``: nothing more will be asked."""
    asked, errored = inputs
    # Each input once, at its first case answered: a copy is neither counted nor missing,
    # and its error is no unfinished answer.
    copied = later_copies(order, asked, errored)
    place = {case: position for position, case in enumerate(order)}
    cases = CaseScores.fold(r for r in counted if r.test_case.id not in copied)
    order = [case for case in order if case not in copied]
    ordered = cases.ordered_ids(order)
    windows = look_windows(order, ordered)
    decision = decide(plan, cases.in_order(order), final=final, may_decide=windows)
    decided = set(ordered[: decision.n])
    kept = [r for r in counted if r.test_case.id in decided]
    # The copies answered up to the deciding case are the decision's; those past it were
    # answered after it, as the inputs past it were.
    answered = [case for case in copied if case in asked]
    end = max((place[case] for case in decided), default=-1)
    copies = sum(place[case] < end for case in answered) if decision.early else len(answered)
    after = len(ordered) - decision.n + len(answered) - copies
    lost = tuple(r.test_case.id for r in infra if r.test_case.id not in copied)
    if decision.early:  # errors on cases past the deciding look's window: shown only
        window = window_of(order, ordered[: decision.n])
        judged = len(window) * samples
        inside = set(window)
        lost = tuple(case for case in lost if case in inside)
        return LookedCases(decision, kept, after, copies, lost, judged, judged - len(kept))
    if copied:  # the copies' answers are no part of what was judged
        judged = max(planned - len(copied) * samples, 0)
        unfinished = len(lost) + max(judged - len(kept) - len(lost), 0)
        return LookedCases(decision, kept, after, copies, lost, judged, unfinished)
    return LookedCases(decision, kept, after, copies, lost)
