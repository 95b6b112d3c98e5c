"""The packaged scaffolds' Markdown, read as the prompt builder reads it, by section."""

from __future__ import annotations

import re
from functools import cache

from verification.config import packaged_scaffolds_dir
from verification.llm.prompt_builder import PromptBuilder, ScaffoldParser

__all__ = ["bullet", "sections"]


@cache
def sections(name: str) -> dict[str, str]:
    """The sections of scaffold ``name`` (``output_format``, ``edge_cases``, ...)."""
    text = PromptBuilder(packaged_scaffolds_dir()).get_scaffold_content(name)
    return ScaffoldParser().parse(text)


def bullet(text: str, starts: str) -> str:
    """The list item of ``text`` whose first words are ``starts`` (bold marks ignored), its
    continuation lines joined with single spaces."""
    items = re.split(r"\n(?=- )", "\n" + text)
    for item in items:
        flat = " ".join(item.split())
        if flat.removeprefix("- ").replace("**", "").startswith(starts):
            return flat
    raise AssertionError(f"no item starting {starts!r}")
