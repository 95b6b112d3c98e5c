"""Validators that demand exact equality of JSON values.

Equality is JSON equality: ``true`` is not ``1``, a list is not a dict, and numbers compare
by value (``3 == 3.0``; the answer schema decides whether a float is allowed at all).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from verification.cases import TestCase, printable
from verification.validators.base import FieldValidator, ValidationResult

__all__ = [
    "DictMatchValidator",
    "ExactMatchValidator",
    "PathMatchValidator",
    "compared_with_expected",
    "json_differences",
    "json_equal",
]

_MAX_REPORTED = 5


_KINDS: dict[type, str] = {
    type(None): "null",
    bool: "bool",
    int: "number",
    float: "number",
    str: "string",
    dict: "object",
    list: "array",
}
"""The kind of a value of each JSON type (what the checks below say of it), found at once."""


def _kind(value: Any) -> str:
    kind = _KINDS.get(type(value))
    if kind is not None:
        return kind
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, Sequence):
        return "array"
    return type(value).__name__


def _shown(value: Any) -> str:
    """``value`` as JSON writes it (``null``, ``true``, ``"A"``: the answer's own words,
    where Python's ``None`` and ``True`` read as no JSON: hunt oo), cut to 80 characters;
    what JSON cannot write, as Python writes it."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    # Printable: JSON keeps a bidi override, U+2028 or a C1 control as it is (hunt rr).
    return printable(text[:80])


def _typed(value: Any) -> str:
    """``value`` with its kind, where its JSON does not say it (``number 3``, not ``null
    null``)."""
    kind = _kind(value)
    return _shown(value) if kind in ("null", "bool") else f"{kind} {_shown(value)}"


def json_differences(
    actual: Any, expected: Any, path: str = "$", *, limit: int = _MAX_REPORTED
) -> list[str]:
    """Where ``actual`` differs from ``expected``, as ``path: expected X, got Y`` lines."""
    if _plainly_equal(actual, expected):
        return []
    found: list[str] = []
    _diff(actual, expected, path, found, limit)
    return found


def json_equal(actual: Any, expected: Any) -> bool:
    """Whether ``actual`` equals ``expected`` as JSON: :func:`json_differences` finds
    nothing, found without writing what differs (the walk stops at the first difference)."""
    return _plainly_equal(actual, expected) or _same(actual, expected)


def _same(actual: Any, expected: Any) -> bool:
    """:func:`_diff`'s walk, to its first difference: the same kinds, keys (as text) and
    lengths, and the same items where :func:`_plainly_equal` is unsure."""
    kind = _kind(expected)
    if _kind(actual) != kind:
        return False
    if kind == "object":
        actual_by_key, expected_by_key = _by_text_key(actual), _by_text_key(expected)
        if actual_by_key.keys() != expected_by_key.keys():
            return False
        for key, e in expected_by_key.items():
            a = actual_by_key[key]
            if not (_plainly_equal(a, e) or _same(a, e)):
                return False
        return True
    if kind == "array":
        if len(actual) != len(expected):
            return False
        for a, e in zip(actual, expected, strict=False):
            if not (_plainly_equal(a, e) or _same(a, e)):
                return False
        return True
    return not actual != expected  # noqa: SIM202 (as _diff asks it: != may not be not ==)


def compared_with_expected(actual: Any, expected: Any) -> ValidationResult:
    """The verdict of a validator that checks properties against the case's input, when it
    is given no case: equality with ``expected``, saying that is all it checked."""
    diffs = json_differences(actual, expected)
    note = "(no test input: compared with the expected answer only)"
    if diffs:
        return ValidationResult(False, f"{diffs[0]} {note}", {"differences": diffs})
    return ValidationResult(True, f"matches the expected answer {note}")


_PLAIN = frozenset((str, int, float, type(None), bool))
"""Types equal as JSON exactly when ``==`` says so, if both sides are of the same one."""


def _plainly_equal(actual: Any, expected: Any) -> bool:
    """True only where :func:`_diff` would find no difference; False when unsure (the walk
    then decides). Most answers judged are right ones: this spares them the walk's path
    strings, which are its cost. A plain item of a list or dict is compared here, not by a
    call per item (a table's rows are most of what is compared)."""
    kind = type(actual)
    if kind is not type(expected):  # 3 and 3.0, True and 1: the walk says how they compare
        return False
    if kind in _PLAIN:
        return bool(actual == expected)
    if kind is list:
        if len(actual) != len(expected):
            return False
        pairs: Iterable[tuple[Any, Any]] = zip(actual, expected, strict=True)
    elif kind is dict:
        if actual.keys() != expected.keys():
            return False
        for key in expected:
            if type(key) is not str:  # other keys compare as str(key)
                return False
        pairs = ((actual[key], value) for key, value in expected.items())
    else:
        return False
    for a, e in pairs:
        item = type(a)
        if item is not type(e):
            return False
        if item in _PLAIN:
            if a != e:  # on these types, not a == e
                return False
        elif not _plainly_equal(a, e):
            return False
    return True


def _by_text_key(mapping: Any) -> Any:
    """``mapping`` with each key as text (the last of keys alike as text wins): a dict whose
    keys are all text already is that dict."""
    if type(mapping) is dict:
        for key in mapping:
            if type(key) is not str:
                break
        else:
            return mapping
    return {str(k): v for k, v in mapping.items()}


def _diff(actual: Any, expected: Any, path: str, found: list[str], limit: int) -> None:
    if len(found) >= limit:
        return
    kind_a, kind_e = _kind(actual), _kind(expected)
    if kind_a != kind_e:
        found.append(f"{path}: expected {_typed(expected)}, got {_typed(actual)}")
    elif kind_e == "object":
        actual_by_key, expected_by_key = _by_text_key(actual), _by_text_key(expected)
        for key in sorted(expected_by_key.keys() - actual_by_key.keys()):
            found.append(f"{path}.{key}: missing")
        for key in sorted(actual_by_key.keys() - expected_by_key.keys()):
            found.append(f"{path}.{key}: unexpected key")
        for key in sorted(expected_by_key.keys() & actual_by_key.keys()):
            if len(found) >= limit:  # nothing more is kept: the rest need not be compared
                break
            a, e = actual_by_key[key], expected_by_key[key]
            if not _plainly_equal(a, e):  # an equal part adds nothing: no path built for it
                _diff(a, e, f"{path}.{key}", found, limit)
    elif kind_e == "array":
        if len(actual) != len(expected):
            found.append(f"{path}: expected {len(expected)} items, got {len(actual)}")
        for index, (a, e) in enumerate(zip(actual, expected, strict=False)):
            if len(found) >= limit:
                break
            if not _plainly_equal(a, e):
                _diff(a, e, f"{path}[{index}]", found, limit)
    elif actual != expected:
        found.append(f"{path}: expected {_shown(expected)}, got {_shown(actual)}")
    del found[limit:]


class ExactMatchValidator(FieldValidator):
    """Passes when the answer (or one field of it) equals the expected value exactly."""

    kind = "exact"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        where = self.where
        diffs = json_differences(*self.picked(actual, expected), where)
        if diffs:
            return ValidationResult(False, diffs[0], {"differences": diffs})
        return ValidationResult(True, f"{where} matches exactly")

    def accepts(self, actual: Any, expected: Any, *, case: TestCase | None = None) -> bool:
        if type(self).validate is not ExactMatchValidator.validate:  # a subclass's own verdict
            return super().accepts(actual, expected, case=case)
        return json_equal(*self.picked(actual, expected))


class DictMatchValidator(ExactMatchValidator):
    """Compares mappings key by key (keys compared as strings) and names each mismatch."""

    kind = "dict_match"


class PathMatchValidator(FieldValidator):
    """Compares sequences in order: a path or a visiting order."""

    kind = "path"

    def validate(
        self, actual: Any, expected: Any, *, case: TestCase | None = None
    ) -> ValidationResult:
        got, want = self.picked(actual, expected)
        where = self.where
        if isinstance(got, str | bytes) or not isinstance(got, Sequence):
            return ValidationResult(False, f"{where}: expected a sequence, got {_kind(got)}")
        if isinstance(want, str | bytes) or not isinstance(want, Sequence):
            return ValidationResult(False, f"{where}: the expected value is {_kind(want)}")
        got, want = list(got), list(want)
        if _plainly_equal(got, want):  # each item plainly equal: the loop finds nothing
            return ValidationResult(True, f"{where} matches in order ({len(want)} items)")
        for index, (a, e) in enumerate(zip(got, want, strict=False)):
            if json_differences(a, e):
                return ValidationResult(
                    False,
                    f"{where}[{index}]: expected {_shown(e)}, got {_shown(a)}",
                    {"first_difference": index},
                )
        if len(got) != len(want):
            return ValidationResult(
                False, f"{where}: expected {len(want)} items, got {len(got)}", {}
            )
        return ValidationResult(True, f"{where} matches in order ({len(want)} items)")

    def accepts(self, actual: Any, expected: Any, *, case: TestCase | None = None) -> bool:
        if type(self).validate is not PathMatchValidator.validate:  # a subclass's own verdict
            return super().accepts(actual, expected, case=case)
        got, want = self.picked(actual, expected)
        for value in (got, want):
            if isinstance(value, str | bytes) or not isinstance(value, Sequence):
                return False
        got, want = list(got), list(want)
        if len(got) != len(want):
            return False
        return all(json_equal(a, e) for a, e in zip(got, want, strict=True))
