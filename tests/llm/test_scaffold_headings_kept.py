"""A scaffold's headings are found once per text: the sections are what reading it afresh
gives, and an edited text is read again."""

from __future__ import annotations

from typing import Any

import pytest

from verification.catalog import default_catalog
from verification.config import packaged_scaffolds_dir
from verification.llm import prompt_builder as module
from verification.llm.prompt_builder import PromptBuilder, ScaffoldParser

_SCAN = module._scan_headings


def _afresh(markdown: str) -> dict[str, str]:
    """The sections as parse gave them with the headings found on every call."""
    found = _SCAN(markdown)
    title, headings = found if found is not None else module._parsed_headings(markdown)
    lines = markdown.splitlines(keepends=True)
    sections: dict[str, str] = {} if title is None else {"title": title}
    for index, (text, _, body_start) in enumerate(headings):
        end = headings[index + 1][1] if index + 1 < len(headings) else len(lines)
        sections[ScaffoldParser.section_key(text)] = "".join(lines[body_start:end]).strip()
    return sections


def test_each_text_is_scanned_once_and_parsed_as_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    module._headings.cache_clear()
    scanned: list[str] = []

    def counted(markdown: str) -> Any:
        scanned.append(markdown)
        return _SCAN(markdown)

    monkeypatch.setattr(module, "_scan_headings", counted)
    texts = [
        PromptBuilder(packaged_scaffolds_dir()).get_scaffold_content(name)
        for name in default_catalog()
    ]
    assert len(scanned) == len(set(texts))
    parser = ScaffoldParser()
    for text in texts:
        sections = parser.check(text, source="a scaffold")
        assert sections == _afresh(text)
        sections.clear()  # a caller's dict is its own
        assert parser.parse(text) == _afresh(text)
    assert len(scanned) == len(set(texts))  # read again, none scanned again
    edited = texts[0].replace("\n## ", "\n## Edited ", 1)
    assert parser.parse(edited) == _afresh(edited) != parser.parse(texts[0])
    assert len(scanned) == len(set(texts)) + 1  # the edit


def test_a_text_markdown_it_reads_is_kept_as_it_read_it() -> None:
    text = "# T\n\n> ## Quoted\n\n## When to Use\n\n- ## In a list\n\nbody\n"
    assert module._scan_headings(text) is None  # markdown-it's reading, not the scan's
    assert ScaffoldParser().parse(text) == _afresh(text) == ScaffoldParser().parse(text)
