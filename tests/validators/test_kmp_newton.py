"""The KMP and Newton-Raphson validators: accept right answers, reject every mutant, never
raise."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verification.catalog.numerical.newton_raphson import ROOT_TOLERANCE
from verification.catalog.numerical.newton_raphson import SPEC as NEWTON
from verification.catalog.string.kmp import SPEC as KMP
from verification.generators.base import TIERS, TestCase, generate_case
from verification.validators.base import Tolerance, ValidationResult

CASES_PER_TIER = 60


_DRAWN: dict[str, list[TestCase]] = {}


def cases(spec: Any) -> list[TestCase]:
    """Drawn when a test first asks, not at import: every xdist worker imports every
    module, and only the one that runs these tests needs them."""
    if spec.name not in _DRAWN:
        _DRAWN[spec.name] = [
            generate_case(spec, tier, index, seed=11)
            for tier in TIERS
            for index in range(CASES_PER_TIER)
        ]
    return _DRAWN[spec.name]


def verdict(spec: Any, answer: Any, case: TestCase) -> ValidationResult:
    result = spec.validator.validate(answer, case.expected, case=case)
    assert isinstance(result, ValidationResult)
    return result


def test_kinds_and_tolerances() -> None:
    assert KMP.validator.kind == "exact"
    assert NEWTON.validator.kind == "composite"
    assert NEWTON.validator.tolerances == {"root": Tolerance(ROOT_TOLERANCE)}
    assert ROOT_TOLERANCE >= 0.5e-8, "no tighter than the 8-decimal rounding asked for"


@pytest.mark.parametrize("spec", [KMP, NEWTON], ids=lambda s: s.name)
def test_reference_answers_pass_schema_and_validator(spec: Any) -> None:
    for case in cases(spec):
        spec.answer_schema.model_validate(case.expected)
        assert verdict(spec, case.expected, case).is_valid
        assert spec.validator.validate(case.expected, case.expected).is_valid


def kmp_mutants(case: TestCase) -> list[list[int]]:
    text, pattern = case.input["text"], case.input["pattern"]
    positions: list[int] = case.expected["positions"]
    mutants = [
        [p + 1 for p in positions],
        [p - 1 for p in positions],
        [*positions, len(text)],
        # Non-overlapping matches: the commonest slip after a full match.
        [m.start() for m in re.finditer(re.escape(pattern), text)],
        [0] if positions != [0] else [],
        sorted({*positions, *(p + 1 for p in positions[:1])}),
    ]
    for index in range(len(positions)):
        mutants.append(positions[:index] + positions[index + 1 :])
        mutants.append(positions[: index + 1] + positions[index:])
    if len(positions) > 1:
        mutants.append(positions[::-1])
        mutants.append([positions[1], positions[0], *positions[2:]])
    if not positions:
        mutants.extend([[0], [len(text) - len(pattern) + 1 if len(text) >= len(pattern) else 1]])
    return [m for m in mutants if m != positions]


def test_kmp_rejects_every_mutant() -> None:
    checked = 0
    for case in cases(KMP):
        for mutant in kmp_mutants(case):
            assert not verdict(KMP, {"positions": mutant}, case).is_valid, (case.input, mutant)
            checked += 1
    assert checked > 5 * len(cases(KMP))


def newton_mutants(case: TestCase) -> list[dict[str, Any]]:
    expected = case.expected
    root, iterations, converged = expected["root"], expected["iterations"], expected["converged"]
    mutants = [
        {**expected, "iterations": iterations + 1},
        {**expected, "iterations": iterations - 1},
        {**expected, "converged": not converged},
    ]
    if converged:
        mutants += [
            {**expected, "root": root + 2 * ROOT_TOLERANCE},
            {**expected, "root": root - 2 * ROOT_TOLERANCE},
            {**expected, "root": root + 1e-7},
            {**expected, "root": root + 1.0},
            {**expected, "root": None},
            {**expected, "root": None, "converged": False},
            {**expected, "root": case.input["x0"] + 0.5},
        ]
    else:
        mutants += [
            {**expected, "root": case.input["x0"]},
            {**expected, "root": 0.0},
            {**expected, "root": 0},
            {**expected, "root": 1.0, "converged": True},
        ]
    return mutants


def test_newton_rejects_every_mutant() -> None:
    checked = 0
    for case in cases(NEWTON):
        for mutant in newton_mutants(case):
            assert not verdict(NEWTON, mutant, case).is_valid, (case.expected, mutant)
            checked += 1
    assert checked == sum(len(newton_mutants(c)) for c in cases(NEWTON)) > 0


def test_newton_accepts_every_rounding_the_output_format_allows() -> None:
    accepted = 0
    for case in cases(NEWTON):
        root = case.expected["root"]
        if root is None:
            continue
        near = 0.9 * ROOT_TOLERANCE
        for alternative in (round(root, 8), root + near, root - near):
            answer = {**case.expected, "root": alternative}
            NEWTON.answer_schema.model_validate(answer)
            assert verdict(NEWTON, answer, case).is_valid, (case.expected, alternative)
            accepted += 1
        if root == int(root):
            assert verdict(NEWTON, {**case.expected, "root": int(root)}, case).is_valid
        reordered = {"converged": True, "root": root, "iterations": case.expected["iterations"]}
        assert verdict(NEWTON, reordered, case).is_valid
    assert accepted > 0


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
answer_like = st.fixed_dictionaries(
    {},
    optional={
        "positions": json_values,
        "root": json_values,
        "iterations": json_values,
        "converged": json_values,
    },
)


@pytest.mark.slow
@given(junk=json_values | answer_like, index=st.integers(0, 3 * CASES_PER_TIER - 1))
def test_validators_never_raise_on_junk(junk: Any, index: int) -> None:
    assert not verdict(KMP, junk, cases(KMP)[index]).is_valid or junk == cases(KMP)[index].expected
    newton_case = cases(NEWTON)[index]
    result = verdict(NEWTON, junk, newton_case)
    if result.is_valid:
        assert junk["converged"] == newton_case.expected["converged"]


@given(
    positions=st.lists(st.integers(0, 40), max_size=8),
    index=st.integers(0, 3 * CASES_PER_TIER - 1),
)
def test_kmp_accepts_a_schema_valid_answer_only_when_exact(
    positions: list[int], index: int
) -> None:
    case = cases(KMP)[index]
    answer = KMP.answer_schema.model_validate({"positions": positions}).model_dump()
    assert verdict(KMP, answer, case).is_valid == (positions == case.expected["positions"])


@given(
    root=st.none() | st.floats(-1e6, 1e6),
    iterations=st.integers(0, 60),
    converged=st.booleans(),
    index=st.integers(0, 3 * CASES_PER_TIER - 1),
)
def test_newton_verdict_on_schema_valid_answers(
    root: float | None, iterations: int, converged: bool, index: int
) -> None:
    case = cases(NEWTON)[index]
    answer = {"root": root, "iterations": iterations, "converged": converged}
    NEWTON.answer_schema.model_validate(answer)
    expected = case.expected
    should_pass = (
        converged == expected["converged"]
        and iterations == expected["iterations"]
        and (
            root is None
            if expected["root"] is None
            else root is not None and abs(root - expected["root"]) <= ROOT_TOLERANCE
        )
    )
    assert verdict(NEWTON, answer, case).is_valid == should_pass
