"""A run's calibration keys each mutant once: a hook made by ``each_distinct`` hands on the
key it gave each answer and the case's expected answer (:class:`KeyedAnswers`), and the
calibration's filter of mutants equal to the expected answer reads those keys instead of
writing each answer again. The keys handed on are the answers' keys as they stand when the
calibration reads them, for every case of every tier of every scaffold, and the calibration
is the one that keys every answer again (the slow path the keys stand for)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from tests.support.calibrations import LAZY, first_cases
from verification.cases import DEFAULT_SEED, TestCase, generate_case
from verification.catalog.calibration import KeyedAnswers, LazyHook, answer_key, each_distinct
from verification.certify import calibration
from verification.certify.calibration import _SEED, PER_CASE, calibrate_case
from verification.registry import SPECS
from verification.validators.exact_match import ExactMatchValidator


def _cases(name: str, per_tier: int = 3) -> list[TestCase]:
    return first_cases(name, per_tier)


@pytest.mark.parametrize("name", LAZY)
def test_the_keys_handed_on_are_the_answers_keys_when_read(name: str) -> None:
    spec = SPECS[name]
    for case in _cases(name):
        for hook in (spec.mutants, spec.alternatives):
            if not isinstance(hook, LazyHook):
                continue
            for count in range(PER_CASE + 2):
                first = hook.first(case, random.Random(f"{_SEED}:{case.id}"), count)
                if not isinstance(first, KeyedAnswers):
                    continue
                for answer in first:
                    assert first.key_of(answer) == answer_key(answer), (case.id, count)
                if first:  # each_distinct was read: it keyed ``unlike`` too
                    assert first.key_of(case.expected) == answer_key(case.expected), case.id


def test_most_scaffolds_hand_on_their_mutants_keys() -> None:
    keyed = set()
    for name in LAZY:
        spec = SPECS[name]
        case = generate_case(spec, "standard", 0, seed=DEFAULT_SEED)
        if isinstance(spec.mutants, LazyHook) and isinstance(
            spec.mutants.first(case, random.Random(f"{_SEED}:{case.id}"), PER_CASE),
            KeyedAnswers,
        ):
            keyed.add(name)
    assert {"floyd_warshall", "genetic_algorithm", "kmp", "sudoku", "trie"} <= keyed
    assert len(keyed) >= 20


@pytest.mark.parametrize("name", LAZY)
def test_calibration_with_the_keys_handed_on_is_calibration_keying_again(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = SPECS[name]
    cases = _cases(name)
    keyed = [calibrate_case(spec, case) for case in cases]
    monkeypatch.setattr(calibration, "_known_key", lambda made, answer: None)
    assert keyed == [calibrate_case(spec, case) for case in cases]


def test_a_value_neither_given_nor_unlike_has_no_key_handed_on() -> None:
    expected: dict[str, Any] = {"x": 1}
    answers = [{"x": 1}, {"x": 2}, {"x": 2}, {"x": 3}]
    hook = LazyHook(lambda case, rng: each_distinct(answers, unlike=[expected]))
    made = hook.first(generate_case(SPECS["kmp"], "simple", 0, seed=1), random.Random(0), 5)
    assert made == [{"x": 2}, {"x": 3}]
    assert isinstance(made, KeyedAnswers)
    first: KeyedAnswers = made
    assert [first.key_of(answer) for answer in first] == ['{"x": 2}', '{"x": 3}']
    assert first.key_of(expected) == '{"x": 1}'
    assert first.key_of({"x": 2}) is None  # equal, but not the answer given
    assert first.key_of(answers[2]) is None  # the repeat left out


def test_each_distinct_begins_nothing_before_it_is_read() -> None:
    read: list[int] = []

    def answers() -> Any:
        for value in range(3):
            read.append(value)
            yield {"v": value}

    class Unkeyable:
        pass

    made = each_distinct(answers(), unlike=[{"bad": Unkeyable()}])
    assert read == []  # neither the answers begun nor ``unlike`` keyed
    with pytest.raises(TypeError):
        next(made)
    assert read == []


def _bumped(case: Any, rng: random.Random) -> Any:
    """A hook's answers from one dict changed, given, and put back each time: after the
    last, it is the expected answer again."""
    answer = dict(case.expected)
    for key in ("cost", "count"):
        answer[key] += 1
        yield answer
        answer[key] -= 1


def _given_again(case: Any, rng: random.Random) -> Any:
    """A hook that gives the case's own expected answer, changed (and leaves it so)."""
    case.expected["cost"] += 1
    yield case.expected


@pytest.mark.parametrize("make", [_bumped, _given_again])
def test_a_hook_that_gives_one_object_twice_is_keyed_again(
    make: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keys each_distinct took as it gave the answers are stale once the hook has
    changed an answer given: the calibration keys them again, as ``check``'s does."""
    hook = LazyHook(lambda case, rng: each_distinct(make(case, rng), unlike=[case.expected]))
    spec = SimpleNamespace(
        name="demo",
        generic_mutants=False,
        mutants=hook,
        alternatives=calibration.no_alternatives,
        validator=ExactMatchValidator(),
    )

    def calibrated() -> Any:
        case = SimpleNamespace(id="demo-simple-000", expected={"cost": 5, "count": 2}, input={})
        return calibrate_case(spec, case)  # type: ignore[arg-type]

    keyed = calibrated()
    monkeypatch.setattr(calibration, "_known_key", lambda made, answer: None)
    assert keyed == calibrated()
    assert not keyed.misses
