"""The tests' own reading of a plan's copies (an oracle beside
:func:`verification.certify.input_keys.later_copies`): which of a plan's cases are the first
asked with their input, and how far a run that looks as it goes asks before a look decides
on those."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["cases_asked", "first_of_each_input"]


def first_of_each_input(order: Sequence[str], inputs: Mapping[str, Any]) -> list[int]:
    """The places in ``order`` of the cases whose input no case before them had (``inputs``
    by case id: JSON data, compared as sorted JSON text)."""
    seen: set[str] = set()
    firsts = []
    for place, case in enumerate(order):
        key = json.dumps(inputs[case], sort_keys=True)
        if key not in seen:
            seen.add(key)
            firsts.append(place)
    return firsts


def cases_asked(looks: Sequence[int], firsts: Sequence[int], decided_on: int) -> int:
    """The cases a run asks before its look decides on the first ``decided_on`` inputs: it
    looks after each of ``looks`` cases, and the first look whose cases hold that many
    inputs (``firsts``: their places) reads them."""
    return next(look for look in looks if look > firsts[decided_on - 1])
