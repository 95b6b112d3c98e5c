"""A sequential plan read on one scaffold's answers, as a run that looks as it goes reads
it: the plan's decision on the case scores in plan order, each input once (a case
answered with the input of a case answered before it is a copy: counted by no look, nor
missing), and what the status is then judged on (a look that decided early reads its own
window; answers past it are shown, not counted). :func:`read_by_looks` is that reading,
one for both of its readers: :meth:`~verification.certify.results.ScaffoldResults.from_records`
(the status) and :func:`look_decision` (the runner's look, folded straight from the
journal's chains)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from verification.certify.answers import CaseScores, attempt_chains, look_windows, window_of
from verification.certify.input_keys import later_copies
from verification.certify.sequential import CertificationPlan, Decision, decide
from verification.store.records import PROGRAM_TIER, AttemptRecord

__all__ = ["LookedCases", "look_decision", "read_by_looks"]


@dataclass(frozen=True)
class LookedCases:
    """What a sequential plan decided on a scaffold's answers, and on which."""

    decision: Decision
    decided: frozenset[str]
    """The cases the decision was reached on."""
    asked_after: int
    """Cases answered past the deciding case (copies among them): shown, not counted."""
    copies: int
    """Copies answered up to the deciding case: shown, not counted."""
    lost: tuple[str, ...]
    """The case of each answer lost to an error that the status is judged with (its worst
    case had it failed): none of a copy's, none past a deciding look's window."""
    judged: int
    """The answers the status's completeness is judged on, and of them those lost or
    missing (:attr:`unfinished`): more than a tenth makes it INCOMPLETE."""
    unfinished: int


def read_by_looks(
    plan: CertificationPlan,
    order: Sequence[str],
    tallies: Mapping[str, tuple[int, int]],
    lost: Sequence[str],
    inputs: tuple[Mapping[str, Any], Mapping[str, Any]],
    *,
    planned: int,
    samples: int,
    final: bool,
) -> LookedCases:
    """``plan``'s decision on the answers in ``order`` (the cases, in plan order):
    ``tallies`` per case (answers that pass, answers counted), ``lost`` the case of each
    answer lost to an error, ``inputs`` the inputs of the cases answered and of those lost
    to errors alone, by id; ``planned`` the answers planned; ``final``: nothing more will
    be asked."""
    asked, errored = inputs
    # Each input once, at its first case answered: a copy is neither counted nor missing,
    # and its error is no unfinished answer.
    copied = later_copies(order, asked, errored)
    place = {case: position for position, case in enumerate(order)}
    cases = CaseScores({case: tally for case, tally in tallies.items() if case not in copied})
    order = [case for case in order if case not in copied]
    ordered = cases.ordered_ids(order)
    windows = look_windows(order, ordered)
    decision = decide(plan, cases.in_order(order), final=final, may_decide=windows)
    decided = frozenset(ordered[: decision.n])
    kept = sum(cases.tallies[case][1] for case in decided)
    # The copies answered up to the deciding case are the decision's; those past it were
    # answered after it, as the inputs past it were.
    answered = [case for case in copied if case in asked]
    end = max((place[case] for case in decided), default=-1)
    copies = sum(place[case] < end for case in answered) if decision.early else len(answered)
    after = len(ordered) - decision.n + len(answered) - copies
    counted = tuple(case for case in lost if case not in copied)
    if decision.early:  # errors on cases past the deciding look's window: shown only
        window = window_of(order, ordered[: decision.n])
        inside = set(window)
        judged = len(window) * samples
        counted = tuple(case for case in counted if case in inside)
        return LookedCases(decision, decided, after, copies, counted, judged, judged - kept)
    # Every planned answer but the copies' (no part of what was judged), the errors among
    # them, and the answers missing besides.
    judged = max(planned - len(copied) * samples, 0) if copied else planned
    answers = kept if copied else sum(tally[1] for tally in tallies.values())
    unfinished = len(counted) + max(judged - answers - len(counted), 0)
    return LookedCases(decision, decided, after, copies, counted, judged, unfinished)


def look_decision(
    scaffold: str,
    records: Iterable[AttemptRecord],
    *,
    planned: int,
    plan: CertificationPlan,
    order: Sequence[str],
    samples: int = 1,
) -> Decision | None:
    """What a look of a sequential ``plan`` reads of
    ``ScaffoldResults.from_records(scaffold, records, planned=planned, plan=plan,
    order=order, final=False)``: its decision, or ``None`` where its status is INCOMPLETE
    (no decided case, or more than a tenth of ``planned`` answers missing or infrastructure
    errors) or the plan is not sequential. Folded from each chain's first attempt, as a
    :class:`~verification.certify.answers.TestResult` takes its outcome, without building
    one per answer (a run looks after every segment, on every answer so far), and read by
    :func:`read_by_looks`, as the status is: tests/certify/test_look_decision.py holds it
    equal to ``from_records``."""
    if not plan.sequential:
        return None
    _, _, chains = attempt_chains(scaffold, records)
    tallies: dict[str, tuple[int, int]] = {}
    asked: dict[str, Any] = {}
    errored: dict[str, Any] = {}
    lost: list[str] = []
    for key in sorted(chains):
        chain = chains[key]
        if 1 not in chain:
            continue
        first = chain[1]
        program = first.tier == PROGRAM_TIER or first.is_program  # nobody's copy
        if first.outcome == "infra_error":
            lost.append(key[0])
            if not program and not first.undrawn:
                errored[key[0]] = first.input
            continue
        good, seen = tallies.get(key[0], (0, 0))
        tallies[key[0]] = (good + (first.outcome == "passed"), seen + 1)
        if not program:
            asked[key[0]] = first.input
    looked = read_by_looks(
        plan,
        order,
        tallies,
        lost,
        (asked, errored),
        planned=planned,
        samples=samples,
        final=False,
    )
    if 10 * looked.unfinished > looked.judged:
        return None
    return looked.decision if looked.decision.n else None
