"""What an oracle derives from a case's input alone, derived once per input.

The scaffold tests' oracles (``oracle(input, answer)`` in ``tests/catalog/test_<name>.py``)
are asked about many answers to one input: the differential judge tests check some hundred
candidates per example, the contract test every alternative and mutant of a calibration
case. What they compute from the input alone (a networkx graph, whether it is acyclic, its
minimum spanning forest's weight) is the same for each of those answers, so it is computed
once and the oracle reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["per_input"]

_T = TypeVar("_T")
_DERIVED: dict[tuple[str, str], Any] = {}
_KEPT = 256
"""Inputs kept at once (every kind together); the oldest half goes when they are more."""


def per_input(kind: str, test_input: Any, derive: Callable[[], _T]) -> _T:
    """What ``derive`` computes from ``test_input`` alone, once per input and ``kind``.

    Inputs are JSON data, so equal reprs are equal inputs (floats round-trip, dicts keep
    their order; an input changed in place has another repr); a repr that elides is not
    kept. The values kept are only read: an oracle never changes what it derived.
    """
    key = (kind, repr(test_input))
    if "..." in key[1]:  # a repr that elides (numpy's of a large array) is no key
        return derive()
    found = _DERIVED.get(key, _DERIVED)
    if found is _DERIVED:
        if len(_DERIVED) >= _KEPT:
            for old in list(_DERIVED)[: _KEPT // 2]:
                del _DERIVED[old]
        found = _DERIVED[key] = derive()
    kept: _T = found
    return kept
