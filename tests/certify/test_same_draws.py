"""``check`` draws its cases twice in one process: a generator or reference that keeps state
between calls fails, naming the first case that differs (a helper's hunt: a generator
seeded from a module-level counter passed, since the hash-seed check's two fresh
interpreters each start the count from zero). Every registered scaffold passes it in
``tests/catalog/test_scaffold_contract.py``."""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest

from tests.support.checked import checked
from verification.cases import TIERS, Tier, case_id
from verification.catalog import default_catalog
from verification.certify.checks import CALIBRATION_SEED, calibration_cases
from verification.certify.hash_seed import redrawn_verdict
from verification.errors import VerificationError

BASE = default_catalog()["merge_sort"]
"""A cheap spec to make broken variants of (its name keeps its Markdown file found)."""


def _counting_generator() -> Any:
    calls = itertools.count()

    def generate(rng: random.Random, tier: Tier, size: int) -> dict[str, Any]:
        return BASE.generator(random.Random(next(calls)), tier, size)

    return generate


def test_check_fails_a_generator_that_counts_its_calls() -> None:
    spec = dataclasses.replace(BASE, generator=_counting_generator())
    results = checked(spec, cases_per_tier=3).values()
    failed = {r.check: r.detail for r in results if not r.ok}
    assert list(failed) == ["same draws"], failed
    first = case_id(BASE.name, TIERS[0], 0, None)
    assert f"{first} differs when drawn again" in failed["same draws"]
    assert "its input" in failed["same draws"]


def test_the_first_case_that_differs_is_named_with_the_part_that_differs() -> None:
    later = TIERS[1]
    assert list(BASE.sizes.values()).count(BASE.sizes[later]) == 1  # its cases alone
    calls = itertools.count()

    def reference(**test_input: Any) -> dict[str, Any]:
        answer = BASE.reference(**test_input)
        if len(test_input["array"]) != BASE.sizes[later]:
            return answer
        return {**answer, "inversions": answer["inversions"] + next(calls)}

    spec = dataclasses.replace(BASE, reference=reference)
    cases = list(calibration_cases(spec, 2))
    with pytest.raises(VerificationError) as raised:
        redrawn_verdict(spec, cases, seed=CALIBRATION_SEED)
    assert str(raised.value).startswith(f"{case_id(BASE.name, later, 0, None)} differs")
    assert "its expected answer" in str(raised.value)


def test_a_deterministic_spec_passes() -> None:
    cases = list(calibration_cases(BASE, 2))
    assert redrawn_verdict(BASE, cases, seed=CALIBRATION_SEED).startswith(f"{len(cases)} cases")
