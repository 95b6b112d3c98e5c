"""Fault injection shared by the property-validator tests: every mutant must be wrong (by an
independent oracle) and rejected (by the validator)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from verification.generators.base import TestCase
from verification.validators.base import Validator

MutantFactory = Callable[[TestCase, random.Random], Iterable[tuple[str, Any]]]
Oracle = Callable[[TestCase, Any], bool]
RejectsMutants = Callable[..., Counter[str]]


def _rejects_every_mutant(
    validator: Validator,
    cases: Sequence[TestCase],
    mutants: MutantFactory,
    oracle: Oracle,
    *,
    kinds: set[str],
    minimum: int = 10,
    seed: int = 1,
) -> Counter[str]:
    seen: Counter[str] = Counter()
    rng = random.Random(seed)
    for case in cases:
        for kind, mutant in mutants(case, rng):
            assert not oracle(case, mutant), ("not a wrong answer", kind, case.id, mutant)
            verdict = validator.validate(mutant, case.expected, case=case)
            assert not verdict.is_valid, (kind, case.id, mutant)
            seen[kind] += 1
    assert set(seen) == kinds
    assert min(seen.values()) >= minimum, seen
    return seen


@pytest.fixture
def rejects_every_mutant() -> RejectsMutants:
    """``rejects_every_mutant(validator, cases, mutants, oracle, kinds=...)``."""
    return _rejects_every_mutant
