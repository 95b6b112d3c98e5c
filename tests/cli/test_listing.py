"""`list` reads its rows from an index of the package's scaffolds (issue 27 item 16), so a
cold start loads no scaffold: the index gives the catalog's own rows, is rebuilt when any
module changes or the file is damaged, and is skipped when a plugin may add scaffolds."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from verification.catalog import ENTRY_POINT_GROUP, load_catalog
from verification.cli import listing
from verification.cli.listing import indexed_listing, listing_of, package_key, plugins_declared


@pytest.fixture
def writing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Index files are written (as bytecode is) even under PYTHONDONTWRITEBYTECODE."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def test_the_index_gives_the_catalogs_rows(tmp_path: Path, writing: None) -> None:
    index = tmp_path / "listing.json"
    expected = listing_of(load_catalog(plugins=())).rows
    assert indexed_listing(index).rows == expected  # built from the catalog, and written
    document = json.loads(index.read_text(encoding="utf-8"))
    assert document["key"] == package_key() and [tuple(r) for r in document["rows"]] == expected


def test_a_fresh_index_is_read_not_rebuilt(tmp_path: Path) -> None:
    index = tmp_path / "listing.json"
    row = ["only", "here", "exact_match", "items 1-2", "a row no catalog has"]
    index.write_text(json.dumps({"key": package_key(), "rows": [row]}), encoding="utf-8")
    assert indexed_listing(index).rows == [tuple(row)]


@pytest.mark.parametrize(
    "document",
    [
        {"key": "stale", "rows": [["a", "b", "c", "d", "e"]]},
        {"key": None, "rows": [["a", "b", "c", "d"]]},  # a row too short (key set below)
        {"key": None, "rows": [["a", "b", "c", "d", 5]]},
        {"key": None, "rows": "not rows"},
        {"key": None},
        "{not json",
    ],
)
def test_a_stale_or_damaged_index_is_rebuilt(
    tmp_path: Path, writing: None, document: dict[str, object] | str
) -> None:
    index = tmp_path / "listing.json"
    if isinstance(document, dict):
        document = json.dumps({**document, "key": document["key"] or package_key()})
    index.write_text(document, encoding="utf-8")
    expected = listing_of(load_catalog(plugins=())).rows
    assert indexed_listing(index).rows == expected
    assert [tuple(r) for r in json.loads(index.read_text(encoding="utf-8"))["rows"]] == expected


def test_no_index_is_written_where_no_bytecode_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    index = tmp_path / "listing.json"
    assert indexed_listing(index).rows == listing_of(load_catalog(plugins=())).rows
    assert not index.exists()


def test_the_key_changes_with_any_module_of_the_package(tmp_path: Path) -> None:
    package = tmp_path / "package"
    (package / "catalog").mkdir(parents=True)
    module = package / "catalog" / "kmp.py"
    module.write_text("SIZE = 10\n")
    (package / "notes.txt").write_text("not a module")
    before = package_key(package)
    (package / "notes.txt").write_text("still not a module, longer")
    assert package_key(package) == before
    module.write_text("SIZE = 12\n")  # same length: the time tells
    os.utime(module, ns=(1, 1))
    changed = package_key(package)
    assert changed != before
    (package / "catalog" / "lcs.py").write_text("")
    assert package_key(package) != changed


def test_a_declared_plugin_sends_list_to_the_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    metadata = tmp_path / "some_plugin-1.0.dist-info"
    metadata.mkdir()
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(tmp_path / "missing")])
    assert not plugins_declared()
    (metadata / "entry_points.txt").write_text("[console_scripts]\nx = y:z\n")
    assert not plugins_declared()
    (metadata / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nlcs = p:SPEC\n")
    assert plugins_declared()


def test_the_plugin_group_is_the_catalogs() -> None:
    assert ENTRY_POINT_GROUP.encode() == listing._PLUGIN_GROUP
