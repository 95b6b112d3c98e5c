"""Input checks the reference algorithms share: numbers that are numbers (``True`` is not
``1``), finite floats, and vertex labels. Each raises ``ValueError`` naming what is wrong."""

from __future__ import annotations

import math
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from typing import Any

__all__ = [
    "finite",
    "is_int",
    "is_real",
    "label_order",
    "plain_number",
    "plain_numbers",
    "round_half_away",
    "vertex_labels",
]


def is_int(value: Any) -> bool:
    """An int that is not a bool."""
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def is_real(value: Any) -> bool:
    """An int or float that is not a bool."""
    kind = type(value)  # the two exact types first: the checks run on every number drawn
    if kind is float or kind is int:
        return True
    return isinstance(value, int | float) and not isinstance(value, bool)


def finite(value: Any, name: str) -> float:
    """``value`` as a finite float, or a ``ValueError`` naming ``name``."""
    if type(value) is float and math.isfinite(value):  # the common case, in one test
        return value
    if not is_real(value):
        raise ValueError(f"{name} must be a number, got {type(value).__name__}")
    try:
        number = float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large to be a float: {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return number


_FLOAT_INT = 1 << 1023
"""Every int of smaller magnitude converts to a finite float."""


def plain_number(value: Any) -> bool:
    """Whether :func:`finite` passes ``value`` for certain: a finite float, or an int a
    float holds. Checks of many numbers test this first and call :func:`finite`, with the
    name its message gives, only for the others (formatting the names is their cost)."""
    kind = type(value)
    if kind is float:
        return math.isfinite(value)
    return kind is int and -_FLOAT_INT < value < _FLOAT_INT


def plain_numbers(values: list[Any]) -> bool:
    """Whether :func:`plain_number` holds for every item, for a list of ints or of floats
    in C (the bounds read by min and max, the floats by ``math.isfinite``); a mixed list
    item by item."""
    kinds = set(map(type, values))
    if kinds <= _INT:
        return not values or (min(values) > -_FLOAT_INT and max(values) < _FLOAT_INT)
    if kinds <= _FLOAT:
        return all(map(math.isfinite, values))
    return all(plain_number(v) for v in values)


_INT = frozenset((int,))
_FLOAT = frozenset((float,))
_STR = frozenset((str,))


def vertex_labels(vertices: Any) -> list[str]:
    """``vertices`` as a list of unique string labels, or a ``ValueError``."""
    kind = type(vertices)
    # The common case in C: a list or tuple of distinct str (the graph generators check
    # each candidate graph through a reference); anything else is checked as below.
    if (kind is list or kind is tuple) and set(map(type, vertices)) <= _STR:
        labels = list(vertices)
        if len(set(labels)) == len(labels):
            return labels
    return _checked_labels(vertices)


def _checked_labels(vertices: Any) -> list[str]:
    """:func:`vertex_labels` checked one label at a time (with the message of the first
    fault)."""
    if not isinstance(vertices, list | tuple):
        raise ValueError(f"vertices must be a list of labels, got {type(vertices).__name__}")
    for label in vertices:
        if not isinstance(label, str):
            raise ValueError(f"vertex labels must be strings, got {label!r}")
    repeated = sorted(label for label, times in Counter(vertices).items() if times > 1)
    if repeated:
        raise ValueError(f"vertex labels must be unique; repeated: {repeated}")
    return list(vertices)


def label_order(label: str) -> tuple[int, str]:
    """The sort key of the scaffolds' "ascending label order": a shorter label first, labels
    of one length alphabetically, so ``A`` .. ``Z``, ``AA``, ``AB`` .. sort as spreadsheet
    columns are numbered (plain string order puts ``AA`` before ``B``).

    >>> sorted(["B", "AA", "A", "Z", "AB"], key=label_order)
    ['A', 'B', 'Z', 'AA', 'AB']
    """
    return len(label), label


def round_half_away(value: Fraction | Decimal | float | int, places: int) -> float:
    """``value`` rounded to ``places`` decimals, a tie away from zero, as the scaffolds ask.

    The rounding is done on the exact value (a float as its shortest decimal writes it),
    never on a double near a tie: ``round_half_away(0.0000025, 6)`` is ``3e-06``, where
    ``round`` gives ``2e-06`` (a tie to even) or either side of it (a double near it).
    ``-0.0`` comes back as ``0.0``.
    """
    exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    scaled = abs(exact) * 10**places
    whole = math.floor(scaled + Fraction(1, 2))
    return math.copysign(float(Fraction(whole, 10**places)), exact) + 0.0
