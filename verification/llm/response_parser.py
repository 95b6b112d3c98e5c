"""Taking a structured answer out of a model's reply, in two of the three levels.

Level 1, syntactic: the reply's final JSON answer is found and decodes to an object.
Level 2, contract: the object passes the scaffold's answer schema in strict mode.
(Level 3, behavioural, is the validator's, in the runner.)

The reply is read as CommonMark blocks (fences in list items and blockquotes count). The
final answer is the last code block tagged ``json`` (or untagged) whose body starts with ``{``
or ``[`` (an array is then a level 1 failure); with no such block, the last ``{...}`` outside
every code block and every other object, ending in the reply's final
:data:`UNFENCED_WINDOW` characters. More JSON after the final answer makes the reply
ambiguous: level 1, never a guess in the model's favour; other text after it is forgiven
and recorded (``text_after_answer``).
Model text is data: it is never evaluated, and nothing in it can make
:meth:`ResponseParser.extract` raise. The accepted deviations are a closed list,
:data:`LENIENCIES`, and each one used is recorded with the answer.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from verification.catalog import Catalog, default_catalog
from verification.catalog.compat import LegacyParserAPI
from verification.catalog.spec import ScaffoldSpec
from verification.llm.base import MAX_REPLY_CHARS

# fenced_blocks: code mode reads its program from the blocks, as it did from here.
from verification.llm.reply_blocks import (
    REASONING_ONLY,
    after_reasoning,
    code_blocks,
    fenced_blocks,
    reply_lines,
)
from verification.store.json_text import JsonText

__all__ = [
    "LENIENCIES",
    "MAX_ANSWER_CHARS",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_REPLY_CHARS",
    "UNFENCED_WINDOW",
    "ParsedAnswer",
    "ResponseParser",
    "fenced_blocks",
]

LENIENCIES: dict[str, str] = {
    "untagged_fence": "the answer's code fence has no `json` tag",
    "no_fence": "the answer is a bare JSON object in the text, not in a code fence",
    "trailing_comma": "commas before a closing `}` or `]` were dropped",
    "two_final_blocks": "two answer blocks end the reply with nothing between them (the "
    "scaffold asks for one); the last was taken",
    "text_after_answer": "text follows the answer (the scaffold asks for nothing after it); "
    "it holds no JSON object, so the answer is still the last, and the text was ignored",
}
"""Every deviation from the Output Format the parser forgives, and nothing else."""

MAX_ANSWER_CHARS = 1024 * 1024
MAX_DEPTH = 64
MAX_INT_DIGITS = 100
UNFENCED_WINDOW = 128 * 1024
_JSON_TAGS = {"", "json"}
_JSONISH = re.compile("\\{[\\s>\u200b-\u200d\u2060\ufeff]*[\"']")
"""The start of an object with a quoted key: JSON (or a dict) somewhere it must not be."""
_FENCE_ON_LAST_LINE = re.compile(r"[}\]]\s*(`{3,}|~{3,})\s*\Z")
"""An answer block's body that ends in its own closing fence, written on the JSON's last
line: CommonMark closes a fence only on a line of its own."""
_TOKENS = re.compile(r'\\.|["{}\[\]]', re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")
"""A surrogate code point: with no such character and no ``\\u`` escape in a candidate, no
string it decodes to can hold a lone surrogate, and the walk over its strings is skipped."""
_LONG_DIGITS = re.compile(f"[0-9]{{{MAX_INT_DIGITS + 1}}}")
"""More digits in a row than an integer may have: without such a run no integer literal is
too long, and the integers are read by :func:`json.loads` itself."""


class _Rejected(ValueError):
    """A JSON value the parser refuses (too long, not finite)."""


@dataclass(frozen=True)
class ParsedAnswer:
    """What was taken from a reply: the answer, or the level it failed at and why."""

    answer: dict[str, Any] | None
    """The decoded object (kept even when it fails the contract, for the journal)."""
    failed_level: int | None
    """1 (syntactic), 2 (contract), or None when the answer is usable."""
    reason: str
    leniency: tuple[str, ...] = field(default=())
    """Which of :data:`LENIENCIES` were needed."""

    @property
    def ok(self) -> bool:
        """True when the answer passed levels 1 and 2."""
        return self.failed_level is None


# A named tuple, not a frozen dataclass: one is made per code block of every reply, and a
# frozen dataclass's __init__ costs several times as much.
def _max_depth(text: str, limit: int) -> int:
    depth = deepest = 0
    in_string = False
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token[0] == "\\":
            continue
        if token == '"':
            in_string = not in_string
        elif not in_string:
            if token in "{[":
                depth += 1
                deepest = max(deepest, depth)
                if deepest > limit:
                    break
            else:
                depth -= 1
    return deepest


_OPENING = re.compile(r"\\.|\{", re.DOTALL)
"""What counts between objects: a backslash escape (its character is no brace) or ``{``."""
_IN_OBJECT = re.compile(r'"(?:\\.|[^"\\])*+(?:"|\\?\Z)|\\.|([{\[]+)|([}\]]+)', re.DOTALL)
"""What counts inside an object: a whole string (one left open runs to the end), a backslash
escape, or a run of opening (group 1) or closing (group 2) brackets: the tokens
:data:`_TOKENS` gives, a string's and a run's at once."""


def _last_top_level_object(text: str) -> tuple[tuple[int, int] | None, bool]:
    """Where the last balanced ``{...}`` at top level of ``text`` starts and ends (quotes
    count only inside an object; ``None``: none), and whether an object opened after it is
    never closed. The whole text is read: an object is top level only if nothing opened
    before it is still open, which no tail of the text can tell."""
    last: tuple[int, int] | None = None
    position = 0
    while (opening := _OPENING.search(text, position)) is not None:
        position = opening.end()
        if opening.group() != "{":
            continue
        depth = 1
        while depth and (token := _IN_OBJECT.search(text, position)) is not None:
            position = token.end()
            opened, closed = token.span(1), token.span(2)
            if opened[0] >= 0:
                depth += opened[1] - opened[0]
            elif closed[0] >= 0:
                if closed[1] - closed[0] >= depth:  # the object ends inside the run
                    position = closed[0] + depth
                    depth = 0
                else:
                    depth -= closed[1] - closed[0]
        if depth:
            return last, True
        last = (opening.start(), position)
    return last, False


# A string never closed runs to the end of the text (possessive: nothing is given back to be
# tried again from each later quote, which made a reply of escaped quotes quadratic).
_STRING_OR_DANGLING_COMMA = re.compile(r'"(?:\\.|[^"\\])*+(?:"|\\?\Z)|,(?=\s*[}\]])', re.DOTALL)


def _strip_trailing_commas(text: str) -> str:
    """Drop each comma that stands right before ``}`` or ``]``, outside strings (linear,
    whatever the text: a string left open takes the rest of it)."""
    return _STRING_OR_DANGLING_COMMA.sub(lambda m: "" if m.group() == "," else m.group(), text)


def _parse_int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INT_DIGITS:
        raise _Rejected(f"an integer with {len(literal.lstrip('-'))} digits")
    return int(literal)


def _parse_float(literal: str) -> float:
    value = float(literal)
    if value in (float("inf"), float("-inf")):
        raise _Rejected(f"a number out of range ({literal[:20]})")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) != len(pairs):
        repeated = sorted(k for k, n in Counter(key for key, _ in pairs).items() if n > 1)
        raise _Rejected(f"a repeated key {repeated[0]!r:.40} (which value is meant?)")
    return made


def _unique_unicode_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = _unique_keys(pairs)
    for key in made:
        _no_lone_surrogate(key)
    return made


def _no_lone_surrogate(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _Rejected("a lone surrogate escape (not Unicode text)") from None


def _parse_constant(literal: str) -> Any:
    raise _Rejected(f"{literal} is not JSON (use null)")


def _check_strings(value: Any) -> None:
    if isinstance(value, str):
        _no_lone_surrogate(value)
    elif isinstance(value, list):
        for item in value:
            _check_strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            _check_strings(item)


_DECODERS = {
    (long_digits, unicode): json.JSONDecoder(
        parse_int=_parse_int if long_digits else None,
        parse_float=_parse_float,
        parse_constant=_parse_constant,
        object_pairs_hook=_unique_unicode_keys if unicode else _unique_keys,
    )
    for long_digits in (False, True)
    for unicode in (False, True)
}
"""The decoder of an answer, by (whether it has an integer too long to take unread,
whether it may hold a lone surrogate), made once: ``json.loads`` with options builds one
(and its scanner) on every call. A decoder keeps no state between documents."""


def _json_value(candidate: str, *, unicode: bool) -> Any:
    """What ``json.loads`` gives for ``candidate`` with the answer's options (``unicode``:
    it may hold a lone surrogate), through one of :data:`_DECODERS`."""
    if candidate.startswith("\ufeff"):  # json.loads refuses it before decoding
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", candidate, 0)
    return _DECODERS[_LONG_DIGITS.search(candidate) is not None, unicode].decode(candidate)


def _decode(body: str) -> tuple[Any, tuple[str, ...], str | None]:
    """Decode a candidate: (value, leniencies, None) or (None, (), why not)."""
    if len(body) > MAX_ANSWER_CHARS:
        return None, (), f"the answer block is larger than {MAX_ANSWER_CHARS // 1024} KiB"
    # No deeper than its opening brackets are many: most answers need no walk to know it.
    if body.count("{") + body.count("[") > MAX_DEPTH and _max_depth(body, MAX_DEPTH) > MAX_DEPTH:
        return None, (), f"the answer is nested deeper than {MAX_DEPTH} levels"
    first_error = ""
    for relax in (False, True):
        candidate = body
        leniency: tuple[str, ...] = ()
        if relax:  # only once the text as written fails
            candidate, leniency = _strip_trailing_commas(body), ("trailing_comma",)
            if candidate == body:
                break
        unicode = "\\u" in candidate or _SURROGATE.search(candidate) is not None
        try:
            value = _json_value(candidate, unicode=unicode)
            if unicode:
                _check_strings(value)
        except _Rejected as exc:
            return None, (), f"the answer holds {exc}"
        except json.JSONDecodeError as exc:
            first_error = first_error or f"invalid JSON: {exc.msg} at line {exc.lineno}"
            continue
        except (RecursionError, ValueError) as exc:
            return None, (), f"the answer cannot be decoded ({type(exc).__name__})"
        return value, leniency, None
    return None, (), first_error


_json_text = JsonText(check_circular=False)
"""``json.dumps(value)`` of a decoded answer (JSON data, so no cycle and nothing for
``default`` to write: the text is the same), by an encoder made once: ``json.dumps`` makes
one per call, most of the cost of writing a small answer."""


class ResponseParser(LegacyParserAPI):
    """Finds, decodes and checks the final JSON answer of a reply.

    ``parse``, the API reference's raising form of :meth:`extract`, is inherited from
    :mod:`verification.catalog.compat`. Methods take the scaffold's spec, or its name
    (looked up in ``catalog``, by default the process's catalog).
    """

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog

    def _spec(self, scaffold: ScaffoldSpec | str) -> ScaffoldSpec:
        if isinstance(scaffold, ScaffoldSpec):
            return scaffold
        return (self.catalog or default_catalog()).get_spec(scaffold)

    def extract(self, scaffold: ScaffoldSpec | str, text: str | None) -> ParsedAnswer:
        """Levels 1 and 2 for ``text``; never raises on model text."""
        if text is None or not text.strip():
            return ParsedAnswer(None, 1, "the reply is empty")
        if len(text) <= MAX_REPLY_CHARS:  # a longer one is refused as it is, unread
            text = after_reasoning(text)
            if not text.strip():
                return ParsedAnswer(None, 1, REASONING_ONLY)
        value, leniency, problem = self._syntactic(text)
        if problem is not None:
            return ParsedAnswer(None, 1, problem, leniency)
        if not isinstance(value, dict):
            kind = "an array" if isinstance(value, list) else type(value).__name__
            return ParsedAnswer(None, 1, f"the answer is {kind}, not a JSON object", leniency)
        schema = self._spec(scaffold).answer_schema
        try:
            # JSON mode: the answer is JSON, so arrays may fill tuples; "3" is still no int.
            schema.model_validate_json(_json_text(value), strict=True)
        except ValidationError as exc:
            return ParsedAnswer(value, 2, _summarise(exc), leniency)
        return ParsedAnswer(value, None, "answer found and matches the schema", leniency)

    @staticmethod
    def _syntactic(text: str) -> tuple[Any, tuple[str, ...], str | None]:
        if len(text) > MAX_REPLY_CHARS:
            return None, (), f"the reply is longer than {MAX_REPLY_CHARS // 1024 // 1024} MiB"
        text = text.removeprefix("\ufeff")
        lines = reply_lines(text)
        blocks = code_blocks(text, lines)
        if blocks and not blocks[-1].closed:
            last = blocks[-1]
            if (
                len(blocks) > 1
                and last.tag == ""
                and not last.body.strip()
                and not "".join(lines[blocks[-2].end_line : last.first_line]).strip()
            ):
                # A closing fence written twice, right after a whole block, opens an empty
                # one that never closes: a stray closer, no text (hunt oo). After prose ("the
                # correct answer is:") it is an answer begun and cut off, as a tagged or a
                # non-empty one is (hunt rr).
                blocks = blocks[:-1]
            elif last.tag in _JSON_TAGS and _FENCE_ON_LAST_LINE.search(last.body):
                return (
                    None,
                    (),
                    (
                        "the answer's closing ``` stands on its last line, so its fence never "
                        "closes: write the closing fence on a line of its own"
                    ),
                )
            else:
                return None, (), "the reply ends inside an unclosed code fence"
        in_code = {i for b in blocks for i in range(b.first_line, b.end_line)}

        def outside(start: int = 0) -> str:
            return "\n".join(lines[i] for i in range(start, len(lines)) if i not in in_code)

        def later_blocks(line: int) -> list[str]:
            return [f"```\n{b.body}" for b in blocks if b.first_line >= line]

        answers = [
            b for b in blocks if b.tag in _JSON_TAGS and b.body.lstrip().startswith(("{", "["))
        ]
        if answers:
            final = answers[-1]
            after = "\n".join([outside(final.end_line), *later_blocks(final.end_line)])
            if _JSONISH.search(after):
                return None, (), "more JSON follows the final answer block (which is meant?)"
            value, leniency, problem = _decode(final.body)
            if final.tag == "":
                leniency = ("untagged_fence", *leniency)
            if (
                len(answers) > 1
                and not "".join(lines[answers[-2].end_line : final.first_line]).strip()
                and answers[-2].body.lstrip().startswith("{")
            ):
                # An answer before the answer, even a broken one: a block of work (a
                # table's rows, each a list) is none (hunt oo: counted as a second answer).
                leniency = ("two_final_blocks", *leniency)
            return value, _noting_text_after(leniency, after), problem
        if any(_JSONISH.search(b.body) for b in blocks):
            return None, (), "JSON stands only in a code block not tagged json"
        # No answer block: the last object written outside every fence is the answer, and
        # if it does not decode the reply fails (never fall back to an earlier object).
        kept = [i for i in range(len(lines)) if i not in in_code]
        text_outside = "\n".join(lines[i] for i in kept)
        found, object_left_open = _last_top_level_object(text_outside)
        if object_left_open:
            return None, (), "the reply's last {...} is never closed (cut off, or unbalanced)"
        if found is None or found[1] < len(text_outside) - UNFENCED_WINDOW:
            return None, (), "no JSON object found in the reply"
        start, end = found
        value, leniency, problem = _decode(text_outside[start:end])
        if problem is not None:
            return None, (), problem + " (in the last {...} of the reply, which has no fence)"
        end_line = kept[text_outside.count("\n", 0, end)] if kept else 0
        after = "\n".join([text_outside[end:], *later_blocks(end_line + 1)])
        return value, _noting_text_after(("no_fence", *leniency), after), None


def _noting_text_after(leniency: tuple[str, ...], after: str) -> tuple[str, ...]:
    """``leniency``, and ``text_after_answer`` when ``after`` (what follows the answer) is
    more than blank lines: "nothing after it" is forgiven only if recorded. Stray backticks
    alone (the end of a fence written on the answer's own line) are no text."""
    return (*leniency, "text_after_answer") if after.strip().strip("`") else leniency


def _summarise(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors()[:3]:
        where = ".".join(str(p) for p in error["loc"]) or "$"
        parts.append(f"{where}: {error['msg']}")
    more = exc.error_count() - len(parts)
    return "schema: " + "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")
