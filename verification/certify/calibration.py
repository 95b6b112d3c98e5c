"""The validator's calibration on a run's own cases: no model call.

For each case a run asked, the spec's ``mutants`` hook makes wrong answers the validator
must reject, and its ``alternatives`` hook other right answers it must accept (see
:mod:`verification.catalog.calibration`). A miss either way is a harness defect: the run's status
for that scaffold cannot be trusted, whatever the model answered. At most
:data:`PER_CASE` answers of each kind are judged per case, so the cost grows with the
number of cases, not with how many answers a hook can make. A hook that raises, or makes a
"mutant" equal to the expected answer, is a defect of the hook (``check`` names it): such
answers are left out here rather than counted as the validator's misses. Generic mutants
(a plugin spec that declares no ``mutants`` hook) are judged but counted apart: one may be a
right answer, so one accepted is no miss (``check`` lists them for review); a validator that
accepts every one judged over the run is unchecked, as one whose own hook gave nothing. A
plugin's validator that fails on an answer (raises, or returns no verdict: its
:class:`~verification.errors.PluginError`) is a miss whatever the answer, as a run of real
answers makes each such answer an infrastructure error: counted as a rejection, it let a dry
run certify a validator that could judge no wrong answer (hunt ff).
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from verification.cases import CaseRandom, TestCase, printable
from verification.catalog.calibration import KeyedAnswers, LazyHook, answer_key
from verification.catalog.spec import ScaffoldSpec, no_alternatives
from verification.errors import PluginError
from verification.store.records import AttemptRecord
from verification.validators.base import passes

__all__ = [
    "MAX_MISSES_SHOWN",
    "PER_CASE",
    "Calibration",
    "CalibrationMiss",
    "CaseCalibration",
    "calibrate",
    "calibrate_case",
    "fitting_records",
]

PER_CASE = 3
"""Mutants, and alternatives, judged per case at most."""
MAX_MISSES_SHOWN = 3
"""Misses kept for the report (the first ones, by case)."""
_SEED = "run-calibration"
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CalibrationMiss:
    """One answer the validator judged wrongly."""

    case_id: str
    kind: str
    """``mutant accepted``, ``alternative rejected`` or ``validator error`` (a plugin's
    validator failed on the answer)."""
    answer: str
    """The answer, as compact JSON (cut to 300 characters)."""


@dataclass(frozen=True)
class Calibration:
    """How the validator did on one scaffold's cases of one run."""

    mutants_rejected: int
    mutants: int
    alternatives_accepted: int
    alternatives: int
    first_misses: tuple[CalibrationMiss, ...] = ()
    unchecked: bool = False
    """The scaffold's own ``mutants`` hook gave no mutant on any case of the run (it raised,
    gave nothing or only the expected answer), or its validator accepted every generic
    mutant judged, or no generic mutant could be made: nothing showed it rejects a wrong
    answer, and one that accepts every answer would certify (a helper's hunt did that, each
    way)."""
    generic_mutants: int = 0
    """Generic mutants judged (a plugin spec without its own hook); not in :attr:`mutants`."""
    generic_accepted: int = 0
    """Of those, the ones the validator accepted: each may be a right answer, so no miss."""
    generic: bool = False
    """The mutants were generic ones (the spec declares no ``mutants`` hook)."""
    validator_errors: int = 0
    """Answers on which a plugin's validator failed (raised, or gave no verdict): judged by
    neither count above, each a miss."""

    @property
    def unchecked_reason(self) -> str:
        """The scaffold's INCOMPLETE reason when :attr:`unchecked`."""
        if self.generic_mutants:
            return "validator unchecked: it accepted every generic mutant"
        if self.generic:
            return (
                "validator unchecked: no generic mutant fits the answers' schema"
                " (the scaffold needs a mutants hook)"
            )
        return "validator unchecked"

    @property
    def misses(self) -> int:
        """Mutants accepted plus alternatives rejected, plus the validator's failures."""
        wrong = (
            self.mutants - self.mutants_rejected + self.alternatives - self.alternatives_accepted
        )
        return wrong + self.validator_errors


def _shown(answer: Any) -> str:
    text = _key(answer)
    return text if len(text) <= 300 else text[:297] + "..."


_KEY_JSON = json.JSONEncoder(sort_keys=True, allow_nan=False)
"""``json.dumps(answer, sort_keys=True, allow_nan=False)`` builds this encoder per call;
made once, it writes the same text. It builds its C encoder per call too: :func:`_key`
uses it only where :func:`~verification.catalog.calibration.answer_key` (which does not)
meets a cycle or a nesting too deep, so that each fails as it did."""


def _key(answer: Any) -> str:
    try:
        return answer_key(answer)  # four times per case calibrated
    except (TypeError, ValueError):
        return repr(answer)
    except RecursionError:  # a cycle, which _KEY_JSON names, or too deep for either
        try:
            return _KEY_JSON.encode(answer)
        except (TypeError, ValueError):
            return repr(answer)


def _answers(
    spec: ScaffoldSpec, case: TestCase, hook: str, rng: random.Random
) -> list[dict[str, Any]]:
    make = getattr(spec, hook)
    try:
        # Only the first answers are judged. A lazy hook makes no more, unless the
        # alternatives hook draws from ``rng`` after mutants that may not have made every
        # draw yet: then every mutant is made.
        if isinstance(make, LazyHook) and (
            hook == "alternatives" or make.draws_first or not _draws(spec.alternatives)
        ):
            made = make.first(case, rng, PER_CASE)
        else:
            made = list(make(case, rng))[:PER_CASE]
    except PluginError as exc:  # it names its plugin: a line, not our traceback
        logger.warning("calibration of case %s skipped: %s", case.id, exc)
        return []
    except Exception as exc:  # the hook's defect (`check` reports it), or a case edited by hand
        # One line, no traceback: the case may come from a journal anyone may have edited.
        logger.warning(
            "%s hook of %s raised on case %s (%s: %s): its answers are left out of calibration",
            hook,
            spec.name,
            printable(case.id, 120),
            type(exc).__name__,
            printable(str(exc), 200),
        )
        return []
    if hook == "mutants":
        expected = _known_key(made, case.expected) or _key(case.expected)
        made = [answer for answer in made if (_known_key(made, answer) or _key(answer)) != expected]
    return made


def _known_key(made: list[dict[str, Any]], answer: Any) -> str | None:
    """The key of ``answer`` as the hook keyed it when it made ``made``, if it did."""
    return made.key_of(answer) if isinstance(made, KeyedAnswers) else None


def _draws(hook: Any) -> bool:
    """Whether an ``alternatives`` hook may draw from the case's rng."""
    return hook is not no_alternatives and not (isinstance(hook, LazyHook) and not hook.draws)


def _accepts(spec: ScaffoldSpec, answer: Any, case: TestCase) -> bool | None:
    """The validator's verdict on ``answer``; ``None`` where a plugin's validator failed on
    it (the runner makes such an answer an infrastructure error, not a rejection)."""
    try:
        return passes(spec.validator, answer, case.expected, case=case)  # no message needed
    except PluginError:
        return None
    except Exception:  # the package's validator that raises rejects (as the runner judges it)
        return False


@dataclass(frozen=True)
class CaseCalibration:
    """How the validator did on one case: what :func:`calibrate` folds per scaffold."""

    mutants_rejected: int
    mutants: int
    alternatives_accepted: int
    alternatives: int
    misses: tuple[CalibrationMiss, ...] = ()
    """This case's first misses (at most :data:`MAX_MISSES_SHOWN`)."""
    generic_mutants: int = 0
    """Generic mutants judged: counted apart, never a miss (see :class:`Calibration`)."""
    generic_accepted: int = 0
    validator_errors: int = 0
    """Answers on which a plugin's validator failed: each a miss."""


def calibrate_case(spec: ScaffoldSpec, case: TestCase) -> CaseCalibration:
    """Judge ``spec``'s mutants and alternatives of one ``case`` with its validator (the
    same for a case whenever it is judged: its answers are drawn from its id)."""
    # [right verdicts, judged]; a generic mutant's right verdict is a rejection, as a mutant's
    counts = {"mutants": [0, 0], "alternatives": [0, 0], "generic": [0, 0]}
    misses: list[CalibrationMiss] = []
    errors = 0
    # CaseRandom: random.Random's numbers from the same draws, with fewer layers of calls
    # (the hooks sample, shuffle and choose from it for every case a run answers).
    rng = CaseRandom(f"{_SEED}:{case.id}")
    for hook, wanted in (("mutants", False), ("alternatives", True)):
        counted = "generic" if hook == "mutants" and spec.generic_mutants else hook
        for answer in _answers(spec, case, hook, rng):
            verdict = _accepts(spec, answer, case)
            if verdict is None:
                errors += 1
                if len(misses) < MAX_MISSES_SHOWN:
                    misses.append(CalibrationMiss(case.id, "validator error", _shown(answer)))
                continue
            counts[counted][1] += 1
            if verdict == wanted:
                counts[counted][0] += 1
            elif counted != "generic" and len(misses) < MAX_MISSES_SHOWN:
                kind = "alternative rejected" if wanted else "mutant accepted"
                misses.append(CalibrationMiss(case.id, kind, _shown(answer)))
    return CaseCalibration(
        mutants_rejected=counts["mutants"][0],
        mutants=counts["mutants"][1],
        alternatives_accepted=counts["alternatives"][0],
        alternatives=counts["alternatives"][1],
        misses=tuple(misses),
        generic_mutants=counts["generic"][1],
        generic_accepted=counts["generic"][1] - counts["generic"][0],
        validator_errors=errors,
    )


def calibrate(
    spec: ScaffoldSpec,
    cases: Iterable[TestCase],
    *,
    known: Mapping[str, CaseCalibration] | None = None,
) -> Calibration:
    """Judge ``spec``'s mutants and alternatives of each case with its validator; a case
    ``known`` holds by id (the runner calibrates each case once it is answered, while
    other requests wait) is taken from it instead of being judged again."""
    known = known or {}
    per_case = [known.get(case.id) or calibrate_case(spec, case) for case in cases]
    misses = [miss for each in per_case for miss in each.misses][:MAX_MISSES_SHOWN]
    mutants = sum(each.mutants for each in per_case)
    generic = sum(each.generic_mutants for each in per_case)
    generic_accepted = sum(each.generic_accepted for each in per_case)
    if spec.generic_mutants:
        # One generic mutant accepted may be a right answer; all of them accepted is what a
        # validator that accepts anything does; none made (answers of one enum's values, say,
        # whose every edit misfits the schema) shows nothing either way.
        unchecked = bool(per_case) and generic_accepted == generic
    else:
        unchecked = bool(per_case) and mutants == 0
    return Calibration(
        mutants_rejected=sum(each.mutants_rejected for each in per_case),
        mutants=mutants,
        alternatives_accepted=sum(each.alternatives_accepted for each in per_case),
        alternatives=sum(each.alternatives for each in per_case),
        first_misses=tuple(misses),
        unchecked=unchecked,
        generic_mutants=generic,
        generic_accepted=generic_accepted,
        generic=spec.generic_mutants,
        validator_errors=sum(each.validator_errors for each in per_case),
    )


def fitting_records(
    records: Iterable[AttemptRecord], specs: Mapping[str, ScaffoldSpec]
) -> list[AttemptRecord]:
    """The records whose input is one of their scaffold's (see
    :meth:`~verification.catalog.spec.ScaffoldSpec.input_problem`): a line whose input lost
    or gained a field (a hand edit) is that case's missing answer, named in a warning,
    rather than a hook's traceback here. A scaffold ``specs`` lacks keeps its records, and
    so does a case that could not be drawn (:attr:`~AttemptRecord.undrawn`): its error is the
    plugin's, and it counts as an infrastructure error."""
    kept = []
    problems: dict[tuple[str, tuple[str, ...]], str | None] = {}
    for record in records:
        # A code-mode program's input is its suite's, not a case's; an undrawn case has none.
        if record.is_program or record.undrawn:
            kept.append(record)
            continue
        key = (record.scaffold, tuple(sorted(record.input)))
        if key not in problems:
            spec = specs.get(record.scaffold)
            problems[key] = None if spec is None else spec.input_problem(record.input)
        if problems[key] is None:
            kept.append(record)
        else:
            logger.warning(
                "%s: the input of case %s is none of %s (%s): read as that case's missing answer",
                record.line,
                printable(record.case_id, 120),
                record.scaffold,
                printable(problems[key] or "", 200),
            )
    return kept
