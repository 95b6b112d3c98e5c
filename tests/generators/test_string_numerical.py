"""The KMP and Newton-Raphson generators: deterministic, JSON-only, true to each tier."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from verification.catalog.numerical.newton_raphson import (
    EDGE_KINDS_NEWTON_RAPHSON,
    MAX_ITERATIONS,
    TOLERANCE,
    generate_newton_raphson,
    is_unambiguous,
)
from verification.catalog.numerical.newton_raphson import SPEC as NEWTON_SPEC
from verification.catalog.string.kmp import EDGE_KINDS_KMP, generate_kmp
from verification.catalog.string.kmp import SPEC as KMP_SPEC
from verification.generators.base import TIERS, Tier, generate_case, to_json_data
from verification.reference.numerical import newton_raphson, newton_trace
from verification.reference.string_algo import failure_function, kmp_search

Generator = Callable[[random.Random, Tier, int], dict[str, Any]]
KMP_SIZES = KMP_SPEC.sizes
NEWTON_SIZES = NEWTON_SPEC.sizes
SEEDS = range(150)
GENERATORS: list[tuple[Generator, Any]] = [
    (generate_kmp, KMP_SIZES),
    (generate_newton_raphson, NEWTON_SIZES),
]


def kmp_cases(tier: Tier) -> list[dict[str, Any]]:
    return [generate_kmp(random.Random(f"gen:{tier}:{s}"), tier, KMP_SIZES[tier]) for s in SEEDS]


def newton_cases(tier: Tier) -> list[dict[str, Any]]:
    return [
        generate_newton_raphson(random.Random(f"gen:{tier}:{s}"), tier, NEWTON_SIZES[tier])
        for s in SEEDS
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("generator", "sizes"), GENERATORS)
@pytest.mark.parametrize("tier", TIERS)
def test_deterministic_and_json_only(generator: Generator, sizes: Any, tier: Tier) -> None:
    for seed in range(40):
        first = generator(random.Random(seed), tier, sizes[tier])
        assert first == generator(random.Random(seed), tier, sizes[tier])
        assert to_json_data(first) == first
    draws = {repr(generator(random.Random(seed), tier, sizes[tier])) for seed in range(40)}
    assert len(draws) > 5


@pytest.mark.parametrize(("generator", "sizes"), GENERATORS)
def test_bad_tier_or_size_is_a_value_error(generator: Generator, sizes: Any) -> None:
    with pytest.raises(ValueError, match="unknown tier"):
        generator(random.Random(0), "hard", sizes["simple"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least"):
        generator(random.Random(0), "simple", 1)


@pytest.mark.parametrize("spec", [KMP_SPEC, NEWTON_SPEC], ids=lambda s: s.name)
@pytest.mark.parametrize("tier", TIERS)
def test_cases_build_through_the_spec(spec: Any, tier: Tier) -> None:
    for index in range(10):
        case = generate_case(spec, tier, index, seed=7)
        assert case.expected == spec.reference(**case.input)
        spec.answer_schema.model_validate(case.expected)


def kmp_edge_kind(case: dict[str, Any]) -> str | None:
    text, pattern = case["text"], case["pattern"]
    if len(pattern) > len(text):
        return "longer_than_text"
    if pattern == text:
        return "equal_to_text"
    if len(set(text)) == 1:
        return "repeated"
    if len(pattern) == 1:
        return "single_char"
    if not kmp_search(**case)["positions"]:
        return "absent"
    return None


def test_kmp_simple_is_small_clean_and_matches() -> None:
    for case in kmp_cases("simple"):
        assert set(case) == {"text", "pattern"}
        assert len(case["text"]) == KMP_SIZES["simple"]
        assert set(case["text"]) == {"A", "B"}
        assert 2 <= len(case["pattern"]) <= 3
        assert kmp_search(**case)["positions"]
        assert kmp_edge_kind(case) is None


def test_kmp_standard_has_overlapping_matches_and_a_bordered_pattern() -> None:
    for case in kmp_cases("standard"):
        text, pattern = case["text"], case["pattern"]
        assert 20 <= len(text) <= 30
        assert set(text) <= set("ABC")
        assert failure_function(pattern)[-1] > 0
        positions = kmp_search(**case)["positions"]
        assert 2 <= len(positions) <= 5
        assert any(b - a < len(pattern) for a, b in itertools.pairwise(positions))
        assert kmp_edge_kind(case) is None


def test_kmp_edge_is_degenerate_and_covers_every_kind() -> None:
    kinds = Counter(kmp_edge_kind(case) for case in kmp_cases("edge"))
    assert None not in kinds
    assert set(kinds) == set(EDGE_KINDS_KMP)
    for case in kmp_cases("edge"):
        assert case["pattern"]


def newton_edge_kind(case: dict[str, Any]) -> str | None:
    coefficients = np.asarray(case["coefficients"], dtype=float)
    x0 = case["x0"]
    if np.polyval(np.polyder(coefficients), x0) == 0:
        return "zero_derivative"
    if np.polyval(coefficients, x0) == 0:
        return "start_at_root"
    if all(abs(r.imag) > 1e-9 for r in np.roots(coefficients)):
        return "no_real_root"
    return None


@pytest.mark.slow
@pytest.mark.parametrize("tier", ["simple", "standard"])
def test_newton_converges_unambiguously_outside_the_edge_tier(tier: Tier) -> None:
    degrees: Counter[int] = Counter()
    for case in newton_cases(tier):
        assert set(case) == {"coefficients", "x0", "tolerance", "max_iterations"}
        assert case["tolerance"] == TOLERANCE == 1e-6
        assert case["max_iterations"] == MAX_ITERATIONS
        coefficients = case["coefficients"]
        assert all(type(c) is int for c in coefficients) and coefficients[0] != 0
        degrees[len(coefficients) - 1] += 1
        x0 = case["x0"]
        assert round(x0 * 10) == x0 * 10 if tier == "standard" else x0 == int(x0)
        result = newton_raphson(**case)
        assert result["converged"] and 3 <= result["iterations"] <= 8
        steps = newton_trace(**case)
        assert is_unambiguous(steps, TOLERANCE)
        assert all(abs(s.dfx) >= 0.5 for s in steps)
        assert all(not 1e-8 <= abs(s.x_new - s.x) <= 1e-4 for s in steps if s.x_new is not None)
        assert newton_edge_kind(case) is None
    assert set(degrees) == ({2} if tier == "simple" else {2, 3})


def test_newton_edge_is_degenerate_and_covers_every_kind() -> None:
    kinds: Counter[str | None] = Counter()
    for case in newton_cases("edge"):
        kind = newton_edge_kind(case)
        kinds[kind] += 1
        result = newton_raphson(**case)
        if kind == "zero_derivative":
            assert result == {"root": None, "iterations": 0, "converged": False}
        elif kind == "start_at_root":
            assert result == {"root": case["x0"], "iterations": 1, "converged": True}
        elif kind == "no_real_root":
            assert 4 <= case["max_iterations"] <= 6
            assert result["iterations"] == case["max_iterations"]
            assert is_unambiguous(newton_trace(**case), TOLERANCE)
    assert None not in kinds
    assert set(kinds) == set(EDGE_KINDS_NEWTON_RAPHSON)
