"""A run's calibration reads a lazy hook (:class:`verification.catalog.calibration.LazyHook`)
only as far as it judges: the first answers, made from the same draws as when the hook
lists them all. Each case of every scaffold is calibrated as before: the same counts and
misses as with every answer of each hook made (the slow path the lazy one stands for), and
a lazy hook's first answers are the first ones of its whole list; an ``alternatives`` hook
said to draw nothing (which lets the mutants before it be read in part) draws nothing, and a
hook said to draw first leaves the rng, once it made one answer, as it is after them all."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.calibrations import LAZY, first_cases
from verification.cases import TestCase
from verification.catalog.calibration import LazyHook, distinct_answers, each_distinct
from verification.certify.calibration import _SEED, PER_CASE, calibrate_case
from verification.certify.checks import CALIBRATION_SEED
from verification.registry import SPECS


def _cases(name: str, per_tier: int = 6) -> list[TestCase]:
    # These tests read the first cases of each tier again and again, and the digest test
    # below all thirty: each is drawn once per process.
    return first_cases(name, per_tier)


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


# ``check`` calibrates a scaffold's cases through one rng (CALIBRATION_SEED), so a hook that
# stops drawing early changes every later case's alternatives: a digest of what each
# scaffold's alternatives hook makes for 30 cases of each tier through one rng, and of the
# rng's next draw after them, pinned to the digest made before any hook was lazy (551d18c).
# A scaffold added since has no "before": the tests above hold its lazy hooks to their lists.
CHECKED_BEFORE = {
    "activity_selection": "4a54ae7c556d15c6628af43d1ebcdd925c7037d37d2fd7cca3e3130bc4be6ed3",
    "astar": "94a6526ef32682a971cd774b28742e5a812f3b9acc5d30d4697ef264ae8ad1d7",
    "bellman_ford": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "bfs": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "binary_search": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "bisection": "9cdb4283d81dbce9a2dbee31ecfe3ebe1480518cf4798bbcab0bda613a7a1694",
    "dfs": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "dijkstra": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "edit_distance": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "floyd_warshall": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "fractional_knapsack": "2daf7cb212f928b96bd08af74f38c8aa279bad8286ed7e10b54f4eca019a45dd",
    "genetic_algorithm": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "gradient_descent": "4e903460bef8b15cc22104545cbd88e20c2e0eed7222c502d82fda5b0fbc0308",
    "graph_coloring": "4278b2eaab59f510169e931585a75d93b04e02fc7d367668b97c3ff41c5d6d2e",
    "hill_climbing": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "huffman": "9b84f0c27ed543d7b3b4e6cb30f50471569cd2a3aec57debab21ba37033c63ee",
    "kmp": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "knapsack_01": "34609084f9ad44ad105717000dcb4420ee15910d57d5778c8a17c011a38e097f",
    "kruskal": "11218d39ba25a624a7a2cde5080540ffbc634384ff5bb2a7b3125614f9f238b8",
    "lcs": "171f9fd956b4535d9ff8a0776feb22c5a5be8099733519c928e25bff080644a3",
    "lis": "ee28a1b30dcc55fcdd60c69b6200ea2d4869da5e9ea003b444bee0ca514990c8",
    "matrix_chain": "88a16ab401ea4989b2557dfc3cdb4a0efe6437fb696971d4e9139b826a85118f",
    "merge_sort": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "monte_carlo": "27444a52b84a79814d97845e4da1f5b82f1dd880cb2f1dc37f3f5bdca1cbcf45",
    "n_queens": "57253df2588b4b6cfe357ba3ef88c1f61b0720cd55122d7dd669a1e7de142216",
    "newton_raphson": "1b209b7d1213df232881419089e0b95b11c48508b4810ea8e072fce2d32e4c05",
    "quickselect": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "rabin_karp": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "simulated_annealing": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "subset_sum": "c39bfdab975f0f0378ae918d1e94a16a25cd5eaa900eb6f8630f0d873647594b",
    "sudoku": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
    "topological_sort": "7818e358fa7e85b8fc91aab62552232d1f42a3fadb88c960f14751d5961765c7",
    "trie": "bcf7f9a30fa70809191833e91e340809b2ff0678c39d8b0907f8c49d23cee05f",
}


@pytest.mark.parametrize("name", sorted(CHECKED_BEFORE))
def test_check_s_one_rng_draws_the_alternatives_it_drew_before(name: str) -> None:
    spec = SPECS[name]
    rng = random.Random(CALIBRATION_SEED)
    made: list[Any] = [spec.alternatives(case, rng) for case in _cases(name, per_tier=30)]
    made.append(rng.random())
    digest = hashlib.sha256(json.dumps(made, sort_keys=True).encode()).hexdigest()
    assert digest == CHECKED_BEFORE[name]
