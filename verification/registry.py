"""Views of the catalog: which scaffolds exist, their validators, their generators.

Everything here is derived from the ``ScaffoldSpec`` declarations that
:func:`verification.catalog.default_catalog` loads, on first use; nothing is a table kept by
hand. Importing this module loads no scaffold, model SDK, numpy or networkx. The API
reference's tables (``SCAFFOLD_REGISTRY``, ``VALIDATOR_REGISTRY``, ``SPECS``) are computed
when first read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from verification.cases import DEFAULT_SEED, TIERS, TestCase, Tier
from verification.catalog import Catalog, default_catalog
from verification.catalog.drawing import draw_case
from verification.catalog.spec import ScaffoldSpec
from verification.errors import ConfigurationError
from verification.generators.base import TestCaseGenerator
from verification.validators.base import Validator

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

TIER_WEIGHTS: dict[Tier, int] = {"simple": 3, "standard": 5, "edge": 2}

SPECS: dict[str, ScaffoldSpec]
"""Every scaffold's spec, by name."""
SCAFFOLD_REGISTRY: dict[str, list[str]]
"""Category -> scaffold names, in catalog order."""
VALIDATOR_REGISTRY: dict[str, str]
"""Scaffold -> the kind of validator that judges it."""


def __getattr__(name: str) -> Any:
    # PEP 562: the tables are views of the catalog, built when first read.
    catalog = default_catalog()
    if name == "SPECS":
        return dict(catalog)
    if name == "SCAFFOLD_REGISTRY":
        return catalog.categories()
    if name == "VALIDATOR_REGISTRY":
        return {spec_name: spec.validator.kind for spec_name, spec in catalog.items()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_spec(name: str, catalog: Catalog | None = None) -> ScaffoldSpec:
    """The spec of ``name``; an unknown name is an error that lists close matches."""
    return (catalog or default_catalog()).get_spec(name)


def get_validator_for_scaffold(name: str) -> Validator:
    """The validator instance that judges ``name``."""
    return get_spec(name).validator


def get_scaffolds_by_category(category: str) -> list[str]:
    """The scaffolds of ``category``; an unknown category lists the known ones."""
    return default_catalog().by_category(category)


def resolve_scaffold_names(
    names: Sequence[str] = (),
    *,
    category: str | None = None,
    everything: bool = False,
    catalog: Catalog | None = None,
) -> list[str]:
    """The scaffolds a command names, checked, without duplicates, in the order given."""
    catalog = catalog or default_catalog()
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


def plan_tier_counts(cases: int, tiers: Sequence[Tier] = TIERS) -> dict[Tier, int]:
    """Split ``cases`` over ``tiers`` by fixed weights (largest remainder first)."""
    if cases < 1:
        raise ConfigurationError(f"the number of cases must be at least 1, got {cases}")
    weights = {tier: TIER_WEIGHTS[tier] for tier in tiers}
    total = sum(weights.values())
    counts = {tier: cases * w // total for tier, w in weights.items()}
    by_remainder = sorted(tiers, key=lambda t: (-(cases * weights[t] % total), TIERS.index(t)))
    for tier in by_remainder[: cases - sum(counts.values())]:
        counts[tier] += 1
    return counts


class UniversalGenerator(TestCaseGenerator):
    """Generates any scaffold's tiers from its spec: generator for inputs, reference for
    ground truth."""

    def __init__(
        self,
        scaffold_name: str,
        *,
        seed: int = DEFAULT_SEED,
        cases: int = 30,
        catalog: Catalog | None = None,
    ) -> None:
        self.spec = get_spec(scaffold_name, catalog)
        self.scaffold = scaffold_name
        self.seed = seed
        self.counts = plan_tier_counts(cases)

    def generate_tier(self, tier: Tier, count: int | None = None) -> list[TestCase]:
        """Cases ``0 .. count-1`` of ``tier``."""
        n = self.counts[tier] if count is None else count
        return [draw_case(self.spec, tier, k, seed=self.seed) for k in range(n)]

    def generate_simple(self) -> list[TestCase]:
        return self.generate_tier("simple")

    def generate_standard(self) -> list[TestCase]:
        return self.generate_tier("standard")

    def generate_edge_cases(self) -> list[TestCase]:
        return self.generate_tier("edge")


def get_all_generators() -> dict[str, TestCaseGenerator]:
    """A default-seeded generator for every scaffold, by name."""
    return {name: UniversalGenerator(name) for name in default_catalog()}
