"""The ``--baseline none`` prompt: the task part of every scaffold, no sentence pointing at the
method it leaves out, every convention its validator grades; ``check`` fails a scaffold that
breaks either and warns about one that marks no task part, which a plugin may not send bare."""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from pathlib import Path

import pytest

from verification.catalog import default_catalog
from verification.catalog.drawing import draw_case
from verification.cli import main
from verification.config import packaged_scaffolds_dir
from verification.errors import ScaffoldFileError
from verification.llm.bare_prompt import (
    BarePromptBuilder,
    bare_problems,
    bare_scaffold,
    dangling_references,
    marks_task,
    missing_conventions,
)
from verification.llm.prompt_builder import Prompt, PromptBuilder, ScaffoldParser

NAMES = list(default_catalog())
BUILDER = PromptBuilder(packaged_scaffolds_dir())


@cache
def _bare_prompt(name: str) -> Prompt:
    """The bare prompt of scaffold ``name``'s first standard case (seed 1), built once for
    the two tests that read it."""
    case = draw_case(default_catalog()[name], "standard", 0, seed=1)
    return BarePromptBuilder(packaged_scaffolds_dir()).build(name, case.input)


@pytest.mark.parametrize("name", NAMES)
def test_no_bare_prompt_points_at_text_it_leaves_out(name: str) -> None:
    bare = _bare_prompt(name)
    assert dangling_references(bare.system) == []
    assert "scaffold" not in bare.user


@pytest.mark.parametrize("name", NAMES)
def test_no_sentence_of_a_bare_prompt_refers_to_a_scaffold(name: str) -> None:
    """No scaffold is sent bare, so no sentence of either message may name one ("Use this
    scaffold to ..."): the scaffold's address is said as the task."""
    bare = _bare_prompt(name)
    for message in (bare.system, bare.user):
        assert re.findall(r"[^.:\n]*\bscaffold\b[^.:\n]*", message, re.IGNORECASE) == []
    # The task's own words are kept: the When to Use section's first sentence, re-addressed.
    opening = ScaffoldParser().parse(BUILDER.get_scaffold_content(name))["when_to_use"]
    said = re.sub(r"^Use this scaffold (to|for)\b", "", opening.split("\n")[0]).strip()
    assert said and said in bare.system


@pytest.mark.parametrize("name", NAMES)
def test_a_bare_prompt_states_every_convention_its_validator_grades(name: str) -> None:
    spec = default_catalog()[name]
    markdown = BUILDER.get_scaffold_content(name)
    # Every scaffold of the catalog marks its task part and names what its validator grades.
    assert marks_task(markdown) and spec.graded_conventions
    # Each phrase is the task part's own: the method's sections are not what states it.
    assert missing_conventions(spec, bare_scaffold(markdown)) == []
    assert "## Scaffold Instructions" not in bare_scaffold(markdown)


def _spec_with(markdown: str, tmp_path: Path, name: str) -> tuple[object, str]:
    """A copy of scaffold ``name`` shipped with ``markdown`` beside it, as a plugin's is."""
    path = tmp_path / f"{name}.md"
    path.write_text(markdown, encoding="utf-8")
    return dataclasses.replace(default_catalog()[name], markdown=path), markdown


@pytest.mark.parametrize("name", NAMES)
def test_check_fails_a_bare_prompt_that_refers_to_missing_steps_or_drops_a_convention(
    name: str,
) -> None:
    spec = default_catalog()[name]
    markdown = BUILDER.get_scaffold_content(name)
    assert bare_problems(spec, markdown).startswith("task part marked")
    sections = ScaffoldParser().parse(markdown)
    pointing = markdown.replace(
        sections["when_to_use"], sections["when_to_use"] + "\n\nCount as in step 2.", 1
    )
    with pytest.raises(ScaffoldFileError, match="step 2"):
        bare_problems(spec, pointing)
    # A convention whose phrase the scaffold also states outside ## Conventions (When to
    # Use, the Output Format) stays in the bare prompt when that section goes: no loss. One
    # stated nowhere else is lost, and check names it.
    dropped = markdown.replace(sections["conventions"], "Nothing more.", 1)
    for lost in missing_conventions(spec, bare_scaffold(dropped)):
        with pytest.raises(ScaffoldFileError, match=f"lacks the graded convention {lost!r}"):
            bare_problems(spec, dropped)
    unsaid = dataclasses.replace(
        spec, graded_conventions={**spec.graded_conventions, "unsaid": "a phrase no one wrote"}
    )
    with pytest.raises(ScaffoldFileError, match="lacks the graded convention 'unsaid'"):
        bare_problems(unsaid, markdown)


def test_a_plugin_scaffold_that_marks_no_task_part_is_warned_about_and_not_sent_bare(
    tmp_path: Path,
) -> None:
    name = next(n for n in NAMES if default_catalog()[n].graded_conventions)
    markdown = BUILDER.get_scaffold_content(name)
    heading = "## Conventions"
    start = markdown.index(heading)
    unmarked = markdown[:start] + markdown[markdown.index("\n## ", start + 1) + 1 :]
    assert not marks_task(unmarked)
    spec = dataclasses.replace(default_catalog()[name], graded_conventions={})
    said = bare_problems(spec, unmarked)
    # What --baseline none does with it, below: refuses it (hunt ff read "would send").
    assert "no ## Conventions" in said and "--baseline none refuses" in said
    path = tmp_path / f"{name}.md"
    path.write_text(unmarked, encoding="utf-8")
    plugin = dataclasses.replace(spec, markdown=path)
    with pytest.raises(ScaffoldFileError, match="--baseline none needs the scaffold's task"):
        BarePromptBuilder(tmp_path).get_scaffold_content(plugin)
    PromptBuilder(tmp_path).get_scaffold_content(plugin)  # the scaffold itself is sent


def test_show_prompt_baseline_none_prints_the_bare_prompt(
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = next(n for n in NAMES if default_catalog()[n].graded_conventions)
    assert main(["show-prompt", name, "--baseline", "none"]) == 0
    shown = capsys.readouterr().out
    bare = bare_scaffold(BUILDER.get_scaffold_content(name))
    assert bare.rstrip() in shown and "## Conventions" in shown
    assert "## Scaffold Instructions" not in shown and "follow the scaffold" not in shown
    assert main(["show-prompt", name]) == 0
    assert "## Scaffold Instructions" in capsys.readouterr().out


def test_the_dangling_reference_finder() -> None:
    found = dangling_references(
        "Report the root. The steps below give one. Count as in Step 3. See the Worked "
        "Example. The conventions below say how. Use this scaffold to add."
    )
    assert found == [
        "The steps below give one.",
        "Count as in Step 3.",
        "See the Worked Example.",
        "Use this scaffold to add.",
    ]
