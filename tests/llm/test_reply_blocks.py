"""The reply's code blocks found line by line (``_plain_fences``, the parser's fast path
for replies made of paragraphs, lists and fences) are markdown-it's, wherever it answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from verification.cases import parse_case_id
from verification.llm.reply_blocks import _markdown_code, _plain_fences
from verification.registry import SPECS, get_spec
from verification.runner import plan_cases

# Lines chosen to meet every branch of the fence rule and of the line model: fences of
# both markers and of several lengths, indented by up to four spaces, with info strings
# (a backtick in one makes no fence), closers too short or with text after them, blank
# lines and lines of spaces; list items (empty, stacked, with a fence or code in them,
# continued), and lines that open other blocks (left to markdown-it).
PLAIN = [
    "```",
    "```json",
    "``` json extra",
    "````",
    "~~~",
    "~~~~ python",
    "``",
    "```a`b",
    "~~~ a`b",
    "``` ",
    "```  x",
    " ```",
    "   ```json",
    "    ```",
    "  ~~~",
    "{",
    '  "a": 1',
    "}",
    "Prose with `code` and {braces}.",
    "# heading",
    "==",
    "",
    " ",
    "   ",
    "     ",
    "\u00a0nbsp",
    "```\u00a0",
    "- item",
    "* item",
    "+ item",
    "1. item",
    "2) item",
    "-",
    "1.",
    "- - x",
    "- 1. * x",
    "- - - - x",
    "- ```json",
    "1. ~~~",
    "-     code",
    "-    four",
    "  - sub",
    "   more",
    "10 lines",
    "-1 x",
    "**bold**",
    "- > quote",
    "1. <b>",
]
OTHER = ["    indented", "> quote", "<div>", "x\ty"]
ENDS = ["", "\n", "\n\n", " ", "\n  "]
REPLIES = st.builds(
    lambda lines, end: "\n".join(lines) + end,
    st.lists(st.sampled_from(PLAIN), max_size=14)
    | st.lists(st.sampled_from(PLAIN + OTHER), max_size=14),
    st.sampled_from(ENDS) | st.sampled_from(["\r\n", "\x00"]),
)


@settings(max_examples=200)
@given(REPLIES)
@example("")
@example("```json\n{}\n```")
@example("text\n```json\n  {}\n```  \n  ")
@example("  ```\n   a\n b\nc\n     d\n  ````")
def test_the_line_by_line_blocks_are_markdown_its(text: str) -> None:
    found = _plain_fences(text)
    if found is not None:
        assert found == _markdown_code(text)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_reply_of_prose_and_its_answer_fence_is_read_without_markdown_it(name: str) -> None:
    spec = get_spec(name)
    case = plan_cases([name], seed=1, cases=1)[name][0]
    reply = "Reference answer (dry run).\n\n" + spec.render_answer(case.expected)
    found = _plain_fences(reply)
    assert found is not None and found == _markdown_code(reply)
    assert [kind for kind, *_ in found] == ["fence"]


def test_every_recorded_model_reply_is_read_without_markdown_it() -> None:
    """The hand-written replies to real prompts (numbered steps, lists, then the answer)."""
    folder = Path(__file__).parent / "fixtures" / "helper_answers"
    replies = sorted(folder.glob("*.txt"))
    assert replies
    for path in replies:
        assert parse_case_id(path.stem) is not None
        text = path.read_text(encoding="utf-8")
        found = _plain_fences(text)
        assert found is not None, path.name
        assert found == _markdown_code(text), path.name


def test_other_blocks_are_left_to_markdown_it() -> None:
    for text in [
        "- a\n  ```json\n  {}\n  ```",
        "- ```json\n  {}\n  ```",
        "> ```\n> {}",
        "    {}",
        "<p>\n```\n",
        "a\r\nb",
        "- - - - x",
    ]:
        assert _plain_fences(text) is None
