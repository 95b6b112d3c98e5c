"""random_word draws its letters many at a time: the same letters, and the same generator
state after them, as one ``rng.choice`` per letter (which suites' digests depend on: a
string scaffold's case must not change, tests/catalog/test_draw_digests.py)."""

from __future__ import annotations

import random
import string

import pytest

from verification.cases import CaseRandom
from verification.generators.string_algo import random_word


def _one_by_one(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


class _Subclass(random.Random):
    """A generator of another class: drawn one letter at a time, as it would be."""


LETTERS = string.ascii_letters + string.digits + string.punctuation


@pytest.mark.parametrize("make", [random.Random, CaseRandom, _Subclass])
def test_random_word_is_one_choice_per_letter(make: type[random.Random]) -> None:
    lengths = (0, 1, 2, 3, 7, 31, 32, 33, 100, 1000)
    for seed in range(400):
        pick = random.Random(f"word:{seed}")
        alphabet = "".join(pick.sample(LETTERS, pick.randint(1, len(LETTERS))))
        if seed % 3 == 0:
            alphabet = ("A", "AB", "ABC", "ACGT")[seed % 4]
        length = lengths[seed % len(lengths)]
        mine, theirs = make(seed), make(seed)
        assert random_word(mine, alphabet, length) == _one_by_one(theirs, alphabet, length)
        assert mine.getstate() == theirs.getstate()


def test_an_alphabet_past_ascii_is_drawn_one_letter_at_a_time() -> None:
    mine, theirs = random.Random(3), random.Random(3)
    assert random_word(mine, "αβγ", 50) == _one_by_one(theirs, "αβγ", 50)
    assert mine.getstate() == theirs.getstate()
