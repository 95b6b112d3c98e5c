"""The driver's lines as the harness reads and writes them: a case's input out, one line of
JSON; the driver's reply in, checked as data a program may have damaged (it shares the
driver's interpreter)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from verification.run.sandbox.driver import check_answer

__all__ = ["encode_input", "read_reply"]

_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is no JSON value")


def _decode(line: bytes) -> Any:
    """A reply line as JSON data; strict JSON only (no NaN), as the driver writes it."""
    return json.loads(line, parse_constant=_no_constant)


def _depth_within(value: object, max_depth: int) -> bool:
    """Whether parsed JSON data nests at most ``max_depth`` containers deep. Containers
    only: a reply's size is capped by the read, NaN refused by the parse, and a lone
    surrogate looked for in its text."""
    level: list[dict[str, object] | list[object]] = (
        [value] if isinstance(value, dict | list) else []
    )
    depth = 0
    while level:
        depth += 1
        if depth > max_depth:
            return False
        below: list[dict[str, object] | list[object]] = []
        for item in level:
            children = item.values() if isinstance(item, dict) else item
            below.extend(c for c in children if isinstance(c, dict | list))
        level = below
    return True


def encode_input(case_input: Mapping[str, object]) -> bytes:
    """A case's input as the driver reads it: one line of JSON (encode once, run many)."""
    return json.dumps({"input": case_input}, ensure_ascii=False).encode() + b"\n"


def read_reply(line: bytes, max_depth: int) -> tuple[dict[str, Any] | None, str]:
    """The driver's reply ``line`` as a dict, or ``None`` and why it is no reply: damaged
    (no JSON object, NaN, a lone surrogate) or an answer nested past ``max_depth``."""
    try:
        reply = _decode(line)
    except (ValueError, RecursionError):
        reply = None
    if not isinstance(reply, dict) or (
        _SURROGATE_ESCAPE.search(line) and check_answer(reply, 10**6, len(line)) is not None
    ):  # a lone surrogate would break whatever writes the answer down later
        return None, "the driver's reply was damaged by the program"
    # The answer sits one level down in the reply. Fewer brackets than the limit cannot
    # nest past it (counted in C: the walk costs more than the rest of a case).
    depth = max_depth + 1
    if line.count(b"[") + line.count(b"{") > depth and not _depth_within(reply, depth):
        return None, f"the answer nests deeper than {max_depth} levels"
    return reply, ""
