"""What a scaffold's Markdown states about its answers, read against its spec (the lines
of ``check`` on its words, :mod:`verification.certify.checks`): its sections in order, the
Output Format's example, the tolerances its field bullets state, and the shared sentences
on numbers (:mod:`verification.catalog.wording`) it must hold word for word."""

from __future__ import annotations

import math
import re

from verification.catalog.spec import ScaffoldSpec
from verification.catalog.wording import number_rules
from verification.errors import VerificationError
from verification.llm.prompt_builder import (
    REQUIRED_SECTIONS,
    PromptBuilder,
    ScaffoldParser,
    section_heading,
)
from verification.llm.response_parser import ResponseParser
from verification.validators.base import Tolerance

__all__ = [
    "check_output_format",
    "check_stated_tolerances",
    "number_wording",
    "scaffold_text",
    "stated_tolerances",
]


def scaffold_text(spec: ScaffoldSpec, builder: PromptBuilder) -> str:
    """The Markdown of ``spec``, its required sections in order (else a
    :class:`VerificationError` naming both orders by their headings)."""
    text = builder.get_scaffold_content(spec)
    sections = ScaffoldParser().parse(text)
    before = text.split("\n## ", 1)[0] if not text.startswith("## ") else ""
    if "title" not in sections or not _TITLE.search(before):
        # --baseline none sends the title with the task: a missing or demoted one is lost
        bom = " (it starts with a byte-order mark, U+FEFF: save it as UTF-8 without one)"
        raise VerificationError(
            "the file opens with no '# Title' line before its first section"
            + (bom if text.startswith("\ufeff") else "")
            + ": a scaffold's level-1 title comes first (every prompt, --baseline none's too, "
            "starts with it)"
        )
    order = [key for key in sections if key in REQUIRED_SECTIONS]
    if order != list(REQUIRED_SECTIONS):
        found, wanted = (
            ", ".join(map(section_heading, keys)) for keys in (order, REQUIRED_SECTIONS)
        )
        raise VerificationError(f"sections out of order: {found}; the order is {wanted}")
    keys = list(sections)
    if "conventions" in keys and not (
        keys.index("when_to_use") < keys.index("conventions") < keys.index("scaffold_instructions")
    ):
        raise VerificationError(
            "## Conventions belongs between ## When to Use and ## Scaffold Instructions (it is "
            "part of the task, which --baseline none sends without the method)"
        )
    return text


_TITLE = re.compile(r"^ {0,3}#[ \t]+\S", re.MULTILINE)
"""An ATX level-1 heading as CommonMark reads one (up to three spaces before it; one space
or tab or more after the ``#``)."""


def check_output_format(spec: ScaffoldSpec, text: str) -> str:
    """The first ```json block of the Output Format parses as an answer that fits the
    schema."""
    parser = ScaffoldParser()
    examples = parser.tagged_blocks(parser.parse(text)["output_format"], "json")
    if not examples:
        raise VerificationError("the Output Format shows no ```json block")
    parsed = ResponseParser().extract(spec, f"```json\n{examples[0]}\n```")
    if parsed.failed_level == 1 or parsed.answer is None:
        raise VerificationError(f"its example does not parse: {parsed.reason}")
    if not parsed.ok:
        raise VerificationError(f"its example does not fit the schema: {parsed.reason}")
    return "its example parses and fits the schema"


_FIELD = re.compile(r"- `(?P<field>[A-Za-z_]\w*)`")
_NUMBER = r"(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
_ACCEPTED = re.compile(rf"accepted\s+within\s+{_NUMBER}")
_RELATIVE = re.compile(rf"relative\s+(?:tolerance\s+)?(?:of\s+)?{_NUMBER}")
_ROUNDED = re.compile(r"rounded\s+to\s+(\d+)\s+decimal\s+places")


def _field_bullets(output_format: str) -> dict[str, str]:
    """Each ``- `field`: ...`` bullet's text (its indented continuation lines included)."""
    bullets: dict[str, str] = {}
    field: str | None = None
    for line in output_format.splitlines():
        if line.startswith("- "):
            named = _FIELD.match(line)
            field = named["field"] if named else None
            if field is not None:
                bullets[field] = line
        elif field is not None and line[:1].isspace() and line.strip():
            bullets[field] += "\n" + line
        else:
            field = None
    return bullets


def stated_tolerances(output_format: str) -> dict[str, Tolerance]:
    """The tolerance each field's bullet of an Output Format states, by field: the figure
    after "accepted within" (and after "relative", when a bullet states one)."""
    stated: dict[str, Tolerance] = {}
    for field, body in _field_bullets(output_format).items():
        accepted = _ACCEPTED.search(body)
        if accepted:
            relative = _RELATIVE.search(body)
            stated[field] = Tolerance(float(accepted[1]), float(relative[1]) if relative else 0.0)
    return stated


def _rounding(output_format: str, field: str) -> int | None:
    rounded = _ROUNDED.search(_field_bullets(output_format).get(field, ""))
    return int(rounded[1]) if rounded else None


def number_wording(spec: ScaffoldSpec, text: str) -> tuple[tuple[str, ...], list[str]]:
    """The shared sentences the Output Format of ``spec`` (in its Markdown ``text``) must
    state word for word (:func:`~verification.catalog.wording.number_rules`: the judge does
    what they say, so a model must be told), and those it lacks."""
    output_format = " ".join(ScaffoldParser().parse(text)["output_format"].split())
    rules = number_rules(spec, output_format)
    return rules, [rule for rule in rules if " ".join(rule.split()) not in output_format]


def check_stated_tolerances(spec: ScaffoldSpec, text: str) -> str:
    """What the Output Format says is accepted is exactly what the spec applies."""
    output_format = ScaffoldParser().parse(text)["output_format"]
    stated, applied = stated_tolerances(output_format), dict(spec.tolerances)
    for field in sorted(applied.keys() - stated.keys()):
        raise VerificationError(
            f"the spec accepts {field} within {applied[field]}, but the Output Format states "
            f'no tolerance for it: say "is accepted within ..." in its `{field}` bullet'
        )
    for field in sorted(stated.keys() - applied.keys()):
        raise VerificationError(
            f"the Output Format states a tolerance for {field} ({stated[field]}) that the "
            "spec does not apply"
        )
    for field, bound in sorted(applied.items()):
        said = stated[field]
        if not (
            math.isclose(said.absolute, bound.absolute, rel_tol=1e-9)
            and math.isclose(said.relative, bound.relative, rel_tol=1e-9)
        ):
            raise VerificationError(
                f"{field}: the Output Format states {said}, the spec applies {bound}"
            )
        decimals = _rounding(output_format, field)
        if decimals is not None and bound.absolute < 0.5 * 10.0**-decimals:
            raise VerificationError(
                f"{field}: a tolerance of {bound.absolute:g} is tighter than the rounding to "
                f"{decimals} decimal places the Output Format asks for"
            )
    return "; ".join(f"{f}: {b}, as stated" for f, b in sorted(applied.items())) or "none stated"
