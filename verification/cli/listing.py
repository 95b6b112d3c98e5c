"""The rows ``list`` prints, read from an index of the package's scaffolds when it is fresh,
so a cold ``list`` imports no scaffold module (and with them pydantic, the references and the
validators) and no ``importlib.metadata``.

The index is a cache, as bytecode is: ``catalog/__pycache__/listing.json``, keyed by the
interpreter and the size and modification time of every ``.py`` file of the package (a
scaffold's row can come from any module it imports). A stale or missing index is rebuilt from
the catalog and written again where the folder is writable (never under
``PYTHONDONTWRITEBYTECODE``, as Python writes no bytecode then). The index holds the package's
scaffolds only: when an installed distribution declares a scaffold plugin, or the catalog is
already loaded in this process, the rows come from the loaded catalog.
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from verification.errors import ConfigurationError

if TYPE_CHECKING:
    from verification.catalog import Catalog

__all__ = [
    "Listing",
    "ListingRow",
    "catalog_listing",
    "indexed_listing",
    "listing_of",
    "package_key",
    "plugins_declared",
]

# The catalog's ENTRY_POINT_GROUP, spelled here so the check needs no catalog (a test holds
# the two equal).
_PLUGIN_GROUP = b"verification.scaffolds"

ListingRow = tuple[str, str, str, str, str]
"""A scaffold as ``list`` shows it: name, category, validator, size range, description."""

_PACKAGE = Path(__file__).resolve().parent.parent
_INDEX = _PACKAGE / "catalog" / "__pycache__" / "listing.json"
_FORMAT = 1


class Listing:
    """The rows of the scaffolds in catalog order, and the skipped plugins' lines."""

    def __init__(self, rows: Iterable[ListingRow], skipped: Iterable[str] = ()) -> None:
        self.rows = list(rows)
        self.skipped = list(skipped)

    def of_category(self, category: str) -> list[ListingRow]:
        """The rows of ``category``; an unknown category lists the known ones."""
        chosen = [row for row in self.rows if row[1] == category]
        if not chosen:
            known = ", ".join(sorted({row[1] for row in self.rows}))
            raise ConfigurationError(f"unknown category {category!r}; known: {known}")
        return chosen


def listing_of(catalog: Catalog) -> Listing:
    """The rows of every scaffold of ``catalog``."""
    rows = []
    for spec in catalog.values():
        rows.append(
            (
                spec.name,
                spec.category,
                spec.validator.kind,
                spec.size.options_text(),
                spec.description or spec.title,
            )
        )
    skipped = [
        f"skipped plugin {s.name} ({s.distribution}): {s.reason}" for s in catalog.skipped.values()
    ]
    return Listing(rows, skipped)


def catalog_listing() -> Listing:
    """The listing of this process's catalog: from the index when no plugin can add to it
    and the catalog is not loaded yet, else from the catalog."""
    if "verification.catalog" in sys.modules or plugins_declared():
        from verification.catalog import default_catalog

        return listing_of(default_catalog())
    return indexed_listing()


def indexed_listing(index: Path = _INDEX, package: Path = _PACKAGE) -> Listing:
    """The package's scaffolds from ``index`` when it was built from ``package`` as it is
    now, else from the catalog (and ``index`` written again)."""
    key = package_key(package)
    try:
        document = json.loads(index.read_text(encoding="utf-8"))
        rows = document["rows"]
        # Read back from disk, so checked: five strings a row, or the index is rebuilt.
        if document["key"] == key and all(
            isinstance(row, list) and len(row) == 5 and all(isinstance(c, str) for c in row)
            for row in rows
        ):
            return Listing(tuple(row) for row in rows)
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no index, or an unreadable one: rebuilt below
    from verification.catalog import load_catalog

    listing = listing_of(load_catalog(plugins=()))
    if not sys.dont_write_bytecode:
        _write_index(index, key, listing)
    return listing


def _write_index(index: Path, key: str, listing: Listing) -> None:
    """Write the index beside the bytecode, atomically; a read-only install keeps none."""
    partial = index.with_name(f"{index.name}.{os.getpid()}.tmp")
    try:
        index.parent.mkdir(exist_ok=True)
        partial.write_text(json.dumps({"key": key, "rows": listing.rows}), encoding="utf-8")
        os.replace(partial, index)
    except OSError:
        partial.unlink(missing_ok=True)


def package_key(package: Path = _PACKAGE) -> str:
    """What an index is built from: the format, the interpreter, and the size and
    modification time of every module of ``package``."""
    stamps = [f"{_FORMAT} {sys.version} {package}"]
    for folder, folders, files in os.walk(package):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                stat = os.stat(os.path.join(folder, name))
                stamps.append(f"{folder}/{name} {stat.st_size} {stat.st_mtime_ns}")
    text = "\n".join(stamps)
    return f"{len(stamps)}-{zlib.crc32(text.encode('utf-8', 'surrogatepass')):08x}"


def plugins_declared() -> bool:
    """Whether any installed distribution may declare a scaffold plugin: a metadata
    ``entry_points.txt`` on ``sys.path`` that names the group. Reading those few small files
    is far cheaper than ``importlib.metadata``; a false alarm only costs the full load."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # a zip file, a missing folder
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(entry or ".", name, "entry_points.txt"), "rb") as file:
                    if _PLUGIN_GROUP in file.read():
                        return True
            except OSError:
                continue
    return False
