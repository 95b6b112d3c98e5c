"""The no-scaffold baseline's system prompt: the task, its conventions and its Output Format.

``verify NAME --baseline none`` asks the same cases with no scaffold, to measure what the
scaffold adds over the bare model. The bare model must be asked the same question: what the
input holds, what must be reported, every convention the right answer depends on (how
iterations are counted, how ties are broken, how given random draws are used, rounding) and
how to write the answer. A scaffold's Markdown marks that *task* part apart from the
*method* (the steps that teach the algorithm): the title, ``## When to Use``, ``##
Conventions`` and ``## Output Format`` are the task, sent verbatim in that order; ``##
Scaffold Instructions``, ``## Worked Example``, ``## Edge Cases`` and any other section are
the method, left out. A scaffold with no ``## Conventions`` section marks no task part:
``check`` warns about it, and ``--baseline none`` refuses a plugin's such scaffold (the
bare arm would be asked a vaguer question than the scaffold arm).

No sentence of the bare prompt may point at the method it leaves out ("the steps below",
"step 2", "the Worked Example") or at a scaffold, for none is sent: a scaffold's ``When to
Use`` opens "Use this scaffold to find ...", which the bare prompt says as "Your task is to
find ..." (:data:`TASK_ADDRESS`). :func:`dangling_references` finds the sentences that
still point at a scaffold or at left out text, and
``check`` fails a scaffold whose bare prompt holds one, or lacks one of its spec's
:attr:`~verification.catalog.spec.ScaffoldSpec.graded_conventions`. The user prompt is the
bare template (``user_bare``), which asks to solve the instance as the instructions say.
"""

from __future__ import annotations

import functools
import re

from verification.catalog.spec import ScaffoldSpec
from verification.errors import ScaffoldFileError
from verification.llm.prompt_builder import (
    SECTION_HEADINGS,
    PromptBuilder,
    Scaffold,
    ScaffoldParser,
)

__all__ = [
    "BARE_SECTIONS",
    "TASK_ADDRESS",
    "BarePromptBuilder",
    "bare_problems",
    "bare_scaffold",
    "dangling_references",
    "marks_task",
    "missing_conventions",
]

BARE_SECTIONS = tuple(
    (key, SECTION_HEADINGS[key]) for key in ("when_to_use", "conventions", "output_format")
)
"""The sections a bare prompt keeps (key, heading), in this order (``Conventions`` when the
scaffold has it)."""

TASK_ADDRESS = (
    (re.compile(r"\bUse this scaffold to\b"), "Your task is to"),
    (re.compile(r"\bUse this scaffold for\b"), "This task asks for"),
)
"""How the task part's address to a reader of the scaffold reads in the bare prompt, which
sends no scaffold (pattern, replacement)."""

_DANGLING = re.compile(
    r"\bsteps?\s+(?:below|above|that follow)\b"
    r"|\bstep\s+\d"
    r"|\bsteps\s+\d"
    r"|\bthe\s+(?:method|procedure|algorithm)\s+(?:below|above)\b"
    r"|\bscaffold"
    r"|Scaffold Instructions|Worked Example|Edge Cases"
    r"|\b(?:the|this)\s+(?:worked\s+)?example\s+(?:below|above)\b",
    re.IGNORECASE,
)
"""What points at the method a bare prompt leaves out (its steps, its sections by name) or
at a scaffold, which it does not send."""

_SENTENCE = re.compile(r"(?<=[.!?:])\s+|\n\s*\n")


def marks_task(markdown: str) -> bool:
    """Whether the scaffold marks its task part: it has a ``## Conventions`` section."""
    return "conventions" in ScaffoldParser().parse(markdown)


def bare_scaffold(markdown: str) -> str:
    """The title, task, conventions and Output Format of a (checked) scaffold's Markdown,
    its address to a reader of the scaffold said as a task (:data:`TASK_ADDRESS`).

    Examples
    --------
    >>> text = "# T\\n\\n## When to Use\\n\\nUse this scaffold to add.\\n\\n"
    >>> text += "## Scaffold Instructions\\n\\n1. Do.\\n\\n## Output Format\\n\\nJSON.\\n"
    >>> print(bare_scaffold(text))
    # T
    <BLANKLINE>
    ## When to Use
    <BLANKLINE>
    Your task is to add.
    <BLANKLINE>
    ## Output Format
    <BLANKLINE>
    JSON.
    <BLANKLINE>
    """
    sections = ScaffoldParser().parse(markdown)
    parts = [f"# {sections['title']}"] if sections.get("title") else []
    parts += [
        f"## {heading}\n\n{sections[key]}" for key, heading in BARE_SECTIONS if key in sections
    ]
    text = "\n\n".join(parts) + "\n"
    for pattern, said in TASK_ADDRESS:
        text = pattern.sub(said, text)
    return text


def dangling_references(text: str) -> list[str]:
    """The sentences of ``text`` that point at steps or sections it does not hold, or at a
    scaffold.

    Examples
    --------
    >>> dangling_references("Count as in step 2. Report the root.")
    ['Count as in step 2.']
    """
    return [
        " ".join(sentence.split())
        for sentence in _SENTENCE.split(text)
        if _DANGLING.search(sentence)
    ]


def missing_conventions(spec: ScaffoldSpec, text: str) -> list[str]:
    """The graded conventions of ``spec`` whose phrase ``text`` does not hold (case,
    spacing, code and emphasis marks aside)."""
    said = _plain(text)
    return [name for name, phrase in spec.graded_conventions.items() if _plain(phrase) not in said]


def _plain(text: str) -> str:
    """``text`` as a convention's phrase is looked for in it: one space for any spacing,
    no code or emphasis marks, case folded."""
    return " ".join(text.replace("`", "").replace("*", "").split()).casefold()


def bare_problems(spec: ScaffoldSpec, markdown: str) -> str:
    """``check``'s verdict on a scaffold's bare prompt: what it holds (a warning to give when
    the scaffold marks no task part, :func:`marks_task`), or
    :class:`~verification.errors.ScaffoldFileError` naming the sentences that point at left
    out text and the graded conventions it lacks."""
    text = bare_scaffold(markdown)
    problems = [f"refers to text it leaves out: {s!r}" for s in dangling_references(text)]
    problems += [
        f"lacks the graded convention {name!r} ({spec.graded_conventions[name]!r})"
        for name in missing_conventions(spec, text)
    ]
    if problems:
        raise ScaffoldFileError("the --baseline none prompt " + "; ".join(problems)[:1200])
    if not marks_task(markdown):
        # Said as it is: --baseline none refuses a plugin's such scaffold (hunt ff read
        # "would send ... only", and stated its conventions in When to Use to no avail).
        return (
            "marks no task part (no ## Conventions section), so --baseline none refuses a "
            "plugin's such scaffold: add ## Conventions after ## When to Use, stating every "
            "convention the right answer depends on (iteration counting, ties, random draws, "
            "rounding)"
        )
    conventions = len(spec.graded_conventions)
    return f"task part marked; states its {conventions} graded convention(s)"


class BarePromptBuilder(PromptBuilder):
    """A :class:`PromptBuilder` whose system prompt is :func:`bare_scaffold` of the scaffold
    it would otherwise send (the file is read and checked as usual), and whose user prompt
    asks to solve the instance as the instructions say (no scaffold to follow).

    A plugin's scaffold that marks no task part is refused: its bare arm would not be asked
    the question its scaffold arm is."""

    user_template = "user_bare"

    @functools.cached_property
    def _bare(self) -> dict[str, str]:
        """Each scaffold's bare text, by name."""
        return {}

    def get_scaffold_content(self, scaffold: Scaffold) -> str:
        markdown = super().get_scaffold_content(scaffold)
        spec = self.spec(scaffold)
        # Made once per scaffold, as its file is read and checked once: making it parses
        # the Markdown twice, and every case's prompt asks for it.
        if spec.name not in self._bare:
            if spec.markdown is not None and not marks_task(markdown):
                raise ScaffoldFileError(
                    f"{self.scaffold_path(spec)}: --baseline none needs the scaffold's task "
                    "part marked: it has no ## Conventions section, so the bare prompt would "
                    "drop the conventions its answer depends on (add one stating them)"
                )
            self._bare[spec.name] = bare_scaffold(markdown)
        return self._bare[spec.name]
