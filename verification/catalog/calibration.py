"""Shared building blocks of the calibration hooks (``ScaffoldSpec.mutants`` and
``ScaffoldSpec.alternatives``).

A mutant is a wrong answer made from a right one: an off-by-one value, swapped, dropped or
duplicated elements, a wrong tie-break. These helpers make the common mutations of lists and
mappings; each scaffold's module combines them with the mistakes peculiar to its algorithm
and keeps only answers that fit its schema.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from verification.store.json_text import JsonText

if TYPE_CHECKING:
    from verification.cases import TestCase

__all__ = [
    "KeyedAnswers",
    "LazyHook",
    "answer_key",
    "descending_ranks",
    "distinct_answers",
    "drawing_first",
    "drawing_nothing",
    "dropped_items",
    "duplicated_items",
    "each_distinct",
    "nudged_values",
    "sample_answers",
    "swapped_items",
]

T = TypeVar("T")


def swapped_items(items: Sequence[T], rng: random.Random, count: int = 3) -> Iterator[list[T]]:
    """Up to ``count`` copies of ``items`` with two unequal elements swapped."""
    pairs = [(i, j) for i in range(len(items)) for j in range(i + 1, len(items))]
    rng.shuffle(pairs)
    made = 0
    for i, j in pairs:
        if made == count:
            break
        if items[i] != items[j]:
            swapped = list(items)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            made += 1
            yield swapped


def dropped_items(items: Sequence[T], rng: random.Random, count: int = 2) -> Iterator[list[T]]:
    """Up to ``count`` copies of ``items`` with one element left out."""
    for index in rng.sample(range(len(items)), min(count, len(items))):
        yield [*items[:index], *items[index + 1 :]]


def duplicated_items(items: Sequence[T], rng: random.Random, count: int = 1) -> Iterator[list[T]]:
    """Up to ``count`` copies of ``items`` with one element written twice."""
    for index in rng.sample(range(len(items)), min(count, len(items))):
        yield [*items[: index + 1], *items[index:]]


def nudged_values(
    mapping: Mapping[str, Any],
    rng: random.Random,
    *,
    count: int = 3,
    least: int | None = 0,
) -> Iterator[dict[str, Any]]:
    """Up to ``count`` copies of ``mapping`` with one integer value one off (never below
    ``least``), or one ``None`` made a number."""
    keys = list(mapping)
    rng.shuffle(keys)
    for key in keys[:count]:
        value = mapping[key]
        if value is None:
            yield {**mapping, key: rng.randint(0, 9)}
        elif isinstance(value, int) and not isinstance(value, bool):
            wrong = value + rng.choice((-1, 1))
            if least is not None and wrong < least:
                wrong = value + 1
            yield {**mapping, key: wrong}


# One encoder made once: json.dumps(answer, sort_keys=True, allow_nan=False) builds a new
# JSONEncoder and C encoder per call, most of the cost of keying a small answer. Without
# the circular-reference markers (hooks make JSON data, never a cycle) the text is the
# same, and so are the errors (NaN, a key that does not sort, a value JSON lacks).
_KEY_TEXT = JsonText(sort_keys=True, allow_nan=False, check_circular=False)


def answer_key(answer: Any) -> str:
    """``json.dumps(answer, sort_keys=True, allow_nan=False)``, written by one encoder made
    once, failing as it fails (except on a cycle, which it does not look for: a
    :class:`RecursionError` where ``json.dumps`` raises :class:`ValueError`)."""
    return _KEY_TEXT(answer)


def descending_ranks(keys: Sequence[Any]) -> list[int]:
    """Each key's place among the distinct keys, the largest first (0): a sort by it is a
    sort by the keys, largest first, ties alike, comparing each pair of keys once (keys
    such as fractions compare slowly, and a hook may sort by them several times).

    Examples
    --------
    >>> descending_ranks([2, 5, 2, 1])
    [1, 0, 1, 2]
    """
    distinct = set(keys)
    ordered = None
    if all(type(key) is Fraction for key in distinct):
        try:  # a double orders fractions as they are but may tie two: the fraction decides
            ordered = sorted(distinct, key=lambda key: (float(key), key), reverse=True)
        except OverflowError:  # a fraction past the doubles
            ordered = None
    if ordered is None:
        ordered = sorted(distinct, reverse=True)
    place = {key: rank for rank, key in enumerate(ordered)}
    return [place[key] for key in keys]


def distinct_answers(
    answers: Iterable[dict[str, Any]], *, unlike: Iterable[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    """``answers`` without repeats and without any answer equal to one of ``unlike``
    (compared as JSON, key order aside)."""
    seen = {answer_key(answer) for answer in unlike}
    kept = []
    for answer in answers:
        key = answer_key(answer)
        if key not in seen:
            seen.add(key)
            kept.append(answer)
    return kept


def each_distinct(
    answers: Iterable[dict[str, Any]], *, unlike: Iterable[dict[str, Any]] = ()
) -> Iterator[dict[str, Any]]:
    """:func:`distinct_answers` one answer at a time: a :class:`LazyHook` read only in part
    neither makes nor keys the answers after the ones read. It keeps the key of each answer
    it gives and of each of ``unlike`` (:class:`KeyedAnswers` hands them on)."""
    return _Distinct(answers, unlike)


class _Distinct:
    """What :func:`each_distinct` gives: its answers one at a time (``unlike`` keyed and
    ``answers`` begun at the first, as a generator would), and the key of each answer given
    and of each of ``unlike``, for :meth:`LazyHook.first` to hand on."""

    def __init__(self, answers: Iterable[dict[str, Any]], unlike: Iterable[dict[str, Any]]) -> None:
        self._answers = answers
        self._unlike = unlike
        self._iterator: Iterator[dict[str, Any]] | None = None
        self._seen: set[str] = set()
        self.unlike: list[tuple[Any, str]] = []
        """Each of ``unlike`` with its key."""
        self.given: list[tuple[dict[str, Any], str]] = []
        """Each answer given so far with its key."""
        self._objects: set[int] = set()
        self.reused = False
        """Whether an answer given is an object given before, or one of ``unlike``: a hook
        that changes one dict and gives it again (or the case's own expected answer) leaves
        the keys taken as it gave them stale, so none is handed on."""

    def __iter__(self) -> _Distinct:
        return self

    def __next__(self) -> dict[str, Any]:
        if self._iterator is None:
            self.unlike = [(answer, answer_key(answer)) for answer in self._unlike]
            self._seen = {key for _, key in self.unlike}
            self._objects = {id(answer) for answer, _ in self.unlike}
            self._iterator = iter(self._answers)
        seen = self._seen
        for answer in self._iterator:
            key = answer_key(answer)
            if key not in seen:
                seen.add(key)
                if id(answer) in self._objects:
                    self.reused = True
                self._objects.add(id(answer))
                self.given.append((answer, key))
                return answer
        raise StopIteration


class KeyedAnswers(list[dict[str, Any]]):
    """The first answers of a hook made by :func:`each_distinct`, with the key each had
    when it was made (:meth:`key_of`): the run's calibration needs them again."""

    keyed: tuple[tuple[Any, str], ...] = ()
    """Each answer, and each of the hook's ``unlike``, with its key."""

    def key_of(self, answer: Any) -> str | None:
        """The key of ``answer``, one of these answers or of the hook's ``unlike``, as it
        was made (``None`` for another value)."""
        for made, key in self.keyed:  # a few answers: found by identity, no dict made
            if made is answer:
                return key
        return None


class LazyHook:
    """A calibration hook made from a generator of its answers. Called, it lists every
    answer, as any hook does (``check`` reads them all); :meth:`first` makes only the
    first few, in the same order from the same draws, which is all a run's calibration
    judges (:data:`verification.certify.calibration.PER_CASE`). The answers after those
    are not made, so neither are their draws from ``rng``: the run's calibration reads a
    hook in part only where nothing draws from ``rng`` after it."""

    def __init__(
        self,
        make: Callable[[TestCase, random.Random], Iterator[dict[str, Any]]],
        *,
        draws: bool = True,
        draws_first: bool = False,
        cap: int | None = None,
    ) -> None:
        self._make = make
        self.cap = cap
        """At most this many answers are kept, from every answer made: called, the hook
        makes them all (and every draw) and keeps the first ``cap``, so ``check``'s one
        rng, shared by a scaffold's cases, is left as a list cut to ``cap`` leaves it."""
        self.draws = draws
        """Whether the hook draws from ``rng`` (an ``alternatives`` hook that draws
        nothing lets the mutants before it be read in part)."""
        self.draws_first = draws_first
        """Whether the hook makes every draw from ``rng`` before its first answer: then
        reading one answer or more leaves ``rng`` as reading them all does, and a
        ``mutants`` hook may be read in part whatever draws after it."""
        functools.update_wrapper(self, make)

    def __call__(self, case: TestCase, rng: random.Random) -> list[dict[str, Any]]:
        return list(self._make(case, rng))[: self.cap]

    def first(self, case: TestCase, rng: random.Random, count: int) -> list[dict[str, Any]]:
        """The first ``count`` answers (fewer if the hook makes fewer)."""
        if self.cap is not None:
            count = min(count, self.cap)
        made = self._make(case, rng)
        if type(made) is not _Distinct:
            return list(islice(made, count))
        # Every answer listed is one each_distinct gave, with the key it gave it (none
        # where the hook gave one object twice: the calibration keys those again).
        first = KeyedAnswers(islice(made, count))
        if not made.reused:
            first.keyed = (*made.given, *made.unlike)
        return first

    @classmethod
    def capped(
        cls, cap: int
    ) -> Callable[[Callable[[TestCase, random.Random], Iterator[dict[str, Any]]]], LazyHook]:
        """A decorator: a :class:`LazyHook` that keeps at most ``cap`` answers (``cap``)."""
        return lambda make: cls(make, cap=cap)


def drawing_nothing(
    make: Callable[[TestCase, random.Random], Iterator[dict[str, Any]]],
) -> LazyHook:
    """A :class:`LazyHook` that never draws from ``rng`` (tests hold it to that)."""
    return LazyHook(make, draws=False)


def drawing_first(
    make: Callable[[TestCase, random.Random], Iterator[dict[str, Any]]],
) -> LazyHook:
    """A :class:`LazyHook` that makes every draw from ``rng`` before its first answer
    (tests hold it to that)."""
    return LazyHook(make, draws_first=True)


def sample_answers(
    make: Callable[[random.Random], dict[str, Any] | None], rng: random.Random, tries: int
) -> Iterator[dict[str, Any]]:
    """The answers ``make(rng)`` gives over ``tries`` calls, skipping ``None``."""
    for _ in range(tries):
        answer = make(rng)
        if answer is not None:
            yield answer
