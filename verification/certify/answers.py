"""One answer to one case as reports show it: :class:`TestResult`, folded from the chain of
attempts (a first answer and its repairs) the journal holds (:func:`attempt_chains`); and
answers folded into case scores (:class:`CaseScores`); and the windows a sequential plan's
looks read (:mod:`verification.certify.looked` reads the plan on them)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from verification.cases import printable
from verification.catalog.spec import ScaffoldSpec
from verification.errors import JournalError
from verification.generators.base import TestCase
from verification.store.code_version import code_version
from verification.store.journal import check_planned
from verification.store.manifests import RunManifest
from verification.store.records import PROGRAM_TIER, AttemptRecord
from verification.validators.base import passes

__all__ = [
    "CaseScores",
    "Chains",
    "TestResult",
    "attempt_chains",
    "check_journal",
    "check_passes",
    "look_windows",
    "standing_chains",
    "window_of",
]

Chains = dict[tuple[str, int], dict[int, AttemptRecord]]
"""Per (case id, sample): its attempts by number, each the journal's latest line for it."""


@dataclass(frozen=True)
class TestResult:
    """One answer to one case (its last attempt), as reports show it."""

    __test__ = False

    test_case: TestCase
    passed: bool
    actual: Any
    expected: dict[str, Any]
    llm_response: str | None
    validation_message: str
    error: str | None
    outcome: str
    level: int | None
    epoch: int
    attempts: int
    final_outcome: str
    """The outcome of the last attempt (after any repair)."""
    leniency: tuple[str, ...]
    stop_reason: str | None
    raw_response_chars: int
    usage: dict[str, int]
    latency_s: float
    model: str | None

    @classmethod
    def from_records(cls, first: AttemptRecord, last: AttemptRecord) -> TestResult:
        """The result of a chain of attempts (first and last may be the same record)."""
        case = last.test_case()
        passed = first.outcome == "passed"
        return cls(
            test_case=case,
            passed=passed,
            actual=first.answer,
            expected=first.expected,
            llm_response=first.raw_response,
            validation_message=first.reason,
            error=None if passed else first.reason,
            outcome=first.outcome,
            level=first.level,
            epoch=first.epoch,
            attempts=last.attempt,
            final_outcome=last.outcome,
            leniency=tuple(first.leniency),
            stop_reason=first.stop_reason,
            raw_response_chars=first.raw_response_chars,
            usage=dict(first.usage),
            latency_s=first.latency_s,
            model=first.model,
        )

    @property
    def repaired(self) -> bool:
        """Failed first, passed on a repair attempt."""
        return not self.passed and self.final_outcome == "passed"


@dataclass(frozen=True)
class CaseScores:
    """Per case: (answers that pass, answers counted), folded from answers."""

    tallies: dict[str, tuple[int, int]]

    @classmethod
    def fold(cls, results: Iterable[TestResult], *, after_repair: bool = False) -> CaseScores:
        tallies: dict[str, tuple[int, int]] = {}
        for result in results:
            good, seen = tallies.get(result.test_case.id, (0, 0))
            ok = result.passed or (after_repair and result.repaired)
            tallies[result.test_case.id] = (good + ok, seen + 1)
        return cls(tallies)

    @property
    def n(self) -> int:
        return len(self.tallies)

    def total(self) -> Fraction:
        # Summed in integers per number of answers (one Fraction each, not one per case):
        # the same exact sum, without a gcd for every case of every fold.
        goods: dict[int, int] = {}
        for good, seen in self.tallies.values():
            goods[seen] = goods.get(seen, 0) + good
        return sum((Fraction(good, seen) for seen, good in goods.items()), Fraction(0))

    def consistent(self) -> int:
        return sum(good in (0, seen) for good, seen in self.tallies.values())

    def ordered_ids(self, order: Sequence[str]) -> list[str]:
        """The counted cases of ``order``, in its order."""
        return [case for case in order if case in self.tallies]

    def in_order(self, order: Sequence[str]) -> list[Fraction]:
        """The scores of the counted cases of ``order``, in its order."""
        return [Fraction(*self.tallies[case]) for case in self.ordered_ids(order)]

    def scores(self) -> dict[str, Fraction]:
        return {case: Fraction(good, seen) for case, (good, seen) in self.tallies.items()}


def standing_chains(records: Iterable[AttemptRecord]) -> Chains:
    """``records`` as chains, the line that stands for each attempt kept: an answer stands
    against a later infrastructure error on its attempt (which a resumed run asks again),
    as :func:`attempt_chains` reads them, of every scaffold at once and with no check of
    two answers that disagree (what a resume asks next, not what is certified)."""
    chains: Chains = {}
    for record in records:
        chain = chains.setdefault((record.case_id, record.epoch), {})
        earlier = chain.get(record.attempt)
        if earlier is None or earlier.outcome == "infra_error":
            chain[record.attempt] = record
    return chains


def attempt_chains(
    scaffold: str, records: Iterable[AttemptRecord]
) -> tuple[list[AttemptRecord], dict[tuple[str, int, int], AttemptRecord], Chains]:
    """``scaffold``'s records, the line that stands for each (case, sample, attempt), and
    those as chains. A later line supersedes an earlier one only where the earlier is no
    answer (an infrastructure error: a resumed run asks it again); an answer stands against
    a later error. Two answers to one attempt that disagree (outcome or level) are a
    :class:`JournalError` naming the later line: no run writes them, and letting the later
    win turned a copied failure marked ``passed`` into a certification (a helper's hunt)."""
    mine = [record for record in records if record.scaffold == scaffold]
    latest: dict[tuple[str, int, int], AttemptRecord] = {}
    for record in mine:
        key = (record.case_id, record.epoch, record.attempt)
        earlier = latest.get(key)
        if earlier is None or earlier.outcome == "infra_error":
            latest[key] = record
        elif record.outcome != "infra_error" and _verdict(record) != _verdict(earlier):
            raise JournalError(
                f"{printable(record.line, 300)}: answers attempt {record.attempt} of sample "
                f"{record.epoch} of case {printable(record.case_id, 120)} again, "
                f"{record.outcome} where {printable(earlier.line, 300)} says "
                f"{earlier.outcome}: a journal holding two verdicts on one answer was edited "
                "(or two runs' lines were mixed), so no status is given"
            )
    chains: Chains = {}
    for (case_id, epoch, attempt), record in latest.items():
        chains.setdefault((case_id, epoch), {})[attempt] = record
    return mine, latest, chains


def _verdict(record: AttemptRecord) -> tuple[str, int | None]:
    """What the certification reads of an answer's line."""
    return record.outcome, record.level


def look_windows(order: Sequence[str], counted: Sequence[str]) -> Callable[[int], bool]:
    """Whether a look at ``n`` counted cases may decide: the planned cases up to its
    ``n``-th counted one (``counted`` in ``order``), infrastructure errors and missing
    answers among them, hold at most a tenth that are not counted. A look reads the first
    ``n`` *counted* cases, so errors push its window past cases the run has already asked:
    30 passes with 4 errors among them read CERTIFIED while the 6 failures asked right
    after were left out (a helper's hunt). Where the window is so holed, a later look
    decides on more of what was asked."""
    place = {case: position for position, case in enumerate(order)}
    ends = [place[case] + 1 for case in counted]
    return lambda n: 0 < n <= len(ends) and 10 * (ends[n - 1] - n) <= ends[n - 1]


def window_of(order: Sequence[str], decided: Sequence[str]) -> Sequence[str]:
    """The planned cases a look that decided on ``decided`` read: ``order`` up to the last
    of them. Errors and missing answers past it are cases asked after the decision (a
    resume asks them no more), shown and not counted, as the answers past it are."""
    if not decided:
        return ()
    place = {case: position for position, case in enumerate(order)}
    return order[: max(place[case] for case in decided) + 1]


def check_journal(
    manifest: RunManifest,
    records: Sequence[AttemptRecord],
    catalog: Mapping[str, ScaffoldSpec] | None = None,
) -> None:
    """:class:`~verification.errors.JournalError` where the fold of ``records`` would refuse
    them: answers to a case or sample ``manifest`` does not plan
    (:func:`~verification.store.journal.check_planned`), two verdicts on one answer
    (:func:`attempt_chains`), or a pass its scaffold's validator (of ``catalog``'s spec)
    does not give (:func:`check_passes`). What reads a run's journal calls
    it before acting on it: a resume refused at the end had asked every remaining case, and
    ``compare`` paired cases ``report`` refused (hunt hh)."""
    check_planned(manifest, records, f"run {manifest.run_id}")
    for name in manifest.scaffolds:
        attempt_chains(name, records)
    if catalog is not None:
        check_passes(manifest, records, catalog)


def check_passes(
    manifest: RunManifest, records: Sequence[AttemptRecord], catalog: Mapping[str, ScaffoldSpec]
) -> None:
    """:class:`~verification.errors.JournalError` where a line read back says an answer
    passed and its scaffold's validator (``catalog``'s spec) rejects that answer:
    a failure's ``"outcome"`` edited to ``"passed"`` turned a PARTIAL run CERTIFIED (hunts
    hh 7, ll 2). Only a run of this code's version is judged again: a validator made
    stricter since would read an older run's honest passes as edits. A program's line (its
    answer a program), a line this process made, and one whose expected answer is none (an
    edit calibration names, its answer then judged against nothing) are not."""
    if manifest.code_version != code_version():
        return
    for record in records:
        if record.outcome != "passed" or record.tier == PROGRAM_TIER:
            continue
        spec = catalog.get(record.scaffold)
        if spec is None or getattr(record, "_where", None) is None:
            continue
        if spec.answer_misfit(record.expected) is not None:
            continue
        try:
            right = passes(spec.validator, record.answer, record.expected, case=record.test_case())
        except Exception:  # an expected answer the validator cannot read
            continue
        if not right:
            raise JournalError(
                f"run {manifest.run_id}: {printable(record.line, 200)} "
                f"({printable(record.case_id, 80)}) says its answer passed, and its validator "
                "rejects that answer; the line was edited (or another run's), so no status "
                "is given"
            )
