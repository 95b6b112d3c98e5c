"""A run's calibration reads a lazy hook (:class:`verification.catalog.calibration.LazyHook`)
only as far as it judges: the first answers, made from the same draws as when the hook
lists them all. Each case of every scaffold is calibrated as before: the same counts and
misses as with every answer of each hook made (the slow path the lazy one stands for), and
a lazy hook's first answers are the first ones of its whole list; an ``alternatives`` hook
said to draw nothing (which lets the mutants before it be read in part) draws nothing, and a
hook said to draw first leaves the rng, once it made one answer, as it is after them all."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from verification.cases import DEFAULT_SEED, TIERS, TestCase, generate_case
from verification.catalog.calibration import LazyHook, distinct_answers, each_distinct
from verification.certify.calibration import _SEED, PER_CASE, calibrate_case
from verification.registry import SPECS

LAZY = sorted(
    name
    for name, spec in SPECS.items()
    if isinstance(spec.mutants, LazyHook) or isinstance(spec.alternatives, LazyHook)
)


def _cases(name: str, per_tier: int = 6) -> list[TestCase]:
    return [
        generate_case(SPECS[name], tier, index, seed=DEFAULT_SEED)
        for tier in TIERS
        for index in range(per_tier)
    ]


def test_the_costliest_hooks_are_lazy() -> None:
    assert {"floyd_warshall", "genetic_algorithm", "dfs", "bfs"} <= set(LAZY)


@pytest.mark.parametrize("name", LAZY)
def test_a_lazy_hooks_first_answers_begin_its_whole_list(name: str) -> None:
    spec = SPECS[name]
    for case in _cases(name):
        for hook in (spec.mutants, spec.alternatives):
            if not isinstance(hook, LazyHook):
                continue
            whole = hook(case, random.Random(f"{_SEED}:{case.id}"))
            for count in range(PER_CASE + 2):
                first = hook.first(case, random.Random(f"{_SEED}:{case.id}"), count)
                assert first == whole[:count], (case.id, hook.__name__, count)


@pytest.mark.parametrize("name", LAZY)
def test_calibration_through_lazy_hooks_is_the_whole_lists(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = SPECS[name]
    cases = _cases(name)
    lazy = [calibrate_case(spec, case) for case in cases]
    monkeypatch.setattr(LazyHook, "first", lambda self, case, rng, count: self(case, rng)[:count])
    assert lazy == [calibrate_case(spec, case) for case in cases]


DRAWING_NOTHING = sorted(
    name
    for name, spec in SPECS.items()
    if isinstance(spec.alternatives, LazyHook) and not spec.alternatives.draws
)


def test_some_alternatives_draw_nothing() -> None:
    assert {"astar", "bisection", "knapsack_01", "monte_carlo", "newton_raphson"} <= set(
        DRAWING_NOTHING
    )


@pytest.mark.parametrize("name", DRAWING_NOTHING)
def test_an_alternatives_hook_said_to_draw_nothing_draws_nothing(name: str) -> None:
    spec = SPECS[name]
    for case in _cases(name, per_tier=10):
        rng = random.Random(f"{_SEED}:{case.id}")
        before = rng.getstate()
        spec.alternatives(case, rng)
        assert rng.getstate() == before, case.id


DRAWING_FIRST = sorted(
    name
    for name, spec in SPECS.items()
    for hook in (spec.mutants, spec.alternatives)
    if isinstance(hook, LazyHook) and hook.draws_first
)


def test_some_hooks_draw_first() -> None:
    assert {"fractional_knapsack", "matrix_chain", "n_queens", "kruskal", "huffman"} <= set(
        DRAWING_FIRST
    )


@pytest.mark.parametrize("name", DRAWING_FIRST)
def test_a_hook_said_to_draw_first_has_drawn_all_once_it_made_one_answer(name: str) -> None:
    spec = SPECS[name]
    for case in _cases(name, per_tier=10):
        for hook in (spec.mutants, spec.alternatives):
            if not (isinstance(hook, LazyHook) and hook.draws_first):
                continue
            whole = random.Random(f"{_SEED}:{case.id}")
            hook(case, whole)
            for count in range(1, PER_CASE + 2):
                part = random.Random(f"{_SEED}:{case.id}")
                hook.first(case, part, count)
                assert part.getstate() == whole.getstate(), (case.id, count)


def test_each_distinct_is_distinct_answers_one_at_a_time() -> None:
    answers = [{"a": 1}, {"a": 1.0}, {"a": 1}, {"b": [1, 2]}, {"b": [1, 2]}, {"a": True}]
    for unlike in ([], [{"a": 1}], [{"b": [1, 2]}, {"a": True}]):
        assert list(each_distinct(answers, unlike=unlike)) == distinct_answers(
            answers, unlike=unlike
        )


def test_a_lazy_hook_reads_its_generator_only_as_far_as_asked() -> None:
    made: list[int] = []

    def numbers(case: TestCase, rng: random.Random) -> Iterator[dict[str, Any]]:
        for value in range(10):
            made.append(value)
            yield {"value": value}

    hook = LazyHook(numbers)
    case = _cases("dfs", 1)[0]
    assert hook.first(case, random.Random(0), 2) == [{"value": 0}, {"value": 1}]
    assert made == [0, 1]
    assert hook(case, random.Random(0)) == [{"value": v} for v in range(10)]
    assert hook.__name__ == "numbers"
