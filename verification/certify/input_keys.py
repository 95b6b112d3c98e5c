"""An input's key, and the copies of an input among a plan's cases: what a sequential
plan's looks (:mod:`verification.certify.answers`) and the interval's clusters
(:mod:`verification.certify.inputs`) both read, below either."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from verification.store.json_text import JsonText

__all__ = ["input_key", "later_copies"]


def later_copies(order: Sequence[str], inputs: Mapping[str, Any]) -> frozenset[str]:
    """The cases of ``order`` asked with an input that a case before them in ``order`` was
    asked with (``inputs``: the answered cases' inputs by id; a case without one, unasked
    or a code-mode program, is nobody's copy). A sequential plan's look counts an input
    once, at its first case: its boundaries are exact for independent answers, and copies
    of one prompt are answered alike (n_queens drew 15 inputs in its first 30 cases, which
    a look read as 30). Only what came before a case decides whether it is a copy, so a
    look on a run's first cases reads them as the run's end does.

    Examples
    --------
    >>> sorted(later_copies(["a", "b", "c", "d"], {"a": {"n": 4}, "b": {"n": 5}, "c": {"n": 4}}))
    ['c']
    """
    seen: set[str] = set()
    copies = []
    for case in order:
        if case not in inputs:
            continue
        key = input_key(inputs[case])
        if key in seen:
            copies.append(case)
        else:
            seen.add(key)
    return frozenset(copies)


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
