"""The checks ``check`` runs on a scaffold's drawn cases (:data:`CASES_PER_TIER` seeded cases
of every tier): each fits the answer schema, passes the validator and parses back as the
dry run renders it; the reference leaves its input as it was and the generator draws from
its rng; the calibration hooks give mutants the validator rejects and alternatives it
accepts; a fractional answer has its tolerance stated. Each returns what it passed with,
raises :class:`~verification.errors.VerificationError` naming the first case that fails,
or ``_Warned`` for what passes but the author should read.
:mod:`verification.certify.checks` runs them beside the file's and the sizes' checks."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import ValidationError

from verification.cases import TIERS, TestCase, to_json_data
from verification.catalog.drawing import draw_case
from verification.catalog.plugins import misfit
from verification.catalog.spec import ScaffoldSpec
from verification.certify.sequential import FIRST_LOOK
from verification.errors import PluginError, VerificationError
from verification.llm.response_parser import ResponseParser

__all__ = [
    "CALIBRATION_SEED",
    "CASES_PER_TIER",
    "MUTANT_COVERAGE",
    "REFERENCE_CASES",
    "calibration_cases",
    "check_alternatives",
    "check_mutants",
    "check_reference",
    "check_tiers",
    "check_tolerances",
    "first_of_each_tier",
    "fits_schema",
    "json_key",
]

CASES_PER_TIER = 50
"""Seeded cases per tier the calibration check draws."""
MUTANT_COVERAGE = 0.9
"""The share of cases for which ``mutants`` must give at least one wrong answer."""
CALIBRATION_SEED = 11


def fits_schema(spec: ScaffoldSpec, answer: Any) -> str | None:
    """Why ``answer`` does not fit ``spec``'s answer schema (as the parser checks it), or
    None when it fits."""
    try:
        spec.answer_schema.model_validate_json(json.dumps(answer, allow_nan=False), strict=True)
    except ValidationError as exc:  # where and how, not pydantic's first line (hunt ff)
        return misfit(exc)
    except (ValueError, TypeError) as exc:
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return None


def calibration_cases(
    spec: ScaffoldSpec, count: int = CASES_PER_TIER, seed: int = CALIBRATION_SEED
) -> Iterator[TestCase]:
    """``count`` seeded cases of every tier."""
    for tier in TIERS:
        for index in range(count):
            yield draw_case(spec, tier, index, seed=seed)


def json_key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, allow_nan=False)


def _shown(value: Any) -> str:
    """``value`` in a message, cut: its JSON, or its repr where it has none (a NaN)."""
    try:
        return json_key(value)[:200]
    except (TypeError, ValueError, RecursionError):
        return repr(value)[:200]


def check_tiers(spec: ScaffoldSpec, cases: list[TestCase]) -> str:
    parser = ResponseParser()
    for case in cases:
        problem = fits_schema(spec, case.expected)
        if problem:
            raise VerificationError(f"{case.id}: the reference answer misfits: {problem}")
        json.dumps(case.input, allow_nan=False)
        # The input as every prompt writes it: a format_input returning no str passed
        # `check` and then failed every case of every run (hunt ff).
        written = spec.format_input(case.input)
        if not isinstance(written, str):
            raise VerificationError(
                f"{case.id}: format_input returned {type(written).__name__}, not the str a "
                "prompt holds"
            )
        verdict = spec.validator.validate(case.expected, case.expected, case=case)
        if not verdict.is_valid:
            raise VerificationError(f"{case.id}: the reference answer fails: {verdict.message}")
        parsed = parser.extract(spec, spec.render_answer(case.expected))
        said = f"{case.id}: the dry-run answer (render_answer of the reference's)"
        if not parsed.ok:
            raise VerificationError(
                f"{said} does not parse (level {parsed.failed_level}): {parsed.reason[:300]}"
            )
        if parsed.answer != case.expected:
            raise VerificationError(
                f"{said} parses to {json_key(parsed.answer)[:200]}, not to the reference's "
                f"{json_key(case.expected)[:200]}"
            )
        if parsed.leniency:
            raise VerificationError(
                f"{said} parses only with leniency ({', '.join(parsed.leniency)}): render it "
                "exactly as the Output Format asks"
            )
    return f"{len(cases)} cases: schema, prompt input, validator and dry-run answer hold"


REFERENCE_CASES = 10
"""Cases per tier on which ``check`` runs the reference again, and the oracle."""


def first_of_each_tier(cases: list[TestCase]) -> list[TestCase]:
    taken: dict[str, int] = {}
    chosen = []
    for case in cases:
        if taken.get(case.tier, 0) < REFERENCE_CASES:
            taken[case.tier] = taken.get(case.tier, 0) + 1
            chosen.append(case)
    return chosen


def check_reference(spec: ScaffoldSpec, cases: list[TestCase]) -> str:
    """The reference leaves what it is handed as it was (the harness hands it a copy; a
    test, an oracle or a program of code mode that calls it would see the change), and the
    generator uses the rng it is handed: a draw of one input per tier certifies nothing
    (each input counts once)."""
    for case in first_of_each_tier(cases):
        handed = to_json_data(case.input)
        spec.reference(**handed)
        if handed != case.input:
            changed = sorted(k for k in case.input if handed.get(k) != case.input[k])
            raise VerificationError(
                f"{case.id}: the reference changed its input ({', '.join(changed)[:200]}): it "
                "must leave what it is handed as it was (copy a list before sorting or editing "
                "it)"
            )
    inputs: dict[str, set[str]] = {}
    for case in cases:
        inputs.setdefault(case.tier, set()).add(json_key(case.input))
    # An edge tier may be one fixed input (no intervals at all); every tier one is no draw.
    if len(cases) > len(inputs) and all(len(seen) == 1 for seen in inputs.values()):
        raise VerificationError(
            f"each tier's {len(cases) // len(inputs)} cases drawn are one input: does the "
            "generator draw from the rng it is handed (random.Random(seed) inside it, or no "
            "random choice at all, draws one input; a status counts each input once)?"
        )
    distinct = len({key for seen in inputs.values() for key in seen})
    if distinct < FIRST_LOOK <= len(cases) // 2:  # a draw that could have shown more
        raise _Warned(
            f"{distinct} distinct inputs in {len(cases)} cases: a status counts each input "
            f"once, and fewer than {FIRST_LOOK} reach no look of the certification plan "
            "(the rate on those few decides, and claims far less)"
        )
    return f"leaves its input as it was; {distinct} distinct inputs in {len(cases)} cases"


def check_mutants(spec: ScaffoldSpec, cases: list[TestCase], *, package: bool = False) -> str:
    rng = random.Random(CALIBRATION_SEED)
    covered = total = 0
    accepted: list[str] = []  # generic mutants the validator accepts: for review
    # The answer fields some case gives a value to edit, and those a rejected mutant edited.
    editable: set[str] = set()
    checked: set[str] = set()
    for case in cases:
        mutants = list(spec.mutants(case, rng))
        covered += bool(mutants)
        editable |= {key for key, value in case.expected.items() if value not in (None, [], {})}
        for mutant in mutants:
            total += 1
            if json_key(mutant) == json_key(case.expected):
                raise VerificationError(f"{case.id}: a mutant equals the expected answer")
            problem = fits_schema(spec, mutant)
            if problem:
                raise VerificationError(
                    f"{case.id}: the mutant {_shown(mutant)} misfits the schema: {problem}"
                )
            try:
                verdict = spec.validator.validate(mutant, case.expected, case=case)
            except PluginError as exc:  # a plugin's validator: raised, or gave no verdict
                raise VerificationError(
                    f"{case.id}: on the mutant {_shown(mutant)}, {exc}: a wrong answer must "
                    "get ValidationResult(False, reason)"
                ) from exc
            except Exception as exc:  # the house's first rule, named
                raise VerificationError(
                    f"{case.id}: the validator raised {type(exc).__name__} "
                    f"({' '.join(str(exc).split())[:200]}) on "
                    f"the mutant {json_key(mutant)[:200]}: it must return "
                    "ValidationResult(False, reason) for a wrong answer, never raise"
                ) from exc
            if verdict.is_valid and spec.generic_mutants:
                accepted.append(f"{case.id}: {json_key(mutant)[:200]}")
            elif verdict.is_valid:
                raise VerificationError(
                    f"{case.id}: the validator accepts the mutant {json_key(mutant)[:200]}"
                )
            else:
                checked |= {key for key, value in case.expected.items() if mutant.get(key) != value}
    if covered < MUTANT_COVERAGE * len(cases):
        raise VerificationError(
            f"mutants for only {covered} of {len(cases)} cases (needs {MUTANT_COVERAGE:.0%})"
        )
    if accepted and len(accepted) == total:  # as a run's calibration judges it: unchecked
        raise VerificationError(
            f"the validator accepts every one of the {total} generic mutants, as one that accepts"
            " any answer does (a run: INCOMPLETE, validator unchecked); fix it or add mutants"
        )
    if unchecked := sorted(editable - checked):
        # A validator that never reads a field passes every mutant that edits only others.
        raise VerificationError(
            f"no rejected mutant edits the answer field(s) {', '.join(unchecked)}: nothing shows"
            " the validator checks them (if it does, add mutants that edit them; if nothing"
            " grades them, leave them out of the answer schema)"
        )
    if accepted:
        raise _GenericMutantsAccepted(
            f"the validator accepts {len(accepted)} of {total} generic mutants (made from the "
            "answer's shape, as the spec declares no mutants hook): review whether each is "
            "a right answer, or declare your own hook; the first: " + "; ".join(accepted[:5])
        )
    kind = "generic mutants" if spec.generic_mutants else "mutants"
    said = f"{total} {kind} over {covered}/{len(cases)} cases, every one rejected"
    if package and spec.generic_mutants:
        raise _Warned(
            f"{said}; a scaffold of the package declares its own mutants hook (the guide's "
            "step 2): generic mutants know only the answer's shape, not the algorithm's "
            "likely mistakes"
        )
    return said


class _Warned(Exception):
    """A warning, not a failure: the check's line passes, marked for the author to read.
    Private: the check machinery's own signal (``checks.check_scaffold`` catches it), no
    error of the tree."""


class _GenericMutantsAccepted(_Warned):
    """A generic "mutant" may be a right answer."""


def check_alternatives(spec: ScaffoldSpec, cases: list[TestCase]) -> str:
    rng = random.Random(CALIBRATION_SEED)
    total = 0
    for case in cases:
        for answer in spec.alternatives(case, rng):
            total += 1
            problem = fits_schema(spec, answer)
            if problem:
                raise VerificationError(
                    f"{case.id}: the alternative {_shown(answer)} misfits the schema: {problem}"
                )
            verdict = spec.validator.validate(answer, case.expected, case=case)
            if not verdict.is_valid:
                raise VerificationError(
                    f"{case.id}: the validator rejects the alternative "
                    f"{json_key(answer)[:200]}: {verdict.message}"
                )
    return f"{total} alternatives, every one accepted"


def _fractions_in(value: Any) -> bool:
    if isinstance(value, float):
        return not value.is_integer()
    if isinstance(value, Mapping):
        return any(_fractions_in(item) for item in value.values())
    if isinstance(value, list):
        return any(_fractions_in(item) for item in value)
    return False


def check_tolerances(spec: ScaffoldSpec, cases: list[TestCase]) -> str:
    stated = spec.tolerances
    if not stated:
        fractional = [case.id for case in cases if _fractions_in(case.expected)]
        if fractional:
            raise VerificationError(
                f"{fractional[0]}: the answer holds fractional numbers but the validator "
                "states no tolerance (give it `tolerances`, shown in every report)"
            )
        return "no fractional numbers in any answer; none needed"
    return "; ".join(f"{what}: {bound}" for what, bound in stated.items())
