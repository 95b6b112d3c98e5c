"""Every relative link in README.md and docs/*.md reaches a file, and every ``#anchor`` a
heading of the page it names: a link written from the wrong folder, or to a heading since
renamed, fails here instead of on GitHub.

Anchors are GitHub's: the heading in lower case, with everything but letters, digits, spaces,
hyphens and underscores dropped and each space made a hyphen; a heading repeated on a page
takes ``-1``, ``-2`` and so on. Links and headings inside fenced code blocks are not links.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
_LINK = re.compile(r"\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")


def _prose(text: str) -> list[str]:
    """The lines of ``text`` outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """The anchor GitHub gives ``heading``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of ``page``'s headings, repeats numbered as GitHub numbers them."""
    seen: dict[str, int] = {}
    found = set()
    for line in _prose(page.read_text(encoding="utf-8")):
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[tuple[int, str]]:
    """``(line number, target)`` of each relative link on ``page``."""
    found = []
    text = page.read_text(encoding="utf-8")
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for target in _LINK.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto:
            found.append((number, target))
    return found


def _broken(page: Path) -> list[str]:
    problems = []
    for number, target in links(page):
        path_part, _, anchor = target.partition("#")
        where = (page.parent / path_part).resolve() if path_part else page
        if not where.exists():
            problems.append(f"{page.name}:{number}: {target} (no such file)")
            continue
        if anchor and where.suffix == ".md" and anchor not in anchors(where):
            problems.append(f"{page.name}:{number}: {target} (no such heading)")
    return problems


def test_the_slug_is_githubs() -> None:
    assert slug("Cost, estimates and budgets") == "cost-estimates-and-budgets"
    assert slug("Choosing cases: `-k` and `--rerun-failed`") == (
        "choosing-cases--k-and---rerun-failed"
    )
    assert slug("Code mode's size ladders") == "code-modes-size-ladders"


def test_a_link_from_the_wrong_folder_is_caught(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "A.md").write_text(
        "# A\n\nSee [B](docs/B.md), [B](B.md#b), [C](B.md#c) and [A](#a).\n", encoding="utf-8"
    )
    (docs / "B.md").write_text("# B\n", encoding="utf-8")
    assert _broken(docs / "A.md") == [
        "A.md:3: docs/B.md (no such file)",
        "A.md:3: B.md#c (no such heading)",
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    problems = _broken(page)
    assert not problems, "broken links:\n" + "\n".join(problems)
