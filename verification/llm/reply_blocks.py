"""A reply's code blocks as a CommonMark reader sees them (fences in list items and
blockquotes count): markdown-it's block rules, with a line-by-line fast path for the replies
most models write. The response parser finds the answer among them; code mode, the program.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from markdown_it import MarkdownIt

__all__ = [
    "REASONING_ONLY",
    "Block",
    "after_reasoning",
    "code_blocks",
    "fenced_blocks",
    "reply_lines",
]


# A tag counts where a model writes one, on a line's start or end: inside a line (a JSON
# string, a program's text) it is data.
_REASONING_OPENS = re.compile(r"^[ \t]*<think(?:ing)?>|<think(?:ing)?>[ \t]*$", re.I | re.M)
_REASONING_ENDS = re.compile(r"^[ \t]*</think(?:ing)?>|</think(?:ing)?>[ \t]*$", re.I | re.M)
REASONING_ONLY = "the reply holds only reasoning (<think>...</think>) and no final answer after it"
"""Why a reply whose every word is inline reasoning has no answer."""


def after_reasoning(text: str) -> str:
    """``text`` less the reasoning a model wrote inline: everything up to its last
    ``</think>`` (R1's template opens the block in the prompt, so the reply may hold only
    the close), and everything from a ``<think>`` left open after that (``<thinking>``
    alike, in any case; a tag counts at a line's start or end, where models write them,
    not inside a line). Reasoning models served without a reasoning parser (vLLM's
    default, llama.cpp's ``--reasoning-format none``, a proxy in front of them) send their
    whole chain of thought in the reply's text, drafts of the answer included: the answer
    is what follows it, as a thinking block is never the answer on the Messages API."""
    if "hink" not in text and "HINK" not in text:  # most replies: one pass in C
        return text
    text = text[max((ends.end() for ends in _REASONING_ENDS.finditer(text)), default=0) :]
    opens = _REASONING_OPENS.search(text)
    return text if opens is None else text[: opens.start()]


class Block(NamedTuple):
    tag: str
    body: str
    first_line: int
    end_line: int
    """One past the block's last line (its closing fence, if it has one)."""
    closed: bool


@cache
def _markdown() -> MarkdownIt:
    # Block structure only (fences inside list items and blockquotes included); no inline
    # parsing at all, which we do not need and which is the slow part on long replies (the
    # core "inline" pass still walks every paragraph with no inline rule enabled).
    return (
        MarkdownIt("zero")
        .enable(["fence", "code", "blockquote", "list", "html_block"])
        .disable(["inline", "text_join"])
    )


_Code = tuple[str, int, int, str, str, str]
"""A code block as markdown-it gives it: its token's type, first line, end line, markup,
info string and content."""
_LIST_MARKER = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)])(?= |$)")
"""A list item's marker, as it may start a line's text (the spaces after it follow)."""
_STACKED_MARKERS = 3
"""List markers one line may open (``- 1. x``): a few, far from markdown-it's nesting cap."""


def _plain_fences(text: str) -> list[_Code] | None:
    """The code blocks markdown-it (as :func:`_markdown` configures it) finds in ``text``,
    found line by line without building its tokens, when ``text`` holds only paragraphs,
    lists whose items hold no code, and fences (as most replies do: prose and numbered
    steps, then the answer's fence); ``None`` when it may hold any other block, for
    markdown-it to read: a line that could open a block quote, an HTML block or an
    indented code block, a fence that could stand in a list item (a fence line after a
    list marker, or indented once a list was seen), or a tab, carriage return or NUL
    (which markdown-it rewrites). A fence then stands at the top level: it interrupts a
    paragraph and ends a list (a line with less indentation than an item's text continues
    only its paragraph, and a fence continues none), so every other line is a paragraph's
    or a list item's and makes no code block. The rules followed are markdown-it's
    ``fence`` rule and its line model (a last line of spaces alone is none);
    ``tests/llm/test_reply_blocks.py`` holds the two to the same blocks."""
    if "\t" in text or "\r" in text or "\0" in text:
        return None
    lines = text.split("\n")
    last_ended = not lines[-1].strip(" ")  # then the last line of ``lines`` ends in \n
    if last_ended:
        lines.pop()
    blocks: list[_Code] = []
    count = len(lines)
    listed = False  # a list marker was seen: an indented fence could be in an item
    line = 0
    while line < count:
        body = lines[line].lstrip(" ")
        if not body:
            line += 1
            continue
        indent = len(lines[line]) - len(body)
        if indent > 3:
            return None
        rest, stacked = body, 0
        while (found := _LIST_MARKER.match(rest)) is not None:
            after = rest[found.end() :]
            rest = after.lstrip(" ")
            if stacked == _STACKED_MARKERS or (rest and len(after) - len(rest) > 4):
                return None  # lists nest deep, or the item's text is indented code
            stacked += 1
        listed = listed or stacked > 0
        if rest[:1] in ("<", ">"):
            return None
        marker = rest[:1]
        length = len(rest) - len(rest.lstrip(marker)) if marker in ("`", "~") else 0
        info = rest[length:]
        if length < 3 or (marker == "`" and "`" in info):
            line += 1  # a paragraph's or a list item's line
            continue
        if stacked or (listed and indent):
            return None
        end = line + 1
        closed = False
        while end < count:
            rest = lines[end].lstrip(" ")
            if rest[:1] == marker and len(lines[end]) - len(rest) < 4:
                tail = rest.lstrip(marker)
                if len(rest) - len(tail) >= length and not tail.strip(" "):
                    closed = True
                    break
            end += 1
        content = [
            lines[inner][min(indent, len(lines[inner]) - len(lines[inner].lstrip(" "))) :]
            for inner in range(line + 1, end)
        ]
        ended = end < count or last_ended  # the last line of the content ends in \n
        body_text = "\n".join(content) + ("\n" if content and ended else "")
        after_fence = end + 1 if closed else end
        blocks.append(("fence", line, after_fence, marker * length, info, body_text))
        line = after_fence
    return blocks


def _markdown_code(text: str) -> list[_Code]:
    """The code blocks markdown-it finds in ``text``."""
    return [
        (token.type, token.map[0], token.map[1], token.markup, token.info, token.content)
        for token in _markdown().parse(text)
        if token.type in ("fence", "code_block") and token.map is not None
    ]


_LINE_BREAK = re.compile(r"\r\n?|\n")


def reply_lines(text: str) -> list[str]:
    """``text``'s lines as CommonMark counts them, and so as the code blocks' line numbers
    count (breaks are ``\\n``, ``\\r\\n`` and ``\\r``): not :meth:`str.splitlines`, which
    also breaks at a form feed, U+0085 or U+2028 and so would put every later block's
    lines off by one."""
    return _LINE_BREAK.split(text)


def code_blocks(text: str, lines: list[str]) -> list[Block]:
    """Every code block of the reply, as a CommonMark reader would see it."""
    blocks = []
    found = _plain_fences(text)
    for kind, first, end, markup, info, content in (
        found if found is not None else _markdown_code(text)
    ):
        closed = kind == "code_block"
        if kind == "fence" and end - first >= 2 and end <= len(lines):
            closer = lines[end - 1].strip().lstrip(">").strip()
            closed = closer.startswith(markup) and set(closer) == {markup[0]}
        tag = info.strip().split(maxsplit=1)[0].lower() if info.strip() else ""
        blocks.append(Block(tag, content, first, end, closed))
    return blocks


def fenced_blocks(text: str) -> list[tuple[str, str, bool]]:
    """Every code block of ``text`` as a CommonMark reader sees it: its tag (lower case,
    ``""`` untagged), its body and whether it is closed (code mode reads its program
    from the last ```python block)."""
    return [(b.tag, b.body, b.closed) for b in code_blocks(text, reply_lines(text))]
