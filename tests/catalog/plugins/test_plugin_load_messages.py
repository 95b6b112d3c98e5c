"""What a plugin that cannot be loaded is told, in process (hunt ff): a spec with no Markdown
beside its module is told that, not that its Markdown has no heading; a duck-typed validator
is told to subclass ``verification.Validator`` with a ``kind``; an entry point naming a dict
is told what it may name."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

from verification.catalog import default_catalog
from verification.catalog.plugins import load_entry
from verification.config import packaged_scaffolds_dir
from verification.validators.base import ValidationResult

BASE = default_catalog()["merge_sort"]


class _DuckValidator:
    """``validate`` as the contract words it, but no ``Validator``."""

    def validate(self, actual: Any, expected: Any, *, case: Any) -> ValidationResult:
        return ValidationResult(actual == expected, "")


@pytest.fixture
def module_dir(tmp_path: Path) -> Iterator[Path]:
    """A folder on ``sys.path`` for a plugin's module, which the entry point names."""
    sys.path.insert(0, str(tmp_path))
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("lost_plugin", None)


def _entry(module_dir: Path, **specs: Any) -> EntryPoint:
    """An entry point naming ``lost_plugin:SPEC``, whose module holds ``specs`` by name."""
    (module_dir / "lost_plugin.py").write_text("SPEC = None\n", encoding="utf-8")
    import lost_plugin  # type: ignore[import-not-found]

    for name, value in specs.items():
        setattr(lost_plugin, name, value)
    return EntryPoint("lost", "lost_plugin:SPEC", "verification.scaffolds")


def test_a_spec_with_no_markdown_beside_its_module_is_told_so(module_dir: Path) -> None:
    spec = dataclasses.replace(
        BASE, name="lost_scaffold", title="", markdown=None, defined_in=module_dir / "x.py"
    )
    with pytest.raises(ValueError, match="has no markdown file") as raised:
        load_entry(_entry(module_dir, SPEC=spec), "lost-dist")
    assert "no lost_scaffold.md beside" in str(raised.value) and "heading" not in str(raised.value)


def test_a_duck_typed_validator_is_told_what_to_subclass(module_dir: Path) -> None:
    markdown = packaged_scaffolds_dir() / BASE.scaffold_file
    spec = dataclasses.replace(
        BASE, name="duck_scaffold", markdown=markdown, validator=_DuckValidator()
    )
    with pytest.raises(ValueError, match=r"its validator \(_DuckValidator\) must be an instance"):
        load_entry(_entry(module_dir, SPEC=spec), "duck-dist")


def test_an_entry_point_naming_a_dict_is_told_what_it_may_name(module_dir: Path) -> None:
    with pytest.raises(ValueError, match="not a ScaffoldSpec or an iterable of them"):
        load_entry(_entry(module_dir, SPEC={"name": "x"}), "dict-dist")
