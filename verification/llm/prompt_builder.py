"""Prompts: the scaffold verbatim as the system prompt, a versioned user template with the
case's input.

The system prompt is the same for every case of a scaffold, so a provider can cache it. A
scaffold file is checked when first read: it must be UTF-8 Markdown with the five sections of
:data:`REQUIRED_SECTIONS`, else :class:`~verification.errors.ScaffoldFileError` says what is
wrong. Scaffolds are read by a CommonMark parser (markdown-it-py), as a model's renderer
would: a heading inside a code block or an HTML comment is no heading. A line scan finds the
same headings in the plain shape scaffolds are written in, and leaves any other file to it.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes
from markdown_it import MarkdownIt

from verification.catalog import Catalog, default_catalog
from verification.catalog.spec import ScaffoldSpec
from verification.errors import ScaffoldFileError

__all__ = [
    "REASON_CHARS",
    "REQUIRED_SECTIONS",
    "SECTION_HEADINGS",
    "USER_TEMPLATE_VERSION",
    "Prompt",
    "PromptBuilder",
    "ScaffoldParser",
    "section_heading",
]

REASON_CHARS = 500
"""The most of a repair's reason its prompt states."""
USER_TEMPLATE_VERSION = "v1"
"""Recorded in every manifest; bump it (and add a template) when the user prompt changes."""

SECTION_HEADINGS = {
    "when_to_use": "When to Use",
    "conventions": "Conventions",
    "scaffold_instructions": "Scaffold Instructions",
    "worked_example": "Worked Example",
    "output_format": "Output Format",
    "edge_cases": "Edge Cases",
}
"""Each section a scaffold may have, by the key :class:`ScaffoldParser` reads its heading
as, and its heading as scaffolds write it (headings are matched whatever their case)."""
REQUIRED_SECTIONS = (
    "when_to_use",
    "scaffold_instructions",
    "worked_example",
    "output_format",
    "edge_cases",
)


def section_heading(key: str) -> str:
    """A section's heading as a scaffold writes it, from its key (``## When to Use``)."""
    return "## " + SECTION_HEADINGS.get(key, key.replace("_", " ").title())


MAX_SCAFFOLD_BYTES = 256 * 1024


_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)


@cache
def _commonmark() -> MarkdownIt:
    # Block structure only: sections need the headings' lines and text, examples the
    # fences; the inline pass (emphasis, links, ...) was two thirds of parsing a scaffold.
    return MarkdownIt("commonmark").disable(["inline", "text_join"])


@cache
def _templates() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("verification.llm", "templates"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=False,
        autoescape=False,  # Markdown for a model, not HTML
        auto_reload=False,  # package files: no stat of the template for every prompt
    )


_Pieces = tuple[tuple[str, ...], frozenset[str]]
"""A template's text with each variable's name in its place (odd positions), and the names."""


@cache
def _plain_template(name: str) -> _Pieces | None:
    """The pieces of template ``name`` when it only writes text and variables (``{{ x }}``,
    no filter, test or tag), else None. Such a template writes each variable as ``str`` of
    its value (no autoescape, no finalize) between its text, as the compiled template does."""
    environment = _templates()
    loader = environment.loader
    assert loader is not None
    try:
        body = environment.parse(loader.get_source(environment, name)[0]).body
    except jinja2.TemplateError:
        return None  # rendering it says what is wrong
    if len(body) != 1 or type(body[0]) is not nodes.Output:
        return None
    pieces = [""]
    for node in body[0].nodes:
        if type(node) is nodes.TemplateData:
            pieces[-1] += node.data
        elif type(node) is nodes.Name and node.ctx == "load":
            pieces += [node.name, ""]
        else:
            return None
    return tuple(pieces), frozenset(pieces[1::2])


def _render(name: str, **values: str) -> str:
    """Template ``name`` rendered with ``values``: joined from its pieces when it is plain
    (one prompt per case: jinja's render was a third of building it), else by jinja."""
    plain = _plain_template(name)
    if plain is None or not plain[1] <= values.keys():
        return _templates().get_template(name).render(**values)
    return "".join(
        str(values[piece]) if index % 2 else piece for index, piece in enumerate(plain[0])
    )


@dataclass(frozen=True)
class Prompt:
    """A case's prompt in two parts."""

    system: str
    """The scaffold file, verbatim."""
    user: str
    """The versioned user template with the case's input."""

    def joined(self) -> str:
        """Both parts as one text, for display."""
        return f"{self.system.rstrip()}\n\n---\n\n{self.user}"


_Headings = tuple[str | None, list[tuple[str, int, int]]]
"""The first level-1 heading's text, and each level-2 heading as (text, its line, the line
after it)."""


def _parsed_headings(markdown: str) -> _Headings:
    """The headings as CommonMark reads them (markdown-it-py: the parser of record)."""
    tokens = _commonmark().parse(markdown)
    title: str | None = None
    headings: list[tuple[str, int, int]] = []
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None:
            continue
        text = tokens[index + 1].content.strip()
        if token.tag == "h1" and title is None:
            title = text
        elif token.tag == "h2":
            headings.append((text, token.map[0], token.map[1]))
    return title, headings


# The scan below reads the one shape of Markdown scaffolds are written in, and answers None
# (then markdown-it reads the file) at anything whose reading needs CommonMark's containers:
# a run checks every scaffold once, and the full block parse was a fifth of a dry run's CPU.
_ODD_CHARACTERS = re.compile("[\t\r\v\f\x00\x1c-\x1e\x85\u2028\u2029]")
"""Tabs (columns), and what either parser splits lines at and the other does not."""
_ATX = re.compile(r"(#{1,6})(?: ([^#\\]*))?")
"""An ATX heading the scan reads: no closing ``#`` run, no escape (else None)."""
_HEADING_START = re.compile(r"#{1,6}(?: |$)")
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)")
_FENCE_CLOSE = re.compile(r" {0,3}(`{3,}|~{3,}) *")
_PREFIX = re.compile(r"(?: |>|[-+*]|[0-9]{1,9}[.)])*")
"""Indentation, block quote and list markers: a line's possible container prefix."""
_LIST_MARKER = re.compile(r"[-+*]|[0-9]{1,9}[.)]")
_UNDERLINE = re.compile(r"[ >]*(?:=+|-+) *")
"""A line a setext heading could end with, in a container or not."""
_CLOSER_FIRST = frozenset(" `~")
"""How a line that may close a fence starts."""
_MARKUP_FIRST = frozenset("#`~<> *+-=0123456789")
"""How a line starts that any rule of the scan reads (another is a paragraph's text)."""


def _scan_headings(markdown: str) -> _Headings | None:
    """The headings as :func:`_parsed_headings` gives them, read line by line, or None
    where the text holds anything the scan does not model.

    What it models: at column 0, a fence (its text up to a closing fence of the same kind)
    and an HTML comment block (up to the line holding ``-->``) hide headings, and ``#`` to
    ``##`` followed by a space start one; such a line ends any list or block quote before
    it, so those need no modelling while no heading, fence or HTML block is indented or
    inside one. Refused: tabs and odd line breaks, other HTML blocks, indented fences and
    headings, headings in containers, a line that could underline a setext heading, deep
    nesting (markdown-it stops reading past 20 levels), and headings it does not read
    exactly (a closing ``#`` run, an escape).
    """
    if _ODD_CHARACTERS.search(markdown):
        return None
    title: str | None = None
    headings: list[tuple[str, int, int]] = []
    fence = ""  # the open fence's marker run
    in_comment = False
    previous_blank = True
    for number, line in enumerate(markdown.split("\n")):
        if fence:
            closing = line[:1] in _CLOSER_FIRST and _FENCE_CLOSE.fullmatch(line)
            if closing and closing[1][0] == fence[0] and len(closing[1]) >= len(fence):
                fence = ""
        elif in_comment:
            in_comment = "-->" not in line
        elif line[:1] not in _MARKUP_FIRST:  # text (or a blank line): no rule below applies
            previous_blank = not line
            continue
        elif line.startswith("#"):
            atx = _ATX.fullmatch(line)
            if atx is None:
                return None
            text = (atx[2] or "").strip()
            if len(atx[1]) == 1 and title is None:
                title = text
            elif len(atx[1]) == 2:
                headings.append((text, number, number + 1))
        elif line.startswith(("`", "~")) and (opening := _FENCE.fullmatch(line)):
            if opening[1][0] == "`" and "`" in opening[2]:
                return None  # backticks in the info string: no fence, a code span
            fence = opening[1]
        elif line.startswith("<!--"):
            in_comment = "-->" not in line
        else:
            prefix = _PREFIX.match(line).end()  # type: ignore[union-attr]
            rest = line[prefix:]
            # A list is two levels and needs two columns, a quote one level and a column.
            depth = prefix + len(_LIST_MARKER.findall(line, 0, prefix))
            if (
                depth >= 16
                or (prefix and _HEADING_START.match(rest))
                or (prefix <= 3 and rest.startswith(("<", "```", "~~~")))
                or (not previous_blank and _UNDERLINE.fullmatch(line))
            ):
                return None
        previous_blank = not line.strip(" ")
    return title, headings


@lru_cache(maxsize=64)
def _headings(markdown: str) -> tuple[str | None, tuple[tuple[str, int, int], ...]]:
    """The headings of ``markdown`` (the scan's, else markdown-it's), found once per text:
    every run reads and checks each scaffold it asks, whose text seldom changes."""
    found = _scan_headings(markdown)
    title, headings = found if found is not None else _parsed_headings(markdown)
    return title, tuple(headings)


class ScaffoldParser:
    """Splits a scaffold's Markdown into its ``##`` sections."""

    @staticmethod
    def section_key(heading: str) -> str:
        """``"When to Use"`` -> ``"when_to_use"``."""
        return re.sub(r"[^a-z0-9]+", "_", heading.lower()).strip("_")

    def parse(self, markdown: str) -> dict[str, str]:
        """Section key -> the section's text, from each level-2 heading to the next
        (``title`` holds the first level-1 heading, if any)."""
        title, headings = _headings(markdown)
        lines = markdown.splitlines(keepends=True)
        sections: dict[str, str] = {} if title is None else {"title": title}
        for index, (text, _, body_start) in enumerate(headings):
            end = headings[index + 1][1] if index + 1 < len(headings) else len(lines)
            sections[self.section_key(text)] = "".join(lines[body_start:end]).strip()
        return sections

    @staticmethod
    def tagged_blocks(markdown: str, tag: str) -> list[str]:
        """The bodies of fenced blocks whose info string holds ``tag`` (e.g.
        ``json worked-example-input``)."""
        return [
            token.content.removesuffix("\n")
            for token in _commonmark().parse(markdown)
            if token.type == "fence" and tag in token.info.split()
        ]

    def check(self, markdown: str, *, source: str) -> dict[str, str]:
        """Parse and insist on the required sections, each with some text (an HTML comment
        alone is a placeholder, not text)."""
        sections = self.parse(markdown)
        missing = [
            key
            for key in REQUIRED_SECTIONS
            if not _HTML_COMMENT.sub("", sections.get(key, "")).strip()
        ]
        if missing:
            wanted = ", ".join(map(section_heading, missing))
            raise ScaffoldFileError(f"{source}: missing or empty sections: {wanted}")
        return sections


Scaffold = ScaffoldSpec | str
"""A scaffold as its spec, or as a name the builder's catalog resolves."""


def _read_capped(path: Path) -> bytes:
    """A regular file's bytes, at most :data:`MAX_SCAFFOLD_BYTES` of them. Opened without
    blocking and checked on the open descriptor, so a FIFO cannot hang the read, a device
    such as ``/dev/zero`` is never read, and a file swapped in after a check is no way in."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ScaffoldFileError(f"{path}: not a regular file (a device, FIFO or folder)")
        data = file.read(MAX_SCAFFOLD_BYTES + 1)
    if len(data) > MAX_SCAFFOLD_BYTES:
        raise ScaffoldFileError(f"{path}: larger than {MAX_SCAFFOLD_BYTES // 1024} KiB")
    return data


class PromptBuilder:
    """Builds prompts from scaffold files and test inputs.

    Methods take the scaffold's spec, or its name (looked up in ``catalog``, by default the
    process's catalog).
    """

    user_template = "user"
    """The user prompt's template (``<user_template>_<version>.md.j2``)."""

    def __init__(
        self,
        scaffolds_dir: str | Path = "scaffolds",
        *,
        overrides: Mapping[str, Path] | None = None,
        catalog: Catalog | None = None,
    ) -> None:
        self.scaffolds_dir = Path(scaffolds_dir)
        self.overrides = dict(overrides or {})
        self.catalog = catalog
        self._content: dict[str, str] = {}
        self.parser = ScaffoldParser()

    def spec(self, scaffold: Scaffold) -> ScaffoldSpec:
        """The spec of ``scaffold``."""
        if isinstance(scaffold, ScaffoldSpec):
            return scaffold
        return (self.catalog or default_catalog()).get_spec(scaffold)

    def scaffold_path(self, scaffold: Scaffold) -> Path:
        """The file this builder reads for ``scaffold``: an override, else the file a plugin
        ships, else ``<scaffolds_dir>/<category>/<name>.md``."""
        spec = self.spec(scaffold)
        if spec.name in self.overrides:
            return self.overrides[spec.name]
        if spec.markdown is not None:
            return spec.markdown
        return self.scaffolds_dir / spec.scaffold_file

    def get_scaffold_content(self, scaffold: Scaffold) -> str:
        """The scaffold's Markdown, verbatim, checked once."""
        scaffold_name = self.spec(scaffold).name
        if scaffold_name not in self._content:
            path = self.scaffold_path(scaffold)
            try:
                text = _read_capped(path).decode("utf-8")
            except FileNotFoundError:
                if scaffold_name in self.overrides:  # a file the user named: it is missing
                    raise ScaffoldFileError(
                        f"scaffold file not found: {path} (the file --scaffold-file names "
                        "does not exist; check its path)"
                    ) from None
                raise ScaffoldFileError(
                    f"scaffold file not found: {path} (set --scaffolds-dir or "
                    "VERIFY_SCAFFOLDS_DIR to the folder that holds <category>/<name>.md)"
                ) from None
            except UnicodeDecodeError as exc:
                raise ScaffoldFileError(f"{path}: not UTF-8 text ({exc.reason})") from None
            except OSError as exc:
                raise ScaffoldFileError(f"{path}: cannot be read ({exc.strerror})") from None
            self.parser.check(text, source=str(path))
            self._content[scaffold_name] = text
        return self._content[scaffold_name]

    def scaffold_sha256(self, scaffold: Scaffold) -> str:
        """The hash the manifest records for the scaffold's text."""
        return hashlib.sha256(self.get_scaffold_content(scaffold).encode()).hexdigest()

    def format_input(self, scaffold: Scaffold, test_input: Mapping[str, Any]) -> str:
        """The input as the spec writes it into prompts."""
        return self.spec(scaffold).format_input(test_input)

    def build(self, scaffold: Scaffold, test_input: Mapping[str, Any]) -> Prompt:
        """The system and user parts of the prompt for one input."""
        spec = self.spec(scaffold)
        user = _render(
            f"{self.user_template}_{USER_TEMPLATE_VERSION}.md.j2",
            title=spec.title,
            formatted_input=spec.format_input(test_input),
        )
        return Prompt(system=self.get_scaffold_content(spec), user=user)

    def build_prompt(self, scaffold_name: Scaffold, test_input: Mapping[str, Any]) -> str:
        """Both parts joined, as one text."""
        return self.build(scaffold_name, test_input).joined()

    @staticmethod
    def repair(prompt: Prompt, reason: str) -> Prompt:
        """The prompt again, with why the last reply could not be read."""
        user = _render(
            f"repair_{USER_TEMPLATE_VERSION}.md.j2",
            user=prompt.user,
            reason=reason[:REASON_CHARS],
        )
        return Prompt(system=prompt.system, user=user)

    @staticmethod
    def repair_program(prompt: Prompt, reason: str) -> Prompt:
        """A code-mode prompt again, with why the last reply held no program that could be
        read, asking for a ```python block (hunt al: code mode's repairs asked for the
        ```json block of trace mode's, against the Code Format above them)."""
        user = _render("repair_code_v1.md.j2", user=prompt.user, reason=reason[:REASON_CHARS])
        return Prompt(system=prompt.system, user=user)

    @staticmethod
    def longest_attempts(
        prompt: Prompt, attempts: int, repair: Callable[[Prompt, str], Prompt] | None = None
    ) -> list[Prompt]:
        """The prompts of ``attempts`` attempts at ``prompt`` at their longest: each
        ``repair`` (:meth:`repair` unless given) repairs the prompt before it (so each is
        longer), its reason as long as a reason is stated. What a cost's bound prices (hunt
        ak: every repair was priced as the first prompt, and a budget was passed)."""
        repair = repair or PromptBuilder.repair
        prompts = [prompt][:attempts]
        while len(prompts) < attempts:
            prompts.append(repair(prompts[-1], "x" * REASON_CHARS))
        return prompts
