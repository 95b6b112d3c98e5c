"""Input checks the optimizers share: lists, iteration counts, uniform draws, bit strings.
Each raises ``ValueError`` naming what is wrong."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from verification.reference._inputs import finite, plain_number

__all__ = ["as_list", "bit_string", "count", "plain_draws", "plain_number", "uniform_draw"]


def as_list(value: Any, name: str) -> list[Any]:
    """``value`` as a list, when it is a sequence that is no string or mapping."""
    kind = type(value)  # a list or tuple first: the ABC checks cost more than the copy
    if kind is list or kind is tuple:
        return list(value)
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise ValueError(f"{name} must be a list, got {type(value).__name__}")
    return list(value)


def count(value: Any, name: str, low: int) -> int:
    """``value`` when it is an int (not a bool) of at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    return value


def uniform_draw(value: Any, name: str) -> float:
    """``value`` when it is a finite draw in ``[0, 1)``."""
    number = finite(value, name)
    if not 0.0 <= number < 1.0:
        raise ValueError(f"{name} must be a draw in [0, 1), got {value!r}")
    return number


def bit_string(value: Any, name: str) -> str:
    """``value`` when it is a non-empty string of 0s and 1s."""
    if not isinstance(value, str) or not value or set(value) - {"0", "1"}:
        raise ValueError(f"{name} must be a non-empty string of 0s and 1s, got {value!r}")
    return value


# The fast path of uniform_draw: the draws generators write pass it in one test, and
# the check (with the name its message gives) runs only for the others.
def plain_draws(values: Sequence[Any]) -> bool:
    """Whether every item is a float in ``[0, 1)``, which :func:`uniform_draw` returns as
    it is."""
    return all(type(v) is float and 0.0 <= v < 1.0 for v in values)
