"""Prompts: the scaffold verbatim as the system prompt, a versioned user template with the
case's input.

The system prompt is the same for every case of a scaffold, so a provider can cache it. A
scaffold file is checked when first read: it must be UTF-8 Markdown with the five sections of
:data:`REQUIRED_SECTIONS`, else :class:`~verification.errors.ScaffoldFileError` says what is
wrong. Scaffolds are read by a CommonMark parser (markdown-it-py), as a model's renderer
would: a heading inside a code block or an HTML comment is no heading.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markdown_it import MarkdownIt

from verification.catalog import Catalog, default_catalog
from verification.catalog.spec import ScaffoldSpec
from verification.errors import ScaffoldFileError

__all__ = [
    "REQUIRED_SECTIONS",
    "USER_TEMPLATE_VERSION",
    "Prompt",
    "PromptBuilder",
    "ScaffoldParser",
]

USER_TEMPLATE_VERSION = "v1"
"""Recorded in every manifest; bump it (and add a template) when the user prompt changes."""

REQUIRED_SECTIONS = (
    "when_to_use",
    "scaffold_instructions",
    "worked_example",
    "output_format",
    "edge_cases",
)
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


class ScaffoldParser:
    """Splits a scaffold's Markdown into its ``##`` sections."""

    @staticmethod
    def section_key(heading: str) -> str:
        """``"When to Use"`` -> ``"when_to_use"``."""
        return re.sub(r"[^a-z0-9]+", "_", heading.lower()).strip("_")

    def parse(self, markdown: str) -> dict[str, str]:
        """Section key -> the section's text, from each level-2 heading to the next
        (``title`` holds the first level-1 heading, if any)."""
        tokens = _commonmark().parse(markdown)
        lines = markdown.splitlines(keepends=True)
        sections: dict[str, str] = {}
        headings: list[tuple[str, int, int]] = []  # (text, first line, line after it)
        for index, token in enumerate(tokens):
            if token.type != "heading_open" or token.map is None:
                continue
            text = tokens[index + 1].content.strip()
            if token.tag == "h1" and "title" not in sections:
                sections["title"] = text
            elif token.tag == "h2":
                headings.append((text, token.map[0], token.map[1]))
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
            wanted = ", ".join("## " + key.replace("_", " ").title() for key in missing)
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
        user = (
            _templates()
            .get_template(f"{self.user_template}_{USER_TEMPLATE_VERSION}.md.j2")
            .render(title=spec.title, formatted_input=spec.format_input(test_input))
        )
        return Prompt(system=self.get_scaffold_content(spec), user=user)

    def build_prompt(self, scaffold_name: Scaffold, test_input: Mapping[str, Any]) -> str:
        """Both parts joined, as one text."""
        return self.build(scaffold_name, test_input).joined()

    @staticmethod
    def repair(prompt: Prompt, reason: str) -> Prompt:
        """The prompt again, with why the last reply could not be read."""
        user = (
            _templates()
            .get_template(f"repair_{USER_TEMPLATE_VERSION}.md.j2")
            .render(user=prompt.user, reason=reason[:500])
        )
        return Prompt(system=prompt.system, user=user)
