"""Case data as JSON reads it back: tuples become lists, and NaN or infinity is an error."""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["to_json_data"]

_TO_JSON = json.JSONEncoder(allow_nan=False)
"""``json.dumps(value, allow_nan=False)`` builds this encoder per call; made once, it
writes the same text (twice per case drawn)."""


class _NotPlain(Exception):
    """A value :func:`_plain` leaves to the JSON round trip."""


_PLAIN_DEPTH = 64
"""How deep :func:`_plain` copies before it leaves a value to the JSON round trip: a case is
a few levels deep; a circular or very deep value (an error or a RecursionError of the
encoder) gets the round trip's own error."""


_SHORT_INT = 1 << 1900
"""Integers strictly between minus this and this have at most 572 digits, fewer than any
limit ``sys.set_int_max_str_digits`` accepts (640 at least): JSON writes them whatever the
limit. A longer one is left to the round trip, which refuses it past the limit."""


def _plain(value: Any, depth: int) -> Any:
    """``json.loads(json.dumps(value))`` for the plain data cases are made of (dicts with
    ``str`` keys, lists, tuples, ``str``, ``int`` short of :data:`_SHORT_INT`, ``bool``,
    ``None`` and finite ``float``, exactly those types): new dicts and lists, the same
    scalars, which is what the round trip gives them (a finite double's repr reads back as
    itself). Anything else raises :class:`_NotPlain`."""
    kind = type(value)
    if depth > _PLAIN_DEPTH:
        raise _NotPlain
    if kind is list or kind is tuple:
        items = []
        for item in value:
            of = type(item)
            short = of is str or of is bool or (of is int and -_SHORT_INT < item < _SHORT_INT)
            items.append(item if short else _plain(item, depth + 1))
        return items
    if kind is dict:
        fields = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            of = type(item)
            short = of is str or of is bool or (of is int and -_SHORT_INT < item < _SHORT_INT)
            fields[key] = item if short else _plain(item, depth + 1)
        return fields
    if kind is float:
        if math.isfinite(value):
            return value
        raise _NotPlain
    if kind is str or kind is bool or value is None:
        return value
    if kind is int and -_SHORT_INT < value < _SHORT_INT:
        return value
    raise _NotPlain


def to_json_data(value: Any) -> Any:
    """Round-trip through JSON: tuples become lists, and NaN or infinity is an error."""
    # Plain data is copied by a walk, about a third of the round trip's time on a case's
    # input or answer (twice per case drawn); anything else (NaN, a set, a key that is no
    # str, a subclass, a deep or circular value) takes the round trip, and its errors.
    try:
        return _plain(value, 0)
    except _NotPlain:
        pass
    return json.loads(_TO_JSON.encode(value))
