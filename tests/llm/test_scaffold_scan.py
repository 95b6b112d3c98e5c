"""The scaffold check's line scan finds the headings CommonMark (markdown-it) finds, or
declines and leaves the file to markdown-it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from verification.config import packaged_scaffolds_dir
from verification.llm import prompt_builder
from verification.llm.prompt_builder import ScaffoldParser
from verification.registry import SPECS

# Lines that each change how CommonMark reads the lines after them, or are read otherwise
# inside a container: fences of both kinds and lengths, HTML blocks, headings in and out
# of lists and block quotes, setext underlines, indentation, odd characters.
LINES = [
    "",
    "   ",
    "text",
    "# Title",
    "#  Other title  ",
    "## When to Use",
    "## Edge Cases ",
    "##",
    "## Closed ##",
    "## C# notes",
    "## a \\# b",
    "#no space",
    "####### seven",
    "### Three",
    "  ## Indented",
    "    ## Code",
    "\t## Tab",
    "- ## In a list",
    "- item",
    "- #4 = (empty)",
    "> #4",
    "  ## In the item",
    "1. first",
    "   ```",
    "> ## Quoted",
    "> quote",
    ">",
    "```",
    "````",
    "```md",
    "``` `tick`",
    "``",
    "~~~",
    "~~~~ info ```",
    "  ~~~",
    "    ```",
    "- ```",
    "<!--",
    "<!-- one line -->",
    "-->",
    "text -->",
    "  <!--",
    "<div>",
    "</div>",
    "<pre>",
    "---",
    "===",
    "- - -",
    "***",
    "[ref]: /url",
    '[ref]: /url "title',
    "1234567890. deep",
    "  0.00000005 of",
    "2. - - - x",
    "-## x",
    "          - deep",
    ">>>>>>>>>>>>>>>>>>>>>>> ## deep",
    "a\rb",
    "\x0b## v",
    "\u2028",
    "\ufeff## bom",
    "## \u00a0spaced",
]


def _agrees(text: str) -> bool:
    scanned = prompt_builder._scan_headings(text)
    return scanned is None or scanned == prompt_builder._parsed_headings(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=14), st.booleans())
def test_the_scan_agrees_with_commonmark_or_declines(lines: list[str], newline: bool) -> None:
    text = "\n".join(lines) + ("\n" if newline else "")
    assert _agrees(text), text


def test_every_packaged_scaffold_is_scanned_as_commonmark_reads_it() -> None:
    # The scan is there to spare the full parse of the files a run checks: it must read
    # every packaged scaffold itself, and read it as markdown-it does.
    for name, spec in SPECS.items():
        path = spec.markdown or packaged_scaffolds_dir() / spec.scaffold_file
        text = path.read_text(encoding="utf-8")
        scanned = prompt_builder._scan_headings(text)
        assert scanned is not None, name
        assert scanned == prompt_builder._parsed_headings(text), name


def test_sections_are_the_same_whichever_reads_the_file() -> None:
    text = "# T\n\n## When to Use\nA\n<!--\n## Hidden\n-->\n```md\n## Not\n```\n## Edge Cases\nB\n"
    declined = text + "\n> ## Quoted\n"  # a heading in a block quote: markdown-it reads it
    assert prompt_builder._scan_headings(declined) is None
    sections = ScaffoldParser().parse(declined)
    assert sections["quoted"] == "" and sections["edge_cases"] == "B"
    assert ScaffoldParser().parse(text) == {
        key: value for key, value in sections.items() if key != "quoted"
    }
