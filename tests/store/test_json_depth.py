"""``json_depth_exceeds`` guards every stored JSON read back (each journal line among them):
it walks level by level (issue 27 item 16: a third of the item-by-item walk's time on a
dijkstra record) and must say what the nesting depth says, at every bound."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from verification.errors import StoredFileError
from verification.store.stored_files import json_depth_exceeds, parse_stored_json


def _depth(value: Any) -> int:
    """Lists and objects nested in ``value``, outermost included (0 for a scalar)."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _value(rng: random.Random, depth: int) -> Any:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice([0, -1.5, "[{", None, True])
    if rng.random() < 0.5:
        return [_value(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    return {f"k{i}": _value(rng, depth - 1) for i in range(rng.randint(0, 3))}


def test_it_says_what_the_depth_says_at_every_bound() -> None:
    rng = random.Random(27)
    for _ in range(2000):
        value = _value(rng, rng.randint(0, 8))
        depth = _depth(value)
        for bound in range(10):
            assert json_depth_exceeds(value, bound) is (depth > bound), (value, bound)


def test_a_deep_document_is_refused_without_recursion() -> None:
    deep: Any = []
    for _ in range(50_000):
        deep = [deep, {"a": 1}]
    assert json_depth_exceeds(deep, 64)
    text = "[" * 200 + "]" * 200  # json itself parses this deep: the bound refuses it
    with pytest.raises(StoredFileError, match="nested deeper than"):
        parse_stored_json(text, where="the line")
    assert parse_stored_json(json.dumps({"a": [[1]]}), where="x") == {"a": [[1]]}
