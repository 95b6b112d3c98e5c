"""The developer guide's "Architecture" section is the tree of ``verification/`` with one line
per module and package, and the layers as the import contract states them: a module added,
moved or removed without its line fails here, so the map a newcomer reads stays the house.

The tree is a fenced block that starts with ``verification/``; each level is indented four
spaces, a package ends in ``/``, and a name in angle brackets (``<category>/``) stands for
every entry of its kind the block does not name at that place (the catalog's category folders
and their scaffold modules: the catalog page lists those).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "DEVELOPER_GUIDE.md"
PACKAGE = ROOT / "verification"


@dataclass
class Entry:
    """One line of the tree: what it says, and the lines under it."""

    line: str
    children: dict[str, Entry] = field(default_factory=dict)


def _section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"the guide has no section {title!r}"
    return match.group(1)


def parse_tree(section: str) -> Entry:
    """The tree block of ``section`` as nested entries."""
    blocks = re.findall(r"^```[^\n]*\n(verification/\n.*?)^```", section, re.M | re.S)
    assert len(blocks) == 1, "one fenced block starting with 'verification/'"
    root = Entry("verification/")
    stack = [root]
    for number, line in enumerate(blocks[0].splitlines()[1:], start=2):
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        name, _, what = line.strip().partition(" ")
        assert indent % 4 == 0 and 1 <= indent // 4 <= len(stack), f"line {number}: {line!r}"
        assert what.strip(), f"line {number}: {name} says nothing about itself"
        del stack[indent // 4 :]
        parent = stack[-1]
        assert parent.line.split()[0].endswith("/"), f"line {number}: {name} under a module"
        assert name not in parent.children, f"line {number}: {name} named twice"
        parent.children[name] = Entry(line.strip())
        stack.append(parent.children[name])
    return root


def _entries(folder: Path, top: bool) -> set[str]:
    """The modules (``x.py``) and packages (``x/``) directly in ``folder``; a package's own
    ``__init__.py`` is its folder's line, except at the top, where it is the public surface."""
    found = {path.name for path in folder.glob("*.py") if top or path.name != "__init__.py"}
    found |= {f"{p.name}/" for p in folder.iterdir() if (p / "__init__.py").is_file()}
    return found


def compare(entry: Entry, folder: Path, where: str, top: bool = False) -> list[str]:
    """What the tree and the folder disagree on, as sentences naming the path."""
    problems = []
    actual = _entries(folder, top)
    named = {name for name in entry.children if not name.startswith("<")}
    stand_ins = {name: child for name, child in entry.children.items() if name.startswith("<")}
    for name in sorted(named - actual):
        if not (folder / name.rstrip("/")).exists():  # a data folder or file may be named
            problems.append(f"the guide names {where}{name}, which does not exist")
    for name in sorted(actual - named):
        kind = "/" if name.endswith("/") else ".py"
        if not any(stand_in.endswith(kind) for stand_in in stand_ins):
            problems.append(f"{where}{name} exists and the guide does not name it")
    for stand_in, child in stand_ins.items():
        kind = "/" if stand_in.endswith("/") else ".py"
        matched = sorted(name for name in actual - named if name.endswith(kind))
        if not matched:
            problems.append(f"the guide's {where}{stand_in} stands for nothing")
        if kind == "/":
            for name in matched:
                problems += compare(child, folder / name.rstrip("/"), f"{where}{name}")
    for name in sorted(named & actual):
        if name.endswith("/"):
            problems += compare(entry.children[name], folder / name.rstrip("/"), f"{where}{name}")
    return problems


def _architecture() -> str:
    return _section(GUIDE.read_text(encoding="utf-8"), "Architecture")


def test_the_architecture_section_names_every_module_and_nothing_else() -> None:
    tree = parse_tree(_architecture())
    problems = compare(tree, PACKAGE, "verification/", top=True)
    assert not problems, "docs/DEVELOPER_GUIDE.md, Architecture:\n" + "\n".join(problems)


def test_the_architecture_section_states_the_layers_of_the_contract() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers"]
    contract = [sorted(part.strip() for part in re.split(r"[|:]", layer)) for layer in layers]
    line = re.search(r"^Layers, top to bottom: (.*?)\.$", _architecture(), re.M | re.S)
    assert line, "the section states the layers in one sentence 'Layers, top to bottom: ...'"
    stated = [sorted(re.findall(r"`([\w_]+)`", part)) for part in line.group(1).split("─►")]
    assert stated == contract


def _tree_of(text: str) -> Entry:
    return parse_tree(f"```\n{text}```\n")


def test_the_comparison_finds_a_missing_an_absent_and_an_unmatched_entry(
    tmp_path: Path,
) -> None:
    for path in ("a/__init__.py", "a/one.py", "a/two.py", "c/__init__.py", "c/x/__init__.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("", encoding="utf-8")
    tree = _tree_of(
        "verification/\n"
        "    a/          a\n"
        "        one.py  one\n"
        "        six.py  six\n"
        "    c/          c\n"
        "        <k>/    any\n"
        "            <m>.py  any\n"
    )
    assert compare(tree, tmp_path, "v/") == [
        "the guide names v/a/six.py, which does not exist",
        "v/a/two.py exists and the guide does not name it",
        "the guide's v/c/x/<m>.py stands for nothing",
    ]


def test_a_line_that_says_nothing_is_refused() -> None:
    with pytest.raises(AssertionError, match="says nothing"):
        _tree_of("verification/\n    a.py\n")
