"""Views of the catalog: which scaffolds exist, their specs, the cases a plan draws.

Everything here is derived from the ``ScaffoldSpec`` declarations that
:func:`verification.catalog.default_catalog` loads, on first use; nothing is a table kept by
hand. Importing this module loads no scaffold, model SDK, numpy or networkx. ``SPECS`` and
the API reference's tables (``SCAFFOLD_REGISTRY``, ``VALIDATOR_REGISTRY``) are computed when
first read. The API reference's older names (those tables, ``UniversalGenerator``,
``get_all_generators``, ``get_validator_for_scaffold``, ``get_scaffolds_by_category``) live
in :mod:`verification.catalog.compat` and are re-exported here, where the reference
documents them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from verification.cases import DEFAULT_SEED, printable
from verification.catalog import Catalog, compat, default_catalog
from verification.catalog.compat import (
    UniversalGenerator,
    get_all_generators,
    get_scaffolds_by_category,
    get_validator_for_scaffold,
)
from verification.catalog.drawing import plan_tier_counts
from verification.catalog.spec import ScaffoldSpec
from verification.errors import ConfigurationError

__all__ = [
    "DEFAULT_SEED",
    "SCAFFOLD_REGISTRY",
    "SPECS",
    "VALIDATOR_REGISTRY",
    "UniversalGenerator",
    "get_all_generators",
    "get_scaffolds_by_category",
    "get_spec",
    "get_validator_for_scaffold",
    "plan_tier_counts",
    "resolve_scaffold_names",
]

SPECS: dict[str, ScaffoldSpec]
"""Every scaffold's spec, by name."""
SCAFFOLD_REGISTRY: dict[str, list[str]]
"""Category -> scaffold names, in catalog order."""
VALIDATOR_REGISTRY: dict[str, str]
"""Scaffold -> the kind of validator that judges it."""


def __getattr__(name: str) -> Any:
    # PEP 562: the tables are views of the catalog, built when first read.
    if name == "SPECS":
        return dict(default_catalog())
    if name in compat.LEGACY_TABLES:
        return getattr(compat, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_spec(name: str, catalog: Catalog | None = None) -> ScaffoldSpec:
    """The spec of ``name``; an unknown name is an error that lists close matches."""
    return (catalog or default_catalog()).get_spec(name)


def resolve_scaffold_names(
    names: Sequence[str] = (),
    *,
    category: str | None = None,
    everything: bool = False,
    catalog: Catalog | None = None,
) -> list[str]:
    """The scaffolds a command names, checked, without duplicates, in the order given:
    names and a category together are both; ``--all`` stands alone (beside it, a category
    or a name would be one the user meant to narrow to, which a union drops silently)."""
    catalog = catalog or default_catalog()
    if everything and (category is not None or names):
        beside = printable(
            f"--category {category}" if category is not None else ", ".join(names), 80
        )
        raise ConfigurationError(
            f"--all takes every scaffold, so {beside} beside it would change nothing: give "
            "--all alone, or drop it to run only what you named"
        )
    chosen: list[str] = []
    if everything:
        chosen.extend(catalog)
    if category is not None:
        chosen.extend(catalog.by_category(category))
    for name in names:
        catalog.get_spec(name)
        chosen.append(name)
    if not chosen:
        raise ConfigurationError("name at least one scaffold, or use --category or --all")
    return list(dict.fromkeys(chosen))
