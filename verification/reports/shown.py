"""What a run's page shows of model data: replies cut and made printable, parsed answers
as JSON values (cut as replies are), the fields where an answer differs, and the JSON text
the page's data block writes of them (:mod:`verification.reports.html` writes the page)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from verification.cases import printable
from verification.store.json_text import JsonText

__all__ = [
    "BLOCK_JSON",
    "SHOWN_ANSWER_CHARS",
    "SHOWN_REPLY_CHARS",
    "answer_differences",
    "safe_json",
    "shown_answer",
    "shown_text",
    "value_json",
]

SHOWN_REPLY_CHARS = 20_000
"""A raw reply longer than this is cut on the page (the journal keeps it)."""
SHOWN_ANSWER_CHARS = SHOWN_REPLY_CHARS
"""A parsed answer whose JSON is longer than this is cut on the page, as replies are."""


def shown_text(text: str | None, limit: int = SHOWN_REPLY_CHARS) -> str | None:
    """``text`` cut to ``limit`` characters, each line's unprintable characters (NUL,
    terminal escapes, bidirectional overrides, lone surrogates) written as visible escapes,
    so a reply cannot reorder or hide what follows it."""
    if text is None:
        return None
    shown = text[:limit]
    if shown.replace("\n", "").isprintable():  # most replies: nothing to escape, one pass in C
        return shown
    return "\n".join(printable(line) for line in shown.split("\n"))


def answer_differences(answer: Any, expected: Mapping[str, Any]) -> dict[str, list[int] | None]:
    """The answer's fields that differ from the expected answer: a list field maps to the
    positions that differ (``[]`` when only its length does), any other field to ``None``.
    A field only one of them has differs."""
    if not isinstance(answer, dict):
        return {}
    marks: dict[str, list[int] | None] = {key: None for key in expected if key not in answer}
    for key, value in answer.items():
        want = expected.get(key, _MISSING)
        if value == want and type(value) is type(want):
            continue
        if isinstance(value, list) and isinstance(want, list):
            marks[key] = [i for i, item in enumerate(value) if i >= len(want) or item != want[i]]
        else:
            marks[key] = None
    return marks


_MISSING = object()


# ``json.dumps`` with options builds its encoder per call; made once, each writes the same
# text (several times per answer shown), without ``encode``'s Python layer (JsonText).
_SAFE_JSON = JsonText(default=str, allow_nan=False)
_SHOWN_JSON = JsonText(default=str, allow_nan=False, ensure_ascii=False)
_TEXT_JSON = JsonText(ensure_ascii=False)
# The page's block: ASCII JSON keeps lone surrogates as escapes. Without json's marks for
# cycles: what they write holds none (values read back from JSON text, or _plain's, which
# is bounded in depth), and the marks cost as much as the writing.
BLOCK_JSON = JsonText(
    ensure_ascii=True, allow_nan=False, separators=(",", ":"), check_circular=False
)
_PLAIN_JSON = JsonText(default=str, allow_nan=False, separators=(",", ":"), check_circular=False)


def safe_json(value: Any) -> Any:
    """Model data as JSON values (a parsed answer may hold anything json writes; NaN and
    infinity, which JSON cannot, as their repr)."""
    try:
        return json.loads(_SAFE_JSON(value))
    except ValueError:  # NaN or infinity in a parsed answer: shown as text
        return repr(value)


def shown_answer(
    answer: Any, diff: Mapping[str, list[int] | None]
) -> tuple[Any, dict[str, list[int] | None]]:
    """A parsed answer and its differences as the page shows them: whole when its JSON
    holds at most :data:`SHOWN_ANSWER_CHARS` characters; else each field longer than its
    share is shown as the start of its JSON text, marked cut (and, if it differs, marked
    whole), and an answer that is no object, or whose field names alone are too long, is
    shown as the start of its JSON text. The journal keeps the whole answer."""
    try:
        text = _SHOWN_JSON(answer)
    except ValueError:  # NaN or infinity in a parsed answer: shown as text (safe_json's repr)
        value: Any = repr(answer)
    else:
        # safe_json's value, from the text measured: the text of that value is no longer
        # (only a key written twice, such as 1 and "1", is dropped), so one short enough
        # stands for both and most answers are written once, not twice.
        value = json.loads(text)
        if len(text) <= SHOWN_ANSWER_CHARS:
            return value, dict(diff)
    text = _TEXT_JSON(value)
    if len(text) <= SHOWN_ANSWER_CHARS:
        return value, dict(diff)
    names = _TEXT_JSON(list(value)) if isinstance(value, dict) else text
    if not isinstance(value, dict) or len(names) > SHOWN_ANSWER_CHARS // 2:
        return _cut_json(text, SHOWN_ANSWER_CHARS), {}
    share = (SHOWN_ANSWER_CHARS - len(names)) // max(len(value), 1)
    shown: dict[str, Any] = {}
    marks = dict(diff)
    for key, item in value.items():
        item_text = _TEXT_JSON(item)
        shown[key] = item if len(item_text) <= share else _cut_json(item_text, share)
        if key in marks and shown[key] is not item:
            marks[key] = None
    return shown, marks


def _cut_json(text: str, limit: int) -> str:
    return f"{text[:limit]} ... (cut: {len(text)} characters; the journal holds them all)"


_SCALARS = frozenset({str, int, float, bool, type(None)})
_JSON_TYPES = _SCALARS | {dict, list, tuple}
_PLAIN_DEPTH = 32


def _plain(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is JSON's own types alone (no subclass), every key a string, at most
    :data:`_PLAIN_DEPTH` deep: its JSON text read back and written again is then the same
    (a key 1 beside "1", or an object json does not know, could make them differ)."""
    kind = type(value)
    if kind is dict:
        if not set(map(type, value)) <= {str}:
            return False
        items: Any = value.values()
    elif kind is list or kind is tuple:
        items = value
    else:
        return kind in _SCALARS
    kinds = set(map(type, items))
    if kinds <= _SCALARS:
        return True
    if depth >= _PLAIN_DEPTH or not kinds <= _JSON_TYPES:
        return False  # deeper (or a cycle): the value is read back as safe_json does
    return all(type(item) in _SCALARS or _plain(item, depth + 1) for item in items)


def value_json(value: Any) -> str:
    """``safe_json(value)`` as the page's block writes it: from ``value`` itself when that
    writes the same text (:func:`_plain`), without reading its JSON back."""
    if not _plain(value):
        return BLOCK_JSON(safe_json(value))
    try:
        return _PLAIN_JSON(value)
    except ValueError:  # NaN or infinity: shown as text, as safe_json shows it
        return BLOCK_JSON(repr(value))
