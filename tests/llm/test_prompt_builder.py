"""Prompts: the scaffold verbatim as system prompt, the input in a versioned template."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tests.support.checked import checked
from verification.catalog import default_catalog
from verification.catalog.spec import format_input_as_json
from verification.config import packaged_scaffolds_dir
from verification.errors import ScaffoldFileError
from verification.llm.prompt_builder import PromptBuilder, ScaffoldParser
from verification.registry import DEFAULT_SEED, SPECS
from verification.runner import plan_cases


def test_system_is_the_file_verbatim_and_user_holds_the_input() -> None:
    builder = PromptBuilder(packaged_scaffolds_dir())
    (case,) = plan_cases(["kruskal"], seed=DEFAULT_SEED, cases=1)["kruskal"]
    prompt = builder.build("kruskal", case.input)
    path = packaged_scaffolds_dir() / SPECS["kruskal"].scaffold_file
    assert prompt.system == path.read_text(encoding="utf-8")
    assert format_input_as_json(case.input) in prompt.user
    assert builder.build_prompt("kruskal", case.input) == prompt.joined()
    assert prompt.system in prompt.joined() and prompt.user in prompt.joined()


@pytest.mark.parametrize("name", sorted(SPECS))
def test_the_formatted_input_is_the_input(name: str) -> None:
    for case in plan_cases([name], seed=DEFAULT_SEED, cases=20)[name]:
        block = format_input_as_json(case.input)
        assert block.startswith("```json\n") and block.endswith("\n```")
        assert json.loads(block[len("```json\n") : -len("\n```")]) == case.input


def test_sections_ignore_headings_inside_code_fences() -> None:
    text = "# T\n\n## When to Use\nA\n```md\n## Not a section\n```\n## Edge Cases\nB\n"
    sections = ScaffoldParser().parse(text)
    assert sections["title"] == "T"
    assert set(sections) == {"title", "when_to_use", "edge_cases"}
    assert "## Not a section" in sections["when_to_use"]


def test_a_heading_inside_an_html_comment_is_no_section(tmp_path: Path) -> None:
    good = (packaged_scaffolds_dir() / "string" / "kmp.md").read_text(encoding="utf-8")
    hidden = good.replace("## Edge Cases", "<!--\n## Edge Cases", 1) + "\n-->\n"
    assert "edge_cases" not in ScaffoldParser().parse(hidden)
    draft = tmp_path / "kmp.md"
    draft.write_text(hidden, encoding="utf-8")
    builder = PromptBuilder(tmp_path, overrides={"kmp": draft})
    with pytest.raises(ScaffoldFileError, match="missing or empty sections: ## Edge Cases"):
        builder.get_scaffold_content("kmp")


def test_an_empty_section_is_named(tmp_path: Path) -> None:
    good = (packaged_scaffolds_dir() / "string" / "kmp.md").read_text(encoding="utf-8")
    start = good.index("## Edge Cases")
    draft = tmp_path / "kmp.md"
    draft.write_text(good[:start] + "## Edge Cases\n\n<!-- to do -->\n", encoding="utf-8")
    sections = ScaffoldParser().parse(draft.read_text(encoding="utf-8"))
    assert sections["edge_cases"] == "<!-- to do -->"  # a comment is not content a model reads
    with pytest.raises(ScaffoldFileError, match="Edge Cases"):
        PromptBuilder(tmp_path, overrides={"kmp": draft}).get_scaffold_content("kmp")


def test_tagged_blocks_are_found_by_tag() -> None:
    text = '```json worked-example-input\n{"a": 1}\n```\n```json\n{"b": 2}\n```\n'
    assert ScaffoldParser.tagged_blocks(text, "worked-example-input") == ['{"a": 1}']


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "not found"),
        (b"\xff\xfe broken", "not UTF-8"),
        (b"# T\n\n## When to Use\nx\n", "missing or empty sections"),
        (b"x" * (300 * 1024), "larger than"),
    ],
)
def test_a_broken_scaffold_file_is_a_clear_error(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "draft.md"
    if content is not None:
        path.write_bytes(content)
    builder = PromptBuilder(tmp_path, overrides={"kmp": path})
    with pytest.raises(ScaffoldFileError, match=message):
        builder.build("kmp", {"text": "AB", "pattern": "A"})


def test_repair_prompt_keeps_the_question_and_says_why() -> None:
    builder = PromptBuilder(packaged_scaffolds_dir())
    prompt = builder.build("kmp", {"text": "ABAB", "pattern": "AB"})
    repaired = PromptBuilder.repair(prompt, "no JSON object found in the reply")
    assert repaired.system == prompt.system
    assert prompt.user in repaired.user and "no JSON object found" in repaired.user


def test_scaffolds_are_parsed_for_their_blocks_only() -> None:
    # Issue 27 item 16: a run parses each scaffold once, and the inline pass (emphasis,
    # links, code spans: nothing a section or a tagged block needs) was two thirds of it.
    # The sections and blocks are the same as CommonMark's full parse gives.
    from markdown_it import MarkdownIt

    from verification.llm import prompt_builder

    full = MarkdownIt("commonmark")
    for name in ("dijkstra", "kmp", "sudoku"):
        text = PromptBuilder(packaged_scaffolds_dir()).get_scaffold_content(name)
        tokens = prompt_builder._commonmark().parse(text)
        assert all(not token.children for token in tokens if token.type == "inline")

        def shape(parsed: list[object]) -> list[tuple[object, ...]]:
            return [
                (t.type, t.tag, t.map, t.content, t.info)  # type: ignore[attr-defined]
                for t in parsed
            ]

        assert shape(tokens) == shape(full.parse(text))


def test_check_names_sections_out_of_order_by_their_headings(tmp_path: Path) -> None:
    # A helper adding a scaffold read "sections out of order: ['when_to_use', ...]": keys of
    # ours, not the headings it wrote, and not the order to write them in.
    spec = default_catalog()["kmp"]
    head, rest = PromptBuilder().get_scaffold_content(spec).split("## Scaffold Instructions", 1)
    steps, rest = rest.split("## Worked Example", 1)
    example, tail = rest.split("## Output Format", 1)
    path = tmp_path / "kmp.md"
    path.write_text(
        f"{head}## Worked Example{example}## Scaffold Instructions{steps}## Output Format{tail}",
        encoding="utf-8",
    )
    failed = checked(dataclasses.replace(spec, markdown=path), cases_per_tier=1)["scaffold file"]
    assert not failed.ok
    assert "## When to Use, ## Worked Example, ## Scaffold Instructions" in failed.detail
    assert "the order is ## When to Use, ## Scaffold Instructions, ## Worked Example" in (
        failed.detail
    )
