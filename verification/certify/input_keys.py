"""An input's key, and the copies of an input among a plan's cases: what a sequential
plan's looks (:mod:`verification.certify.answers`) and the interval's clusters
(:mod:`verification.certify.inputs`) both read, below either."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from verification.store.json_text import JsonText

__all__ = ["by_unit", "input_key", "later_copies", "paired_units", "shared_units"]


def later_copies(
    order: Sequence[str], inputs: Mapping[str, Any], errored: Mapping[str, Any] | None = None
) -> frozenset[str]:
    """The cases of ``order`` asked with an input that a case before them in ``order`` was
    asked with: an answered case (``inputs``: the answered cases' inputs by id) whose input
    an answered case before it had, and a case whose answers were all lost to errors
    (``errored``: theirs) whose input any case before it had. A case with neither, unasked
    or a code-mode program, is nobody's copy. A sequential plan's look counts an input once,
    at its first case answered: its boundaries are exact for independent answers, and copies
    of one prompt are answered alike (n_queens drew 15 inputs in its first 30 cases, which a
    look read as 30); a copy's error is no unfinished answer, since the copy would count for
    nothing. Only what came before a case decides whether it is a copy, so a look on a run's
    first cases reads them as the run's end does.

    Examples
    --------
    >>> sorted(later_copies(["a", "b", "c", "d"], {"a": {"n": 4}, "b": {"n": 5}, "c": {"n": 4}}))
    ['c']
    >>> sorted(later_copies(["a", "b", "c"], {"b": {"n": 4}}, {"a": {"n": 4}, "c": {"n": 4}}))
    ['c']
    """
    errored = errored or {}
    answered: set[str] = set()
    asked: set[str] = set()
    copies = []
    for case in order:
        if case in inputs:
            key = input_key(inputs[case])
            if key in answered:
                copies.append(case)
            answered.add(key)
            asked.add(key)
        elif case in errored:
            key = input_key(errored[case])
            if key in asked:
                copies.append(case)
            asked.add(key)
    return frozenset(copies)


def shared_units(drawn_a: Mapping[str, str], drawn_b: Mapping[str, str]) -> dict[str, str]:
    """Case id -> the unit a paired test of two runs counts the case in: its input's key
    (``drawn_a``, ``drawn_b``: each run's case ids to their inputs' keys), unless the two
    runs drew that case with different inputs (then its id): copies of one input answered
    alike flip together, and counted apart one changed answer reads as many.

    Examples
    --------
    >>> shared_units({"a": "x", "b": "x", "c": "y"}, {"a": "x", "b": "x", "c": "z"})
    {'a': 'x', 'b': 'x', 'c': 'c'}
    """
    return {
        case: drawn if drawn_b.get(case, drawn) == drawn else case
        for case, drawn in drawn_a.items()
    } | {case: drawn for case, drawn in drawn_b.items() if case not in drawn_a}


def by_unit(scores: Mapping[str, float], units: Mapping[str, str]) -> dict[str, float]:
    """Case scores folded to their units' scores (:func:`shared_units`): the mean over
    each unit's cases; a case of no unit is its own."""
    sums: dict[str, tuple[float, int]] = {}
    for case, score in scores.items():
        total, count = sums.get(units.get(case, case), (0.0, 0))
        sums[units.get(case, case)] = (total + score, count + 1)
    return {unit: total / count for unit, (total, count) in sums.items()}


def paired_units(
    a: Mapping[str, float], b: Mapping[str, float], units: Mapping[str, str]
) -> tuple[dict[str, float], dict[str, float]]:
    """Two runs' case scores on the cases both answered, each folded to its units
    (:func:`by_unit`): a copy only one run asked joins no unit's score, so two runs that
    scored their shared cases alike compare alike (hunt ag: a copy only B asked moved B's
    unit, and two runs alike on every shared case read "A better 1").

    Examples
    --------
    >>> paired_units({"a": 1.0}, {"a": 1.0, "b": 0.0}, {"a": "x", "b": "x"})
    ({'x': 1.0}, {'x': 1.0})
    """
    both = a.keys() & b.keys()
    return (
        by_unit({case: score for case, score in a.items() if case in both}, units),
        by_unit({case: score for case, score in b.items() if case in both}, units),
    )


def input_key(value: Any) -> str:
    """A case's input as one string: equal for equal inputs (keys in any order; a mapping
    whose keys are not all strings, as a drawn input may hold before it is journalled, in
    its own order; a value no JSON can hold, only itself)."""
    for write in (_SORTED_JSON, _JSON):  # keys of several types, which sorting cannot order
        try:
            return write(value)
        except (TypeError, ValueError, RecursionError):
            continue
    return f"unkeyed {id(value)}"  # no JSON at all (a cycle, say): a cluster of its own


_SORTED_JSON = JsonText(sort_keys=True, default=repr)
_JSON = JsonText(default=repr)
""":func:`input_key`'s writers: json.dumps's text without its Python layer, once per answer."""
