"""The Code Format: what code mode (``--answer code``) asks of a model beside the scaffold,
generated from the spec, and how a program's return value becomes the answer judged.

A program is one Python function ``solve(input: dict) -> dict``; the harness runs it on
every case of the suite in a sandbox. The section states the input schema with one worked
input and its answer (the reference's), the sandbox's Python version, the limits, how Python
values become the answer, and per scaffold the rules a field follows where only one way of
running the algorithm determines it (:attr:`~verification.catalog.spec.ScaffoldSpec.code_rules`)
or the fields not asked (:attr:`~verification.catalog.spec.ScaffoldSpec.code_dropped_fields`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from verification.cases import DEFAULT_SEED, TestCase
from verification.catalog.drawing import draw_case
from verification.catalog.spec import ScaffoldSpec

__all__ = [
    "CODE_FORMAT_VERSION",
    "code_answer",
    "code_format",
    "describe_json",
    "worked_case",
]

CODE_FORMAT_VERSION = "v8"
"""Recorded in every code-mode run's manifest (a resume under another is refused) and shown
in ``show-prompt``'s header; bump it when the section's wording changes, or its repair's
(v8: a repair asks for a ```python block, not trace mode's ```json)."""


def worked_case(spec: ScaffoldSpec) -> TestCase:
    """The input the Code Format works through: the first simple case of the default seed
    (the same in every prompt, whatever a run's seed)."""
    return draw_case(spec, "simple", 0, seed=DEFAULT_SEED)


def describe_json(value: Any) -> str:
    """A JSON value's type in words (``list of [str, str, int]``), read from one example.

    Examples
    --------
    >>> describe_json([["A", "B", 3]])
    'list of [str, str, int]'
    >>> describe_json({"A": 0, "B": None})
    'object of str -> int or null'
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        if not value:
            return "list"
        kinds = {describe_json(item) for item in value}
        if all(isinstance(item, list) for item in value) and len({len(i) for i in value}) == 1:
            first = value[0]
            if first and len({describe_json(v) for v in first}) > 1:
                return "list of [" + ", ".join(describe_json(v) for v in first) + "]"
        return "list of " + " or ".join(sorted(kinds))
    if isinstance(value, dict):
        if not value:
            return "object"
        kinds = {describe_json(item) for item in value.values()}
        return "object of str -> " + " or ".join(sorted(kinds))
    return type(value).__name__


def code_answer(spec: ScaffoldSpec, value: Any, expected: Mapping[str, Any]) -> Any:
    """The answer judged for a program's return ``value``: a dropped field is the
    reference's, whatever the program returned for it (a program need not return it)."""
    if not spec.code_dropped_fields or not isinstance(value, dict):
        return value
    judged = {k: v for k, v in value.items() if k not in spec.code_dropped_fields}
    for key in spec.code_dropped_fields:
        if key in expected:
            judged[key] = expected[key]
    return judged


def _shown_answer(spec: ScaffoldSpec, expected: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in expected.items() if k not in spec.code_dropped_fields}


def code_format(
    spec: ScaffoldSpec,
    *,
    python_version: str,
    time_limit: str,
    case: TestCase | None = None,
) -> str:
    """The Code Format section of ``spec``'s code-mode prompt: the program's contract,
    limits, answer conversion and the scaffold's own rules, with ``case`` (default
    :func:`worked_case`) worked."""
    case = case or worked_case(spec)
    largest = max(spec.code_ladder)  # the ladder runs past every tier's own size
    shown = _shown_answer(spec, case.expected)
    schema = "\n".join(f"- `{key}`: {describe_json(value)}" for key, value in case.input.items())
    answer_keys = ", ".join(f"`{key}`" for key in shown)
    lines = [
        "## Code Format",
        "",
        f"Do not work an instance by hand. Write a Python {python_version} program that "
        f"implements the scaffold's {spec.title or spec.name} for **any** input: a function",
        "",
        "```python",
        "def solve(input: dict) -> dict:",
        "    ...",
        "```",
        "",
        "that takes one input as a dict (the JSON object below, already parsed) and returns "
        "the Output Format's answer object as a dict. The harness runs it on many inputs of "
        f"every tier, the largest of size {largest:,} ({spec.size.unit}: write it for that "
        "size, not for a hand-worked trace), and judges every return value as it judges an "
        "answer.",
        "",
        "### Input",
        "",
        "The keys of every input, with the type of each value:",
        "",
        schema,
        "",
        "One input and the answer `solve` must return for it:",
        "",
        "```json",
        json.dumps(case.input, allow_nan=False),
        "```",
        "",
        "```json",
        json.dumps(shown, allow_nan=False),
        "```",
        "",
        "### Rules of the program",
        "",
        f"- Python {python_version}, standard library only. No files, no network, no "
        "processes or threads, no reading the environment; print nothing that matters "
        "(standard output is ignored).",
        "- `solve` is deterministic and keeps no state between calls: one interpreter "
        "serves many inputs, one call after another.",
        f"- Time limit per call: {time_limit}. What the program's top level does when it is "
        "loaded counts in the next call's time (the first, and the first after any restart). "
        "A call over it, a crash or running out of memory fails that input.",
        "- The work a trace shows (tables, one line per step) is not asked: return only the "
        "answer object.",
        "",
        "### From Python values to the answer",
        "",
        f"- Return a dict with exactly the keys {answer_keys}: no other key, none missing.",
        "- `None` where the Output Format says `null`; `True`/`False` for booleans.",
        "- An `int` wherever an integer is asked: never `3.0` (write `int(x)` where a "
        "float could creep in, or stay in integers).",
        "- No `float('inf')`, `nan` or sets anywhere: unreachable, absent or undefined "
        "values are `None` as the Output Format says; lists, not sets or tuples where order "
        "is asked.",
        "- Labels (vertex names, item names, strings) exactly as the input gives them.",
    ]
    if spec.code_rules:
        lines += [
            "",
            "### Fields with one exact rule",
            "",
            "A program returns these exactly as ruled here, whatever other forms the scaffold "
            "accepts from a hand trace:",
            "",
        ]
        lines += [f"- `{key}`: {rule}" for key, rule in spec.code_rules.items()]
    if spec.code_dropped_fields:
        lines += ["", "### Fields not asked in code mode", ""]
        lines += [
            f"- `{key}`: not asked ({reason}); leave it out (returned, it is ignored)."
            for key, reason in spec.code_dropped_fields.items()
        ]
    lines += [
        "",
        "### Your reply",
        "",
        "End your reply with exactly ONE fenced ```python block holding the whole program "
        "(the `solve` function and whatever it uses), and write nothing after it: in code "
        "mode it takes the place of the ```json block the scaffold's Output Format asks for "
        "(the program returns that answer).",
    ]
    return "\n".join(lines) + "\n"
