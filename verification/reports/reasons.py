"""Failures grouped by reason, so a report says first what to fix.

A failure's reason is free text (the parser's, the schema's, the validator's); its *kind* is
what answers failing the same way share: the Output Format rule a level 2 answer broke, the
answer field where a level 3 answer first differs from the reference's (``$.distances``,
whatever node or index it was), else the message with its case-specific numbers and quoted
values blanked. Groups are by level and kind, largest first, each with one example case.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from verification.certify.answers import TestResult

__all__ = ["FailureGroup", "failure_groups", "level_name", "reason_kind"]

_RULE = re.compile(r'^the Output Format asks "([^"]{1,200})":')
_FIELD = re.compile(r"^(\$(?:\.[A-Za-z_][\w-]*)?)[.\[:]")
"""A validator's path (``$.distances.A: expected 0, got 1``): its top field is the kind,
since the key or index below it is the case's own."""
_SCHEMA = re.compile(r"^schema: ([\w.]+?)(?:\.\d+)*: ")
_NUMBER = re.compile(r"-?\b\d+(?:\.\d+)?\b")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_KIND_CHARS = 160


@dataclass(frozen=True)
class FailureGroup:
    """Answers that failed the same way: at ``level``, for ``kind``; ``count`` of them, the
    first (in report order) being ``example``."""

    level: int | None
    kind: str
    count: int
    example: TestResult


def reason_kind(result: TestResult) -> str:
    """What ``result``'s failure shares with others failing the same way."""
    message = result.validation_message.strip()
    if result.outcome == "infra_error":
        return "infrastructure error (not counted): " + _blank(message)
    if match := _RULE.match(message):
        return f'breaks the Output Format rule "{match.group(1)}"'
    if result.level == 3 and (match := _FIELD.match(message)):
        return f"{match.group(1)} differs from the reference's answer"
    if match := _SCHEMA.match(message):
        return f"schema: {match.group(1)}: {message[match.end() :]}"[:_KIND_CHARS]
    return _blank(message)


def _blank(message: str) -> str:
    """``message`` with what differs from case to case (numbers, quoted values) blanked."""
    return _NUMBER.sub("N", _QUOTED.sub("'...'", message))[:_KIND_CHARS]


def failure_groups(results: Iterable[TestResult]) -> list[FailureGroup]:
    """The failed answers of ``results`` grouped by level and kind, largest group first
    (ties by level, then kind), each with its first answer as the example."""
    groups: dict[tuple[int | None, str], list[TestResult]] = {}
    for result in results:
        if not result.passed:
            groups.setdefault((result.level, reason_kind(result)), []).append(result)
    ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0][0] or 0, item[0][1]))
    return [FailureGroup(level, kind, len(found), found[0]) for (level, kind), found in ordered]


_LEVELS = {1: "1 syntactic", 2: "2 contract", 3: "3 behavioral"}


def level_name(level: int | None, outcome: str) -> str:
    """A failure's level as the reports name it (an infrastructure error has none: it is
    not counted; a refusal has none: no level takes the blame)."""
    if level is not None and level in _LEVELS:
        return _LEVELS[level]
    return "not counted" if outcome == "infra_error" else "none"
