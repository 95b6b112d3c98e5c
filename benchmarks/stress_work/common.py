"""What every renderer shares: its type, and the answer's JSON block that ends a reply."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

__all__ = ["Renderer", "answer_block", "exact"]

Renderer = Callable[[dict[str, Any], dict[str, Any]], str]


def answer_block(expected: dict[str, Any]) -> str:
    return "```json\n" + json.dumps(expected) + "\n```\n"


def exact(value: Fraction) -> str:
    """A terminating fraction in all its decimal digits (``Fraction(-7, 4)`` -> ``-1.75``)."""
    sign, value = ("-" if value < 0 else ""), abs(value)
    whole, rest = divmod(value.numerator, value.denominator)
    digits = ""
    while rest and len(digits) < 40:
        digit, rest = divmod(rest * 10, value.denominator)
        digits += str(digit)
    return f"{sign}{whole}" + (f".{digits}" if digits else "")
