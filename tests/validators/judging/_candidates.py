"""Candidate answers for the differential judge tests: near misses made from a right answer
by small edits (a value one off, two items swapped, a label changed, a space added), and
random answers made by piling several edits on top of each other.

Nothing here knows a scaffold: the edits walk any JSON answer, and the values they bring in
come from the case's own input and answer, so a wrong label is still one of the graph's.
"""

from __future__ import annotations

import copy
import random
from typing import Any

__all__ = ["edited", "value_pool"]

Place = tuple[Any, Any]


def value_pool(*values: Any) -> list[Any]:
    """Every leaf (string, integer, float) found in ``values``, plus a few usual slips."""
    found: list[Any] = [0, 1, -1, 0.5, "", "0", "1"]

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                found.append(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif value is not None and not isinstance(value, bool):
            found.append(value)

    for value in values:
        walk(value)
    return found


def _places(value: Any) -> list[Place]:
    """Every place in ``value`` in preorder, each as (its container, its key); the whole
    answer is (None, None). The containers themselves are kept, not paths from the top:
    an edit writes through its container, with no walk down from the top per edit."""
    places: list[Place] = [(None, None)]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, item in node.items():
                places.append((node, key))
                walk(item)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                places.append((node, index))
                walk(item)

    walk(value)
    return places


def _copy(value: Any, memo: dict[int, Any] | None = None) -> Any:
    """``copy.deepcopy`` of a JSON answer, a few times faster: lists and dicts copied, an
    object met twice copied once (as deepcopy does), leaves shared (they are immutable);
    anything else goes to deepcopy."""
    if value is None or type(value) in _LEAVES:
        return value
    memo = {} if memo is None else memo
    if id(value) in memo:
        return memo[id(value)]
    if type(value) is list:
        items: list[Any] = []
        memo[id(value)] = items
        items.extend(_copy(item, memo) for item in value)
        return items
    if type(value) is dict:
        mapping: dict[Any, Any] = {}
        memo[id(value)] = mapping
        for key, item in value.items():
            mapping[key] = _copy(item, memo)
        return mapping
    return copy.deepcopy(value)


_LEAVES = frozenset({str, int, float, bool})


def _number_edits(value: float, rng: random.Random) -> Any:
    delta = rng.choice((1e-9, 1e-7, 2e-6, 1e-5, 2e-4, 1e-3, 0.01, 0.5, 1, 100))
    choice = rng.randrange(6)
    if choice == 0:
        return value + rng.choice((-1, 1)) * delta
    if choice == 1:
        return -value
    if choice == 2:
        return round(float(value), rng.randint(0, 4))
    if choice == 3:
        return float(value) if isinstance(value, int) else int(value)
    if choice == 4:
        return value * (1 + rng.choice((-1, 1)) * rng.choice((1e-7, 1e-5, 1e-3)))
    return 0


def _string_edits(value: str, rng: random.Random, pool: list[Any]) -> Any:
    choice = rng.randrange(7)
    if choice == 0:
        return rng.choice([p for p in pool if isinstance(p, str)] or [value + "x"])
    if choice == 1 and len(value) > 1:
        i = rng.randrange(len(value) - 1)
        return value[:i] + value[i + 1] + value[i] + value[i + 2 :]
    if choice == 2 and value:
        i = rng.randrange(len(value))
        return value[:i] + value[i + 1 :]
    if choice == 3:
        i = rng.randrange(len(value) + 1)
        return value[:i] + rng.choice((" ", "\t", "\n")) + value[i:]
    if choice == 4:
        i = rng.randrange(len(value) + 1)
        return value[:i] + rng.choice(value or "x") + value[i:]
    if choice == 5:
        return value.lower() if value != value.lower() else value.upper()
    return value + rng.choice(("0", "1", "*"))


def _list_edits(value: list[Any], rng: random.Random, pool: list[Any]) -> Any:
    items = list(value)
    choice = rng.randrange(8)
    if choice == 0 and len(items) > 1:
        i, j = rng.sample(range(len(items)), 2)
        items[i], items[j] = items[j], items[i]
    elif choice == 1 and items:
        del items[rng.randrange(len(items))]
    elif choice == 2 and items:
        i = rng.randrange(len(items))
        items.insert(i, _copy(items[i]))
    elif choice == 3:
        items.reverse()
    elif choice == 4:
        rng.shuffle(items)
    elif choice == 5:
        like = [p for p in pool if items and type(p) is type(items[0])] or pool
        items.insert(rng.randrange(len(items) + 1), rng.choice(like))
    elif choice == 6 and items:
        like = [p for p in pool if type(p) is type(items[0])] or pool
        items[rng.randrange(len(items))] = rng.choice(like)
    else:
        return []
    return items


def _dict_edits(value: dict[str, Any], rng: random.Random, pool: list[Any]) -> Any:
    items = dict(value)
    keys = list(items)
    choice = rng.randrange(4)
    if choice == 0 and len(keys) > 1:
        a, b = rng.sample(keys, 2)
        items[a], items[b] = items[b], items[a]
    elif choice == 1 and keys:
        del items[rng.choice(keys)]
    elif choice == 2:
        key = rng.choice([p for p in pool if isinstance(p, str)] or ["extra"])
        items[key] = _copy(rng.choice(list(items.values()) or [0]))
    elif keys:
        items[rng.choice(keys)] = None
    return items


def _edit(value: Any, rng: random.Random, pool: list[Any]) -> Any:
    kind = type(value)
    if kind not in _EDITED or rng.random() < 0.08:  # null, or a value replaced by null or a leaf
        return rng.choice([None, rng.choice(pool), []])
    if kind is bool:
        return not value
    if kind is int or kind is float:
        return _number_edits(value, rng)
    if kind is str:
        return _string_edits(value, rng, pool)
    if kind is list:
        return _list_edits(value, rng, pool)
    return _dict_edits(value, rng, pool)


_EDITED = frozenset({bool, int, float, str, list, dict})
"""The types :func:`_edit` edits as such (by their exact type, as JSON data has them)."""


def edited(answer: dict[str, Any], rng: random.Random, pool: list[Any], edits: int) -> Any:
    """``answer`` after ``edits`` small edits, each at a random place in it (the whole answer
    included, so a key may go missing or an extra one appear)."""
    result: Any = _copy(answer)
    for _ in range(edits):
        container, key = rng.choice(_places(result))
        new = _edit(result if container is None else container[key], rng, pool)
        if container is None:
            result = new
        else:
            container[key] = new
    return result
