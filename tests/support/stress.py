"""Cases of a scaffold's stress range (issue 25 item 1), for the property tests of
``tests/catalog/test_<name>.py`` that hold the reference to its oracle there."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from tests.support.draws import shared_draw
from verification.cases import DEFAULT_SEED, TestCase, Tier
from verification.catalog import default_catalog
from verification.catalog.spec import STRESS_TIERS

__all__ = [
    "STRESS_CASES_PER_SIZE",
    "assert_holds_at_stress",
    "in_label_order",
    "stress_case",
    "stress_cells",
]

STRESS_CASES_PER_SIZE = 2
"""Cases drawn at each end and the middle of the stress range, per stress tier."""


def in_label_order(labels: Iterable[str]) -> list[str]:
    """``labels`` in the scaffolds' ascending label order, as the oracles state it apart from
    the references: a shorter label first, then alphabetically (``Z`` before ``AA``)."""
    return sorted(labels, key=lambda label: (len(label), label))


def stress_cells(name: str) -> list[tuple[Tier, int, int]]:
    """``(tier, size, index)`` of the cases drawn across ``name``'s stress range: both ends
    and the middle, in each stress tier. A scaffold without a stress range fails here."""
    stress = default_catalog()[name].size.stress
    assert stress is not None, f"{name} declares no stress range"
    low, high = stress
    return [
        (tier, size, index)
        for tier in STRESS_TIERS
        for size in sorted({low, (low + high) // 2, high})
        for index in range(STRESS_CASES_PER_SIZE)
    ]


def stress_case(name: str, tier: Tier, size: int, index: int) -> TestCase:
    """Case ``index`` of ``tier`` at the stress ``size``, drawn and answered by the reference
    (once per process: :func:`~tests.support.draws.shared_draw`; the budgets' measures draw
    the same cases)."""
    return shared_draw(default_catalog()[name], tier, index, seed=DEFAULT_SEED, size=size)


def assert_holds_at_stress(
    name: str,
    oracle: Callable[[dict[str, Any], dict[str, Any]], bool],
    tier: Tier,
    size: int,
    index: int,
) -> None:
    """Case ``index`` of ``tier`` at the stress ``size`` measures that size, its reference
    answer and every alternative are what ``oracle`` accepts and the validator passes, and
    the validator rejects every mutant of it."""
    spec = default_catalog()[name]
    case = stress_case(name, tier, size, index)
    assert spec.size.measure(case.input) == size, case.id
    assert oracle(case.input, case.expected), (case.id, case.input)
    assert spec.validator.validate(case.expected, case.expected, case=case).is_valid, case.id
    for right in spec.alternatives(case, random.Random(index)):
        assert oracle(case.input, dict(right)), (case.id, right)
        assert spec.validator.validate(right, case.expected, case=case).is_valid, right
    for wrong in spec.mutants(case, random.Random(index)):
        assert not spec.validator.validate(wrong, case.expected, case=case).is_valid, wrong
