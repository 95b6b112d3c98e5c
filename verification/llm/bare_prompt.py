"""The no-scaffold baseline's system prompt: the task and its Output Format, nothing else.

``verify NAME --baseline none`` asks the same cases with no scaffold, to measure what the
scaffold adds over the bare model. The bare model still has to know what is asked and how to
answer so that its reply can be parsed and judged: it is shown the scaffold's title, its
``## When to Use`` section (the task: what the input holds, what must be reported) and its
``## Output Format`` section, verbatim. The method (``## Scaffold Instructions``), the
``## Worked Example`` and the ``## Edge Cases`` are left out, and so is any other section.
The user prompt is the same template as every run's.
"""

from __future__ import annotations

from verification.llm.prompt_builder import PromptBuilder, Scaffold, ScaffoldParser

__all__ = ["BARE_SECTIONS", "BarePromptBuilder", "bare_scaffold"]

BARE_SECTIONS = (("when_to_use", "When to Use"), ("output_format", "Output Format"))
"""The sections a bare prompt keeps (key, heading), in this order."""


def bare_scaffold(markdown: str) -> str:
    """The title, task and Output Format of a (checked) scaffold's Markdown.

    Examples
    --------
    >>> text = "# T\\n\\n## When to Use\\n\\nTask.\\n\\n## Scaffold Instructions\\n\\n1. Do.\\n"
    >>> print(bare_scaffold(text + "\\n## Output Format\\n\\nJSON.\\n"))
    # T
    <BLANKLINE>
    ## When to Use
    <BLANKLINE>
    Task.
    <BLANKLINE>
    ## Output Format
    <BLANKLINE>
    JSON.
    <BLANKLINE>
    """
    sections = ScaffoldParser().parse(markdown)
    parts = [f"# {sections['title']}"] if sections.get("title") else []
    parts += [f"## {heading}\n\n{sections[key]}" for key, heading in BARE_SECTIONS]
    return "\n\n".join(parts) + "\n"


class BarePromptBuilder(PromptBuilder):
    """A :class:`PromptBuilder` whose system prompt is :func:`bare_scaffold` of the scaffold
    it would otherwise send (the file is read and checked as usual)."""

    def get_scaffold_content(self, scaffold: Scaffold) -> str:
        return bare_scaffold(super().get_scaffold_content(scaffold))
